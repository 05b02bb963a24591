"""Every settings action: owners allowed; members, reviewers and outsiders refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.accounts.models import Invitation, Membership, Team
from apps.reviews.models import AuditEvent
from tests.factories import make_benchmark, make_membership, make_profile, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(team, owner, member, reviewer, outsider):
    """The team with a newcomer to invite, two successful same_datacenter pilots (the next tier
    to validate) and one override."""
    make_user("newcomer")
    task = make_profile(team)
    for _ in range(2):
        make_benchmark(team, task, kind="pilot_migration", tier="same_datacenter",
                       succeeded=True, e2e_hours=0, compute_hours=0)
    Team.objects.filter(pk=team.pk).update(thresholds={"buffer_cross_hub": 0.5})
    team.refresh_from_db()
    return {
        "owner": owner,
        "member": member,
        "reviewer": reviewer,
        "outsider": outsider,
        "member_ms": Membership.objects.get(team=team, user=member),
        "reviewer_ms": Membership.objects.get(team=team, user=reviewer),
    }


def state_of(team: Team) -> tuple:
    team.refresh_from_db()
    return (
        sorted(Membership.objects.filter(team=team).values_list("user__username", "role")),
        # Adding someone is an invitation (issue 34): it shows as a pending one.
        sorted(Invitation.objects.filter(team=team, revoked_at=None).values_list(
            "invited_name", "role")),
        team.approvals_required,
        team.currency,
        sorted(team.validated_tiers),
        dict(team.thresholds),
        team.settings_generation,
    )


ACTIONS = {
    "member_add": lambda w: (
        reverse("teams:member_add"), {"username_or_email": "newcomer", "role": "member"}
    ),
    "member_role": lambda w: (
        reverse("teams:member_role", args=[w["reviewer_ms"].pk]), {"role": "member"}
    ),
    "member_remove": lambda w: (reverse("teams:member_remove", args=[w["member_ms"].pk]), {}),
    "settings_general": lambda w: (
        reverse("teams:settings_general"), {"approvals_required": "2", "currency": "EUR"}
    ),
    "tier_toggle": lambda w: (
        reverse("teams:tier_toggle"), {"tier": "same_datacenter", "action": "validate"}
    ),
    "threshold_set": lambda w: (
        reverse("teams:threshold_set"), {"key": "network_cost_share", "value": "0.3"}
    ),
    "threshold_reset": lambda w: (
        reverse("teams:threshold_reset"), {"key": "buffer_cross_hub"}
    ),
    "calibration_adopt": lambda w: (
        reverse("teams:calibration_adopt"), {"key": "network_cost_share", "value": "0.25"}
    ),
}
PK_ACTIONS = {"member_role", "member_remove"}


class SettingsPermissionTests:
    @pytest.mark.parametrize("action", sorted(ACTIONS))
    @pytest.mark.parametrize("who", ["member", "reviewer"])
    def test_it_refuses_members_and_reviewers_with_403(self, client, team, world, action, who):
        url, data = ACTIONS[action](world)
        before = state_of(team)
        client.force_login(world[who])
        response = client.post(url, data)
        assert response.status_code == 403
        assert state_of(team) == before
        assert not AuditEvent.objects.filter(team=team).exists()

    @pytest.mark.parametrize("action", sorted(ACTIONS))
    def test_it_never_lets_an_outsider_touch_the_team(
        self, client, team, other_team, world, action
    ):
        url, data = ACTIONS[action](world)
        before = state_of(team)
        client.force_login(world["outsider"])
        response = client.post(url, data)
        if action in PK_ACTIONS:
            # A membership of another team is simply not found.
            assert response.status_code == 404
        assert state_of(team) == before
        assert not AuditEvent.objects.filter(team=team).exists()

    @pytest.mark.parametrize("action", sorted(ACTIONS))
    def test_it_lets_the_owner_act_and_audits_it(self, client, team, world, action):
        url, data = ACTIONS[action](world)
        before = state_of(team)
        client.force_login(world["owner"])
        response = client.post(url, data)
        assert response.status_code == 302
        assert state_of(team) != before
        assert AuditEvent.objects.filter(team=team, review=None, actor=world["owner"]).count() == 1

    @pytest.mark.parametrize("action", sorted(ACTIONS))
    def test_it_sends_anonymous_users_to_login(self, client, team, world, action):
        url, data = ACTIONS[action](world)
        before = state_of(team)
        response = client.post(url, data)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
        assert state_of(team) == before

    @pytest.mark.parametrize("action", sorted(ACTIONS))
    def test_writes_refuse_get(self, client, team, world, action):
        url, _data = ACTIONS[action](world)
        client.force_login(world["owner"])
        assert client.get(url).status_code == 405


class SettingsReadTests:
    @pytest.mark.parametrize("who", ["member", "reviewer"])
    def test_members_and_reviewers_read_the_settings_without_forms(self, client, world, who):
        client.force_login(world[who])
        response = client.get(reverse("teams:settings"))
        html = response.content.decode()
        assert response.status_code == 200
        assert "Only owners change these settings" in html
        assert reverse("teams:member_add") not in html
        assert reverse("teams:threshold_set") not in html
        assert reverse("teams:tier_toggle") not in html
        assert "newcomer" not in html  # not a member yet
        assert world["reviewer"].email in html

    def test_the_owner_gets_every_form(self, client, world):
        client.force_login(world["owner"])
        html = client.get(reverse("teams:settings")).content.decode()
        for name in ("member_add", "settings_general", "tier_toggle", "threshold_set",
                     "threshold_reset"):
            assert reverse(f"teams:{name}") in html
        assert reverse("teams:member_role", args=[world["member_ms"].pk]) in html

    def test_an_outsider_sees_only_their_own_team(self, client, team, other_team, world):
        client.force_login(world["outsider"])
        html = client.get(reverse("teams:settings")).content.decode()
        assert other_team.name in html
        assert team.name not in html
        assert world["member"].email not in html
        assert world["reviewer"].email not in html

    def test_a_user_without_a_team_gets_404(self, client):
        client.force_login(make_user("loner"))
        assert client.get(reverse("teams:settings")).status_code == 404
        assert client.get(reverse("teams:calibration")).status_code == 404

    def test_a_member_of_two_teams_acts_on_the_current_team_only(
        self, client, team, other_team, world
    ):
        # Owner of `team`, member of `other_team`: switching team switches the settings too.
        owner = world["owner"]
        make_membership(owner, other_team, "member")
        client.force_login(owner)
        session = client.session
        session["current_team_id"] = other_team.pk
        session.save()
        response = client.post(
            reverse("teams:threshold_set"), {"key": "network_cost_share", "value": "0.3"}
        )
        assert response.status_code == 403
        team.refresh_from_db()
        assert "network_cost_share" not in team.thresholds
