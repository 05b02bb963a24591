"""Bad input through the forms: generated posts (create and edit forms, team settings) and query
strings never give a 500, never leave a partial row, and any text that gets saved is escaped
wherever it is shown.

Each example starts from a valid post and spoils a few of its fields with hostile values (wrong
types, NaN, infinity, -1e309, huge and negative numbers, 10 000-character strings, HTML and script,
unicode, NUL, other teams' ids). It runs in a savepoint that is rolled back, so the examples of one
test never see each other's rows.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db.models import Model
from django.forms.models import model_to_dict
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.accounts.models import Membership, Team
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import NetworkLink, Offer, Site
from apps.checklists.models import ChecklistAnswer
from apps.profiles.forms import TaskProfileForm
from apps.profiles.models import TaskProfile
from apps.reviews.models import AuditEvent, Candidate, Review
from tests.factories import make_review, make_user
from tests.security.helpers import World, build_world, rolled_back

pytestmark = pytest.mark.django_db

XSS = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"
HOSTILE = [
    XSS,
    '"><img src=x onerror=alert(1)>',
    "nan", "NaN", "inf", "-inf", "Infinity", "-1e309", "1e309", "1e308", "1e13", "-1e13",
    "-1", "-0.0", "0", "0.0000001", "", "   ",
    "32768", "2147483648", "-2147483649", "9223372036854775808",  # past 16, 32, 64-bit columns
    "9" * 40, "-" + "9" * 40, "1_000", "0x10", "1e", "١٢٣", "½", "二十", "🚀🚀", "e\u0301",
    "\u202eevil", "'; DROP TABLE reviews_review; --", "{{ request }}", "{% debug %}", "%s%n",
    "\x00", "a\x00b", "x" * 10_000, "<" * 3_000, "https://example.com/" + "a" * 600,
]
# Bounded and reproducible in CI: the same examples on every run. SECURITY_FUZZ_EXAMPLES=500
# SECURITY_FUZZ_RANDOM=1 explores further (locally, when hunting).
SETTINGS = settings(
    max_examples=int(os.environ.get("SECURITY_FUZZ_EXAMPLES", "40")),
    derandomize=os.environ.get("SECURITY_FUZZ_RANDOM") != "1",
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def world(db) -> World:
    return build_world()


def hostile_values(world: World) -> st.SearchStrategy[str]:
    """What a spoiled field gets: fixed nasty strings, random text and numbers, team B's ids."""
    b = world.b
    foreign_ids = [
        b.home.pk, b.far.pk, b.offer.pk, b.profile.pk, b.single.pk, b.review.pk, b.team.pk,
        b.link.pk,
    ]
    return st.one_of(
        st.sampled_from(HOSTILE),
        st.text(max_size=40),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.sampled_from(foreign_ids).map(str),
    )


def spoiled(world: World, baseline: dict) -> st.SearchStrategy[dict]:
    """The baseline post with 0 to 4 of its fields (or unknown extra ones) replaced."""
    names = sorted(baseline) + ["team", "id", "state"]
    replacements = st.dictionaries(
        st.sampled_from(names),
        st.one_of(hostile_values(world), st.lists(hostile_values(world), min_size=2, max_size=3)),
        max_size=4,
    )
    return replacements.map(lambda changes: {**baseline, **changes})


@dataclass
class Case:
    """One create form: where it posts, who may, a valid post, the rows it writes."""

    url: Callable[[World], str]
    user: Callable[[World], object]
    baseline: Callable[[World], dict]
    created: type[Model]  # the row the form creates (at most one)
    watched: tuple[type[Model], ...] = ()  # rows that come with it, or must not appear alone
    shown_at: Callable[[Model], str] | None = None  # a page showing the created row's text
    complete: Callable[[Model, dict], None] | None = None  # extra checks of a created row


def count(models: tuple[type[Model], ...]) -> dict:
    return {model: model.objects.count() for model in models}


def post_and_check(
    client: Client, world: World, case: Case, data: dict, *, htmx: bool = False
) -> None:
    models = (case.created, *case.watched)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with rolled_back():
        before = count(models)
        newest = case.created.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        response = client.post(case.url(world), data, **headers)
        assert response.status_code < 500, (response.status_code, data)
        after = count(models)
        made = after[case.created] - before[case.created]
        assert made in (0, 1), (made, data)
        if made == 0:
            assert after == before, ("rows written without the object", after, before, data)
            return
        obj = case.created.objects.get(pk__gt=newest)
        obj.full_clean()  # a complete, valid row
        if case.complete:
            case.complete(obj, {m: after[m] - before[m] for m in case.watched})
        if case.shown_at is not None:
            page = client.get(case.shown_at(obj))
            assert page.status_code == 200
            html = page.content.decode()
            assert XSS not in html, "unescaped script in the page"
            if any(XSS in str(v) for v in model_to_dict(obj).values()):
                assert ESCAPED in html, "the saved text is not shown escaped"


def as_post(values: dict) -> dict:
    """Model values as a browser posts them: ids for objects, booleans as "on" or absent."""
    data = {}
    for name, value in values.items():
        if value is None:
            data[name] = ""
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, Model):
            data[name] = str(value.pk)
        elif isinstance(value, list):
            data[name] = [str(v) for v in value]
        else:
            data[name] = str(value)
    return data


def profile_baseline(world: World) -> dict:
    fields = list(TaskProfileForm.base_fields)
    data = as_post(model_to_dict(world.a.profile, fields=fields))
    data["name"] = f"Nightly {XSS}"
    data["description"] = XSS
    return data


def review_complete(review: Review, added: dict) -> None:
    assert added[Candidate] == review.candidates.count() >= 1
    assert added[AuditEvent] == 1
    assert review.team_id == review.task.team_id == review.candidates.get().offer.team_id


def same_team(*attrs: str):
    def check(obj, added):
        for attr in attrs:
            assert obj.team_id == getattr(obj, attr).team_id, attr

    return check


def one_audit_event(obj, added):
    assert added[AuditEvent] == 1


CASES = {
    "site": Case(
        url=lambda w: reverse("catalog:site_create"),
        user=lambda w: w.a.owner,
        baseline=lambda w: {
            "code": "fz-1", "name": XSS, "datacenter": "dc-fz", "city": "Shanghai",
            "hub": "east", "queue_hours": "1.5", "storage_tb": "",
        },
        created=Site,
        shown_at=lambda obj: reverse("catalog:site_list"),
    ),
    "link": Case(
        url=lambda w: reverse("catalog:link_create"),
        user=lambda w: w.a.owner,
        baseline=lambda w: {
            "from_site": str(w.a.far.pk), "to_site": str(w.a.home.pk), "bandwidth_gbps": "10",
            "rtt_ms": "5", "price_per_gb": "0.02", "buffer": "", "reservable": "on",
        },
        created=NetworkLink,
        complete=same_team("from_site", "to_site"),
    ),
    "offer": Case(
        url=lambda w: reverse("catalog:offer_create"),
        user=lambda w: w.a.owner,
        baseline=lambda w: {
            "provider": XSS, "name": "H100 fuzz", "kind": "compute", "site": str(w.a.home.pk),
            "gpu_model": "H100", "gpu_mem_gb": "80", "gpus_per_machine": "8",
            "max_machines": "", "billing_basis": "gpu_hour", "price": "2.5",
            "contract_hours": "", "expected_utilization": "", "scheduling_fee_pct": "0",
            "parallelism": ["data", "tensor"], "relative_speed": "1", "boot_hours": "0",
            "exit_path": XSS,
        },
        created=Offer,
        shown_at=lambda obj: reverse("catalog:offer_detail", args=[obj.pk]),
        complete=same_team("site"),
    ),
    "profile": Case(
        url=lambda w: reverse("profiles:create"),
        user=lambda w: w.a.member,
        baseline=profile_baseline,
        created=TaskProfile,
        shown_at=lambda obj: reverse("profiles:detail", args=[obj.pk]),
        complete=same_team("data_site"),
    ),
    "benchmark": Case(
        url=lambda w: reverse("benchmarks:create"),
        user=lambda w: w.a.member,
        baseline=lambda w: {
            "kind": "single", "task": str(w.a.profile.pk), "offer": str(w.a.offer.pk),
            "nodes": "1", "gpus_per_node": "8", "e2e_hours": "3", "compute_hours": "2",
            "transfer_hours": "0.5", "queue_hours": "0.2", "peak_gpu_mem_gb": "40",
            "failure_reruns": "0", "hours_lost_per_rerun": "0", "recovery": "resume",
            "cost": "12", "notes": XSS,
        },
        created=BenchmarkRecord,
        shown_at=lambda obj: reverse("benchmarks:detail", args=[obj.pk]),
        complete=same_team("task"),
    ),
    "review": Case(
        url=lambda w: reverse("reviews:create"),
        user=lambda w: w.a.member,
        baseline=lambda w: {
            "title": f"Where to run {XSS}", "task": str(w.a.profile.pk),
            "offers": [str(w.a.offer.pk)], f"machines_{w.a.offer.pk}": "2",
        },
        created=Review,
        watched=(Candidate, AuditEvent),
        shown_at=lambda obj: reverse("reviews:detail", args=[obj.pk]),
        complete=review_complete,
    ),
    "member": Case(
        url=lambda w: reverse("teams:member_add"),
        user=lambda w: w.a.owner,
        baseline=lambda w: {"username_or_email": "newcomer", "role": "member"},
        created=Membership,
        watched=(AuditEvent,),
        shown_at=lambda obj: reverse("teams:settings"),
        complete=one_audit_event,
    ),
}


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


class CreateFormFuzzTests:
    @pytest.mark.parametrize("name", sorted(CASES))
    def test_it_never_fails_nor_half_writes(self, world, name):
        make_user("newcomer")
        case = CASES[name]
        client = client_for(case.user(world))
        # The baseline itself is valid: the form does create one row from it.
        post_and_check(client, world, case, case.baseline(world))
        with rolled_back():
            before = case.created.objects.count()
            client.post(case.url(world), case.baseline(world))
            assert case.created.objects.count() == before + 1, name

        @SETTINGS
        @given(data=spoiled(world, case.baseline(world)), htmx=st.booleans())
        def fuzz(data, htmx):
            post_and_check(client, world, case, data, htmx=htmx)

        fuzz()


def answer_post(prefix: str) -> dict:
    return {
        f"{prefix}-status": "answered",
        f"{prefix}-text": f"We measured it. {XSS}",
        f"{prefix}-evidence_benchmark": "",
        f"{prefix}-evidence_url": "https://example.com/run/1",
    }


class ChecklistAnswerFuzzTests:
    def test_it_never_fails_nor_half_writes(self, world):
        draft = make_review(world.a.team, world.a.member, task=world.a.profile,
                            offers=[world.a.offer], title="Draft")
        candidate = draft.candidates.get()
        prefix = f"a{candidate.pk}-q1"
        url = reverse("checklists:answer", args=[candidate.pk, "q1"])
        page = reverse("checklists:review", args=[draft.pk])
        client = client_for(world.a.member)
        case = Case(
            url=lambda w: url,
            user=lambda w: w.a.member,
            baseline=lambda w: answer_post(prefix),
            created=ChecklistAnswer,
            watched=(AuditEvent,),
            shown_at=lambda obj: page,
            complete=one_audit_event,
        )
        baseline = answer_post(prefix)
        post_and_check(client, world, case, baseline)
        with rolled_back():
            client.post(url, baseline)
            assert ChecklistAnswer.objects.filter(candidate=candidate).count() == 1

        @SETTINGS
        @given(data=spoiled(world, baseline))
        def fuzz(data):
            post_and_check(client, world, case, data)
            with rolled_back():  # the htmx shape answers in place, never a 500
                response = client.post(url, data, HTTP_HX_REQUEST="true")
                assert response.status_code < 500

        fuzz()


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


FILTER_PARAMS = [
    "q", "page", "task", "kind", "offer", "source", "state", "author", "workload", "cadence",
    "team", "reviewer", "decision", "date_from", "date_to", "a", "b", "s", "profile",
    "params_b", "precision", "gpus", "peak_gpu_mem_gb", "gpu_mem_gb",
]


class QueryStringFuzzTests:
    def test_pages_ignore_or_refuse_bad_filters(self, world):
        """Every page read by GET, with hostile filters and page numbers: never a 500."""
        from tests.security.test_authz_matrix import MATRIX

        pages = sorted(
            name for name, route in MATRIX.items()
            if "GET" in route.methods and not route.api and not route.fixed
        )
        client = client_for(world.a.owner)

        @settings(SETTINGS, max_examples=SETTINGS.max_examples * 3)
        @given(
            name=st.sampled_from(pages),
            params=st.dictionaries(st.sampled_from(FILTER_PARAMS), hostile_values(world),
                                   min_size=1, max_size=6),
            htmx=st.booleans(),
        )
        def fuzz(name, params, htmx):
            route = MATRIX[name]
            url = reverse(name, kwargs=route.obj(world.a) if route.obj else None)
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            with rolled_back():
                response = client.get(url, params, **headers)
            assert response.status_code < 500, (name, params)
            if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                assert XSS not in response.content.decode(), (name, params)

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


def draft_of(w: World):
    if "draft" not in w.a.extra:
        w.a.extra["draft"] = make_review(
            w.a.team, w.a.member, task=w.a.profile, offers=[w.a.offer], title="Draft"
        )
    return w.a.extra["draft"]


def edit_cases() -> dict[str, EditCase]:
    from apps.benchmarks.forms import initial_from_record
    from apps.catalog.forms import OfferForm, SiteForm

    return {
        "site": EditCase(
            url=lambda w: reverse("catalog:site_edit", args=[w.a.home.pk]),
            user=lambda w: w.a.owner,
            baseline=lambda w: form_values(w.a.home, SiteForm, name=XSS),
            rows=lambda w: [w.a.home],
            shown_at=lambda w: reverse("catalog:site_list"),
        ),
        "offer": EditCase(
            url=lambda w: reverse("catalog:offer_edit", args=[w.a.offer.pk]),
            user=lambda w: w.a.owner,
            baseline=lambda w: form_values(w.a.offer, OfferForm, exit_path=XSS),
            rows=lambda w: [w.a.offer],
            shown_at=lambda w: reverse("catalog:offer_detail", args=[w.a.offer.pk]),
        ),
        "profile": EditCase(
            url=lambda w: reverse("profiles:edit", args=[w.a.profile.pk]),
            user=lambda w: w.a.member,
            baseline=lambda w: form_values(w.a.profile, TaskProfileForm, description=XSS),
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
            baseline=lambda w: {"approvals_required": "2", "currency": "EUR"},
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


class EditFormFuzzTests:
    @pytest.mark.parametrize("name", EDIT_CASES)
    def test_rows_stay_whole_and_text_escaped(self, world, name):
        case = edit_cases()[name]
        draft_of(world)
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
                response = client.post(case.url(world), data, **headers)
                assert response.status_code < 500, (response.status_code, data)
                for row in case.rows(world):
                    fresh = type(row).objects.get(pk=row.pk)
                    fresh.full_clean()
                owners = Membership.objects.filter(team=world.a.team, role="owner")
                assert owners.exists()
                page = client.get(case.shown_at(world))
                assert page.status_code == 200
                assert XSS not in page.content.decode()

        fuzz()


class HugeFormInputTests:
    """DoS by size: a form body over 10 MB is a 400; a CSV over 2 MB is refused with a reason."""

    def test_a_form_body_over_10_mb_is_400(self, world):
        client = client_for(world.a.member)
        with rolled_back():
            before = TaskProfile.objects.count()
            response = client.post(reverse("profiles:create"), {"name": "x" * (11 * 1024 * 1024)})
            assert response.status_code == 400
            assert TaskProfile.objects.count() == before

    def test_a_csv_over_2_mb_is_refused_and_imports_nothing(self, world):
        from django.core.files.uploadedfile import SimpleUploadedFile

        client = client_for(world.a.member)
        rows = f"{world.a.profile.pk},single,{world.a.offer.pk},1,8,3,2\n".encode()
        upload = SimpleUploadedFile(
            "runs.csv", b"task,kind,offer,nodes,gpus_per_node,e2e_hours,compute_hours\n"
            + rows * (3 * 1024 * 1024 // len(rows)), content_type="text/csv",
        )
        with rolled_back():
            before = BenchmarkRecord.objects.count()
            response = client.post(reverse("benchmarks:import"), {"file": upload, "confirm": "1"})
            assert response.status_code == 200
            assert "larger than 2 MB" in response.content.decode()
            assert BenchmarkRecord.objects.count() == before


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


class EscapingTests:
    def test_every_page_shows_hostile_names_escaped(self, world):
        """Every text a user can type, set to a script, on every page the URLconf serves."""
        from apps.accounts.models import ApiToken
        from apps.scoring.services import snapshot_compute
        from tests.security.test_authz_matrix import MATRIX

        a = world.a
        hostile = f"{XSS}\"'><img src=x onerror=alert(2)>"
        Team.objects.filter(pk=a.team.pk).update(name=hostile)
        Site.objects.filter(team=a.team).update(name=hostile, datacenter=hostile, city=hostile,
                                                hub=hostile)
        Offer.objects.filter(team=a.team).update(provider=hostile, name=hostile,
                                                 gpu_model=hostile, exit_path=hostile)
        TaskProfile.objects.filter(team=a.team).update(name=hostile, description=hostile)
        BenchmarkRecord.objects.filter(team=a.team).update(notes=hostile)
        ApiToken.objects.filter(team=a.team).update(name=hostile)
        Review.objects.filter(team=a.team).update(title=hostile)
        ChecklistAnswer.objects.filter(candidate__review__team=a.team).update(text=hostile)
        for user in (a.owner, a.member, a.reviewer):
            type(user).objects.filter(pk=user.pk).update(first_name=hostile, last_name=hostile)
        snapshot_compute(review_id=a.review.pk)  # figures and charts carry the new names
        client = client_for(a.owner)
        shown = []
        for name, route in sorted(MATRIX.items()):
            if "GET" not in route.methods or route.api or route.fixed is not None:
                continue
            url = reverse(name, kwargs=route.obj(a) if route.obj else None)
            if route.query:
                url += "?" + "&".join(f"{k}={v}" for k, v in route.query(a).items())
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = client.get(url, **headers)
                assert response.status_code < 500, url
                if "text/html" not in response.get("Content-Type", ""):
                    continue  # CSV and XLSX exports carry the text as it is
                body = response.content.decode(errors="replace")
                assert XSS not in body, (name, headers)
                assert "<img src=x" not in body, (name, headers)
                if ESCAPED in body or "\\u003Cscript\\u003E" in body:
                    shown.append(name)
        # The names do reach the pages (escaped): the lists, details and forms of each kind.
        for expected in ("catalog:site_list", "catalog:offer_detail", "profiles:detail",
                         "benchmarks:detail", "reviews:detail", "checklists:review",
                         "benchmarks:tokens", "home", "scoring:snapshot_detail"):
            assert expected in shown, expected
