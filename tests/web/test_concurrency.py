"""Optimistic concurrency (apps.web.concurrency, issue 17 hole 7): two sessions load the same edit
form and both save. The first save is kept; the second changes nothing and answers 409 with the
form again: their values, the current version, and field by field what they sent against what is
stored now. Saving that form once more re-applies their values on purpose.

One case per editable object: site, link, offer (catalog, owners), task profile and benchmark
record (members), the team's approvals and currency (owners).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import Team
from apps.benchmarks import services as benchmark_services
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import NetworkLink, Offer, Site
from apps.profiles.models import TaskProfile
from apps.web.concurrency import StaleVersion, claim
from tests.factories import (
    make_benchmark,
    make_link,
    make_membership,
    make_offer,
    make_profile,
    make_site,
    make_user,
)
from tests.web.html_forms import read_form

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@dataclass
class Case:
    role: str  # who edits: two users of this role
    obj: Callable[[Team], object]  # makes the object being edited
    url: Callable[[object], str]
    field: str  # the field both change
    label: str  # its label in the conflict table
    first: str  # what the first session saves
    second: str  # what the second session tries
    stored: Callable[[object], object]  # the field as stored, to compare with `first`
    action: str | None = None  # the form's action, when the page has several forms


def _site(team):
    return make_site(team, "bj-a", name="Beijing A")


def _link(team):
    return make_link(team, make_site(team, "bj-a"), make_site(team, "sh-a"), bandwidth_gbps=10)


def _offer(team):
    return make_offer(team, name="8x H100", billing_basis="machine_hour", price=24)


def _record(team):
    site = make_site(team)
    return make_benchmark(
        team, make_profile(team, site), make_offer(team, site), e2e_hours=10, compute_hours=9
    )


CASES = {
    "site": Case(
        "owner",
        _site,
        lambda o: reverse("catalog:site_edit", args=[o.pk]),
        "name",
        "Name",
        "Beijing North",
        "Beijing South",
        lambda o: Site.objects.get(pk=o.pk).name,
    ),
    "link": Case(
        "owner",
        _link,
        lambda o: reverse("catalog:link_edit", args=[o.pk]),
        "bandwidth_gbps",
        "Bandwidth (Gbit/s)",
        "20",
        "40",
        lambda o: NetworkLink.objects.get(pk=o.pk).bandwidth_gbps,
    ),
    "offer": Case(
        "owner",
        _offer,
        lambda o: reverse("catalog:offer_edit", args=[o.pk]),
        "price",
        "Price",
        "30",
        "45",
        lambda o: Offer.objects.get(pk=o.pk).price,
    ),
    "profile": Case(
        "member",
        make_profile,
        lambda o: reverse("profiles:edit", args=[o.pk]),
        "compute_hours",
        "Compute hours",
        "20",
        "30",
        lambda o: TaskProfile.objects.get(pk=o.pk).compute_hours,
    ),
    "benchmark": Case(
        "member",
        _record,
        lambda o: reverse("benchmarks:edit", args=[o.pk]),
        "e2e_hours",
        "End-to-end hours",
        "12",
        "14",
        lambda o: BenchmarkRecord.objects.get(pk=o.pk).e2e_hours,
    ),
    "team settings": Case(
        "owner",
        lambda team: team,
        lambda o: reverse("teams:settings"),
        "currency",
        "Currency",
        "EUR",
        "CNY",
        lambda o: Team.objects.get(pk=o.pk).currency,
        action=reverse("teams:settings_general"),
    ),
}


def _as_stored(case: Case, text: str):
    """The stored form of a posted value: a number column holds a float."""
    return text if case.field in ("name", "currency") else float(text)


def _session(team, role: str) -> Client:
    client = Client()
    client.force_login(make_membership(make_user(), team, role).user)
    return client


def _load(client: Client, case: Case, obj) -> tuple[str, dict]:
    """GET the edit page; (where the form posts, what it holds)."""
    page = client.get(case.url(obj))
    assert page.status_code == 200
    data = read_form(page.content.decode(), action=case.action)
    return case.action or case.url(obj), data


def _row(html: str, field: str) -> str:
    start = html.index(f'<tr data-field="{field}">')
    return html[start : html.index("</tr>", start)]


@pytest.fixture(params=sorted(CASES))
def case(request) -> Case:
    return CASES[request.param]


class TwoSessionTests:
    def test_it_keeps_the_first_save_and_answers_the_second_with_409(self, team, case):
        obj = case.obj(team)
        alice, bob = _session(team, case.role), _session(team, case.role)
        url, alice_form = _load(alice, case, obj)
        _, bob_form = _load(bob, case, obj)
        assert alice_form["version"] == bob_form["version"] == "1"

        saved = alice.post(url, {**alice_form, case.field: case.first})
        assert saved.status_code == 302
        lost = bob.post(url, {**bob_form, case.field: case.second})

        assert lost.status_code == 409
        assert case.stored(obj) == _as_stored(case, case.first)  # the first save is kept
        html = lost.content.decode()
        row = _row(html, case.field)
        assert case.label in row
        # Their value, then the stored one: the second session sees what it would overwrite.
        assert row.index(case.second) < row.index(case.first)

    def test_the_409_form_holds_their_values_and_saving_it_reapplies_them(self, team, case):
        obj = case.obj(team)
        alice, bob = _session(team, case.role), _session(team, case.role)
        url, alice_form = _load(alice, case, obj)
        _, bob_form = _load(bob, case, obj)
        alice.post(url, {**alice_form, case.field: case.first})
        lost = bob.post(url, {**bob_form, case.field: case.second})
        assert lost.status_code == 409

        again = read_form(lost.content.decode(), action=case.action)
        # Version 1 was loaded, the first save made it 2: the form now carries 2.
        assert again["version"] == "2"
        assert again[case.field] == case.second
        assert bob.post(url, again).status_code == 302
        assert case.stored(obj) == _as_stored(case, case.second)

    def test_only_fields_that_differ_are_listed(self, team, case):
        obj = case.obj(team)
        alice, bob = _session(team, case.role), _session(team, case.role)
        url, alice_form = _load(alice, case, obj)
        _, bob_form = _load(bob, case, obj)
        alice.post(url, {**alice_form, case.field: case.first})
        # The second session sends the very values the first saved: nothing differs.
        lost = bob.post(url, {**bob_form, case.field: case.first})
        assert lost.status_code == 409
        html = lost.content.decode()
        assert "data-conflict" in html and "<tr data-field=" not in html

    def test_a_save_without_a_version_is_not_checked(self, team, case):
        """An older client that sends no version still saves (and bumps the version)."""
        obj = case.obj(team)
        alice = _session(team, case.role)
        url, form = _load(alice, case, obj)
        form.pop("version")
        assert alice.post(url, {**form, case.field: case.first}).status_code == 302
        assert case.stored(obj) == _as_stored(case, case.first)
        assert type(obj).objects.get(pk=obj.pk).version == 2


@pytest.mark.parametrize("key", ["site", "link", "offer"])
class InlineEditTests:
    def test_the_htmx_row_form_answers_409_in_place(self, team, key):
        case = CASES[key]
        obj = case.obj(team)
        alice, bob = _session(team, "owner"), _session(team, "owner")
        row_form = bob.get(case.url(obj), **HX)
        bob_form = read_form(row_form.content.decode())
        _, alice_form = _load(alice, case, obj)
        assert (
            alice.post(case.url(obj), {**alice_form, case.field: case.first}, **HX).status_code
            == 200
        )

        lost = bob.post(case.url(obj), {**bob_form, case.field: case.second}, **HX)
        assert lost.status_code == 409
        html = lost.content.decode()
        assert "<html" not in html and html.lstrip().startswith(f'<tr id="{key}-{obj.pk}"')
        assert case.label in _row(html, case.field)
        assert read_form(html)["version"] == "2"
        assert case.stored(obj) == _as_stored(case, case.first)


class ProbeApplyTests:
    def test_applying_a_probe_makes_an_open_link_form_stale(self, team):
        """The probe writes the link's bandwidth: a link form loaded before must not undo it."""
        link = _link(team)
        owner = _session(team, "owner")
        url, form = _load(owner, CASES["link"], link)
        probe = make_benchmark(
            team,
            make_profile(team),
            kind="network_probe",
            from_site=link.from_site,
            to_site=link.to_site,
            bandwidth_gbps=25,
            rtt_ms=3,
        )
        benchmark_services.probe_apply(probe=probe)
        lost = owner.post(url, {**form, "rtt_ms": "7"})
        assert lost.status_code == 409
        assert NetworkLink.objects.get(pk=link.pk).bandwidth_gbps == 25
        # The form sent the bandwidth it loaded (10); the probe stored 25.
        row = _row(lost.content.decode(), "bandwidth_gbps")
        assert row.index(">10<") < row.index(">25<")


class ClaimTests:
    def test_it_bumps_only_the_version_it_was_given(self, team):
        site = make_site(team)
        claim(site, 1)
        assert site.version == 2 and Site.objects.get(pk=site.pk).version == 2
        with pytest.raises(StaleVersion):
            claim(site, 1)
        assert Site.objects.get(pk=site.pk).version == 2
        claim(site, None)  # unchecked: bumped all the same
        assert site.version == 3 == Site.objects.get(pk=site.pk).version

    @pytest.mark.parametrize("version", ["abc", "-1", "9" * 30, "1.5"])
    def test_an_unreadable_version_is_a_conflict_not_an_error(self, team, owner, client, version):
        site = _site(team)
        client.force_login(owner)
        url, form = _load(client, CASES["site"], site)
        response = client.post(url, {**form, "version": version, "name": "Elsewhere"})
        assert response.status_code == 409
        assert read_form(response.content.decode())["version"] == "1"
        assert Site.objects.get(pk=site.pk).name == "Beijing A"
