"""Bad input through the edit forms and the team thresholds: a spoiled post never gives a 500 nor
changes a row half-way; the inputs fuzzing once found stay form errors.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db.models import Model
from django.forms.models import model_to_dict
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from apps.accounts.models import Membership, Team
from apps.profiles.forms import TaskProfileForm
from tests.security.fuzzing import (
    SETTINGS,
    XSS,
    approved_of,
    as_post,
    client_for,
    draft_of,
    hostile_values,
    spoiled,
)
from tests.security.helpers import World, rolled_back

pytestmark = pytest.mark.django_db


class ThresholdFuzzTests:
    def test_it_keeps_only_finite_thresholds_in_range(self, world):
        client = client_for(world.a.owner)
        url = reverse("teams:threshold_set")
        keys = st.sampled_from(["data_compute_high", "network_cost_share", "buffer_cross_hub"])

        @SETTINGS
        @given(key=st.one_of(keys, hostile_values(world)), value=hostile_values(world))
        def fuzz(key, value):
            with rolled_back():
                response = client.post(url, {"key": key, "value": value})
                assert response.status_code < 500
                team = Team.objects.get(pk=world.a.team.pk)
                team.full_clean()
                for saved in (team.thresholds or {}).values():
                    assert isinstance(saved, int | float) and math.isfinite(saved)
                    assert abs(saved) <= 1e6
                html = client.get(reverse("teams:settings")).content.decode()
                assert XSS not in html

        fuzz()


@dataclass
class EditCase:
    """A form that changes existing rows: after any post, those rows are still whole and valid."""

    url: Callable[[World], str]
    user: Callable[[World], object]
    baseline: Callable[[World], dict]
    rows: Callable[[World], list[Model]]  # what the post may change
    shown_at: Callable[[World], str]


def form_values(obj: Model, form_class, **kw) -> dict:
    return as_post(model_to_dict(obj, fields=list(form_class.base_fields)) | kw)


def edit_cases() -> dict[str, EditCase]:
    from apps.actuals.forms import initial_from_record as actual_initial
    from apps.actuals.models import ActualsSettings
    from apps.benchmarks.forms import initial_from_record
    from apps.catalog.forms import NetworkLinkForm, OfferForm, SiteForm

    return {
        "site": EditCase(
            url=lambda w: reverse("catalog:site_edit", args=[w.a.home.pk]),
            user=lambda w: w.a.owner,
            baseline=lambda w: form_values(w.a.home, SiteForm, name=XSS, version=w.a.home.version),
            rows=lambda w: [w.a.home],
            shown_at=lambda w: reverse("catalog:site_list"),
        ),
        "offer": EditCase(
            url=lambda w: reverse("catalog:offer_edit", args=[w.a.offer.pk]),
            user=lambda w: w.a.owner,
            baseline=lambda w: form_values(
                w.a.offer, OfferForm, exit_path=XSS, version=w.a.offer.version
            ),
            rows=lambda w: [w.a.offer],
            shown_at=lambda w: reverse("catalog:offer_detail", args=[w.a.offer.pk]),
        ),
        "link": EditCase(
            url=lambda w: reverse("catalog:link_edit", args=[w.a.link.pk]),
            user=lambda w: w.a.owner,
            baseline=lambda w: form_values(
                w.a.link, NetworkLinkForm, rtt_ms="7", version=w.a.link.version
            ),
            rows=lambda w: [w.a.link],
            shown_at=lambda w: reverse("catalog:link_list"),
        ),
        "profile": EditCase(
            url=lambda w: reverse("profiles:edit", args=[w.a.profile.pk]),
            user=lambda w: w.a.member,
            baseline=lambda w: form_values(
                w.a.profile, TaskProfileForm, description=XSS, version=w.a.profile.version
            ),
            rows=lambda w: [w.a.profile],
            shown_at=lambda w: reverse("profiles:detail", args=[w.a.profile.pk]),
        ),
        "benchmark": EditCase(
            url=lambda w: reverse("benchmarks:edit", args=[w.a.single.pk]),
            user=lambda w: w.a.member,
            baseline=lambda w: as_post(
                initial_from_record(w.a.single) | {"kind": "single", "notes": XSS}
            ),
            rows=lambda w: [w.a.single],
            shown_at=lambda w: reverse("benchmarks:detail", args=[w.a.single.pk]),
        ),
        "actual cost": EditCase(
            url=lambda w: reverse("actuals:edit", args=[w.a.extra["approved_actual"].pk]),
            user=lambda w: w.a.member,
            baseline=lambda w: as_post(
                actual_initial(w.a.extra["approved_actual"]) | {"reference": XSS, "notes": XSS}
            ),
            rows=lambda w: [w.a.extra["approved_actual"]],
            shown_at=lambda w: reverse("actuals:list"),
        ),
        "over-plan threshold": EditCase(
            url=lambda w: reverse("actuals:threshold"),
            user=lambda w: w.a.owner,
            baseline=lambda w: {"over_plan_pct": "25"},
            rows=lambda w: [ActualsSettings.objects.get(team=w.a.team)],
            shown_at=lambda w: reverse("actuals:list"),
        ),
        "review title": EditCase(
            url=lambda w: reverse("reviews:edit", args=[draft_of(w).pk]),
            user=lambda w: w.a.member,
            baseline=lambda w: {"title": XSS, "version": str(draft_of(w).version)},
            rows=lambda w: [draft_of(w)],
            shown_at=lambda w: reverse("reviews:detail", args=[draft_of(w).pk]),
        ),
        "candidates": EditCase(
            url=lambda w: reverse("reviews:candidates", args=[draft_of(w).pk]),
            user=lambda w: w.a.member,
            baseline=lambda w: {
                "action": "update", "candidate": str(draft_of(w).candidates.get().pk),
                "machines": "2", "offer": str(w.a.offer.pk), "version": "",
            },
            rows=lambda w: [draft_of(w), *draft_of(w).candidates.all()],
            shown_at=lambda w: reverse("reviews:candidates", args=[draft_of(w).pk]),
        ),
        "team general": EditCase(
            url=lambda w: reverse("teams:settings_general"),
            user=lambda w: w.a.owner,
            baseline=lambda w: {
                "approvals_required": "2", "currency": "EUR", "version": str(w.a.team.version)
            },
            rows=lambda w: [w.a.team],
            shown_at=lambda w: reverse("teams:settings"),
        ),
        "member role": EditCase(
            url=lambda w: reverse("teams:member_role", args=[w.a.member_membership.pk]),
            user=lambda w: w.a.owner,
            baseline=lambda w: {"role": "reviewer"},
            rows=lambda w: [w.a.team, *Membership.objects.filter(team=w.a.team)],
            shown_at=lambda w: reverse("teams:settings"),
        ),
        "tier": EditCase(
            url=lambda w: reverse("teams:tier_toggle"),
            user=lambda w: w.a.owner,
            baseline=lambda w: {"tier": "same_datacenter", "action": "unvalidate"},
            rows=lambda w: [w.a.team],
            shown_at=lambda w: reverse("teams:settings"),
        ),
        "calibration adopt": EditCase(
            url=lambda w: reverse("teams:calibration_adopt"),
            user=lambda w: w.a.owner,
            baseline=lambda w: {"key": "network_cost_share", "value": "0.2"},
            rows=lambda w: [w.a.team],
            shown_at=lambda w: reverse("teams:calibration"),
        ),
    }


EDIT_CASES = sorted(edit_cases())


# The rows under apps.web.concurrency and the fields their version covers (None: every field; a
# team's version covers its general settings only, not its thresholds or tiers).
VERSIONED = {
    "catalog.Site": None,
    "catalog.NetworkLink": None,
    "catalog.Offer": None,
    "profiles.TaskProfile": None,
    "benchmarks.BenchmarkRecord": None,
    "actuals.ActualCost": None,
    "accounts.Team": ("approvals_required", "currency"),
}


def _stored(row: Model) -> dict:
    fresh = type(row).objects.get(pk=row.pk)
    return {f.attname: getattr(fresh, f.attname) for f in fresh._meta.concrete_fields}


def _check_version(row: Model, before: dict, after: dict) -> None:
    """Optimistic concurrency: a post bumps a version by one at most (whatever version it sent),
    and a row whose covered fields changed has a new version."""
    label = row._meta.label
    if label not in VERSIONED:
        return
    assert after["version"] in (before["version"], before["version"] + 1)
    covered = VERSIONED[label] or [k for k in after if k not in ("version", "updated_at")]
    if any(before[k] != after[k] for k in covered):
        assert after["version"] == before["version"] + 1


class EditFormFuzzTests:
    @pytest.mark.parametrize("name", EDIT_CASES)
    def test_rows_stay_whole_and_text_escaped(self, world, name):
        case = edit_cases()[name]
        draft_of(world)
        approved_of(world)
        client = client_for(case.user(world))
        # The baseline is accepted (a redirect or the saved fragment, no form errors).
        with rolled_back():
            response = client.post(case.url(world), case.baseline(world))
            assert response.status_code in (200, 302), (name, response.status_code)

        @SETTINGS
        @given(data=spoiled(world, case.baseline(world)), htmx=st.booleans())
        def fuzz(data, htmx):
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            with rolled_back():
                before = {row: _stored(row) for row in case.rows(world)}
                response = client.post(case.url(world), data, **headers)
                assert response.status_code < 500, (response.status_code, data)
                for row in case.rows(world):
                    fresh = type(row).objects.get(pk=row.pk)
                    fresh.full_clean()
                    _check_version(row, before[row], _stored(row))
                owners = Membership.objects.filter(team=world.a.team, role="owner")
                assert owners.exists()
                page = client.get(case.shown_at(world))
                assert page.status_code == 200
                assert XSS not in page.content.decode()

        fuzz()


class FoundByFuzzingTests:
    """Inputs the fuzzing found answering 500 (BUG-REVIEWS-1 and -2 in docs/security.md, since
    fixed): kept as regression tests."""

    @pytest.mark.parametrize("huge", [str(2**31), str(10**26)])  # past PostgreSQL's, SQLite's
    @pytest.mark.parametrize("where", ["create", "update"])
    def test_a_huge_machine_count_is_a_form_error(self, world, where, huge):
        client = client_for(world.a.member)
        with rolled_back():
            if where == "create":
                url = reverse("reviews:create")
                data = {"title": "t", "task": world.a.profile.pk, "offers": [world.a.offer.pk],
                        f"machines_{world.a.offer.pk}": huge}
            else:
                draft = draft_of(world)
                url = reverse("reviews:candidates", args=[draft.pk])
                data = {"action": "update", "candidate": draft.candidates.get().pk,
                        "machines": huge}
            response = client.post(url, data)
            assert response.status_code == 400

    @pytest.mark.parametrize("where", ["offers", "links"])
    def test_an_id_beyond_64_bits_is_an_invalid_choice(self, world, where):
        client = client_for(world.a.member)
        huge = str(2**63)
        with rolled_back():
            if where == "offers":
                url = reverse("reviews:create")
                data = {"title": "t", "task": world.a.profile.pk, "offers": [huge]}
            else:
                url = reverse("reviews:edit", args=[draft_of(world).pk])
                data = {"form": "links", "links": [huge]}
            response = client.post(url, data)
            assert response.status_code == 400
