from __future__ import annotations

import pytest

from apps.benchmarks.models import BenchmarkRecord
from apps.benchmarks.selectors import task_comparison
from apps.profiles.models import TaskProfile

pytestmark = pytest.mark.django_db


class BenchmarkDemoTests:
    def test_every_record_has_an_idempotency_key(self, demo_world):
        # A second load adds no record: tests/teams/test_demo_world.py.
        # The benchmarks demo writes 13 records; the calibration history adds its own on top.
        assert BenchmarkRecord.objects.count() >= 13
        assert not BenchmarkRecord.objects.filter(idempotency_key__isnull=True).exists()

    def test_the_70b_multi_run_clearly_wins(self, demo_world):
        profile = TaskProfile.objects.get(team__slug="aurora", name__startswith="70B full training")
        comparison = task_comparison(profile=profile)
        assert comparison.verdict["speedup"] == pytest.approx(480 / 140, rel=1e-4)
        assert comparison.verdict["net_gain_positive"] is True
        assert not {f["rule"] for f in comparison.findings} & {"B1", "B2", "B3", "R0"}
        assert comparison.figure is not None

    def test_the_fine_tuning_multi_run_is_slower_end_to_end(self, demo_world):
        profile = TaskProfile.objects.get(team__slug="borealis", workload="adapter_tuning")
        comparison = task_comparison(profile=profile)
        assert comparison.verdict["speedup"] == pytest.approx(6 / 7.5, rel=1e-4)
        assert {"B1", "R0"} <= {f["rule"] for f in comparison.findings}

    def test_two_successful_pilots_exist_on_same_city(self, demo_world):
        pilots = BenchmarkRecord.objects.filter(
            team__slug="aurora", kind="pilot_migration", tier="same_city", succeeded=True
        )
        assert pilots.count() == 2
        assert BenchmarkRecord.objects.filter(kind="network_probe").count() == 3

    def test_the_rollout_tiers_follow_the_order_with_their_pilots_first(self, demo_world):
        from apps.accounts.models import Team
        from apps.reviews.models import AuditEvent
        from apps.teams.selectors import tier_evidence

        # The same after a second load: tests/teams/test_demo_world.py.
        aurora = Team.objects.get(slug="aurora")
        assert aurora.validated_tiers == ["same_site", "same_datacenter"]
        pilots = BenchmarkRecord.objects.filter(
            team=aurora, kind="pilot_migration", tier="same_datacenter", succeeded=True
        )
        assert pilots.count() == 2
        event = AuditEvent.objects.get(team=aurora, action="team.tier_validated")
        assert event.target == "same_datacenter"
        assert all(p.recorded_at <= event.created_at for p in pilots)
        rows = {row["tier"]: row for row in tier_evidence(team=aurora)}
        assert rows["same_city"]["can_validate"]  # its two pilots, on a validated tier below
        assert not rows["cross_hub"]["can_validate"]  # waits for same_city
        assert Team.objects.get(slug="borealis").validated_tiers == ["same_site"]
