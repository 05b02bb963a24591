"""load_demo run a second time over the demo world changes no count of any table.

The one second load of the suite: the tests of each demo part (tests/*/test_demo*.py) check the
first load on the demo world built once per run (tests/demo_world.py), and what each of them
checked after a second load is checked here, on every table at once.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from apps.accounts.models import Membership, Team
from apps.actuals.models import ActualCost
from apps.profiles.models import TaskProfile
from apps.reviews.models import AuditEvent
from apps.scoring.models import QuarterlyCostReview
from tests.demo_world import demo_counts

pytestmark = pytest.mark.django_db


class DemoLoadedTwiceTests:
    def test_a_second_load_adds_no_row_to_any_table(self, demo_world):
        first = demo_counts()
        # Every part loads something (the parts' own tests say what).
        for label in (
            "accounts.Team", "accounts.Membership", "auth.User", "catalog.Offer",
            "profiles.TaskProfile", "benchmarks.BenchmarkRecord", "reviews.Review",
            "reviews.SignOff", "reviews.AuditEvent", "reviews.ChecklistAnswer",
            "reviews.EvaluationSnapshot", "scoring.QuarterlyCostReview", "actuals.ActualCost",
        ):
            assert first[label] > 0, label

        call_command("load_demo", stdout=io.StringIO())

        assert demo_counts() == first
        aurora = Team.objects.get(slug="aurora")
        # tests/actuals/test_demo.py: still the two runs of actual costs.
        assert ActualCost.objects.filter(team=aurora).count() == 2
        # tests/scoring/test_demo.py: still three quarters.
        assert QuarterlyCostReview.objects.filter(team=aurora).count() == 3
        # tests/teams/test_demo_staged.py: one 14B profile.
        assert TaskProfile.objects.filter(name__startswith="14B domain model").count() == 1
        # tests/benchmarks/test_demo.py: the tiers as they were, validated once.
        assert aurora.validated_tiers == ["same_site", "same_datacenter"]
        assert AuditEvent.objects.filter(team=aurora, action="team.tier_validated").count() == 1
        assert Team.objects.get(slug="borealis").validated_tiers == ["same_site"]
        # tests/profiles/test_demo.py: the engineer hour priced once, through the service.
        assert AuditEvent.objects.filter(
            team=aurora, action="team.threshold_set", target="engineer_hour_cost"
        ).count() == 1
        # tests/accounts/test_views.py: the demo users keep their roles.
        roles = dict(Membership.objects.values_list("user__username", "role"))
        assert {k: roles[k] for k in ("alice", "bob", "carol", "dave")} == {
            "alice": "owner", "bob": "reviewer", "carol": "member", "dave": "reviewer"
        }
