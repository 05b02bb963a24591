"""The rules of team settings: last owner, pilots before a tier, threshold ranges, the audit."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from apps.accounts.models import Invitation, Membership, Team
from apps.reviews.models import AuditEvent
from apps.teams import services
from tests.factories import make_benchmark, make_membership, make_profile, make_team, make_user

pytestmark = pytest.mark.django_db


def ms(team, user) -> Membership:
    return Membership.objects.get(team=team, user=user)


def pilot(team, task, *, tier="same_city", succeeded=True):
    return make_benchmark(
        team, task, kind="pilot_migration", tier=tier, succeeded=succeeded,
        e2e_hours=0, compute_hours=0,
    )


class LastOwnerTests:
    def test_it_refuses_to_demote_the_last_owner(self, team, owner):
        with pytest.raises(ValidationError) as exc:
            services.team_member_set_role(
                team=team, actor=owner, membership=ms(team, owner), role="reviewer"
            )
        assert "last owner" in str(exc.value)
        assert ms(team, owner).role == "owner"
        assert not AuditEvent.objects.exists()

    def test_it_refuses_to_remove_the_last_owner(self, team, owner, member):
        with pytest.raises(ValidationError) as exc:
            services.team_member_remove(team=team, actor=owner, membership=ms(team, owner))
        assert "last owner" in str(exc.value)
        assert Membership.objects.filter(team=team, user=owner).exists()

    def test_with_a_second_owner_one_may_step_down_and_leave(self, team, owner):
        second = make_membership(make_user("second"), team, "owner").user
        services.team_member_set_role(
            team=team, actor=owner, membership=ms(team, owner), role="member"
        )
        assert ms(team, owner).role == "member"
        # Now `second` is the last owner: they cannot leave.
        with pytest.raises(ValidationError):
            services.team_member_remove(team=team, actor=second, membership=ms(team, second))
        services.team_member_remove(team=team, actor=second, membership=ms(team, owner))
        assert list(Membership.objects.filter(team=team).values_list("user__username", "role")) == [
            ("second", "owner")
        ]

    def test_the_page_shows_the_refusal_on_the_row_with_409(self, client, team, owner):
        client.force_login(owner)
        own = ms(team, owner)
        response = client.post(reverse("teams:member_role", args=[own.pk]), {"role": "member"})
        assert response.status_code == 409
        html = response.content.decode()
        assert "is the last owner" in html
        assert f'id="member-{own.pk}"' in html
        response = client.post(reverse("teams:member_remove", args=[own.pk]))
        assert response.status_code == 409
        assert "cannot be removed" in response.content.decode()
        assert ms(team, owner).role == "owner"

    def test_an_owner_demoting_themselves_lands_on_a_read_only_page(self, client, team, owner):
        make_membership(make_user("second"), team, "owner")
        client.force_login(owner)
        response = client.post(
            reverse("teams:member_role", args=[ms(team, owner).pk]), {"role": "reviewer"},
            follow=True,
        )
        assert response.status_code == 200
        assert "Only owners change these settings" in response.content.decode()


class MemberTests:
    def test_adding_by_username_or_email_invites_and_makes_no_member(self, team, owner):
        make_user("erin", email="erin@example.com")
        for who, role in (("ERIN", "member"), ("frank@example.com", "reviewer")):
            services.team_member_invite(
                team=team, actor=owner, username_or_email=who, role=role,
                base_url="http://testserver/",
            )
        assert list(Membership.objects.filter(team=team).values_list("user__username", flat=True)) == [
            "owner"
        ]
        shown = dict(Invitation.objects.filter(team=team).values_list("email", "invited_name"))
        assert shown == {"erin@example.com": "ERIN", "frank@example.com": ""}
        event = AuditEvent.objects.get(action="team.member_invited", target="frank@example.com")
        assert event.changes == {"role": [None, "reviewer"]} and event.actor == owner

    @pytest.mark.parametrize(
        ("who", "role", "field", "message"),
        [
            ("owner", "member", "username_or_email", "already a member"),
            ("", "member", "username_or_email", "Enter a username or an email"),
            ("erin", "admin", "role", "Choose member, reviewer or owner"),
            ("not@an@address", "member", "username_or_email", "Enter a valid email address"),
        ],
    )
    def test_it_refuses_bad_additions_on_the_field(self, team, owner, who, role, field, message):
        make_user("erin")
        with pytest.raises(ValidationError) as exc:
            services.team_member_invite(
                team=team, actor=owner, username_or_email=who, role=role,
                base_url="http://testserver/",
            )
        assert message in " ".join(exc.value.message_dict[field])
        assert Membership.objects.filter(team=team).count() == 1
        assert not Invitation.objects.exists()

    def test_the_form_shows_the_error_on_the_field(self, client, team, owner):
        client.force_login(owner)
        response = client.post(
            reverse("teams:member_add"), {"username_or_email": "owner", "role": "member"}
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert 'id="field-username_or_email"' in html
        assert "field--error" in html
        assert "already a member" in html

    def test_a_membership_of_another_team_is_not_found(self, team, other_team, owner, outsider):
        with pytest.raises(ValidationError):
            services.team_member_remove(
                team=team, actor=owner, membership=ms(other_team, outsider)
            )
        assert Membership.objects.filter(team=other_team, user=outsider).exists()

    def test_role_changes_and_removals_are_audited(self, team, owner, member):
        services.team_member_set_role(
            team=team, actor=owner, membership=ms(team, member), role="reviewer"
        )
        services.team_member_remove(team=team, actor=owner, membership=ms(team, member))
        events = list(AuditEvent.objects.filter(team=team).values_list("action", "target", "changes"))
        assert events == [
            ("team.member_role_changed", "member", {"role": ["member", "reviewer"]}),
            ("team.member_removed", "member", {"role": ["reviewer", None]}),
        ]


class GeneralSettingsTests:
    def test_it_saves_and_audits_only_what_changed(self, team, owner):
        services.team_settings_update(team=team, actor=owner, approvals_required=3, currency="EUR")
        team.refresh_from_db()
        assert (team.approvals_required, team.currency) == (3, "EUR")
        services.team_settings_update(team=team, actor=owner, approvals_required=3, currency="CNY")
        assert list(AuditEvent.objects.values_list("changes", flat=True)) == [
            {"approvals_required": [1, 3], "currency": ["USD", "EUR"]},
            {"currency": ["EUR", "CNY"]},
        ]

    @pytest.mark.parametrize(
        ("approvals", "currency", "field"),
        [(0, "USD", "approvals_required"), (11, "USD", "approvals_required"),
         (True, "USD", "approvals_required"), (2, "usd", "currency"), (2, "US", "currency"),
         (2, "EURO", "currency"), (2, "U$D", "currency")],
    )
    def test_it_refuses_bad_values(self, team, owner, approvals, currency, field):
        with pytest.raises(ValidationError) as exc:
            services.team_settings_update(
                team=team, actor=owner, approvals_required=approvals, currency=currency
            )
        assert field in exc.value.message_dict
        team.refresh_from_db()
        assert (team.approvals_required, team.currency) == (1, "USD")

    def test_the_form_upper_cases_the_currency_and_shows_errors(self, client, team, owner):
        client.force_login(owner)
        client.post(reverse("teams:settings_general"), {"approvals_required": 2, "currency": "cny"})
        team.refresh_from_db()
        assert team.currency == "CNY"
        response = client.post(
            reverse("teams:settings_general"), {"approvals_required": 12, "currency": "C1Y"}
        )
        html = response.content.decode()
        assert response.status_code == 200
        assert "Enter an ISO 4217 code" in html
        assert "less than or equal to 10" in html
        team.refresh_from_db()
        assert (team.approvals_required, team.currency) == (2, "CNY")


def legacy_tiers(team, tiers: list[str]) -> None:
    """A team that validated these tiers under method 1 (stored as they were)."""
    Team.objects.filter(pk=team.pk).update(validated_tiers=tiers)
    team.refresh_from_db()


class TierValidationTests:
    def test_a_new_team_starts_with_the_same_site_only(self, db):
        assert make_team().validated_tiers == ["same_site"]

    def test_one_successful_pilot_is_not_enough(self, team, owner):
        pilot(team, make_profile(team), tier="same_datacenter")
        with pytest.raises(ValidationError) as exc:
            services.team_tier_validate(team=team, actor=owner, tier="same_datacenter")
        assert exc.value.message_dict["tier"] == [
            "Same datacenter needs 2 successful pilot migrations on it; 1 recorded so far, "
            "1 more needed."
        ]
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site"]
        assert not AuditEvent.objects.exists()

    def test_failed_and_unfinished_pilots_and_other_tiers_do_not_count(self, team, other_team, owner):
        task = make_profile(team)
        pilot(team, task, tier="same_datacenter")
        pilot(team, task, tier="same_datacenter", succeeded=False)
        pilot(team, task, tier="same_datacenter", succeeded=None)
        pilot(team, task, tier="same_city")
        pilot(other_team, make_profile(other_team), tier="same_datacenter")  # another team's
        with pytest.raises(ValidationError) as exc:
            services.team_tier_validate(team=team, actor=owner, tier="same_datacenter")
        assert "1 recorded so far" in str(exc.value)

    def test_a_tier_waits_for_the_tier_below_it_even_with_its_pilots(self, team, owner):
        task = make_profile(team)
        pilot(team, task, tier="same_city")
        pilot(team, task, tier="same_city")
        with pytest.raises(ValidationError) as exc:
            services.team_tier_validate(team=team, actor=owner, tier="same_city")
        assert exc.value.message_dict["tier"] == [
            "Validate Same datacenter first: Same city can be marked validated only once the "
            "tier below it is."
        ]
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site"]

    def test_it_names_every_missing_step_at_once(self, team, owner):
        with pytest.raises(ValidationError) as exc:
            services.team_tier_validate(team=team, actor=owner, tier="cross_hub")
        assert exc.value.message_dict["tier"] == [
            "Validate Same city first: Cross hub can be marked validated only once the tier "
            "below it is.",
            "Cross hub needs 2 successful pilot migrations on it; 0 recorded so far, 2 more "
            "needed.",
        ]

    def test_it_validates_the_tiers_in_order_each_after_its_pilots(self, team, owner):
        task = make_profile(team)
        generation = team.settings_generation
        for tier in ("same_datacenter", "same_city", "cross_hub"):
            pilot(team, task, tier=tier)
            pilot(team, task, tier=tier)
            services.team_tier_validate(team=team, actor=owner, tier=tier)
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site", "same_datacenter", "same_city", "cross_hub"]
        assert team.settings_generation == generation + 3
        events = AuditEvent.objects.filter(action="team.tier_validated").order_by("id")
        assert [e.target for e in events] == ["same_datacenter", "same_city", "cross_hub"]
        assert events[1].changes == {
            "validated_tiers": [
                ["same_site", "same_datacenter"],
                ["same_site", "same_datacenter", "same_city"],
            ]
        }

    def test_validating_a_validated_tier_again_changes_nothing(self, team, owner):
        legacy_tiers(team, ["same_site", "same_datacenter"])  # method 1 default, no pilots
        services.team_tier_validate(team=team, actor=owner, tier="same_datacenter")
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site", "same_datacenter"]
        assert team.settings_generation == 1
        assert not AuditEvent.objects.exists()

    def test_withdrawing_a_tier_withdraws_the_wider_ones_in_one_audited_change(
        self, client, team, owner
    ):
        legacy_tiers(team, ["same_site", "same_datacenter", "same_city", "cross_hub"])
        services.team_tier_unvalidate(team=team, actor=owner, tier="same_datacenter")
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site"]
        assert team.settings_generation == 2
        event = AuditEvent.objects.get(action="team.tier_unvalidated")
        assert event.target == "same_datacenter"
        assert event.changes == {
            "validated_tiers": [
                ["same_site", "same_datacenter", "same_city", "cross_hub"], ["same_site"]
            ]
        }
        client.force_login(owner)
        html = client.get(reverse("teams:settings")).content.decode()
        assert (
            "withdrew the validation of the tier Same datacenter, and with it of Same city, "
            "Cross hub" in html
        )

    def test_withdrawing_the_widest_tier_keeps_the_narrower_ones(self, team, owner):
        legacy_tiers(team, ["same_site", "same_datacenter", "same_city", "cross_hub"])
        services.team_tier_unvalidate(team=team, actor=owner, tier="cross_hub")
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site", "same_datacenter", "same_city"]

    def test_the_same_site_stays_validated_and_unknown_tiers_are_refused(self, team, owner):
        with pytest.raises(ValidationError):
            services.team_tier_unvalidate(team=team, actor=owner, tier="same_site")
        with pytest.raises(ValidationError):
            services.team_tier_validate(team=team, actor=owner, tier="orbit")
        with pytest.raises(ValidationError):
            services.team_tier_unvalidate(team=team, actor=owner, tier="orbit")
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site"]
        assert not AuditEvent.objects.exists()

    def test_an_existing_team_keeps_a_tier_it_validated_out_of_order(self, client, team, owner):
        legacy_tiers(team, ["same_site", "same_datacenter", "cross_hub"])
        client.force_login(owner)
        html = client.get(reverse("teams:settings")).content.decode()
        row = html[html.index('id="tier-cross_hub"'):]
        assert "Validated before the rollout order applied" in row
        task = make_profile(team)
        pilot(team, task)
        pilot(team, task)
        services.team_tier_validate(team=team, actor=owner, tier="same_city")
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site", "same_datacenter", "same_city", "cross_hub"]

    def test_the_page_says_what_is_missing_and_refuses_with_409(self, client, team, owner):
        task = make_profile(team, name="Nightly ETL")
        pilot(team, task)
        pilot(team, task, succeeded=False)
        client.force_login(owner)
        html = client.get(reverse("teams:settings")).content.decode()
        row = html[html.index('id="tier-same_city"'):html.index('id="tier-cross_hub"')]
        assert "Nightly ETL" in row
        assert "Validate Same datacenter first" in row
        assert "1 recorded so far, 1 more needed" in row
        assert "disabled" in row
        response = client.post(
            reverse("teams:tier_toggle"), {"tier": "same_city", "action": "validate"}
        )
        assert response.status_code == 409
        html = response.content.decode()
        row = html[html.index('id="tier-same_city"'):html.index('id="tier-cross_hub"')]
        assert 'role="alert">Validate Same datacenter first' in row
        assert 'role="alert">Same city needs 2 successful pilot migrations' in row
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site"]

    def test_the_refusal_speaks_chinese(self, client, team, owner):
        client.force_login(owner)
        client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
        response = client.post(
            reverse("teams:tier_toggle"), {"tier": "same_city", "action": "validate"}
        )
        assert response.status_code == 409
        html = response.content.decode()
        assert "请先验证同机房" in html
        assert "同城需要 2 次成功的试点迁移；目前记录了 0 次，还差 2 次。" in html
        assert "Validate Same datacenter first" not in html

    def test_the_page_warns_what_a_withdrawal_takes_with_it(self, client, team, owner):
        legacy_tiers(team, ["same_site", "same_datacenter", "same_city"])
        client.force_login(owner)
        html = client.get(reverse("teams:settings")).content.decode()
        row = html[html.index('id="tier-same_datacenter"'):html.index('id="tier-same_city"')]
        assert "Same city rest on it and are withdrawn too" in row
        response = client.post(
            reverse("teams:tier_toggle"), {"tier": "same_datacenter", "action": "unvalidate"},
            follow=True,
        )
        assert "nor are the wider tiers that rest on it: Same city." in response.content.decode()
        team.refresh_from_db()
        assert team.validated_tiers == ["same_site"]

    def test_an_unknown_tier_is_a_bad_request(self, client, team, owner):
        client.force_login(owner)
        response = client.post(reverse("teams:tier_toggle"), {"tier": "orbit"})
        assert response.status_code == 400


class ThresholdTests:
    @pytest.mark.parametrize(
        ("key", "value"),
        [
            ("network_cost_share", float("nan")),
            ("network_cost_share", float("inf")),
            ("network_cost_share", 0),
            ("network_cost_share", 1.5),
            ("headroom", -0.1),
            ("interruption_cost_hours", -1),
            ("buffer_cross_hub", -0.01),
            ("loose_cross_hub_hours", float("-inf")),
            ("data_compute_high", 10),  # must stay above data_compute_low (10)
            ("data_compute_low", 150),  # must stay below data_compute_high (100)
            ("network_cost_share", "0.3"),
            ("network_cost_share", True),
        ],
    )
    def test_it_refuses_bad_values(self, team, owner, key, value):
        with pytest.raises(ValidationError) as exc:
            services.team_threshold_set(team=team, actor=owner, key=key, value=value)
        assert "value" in exc.value.message_dict
        team.refresh_from_db()
        assert team.thresholds == {}
        assert team.settings_generation == 1
        assert not AuditEvent.objects.exists()

    def test_it_refuses_an_unknown_key(self, team, owner):
        with pytest.raises(ValidationError) as exc:
            services.team_threshold_set(team=team, actor=owner, key="gpu_magic", value=1)
        assert "key" in exc.value.message_dict
        with pytest.raises(ValidationError):
            services.team_threshold_reset(team=team, actor=owner, key="gpu_magic")

    def test_it_sets_audits_and_bumps_the_generation(self, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="network_cost_share", value=0.3)
        team.refresh_from_db()
        assert team.thresholds == {"network_cost_share": 0.3}
        assert team.settings_generation == 2
        event = AuditEvent.objects.get()
        assert (event.action, event.target, event.review, event.actor) == (
            "team.threshold_set", "network_cost_share", None, owner
        )
        assert event.changes == {"network_cost_share": [0.2, 0.3]}

    def test_the_same_value_again_changes_nothing(self, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.8)
        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.8)
        team.refresh_from_db()
        assert team.settings_generation == 2
        assert AuditEvent.objects.count() == 1

    def test_the_default_value_drops_the_override_and_reset_restores_it(self, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.8)
        services.team_threshold_set(team=team, actor=owner, key="headroom", value=0.9)
        team.refresh_from_db()
        assert team.thresholds == {}
        services.team_threshold_set(team=team, actor=owner, key="buffer_same_city", value=0.25)
        services.team_threshold_reset(team=team, actor=owner, key="buffer_same_city")
        team.refresh_from_db()
        assert team.thresholds == {}
        assert team.settings_generation == 5
        assert list(AuditEvent.objects.values_list("action", "changes")) == [
            ("team.threshold_set", {"headroom": [0.9, 0.8]}),
            ("team.threshold_set", {"headroom": [0.8, 0.9]}),
            ("team.threshold_set", {"buffer_same_city": [0.1, 0.25]}),
            ("team.threshold_reset", {"buffer_same_city": [0.25, 0.1]}),
        ]

    def test_high_and_low_ratio_move_together_within_their_order(self, team, owner):
        services.team_threshold_set(team=team, actor=owner, key="data_compute_high", value=50)
        services.team_threshold_set(team=team, actor=owner, key="data_compute_low", value=40)
        with pytest.raises(ValidationError):
            services.team_threshold_set(team=team, actor=owner, key="data_compute_high", value=40)
        team.refresh_from_db()
        assert team.thresholds == {"data_compute_high": 50.0, "data_compute_low": 40.0}

    def test_every_key_of_the_engine_accepts_its_default(self, team, owner):
        import engine

        for key, value in engine.DEFAULT_THRESHOLDS.items():
            services.team_threshold_set(team=team, actor=owner, key=key, value=value)
        team.refresh_from_db()
        assert team.thresholds == {}
        assert not AuditEvent.objects.exists()
