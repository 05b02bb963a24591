"""Bad input through the create forms and the checklist answer form: generated posts never give a
500, never leave a partial row, and any text that gets saved is escaped wherever it is shown.

Each example starts from a valid post and spoils a few of its fields with hostile values (wrong
types, NaN, infinity, -1e309, huge and negative numbers, 10 000-character strings, HTML and script,
unicode, NUL, other teams' ids). It runs in a savepoint that is rolled back, so the examples of one
test never see each other's rows.
"""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from apps.accounts.models import Invitation, Membership
from apps.actuals.models import ActualCost
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import NetworkLink, Offer, Site
from apps.profiles.forms import TaskProfileForm
from apps.profiles.models import TaskProfile
from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.models import AuditEvent, Candidate, Review
from tests.factories import make_review, make_user
from tests.security.fuzzing import (
    SETTINGS,
    XSS,
    Case,
    approved_of,
    as_post,
    client_for,
    one_audit_event,
    post_and_check,
    spoiled,
)
from tests.security.helpers import World, rolled_back

pytestmark = pytest.mark.django_db


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
    "actual cost": Case(
        url=lambda w: reverse("actuals:create"),
        user=lambda w: w.a.member,
        baseline=lambda w: {
            "review": str(approved_of(w).pk), "period": "2026-04-01", "compute_cost": "260",
            "transfer_cost": "90", "gpu_hours": "80", "hours": "12.5", "reference": XSS,
            "notes": XSS, "version": "",
        },
        created=ActualCost,
        # The list shows the reference only; the edit page shows the reference and the notes.
        shown_at=lambda obj: reverse("actuals:edit", args=[obj.pk]),
        complete=same_team("review"),
    ),
    "member": Case(
        url=lambda w: reverse("teams:member_add"),
        user=lambda w: w.a.owner,
        baseline=lambda w: {"username_or_email": "newcomer", "role": "member"},
        # Adding someone is an invitation they accept (issue 34): the row made is the invitation.
        created=Invitation,
        watched=(AuditEvent, Membership),
        shown_at=lambda obj: reverse("accounts:invitations"),
        complete=one_audit_event,
    ),
}


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
