from __future__ import annotations

import pytest

from apps.benchmarks.models import BenchmarkRecord
from apps.benchmarks.services import (
    BenchmarkValidationError,
    IdempotencyConflict,
    benchmark_create,
    benchmark_create_idempotent,
    benchmark_delete,
    benchmark_update,
)
from tests.benchmarks.helpers import make_world, multi_data, pilot_data, probe_data, single_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(team):
    return make_world(team)


def _errors(team, data) -> dict:
    before = BenchmarkRecord.objects.count()
    with pytest.raises(BenchmarkValidationError) as caught:
        benchmark_create(team=team, data=data)
    assert BenchmarkRecord.objects.count() == before
    return caught.value.errors


class BenchmarkCreateTests:
    def test_it_saves_a_single_run_with_its_figures(self, team, world, owner):
        record = benchmark_create(
            team=team, data=single_data(world, cost="120.5", failure_reruns="2",
                                        hours_lost_per_rerun=1.5),
            source="form", created_by=owner,
        )
        record.refresh_from_db()
        assert (record.kind, record.nodes, record.gpus, record.e2e_hours) == ("single", 1, 8, 10.0)
        assert record.cost == 120.5
        assert record.failure_reruns == 2
        assert record.created_by == owner
        assert record.source == "form"

    def test_it_refuses_e2e_below_compute(self, team, world):
        errors = _errors(team, single_data(world, e2e_hours=5, compute_hours=6))
        assert list(errors) == ["e2e_hours"]
        assert "at least the compute hours" in errors["e2e_hours"][0]

    @pytest.mark.parametrize(
        "field",
        ["e2e_hours", "compute_hours", "transfer_hours", "queue_hours", "cost",
         "hours_lost_per_rerun", "peak_gpu_mem_gb", "comm_hours", "failure_reruns"],
    )
    def test_it_refuses_a_negative_figure(self, team, world, field):
        errors = _errors(team, single_data(world, **{field: -1}))
        assert field in errors
        assert any("zero or more" in m or "at least" in m for m in errors[field])

    def test_it_refuses_zero_nodes_and_zero_gpus(self, team, world):
        errors = _errors(team, single_data(world, nodes=0, gpus_per_node=0))
        assert errors["nodes"] == ["Must be at least 1."]
        assert errors["gpus_per_node"] == ["Must be at least 1."]

    def test_a_single_run_has_one_node_and_a_multi_run_at_least_two(self, team, world):
        assert "nodes" in _errors(team, single_data(world, nodes=2))
        assert "nodes" in _errors(team, multi_data(world) | {"nodes": 1})

    @pytest.mark.parametrize("value", ["NaN", "nan", "inf", "-Infinity", float("nan"), float("inf")])
    def test_it_refuses_nan_and_infinity(self, team, world, value):
        errors = _errors(team, single_data(world, e2e_hours=value))
        assert "e2e_hours" in errors
        assert "finite" in errors["e2e_hours"][0]

    @pytest.mark.parametrize("value", ["ten", "1,5", "", None])
    def test_it_refuses_a_missing_or_non_numeric_e2e(self, team, world, value):
        errors = _errors(team, single_data(world, e2e_hours=value))
        assert "e2e_hours" in errors

    def test_it_names_every_bad_field_at_once(self, team, world):
        errors = _errors(
            team, single_data(world, offer=None, nodes="x", e2e_hours=-1, recovery="magic")
        )
        assert set(errors) == {"offer", "nodes", "e2e_hours", "recovery"}

    def test_it_refuses_an_unknown_kind(self, team, world):
        assert "kind" in _errors(team, single_data(world, kind="triple"))

    def test_it_refuses_another_teams_task_and_offer(self, team, other_team, world):
        theirs = make_world(other_team, prefix="x-")
        errors = _errors(team, single_data(world, task=theirs.task.pk, offer=theirs.offer.pk))
        assert errors["task"] == ["Unknown task: not a task profile of your team."]
        assert errors["offer"] == ["Unknown offer: not an offer of your team."]

    def test_a_digit_that_is_no_id_is_an_unknown_name(self, team, world):
        # "²" and "١" pass str.isdigit(); int() refuses the first and reads the second as 1.
        errors = _errors(team, single_data(world, task="²", offer="١"))
        assert errors["task"] == ["Unknown task: not a task profile of your team."]
        assert errors["offer"] == ["Unknown offer: not an offer of your team."]

    def test_it_refuses_comm_hours_over_e2e(self, team, world):
        assert "comm_hours" in _errors(team, single_data(world, comm_hours=11))


class ProbeAndPilotRulesTests:
    def test_a_probe_needs_two_sites_bandwidth_and_rtt(self, team, world):
        errors = _errors(team, {"task": world.task.pk, "kind": "network_probe"})
        assert set(errors) == {"from_site", "to_site", "bandwidth_gbps", "rtt_ms"}

    def test_a_probe_needs_two_different_sites(self, team, world):
        errors = _errors(team, probe_data(world, to_site=world.site_a.code))
        assert errors == {"to_site": ["A probe measures between two different sites."]}

    def test_a_probe_bandwidth_must_be_positive(self, team, world):
        assert _errors(team, probe_data(world, bandwidth_gbps=0)) == {
            "bandwidth_gbps": ["Must be more than zero."]
        }
        assert "rtt_ms" in _errors(team, probe_data(world, rtt_ms=-0.1))

    def test_a_probe_keeps_only_its_fields(self, team, world):
        record = benchmark_create(team=team, data=probe_data(world, e2e_hours="", nodes=None))
        assert (record.from_site, record.to_site) == (world.site_a, world.site_b)
        assert (record.bandwidth_gbps, record.rtt_ms) == (25.5, 1.2)
        assert record.offer is None
        assert (record.e2e_hours, record.nodes) == (0.0, 1)  # not a probe's fields

    def test_another_kinds_figure_is_refused_not_dropped(self, team, world):
        errors = _errors(team, probe_data(world, e2e_hours=99, nodes=3))
        assert set(errors) == {"e2e_hours", "nodes"}
        assert errors["nodes"] == [
            "Not a field of this kind of record (Network probe): leave it empty."
        ]
        assert set(_errors(team, pilot_data(world, bandwidth_gbps=5))) == {"bandwidth_gbps"}
        assert not BenchmarkRecord.objects.exists()

    def test_a_probe_site_can_be_given_by_id(self, team, world):
        record = benchmark_create(
            team=team, data=probe_data(world, from_site=world.site_a.pk, to_site=str(world.site_b.pk))
        )
        assert record.to_site == world.site_b

    def test_a_pilot_needs_a_tier_and_an_outcome(self, team, world):
        errors = _errors(team, {"task": world.task.pk, "kind": "pilot_migration"})
        assert set(errors) == {"tier", "succeeded"}

    def test_a_pilot_outcome_is_yes_or_no(self, team, world):
        assert _errors(team, pilot_data(world, succeeded="maybe")) == {
            "succeeded": ["Answer yes or no."]
        }
        record = benchmark_create(team=team, data=pilot_data(world, succeeded="no"))
        assert record.succeeded is False

    def test_a_pilot_tier_must_be_a_tier(self, team, world):
        assert "tier" in _errors(team, pilot_data(world, tier="moon"))

    def test_a_pilot_records_its_effort(self, team, world):
        record = benchmark_create(team=team, data=pilot_data(world, migration_effort_hours="12"))
        assert (record.tier, record.succeeded, record.migration_effort_hours) == (
            "same_city", True, 12.0,
        )
        assert "migration_effort_hours" in _errors(
            team, pilot_data(world, migration_effort_hours=-2)
        )


class IdempotencyTests:
    def test_a_reused_key_is_an_error_for_the_form_path(self, team, world):
        first = benchmark_create(team=team, data=single_data(world, idempotency_key="run-1"))
        with pytest.raises(BenchmarkValidationError) as caught:
            benchmark_create(team=team, data=single_data(world, idempotency_key="run-1"))
        assert caught.value.errors == {
            "idempotency_key": [f"This idempotency key was already used by record #{first.pk}."]
        }
        assert BenchmarkRecord.objects.count() == 1

    def test_the_idempotent_path_returns_the_first_record(self, team, world):
        first, created = benchmark_create_idempotent(
            team=team, data=single_data(world, idempotency_key=" run-1 ")
        )
        again, created_again = benchmark_create_idempotent(
            team=team, data=single_data(world, idempotency_key="run-1")
        )
        assert (created, created_again) == (True, False)
        assert again.pk == first.pk

    def test_the_same_key_with_other_values_is_a_conflict_and_changes_nothing(self, team, world):
        first, _ = benchmark_create_idempotent(
            team=team, data=single_data(world, idempotency_key="run-1")
        )
        with pytest.raises(IdempotencyConflict) as conflict:
            benchmark_create_idempotent(
                team=team, data=single_data(world, idempotency_key="run-1", e2e_hours=99)
            )
        assert conflict.value.record.pk == first.pk and conflict.value.fields == ["e2e_hours"]
        assert BenchmarkRecord.objects.get().e2e_hours == 10

    def test_keys_are_per_team(self, team, other_team, world):
        theirs = make_world(other_team, prefix="x-")
        benchmark_create(team=team, data=single_data(world, idempotency_key="k"))
        benchmark_create(team=other_team, data=single_data(theirs, idempotency_key="k"))
        assert BenchmarkRecord.objects.filter(idempotency_key="k").count() == 2

    def test_no_key_means_no_deduplication(self, team, world):
        benchmark_create(team=team, data=single_data(world))
        benchmark_create(team=team, data=single_data(world, idempotency_key=""))
        assert BenchmarkRecord.objects.filter(idempotency_key__isnull=True).count() == 2


class UpdateAndDeleteTests:
    def test_update_replaces_values_and_keeps_source_and_key(self, team, world):
        record = benchmark_create(
            team=team, data=single_data(world, idempotency_key="k"), source="api"
        )
        benchmark_update(record=record, data=multi_data(world))
        record.refresh_from_db()
        assert (record.kind, record.nodes, record.e2e_hours) == ("multi", 4, 4.0)
        assert (record.source, record.idempotency_key) == ("api", "k")

    def test_update_validates_like_create(self, team, world):
        record = benchmark_create(team=team, data=single_data(world))
        with pytest.raises(BenchmarkValidationError):
            benchmark_update(record=record, data=single_data(world, compute_hours=20))
        record.refresh_from_db()
        assert record.compute_hours == 9

    def test_delete_removes_the_record(self, team, world):
        record = benchmark_create(team=team, data=single_data(world))
        benchmark_delete(record=record)
        assert not BenchmarkRecord.objects.exists()


class ProtectedDeleteTests:
    def test_a_record_cited_as_checklist_evidence_is_not_deleted(self, team, world, owner):
        from apps.reviews.checklists.models import ChecklistAnswer
        from tests.factories import make_review

        record = benchmark_create(team=team, data=single_data(world))
        review = make_review(team, owner, task=world.task, offers=[world.offer])
        ChecklistAnswer.objects.create(
            candidate=review.candidates.get(), question="q2", status="answered",
            evidence_benchmark=record,
        )
        with pytest.raises(BenchmarkValidationError) as caught:
            benchmark_delete(record=record)
        assert "cites this record" in caught.value.errors["__all__"][0]
        assert BenchmarkRecord.objects.filter(pk=record.pk).exists()
