"""The engine input built from the database: the v2 fields (SPEC 6.1, 6.2), nothing else new."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from apps.profiles.engine_input import build_profile_input
from apps.profiles.models import TaskProfile
from apps.profiles.services import profile_update
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.snapshots.services import build_review_input
from tests.factories import make_offer, make_profile, make_review, make_site

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(team):
    home = make_site(team, "bj-a", datacenter="bj", storage_tb=50)
    twin = make_site(team, "bj-b", datacenter="bj")
    offer = make_offer(team, home, boot_hours=0.5)
    profile = make_profile(team, home, workload="adapter_tuning", parallelism=["data", "sharded"])
    return {"home": home, "twin": twin, "offer": offer, "profile": profile}


class EngineInputTests:
    def test_it_sends_the_v2_fields_of_task_sites_and_offers(self, team, world):
        team.currency = "CNY"
        team.save()
        profile = world["profile"]
        profile.compliance_restricted = profile.results_restricted = True
        profile_update(profile=profile, allowed_sites=[world["twin"], world["home"]])
        data = build_profile_input(TaskProfile.objects.get(pk=profile.pk))
        task = data["task"]
        assert data["currency"] == "CNY"  # the team's, ISO 4217
        assert task["gpus"] == 8
        assert task["allowed_sites"] == ["bj-a", "bj-b"]  # codes, sorted
        assert task["results_restricted"] is True
        assert (task["workload"], task["parallelism"]) == ("adapter_tuning", ["data", "sharded"])
        assert {s["code"]: s["storage_tb"] for s in data["sites"]} == {"bj-a": 50.0, "bj-b": None}
        [offer] = data["offers"]
        assert offer["boot_hours"] == 0.5
        assert "currency" not in offer  # one currency, at the top level
        assert "migration_effort_hours" not in offer and "machines" not in offer

    def test_an_older_profile_sends_gpus_as_null_and_no_allowed_sites(self, world):
        TaskProfile.objects.filter(pk=world["profile"].pk).update(gpus=None)
        task = build_profile_input(TaskProfile.objects.get(pk=world["profile"].pk))["task"]
        assert "gpus" in task and task["gpus"] is None  # P3, not a forgotten field
        assert "allowed_sites" not in task and task["results_restricted"] is False

    def test_a_review_passes_each_candidates_migration_effort_like_its_machines(
        self, team, owner, world
    ):
        other = make_offer(team, world["twin"])
        review = make_review(team, owner, task=world["profile"], offers=[world["offer"], other])
        candidate = review.candidates.get(offer=world["offer"])
        checklist_answer_save(
            candidate=candidate,
            question="q5",
            actor=owner,
            status="answered",
            text="Same image; the data path changes.",
            migration_effort_hours=12.5,
        )
        offers = {o["id"]: o for o in build_review_input(review)["offers"]}
        assert offers[str(world["offer"].pk)]["migration_effort_hours"] == 12.5
        assert offers[str(world["offer"].pk)]["machines"] == 1
        assert "migration_effort_hours" not in offers[str(other.pk)]

    def test_the_engine_accepts_every_field_it_is_sent(self, team, owner, world):
        """SPEC 6.2: the engine refuses unknown fields, so the builder sends only known ones."""
        profile = world["profile"]
        profile.compliance_restricted = True
        profile_update(profile=profile, allowed_sites=[world["home"]])
        review = make_review(team, owner, task=profile, offers=[world["offer"]])
        checklist_answer_save(
            candidate=review.candidates.get(),
            question="q5",
            actor=owner,
            status="answered",
            text="x",
            migration_effort_hours=3,
        )
        try:
            engine.evaluate(build_review_input(review))
        except engine.EngineInputError as exc:  # pragma: no cover - the failure message
            pytest.fail(f"the engine refused the built input: {exc.errors}")

    def test_its_query_count_does_not_grow_with_allowed_sites_offers_or_candidates(
        self, team, owner
    ):
        def count(n: int) -> int:
            sites = [make_site(team) for _ in range(n)]
            profile = make_profile(team, sites[0], compliance_restricted=True)
            profile_update(profile=profile, allowed_sites=sites)
            offers = [make_offer(team, s) for s in sites]
            review = make_review(team, owner, task=profile, offers=offers)
            for candidate in review.candidates.all():
                candidate.migration_effort_hours = 2.0
                candidate.save()
            review = type(review).objects.select_related("team", "task").get(pk=review.pk)
            with CaptureQueriesContext(connection) as ctx:
                build_review_input(review)
            return len(ctx.captured_queries)

        assert count(1) == count(6)
