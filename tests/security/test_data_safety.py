"""Nothing signed is lost or rewritten: an approved review cannot change by any path (services,
pages, admin, the ORM, raw SQL); what a review uses cannot be deleted from under it; the audit
trail is append-only.

The database-level guards (triggers of reviews 0005 and checklists 0003) exist on PostgreSQL;
on SQLite the services, the pages and the admin are the guard, and those tests run on both.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection, transaction
from django.db.models import ProtectedError
from django.test import Client, RequestFactory
from django.urls import reverse

from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.models import AuditEvent, Candidate, Review, SignOff
from apps.reviews.services.candidates import (
    candidate_add,
    candidate_remove,
    candidate_update,
    review_reserve_links,
)
from apps.reviews.services.lifecycle import review_update
from apps.reviews.services.signoff import signoff_create
from apps.reviews.services.submission import review_submit
from apps.reviews.workflow import ReviewConflict, ReviewRefused
from tests.factories import make_offer, make_user
from tests.security.helpers import TeamWorld, build_team
from tests.security.test_authz_matrix import MATRIX, url_names
from tests.services import need_postgres

pytestmark = pytest.mark.django_db
Links = Review.reserved_links.through


@pytest.fixture
def approved(db) -> TeamWorld:
    """Team alpha with its review approved by the reviewer (one approval required)."""
    world = build_team("alpha")
    signoff_create(
        review=world.review,
        reviewer=world.reviewer,
        decision="approve",
        snapshot_id=world.snapshot.pk,
        version=world.review.version,
    )
    world.review.refresh_from_db()
    assert world.review.state == "approved"
    world.extra["spare_offer"] = make_offer(world.team, site=world.home, name="Spare")
    return world


@pytest.fixture
def superuser(db):
    return make_user("root", is_superuser=True, is_staff=True)


def state_of(review_id: int) -> dict:
    """Every row that makes up the review, as plain values."""
    return {
        "review": Review.objects.filter(pk=review_id).values().get(),
        "candidates": list(Candidate.objects.filter(review_id=review_id).order_by("pk").values()),
        "answers": list(
            ChecklistAnswer.objects.filter(candidate__review_id=review_id).order_by("pk").values()
        ),
        "signoffs": list(SignOff.objects.filter(review_id=review_id).order_by("pk").values()),
        "links": list(Links.objects.filter(review_id=review_id).order_by("pk").values()),
        "audit": list(AuditEvent.objects.filter(review_id=review_id).order_by("pk").values()),
    }


def all_rows() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


class ServiceRefusalTests:
    def test_every_write_service_refuses_an_approved_review(self, approved):
        w = approved
        before = state_of(w.review.pk)
        review = Review.objects.get(pk=w.review.pk)
        attempts = {
            "title": lambda: review_update(review=review, actor=w.member, title="New"),
            "candidate_add": lambda: candidate_add(
                review=review, actor=w.member, offer=w.extra["spare_offer"], machines=1
            ),
            "candidate_update": lambda: candidate_update(
                candidate=w.candidate, actor=w.member, machines=3
            ),
            "candidate_remove": lambda: candidate_remove(
                candidate=w.candidate, actor=w.member
            ),
            "answer": lambda: checklist_answer_save(
                candidate=w.candidate, question="q1", actor=w.member, status="unanswered"
            ),
            "reserve_links": lambda: review_reserve_links(
                review=review, actor=w.member, links=[]
            ),
            "submit": lambda: review_submit(review=review, actor=w.member),
            "decide_again": lambda: signoff_create(
                review=review, reviewer=w.owner, decision="reject", comment="No.",
                snapshot_id=w.snapshot.pk,
            ),
        }
        for name, attempt in attempts.items():
            with pytest.raises((ReviewConflict, ReviewRefused, PermissionDenied)):
                attempt()
            assert state_of(w.review.pk) == before, name


class PageRefusalTests:
    def test_no_page_changes_an_approved_review(self, approved):
        w = approved
        client = Client(raise_request_exception=False)
        client.force_login(w.owner)  # the most powerful member of the team
        before = state_of(w.review.pk)
        pk, version = w.review.pk, w.review.version
        prefix = f"a{w.candidate.pk}-q1"
        posts = [
            ("reviews:edit", [pk], {"title": "Rewritten", "version": version}),
            ("reviews:edit", [pk], {"form": "links", "version": version}),
            ("reviews:candidates", [pk], {"action": "add", "offer": w.extra["spare_offer"].pk,
                                          "machines": 1, "version": version}),
            ("reviews:candidates", [pk], {"action": "remove", "candidate": w.candidate.pk,
                                          "version": version}),
            ("reviews:candidates", [pk], {"action": "update", "candidate": w.candidate.pk,
                                          "machines": 4, "version": version}),
            ("checklists:answer", [w.candidate.pk, "q1"],
             {f"{prefix}-text": ""}),
            ("reviews:submit", [pk], {"version": version}),
            ("reviews:decide", [pk], {"decision": "reject", "comment": "No.",
                                      "snapshot": w.snapshot.pk, "version": version}),
        ]
        for name, args, data in posts:
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = client.post(reverse(name, args=args), data, **headers)
                assert response.status_code in (200, 302, 400, 409), (name, response.status_code)
                assert state_of(w.review.pk) == before, name


class AdminRefusalTests:
    def objects_of(self, w: TeamWorld) -> dict:
        return {
            "reviews_review": w.review,
            "reviews_candidate": w.candidate,
            "reviews_signoff": SignOff.objects.get(review=w.review),
            "reviews_checklistanswer": ChecklistAnswer.objects.filter(
                candidate=w.candidate
            ).first(),
        }

    def test_the_admin_neither_changes_nor_deletes_any_part_of_it(self, client, approved,
                                                                  superuser):
        w = approved
        client.force_login(superuser)
        before = state_of(w.review.pk)
        for name, obj in self.objects_of(w).items():
            change = client.post(reverse(f"admin:{name}_change", args=[obj.pk]),
                                 {"title": "x", "machines": 9, "comment": "x", "text": "x"})
            assert change.status_code == 403, name
            delete = client.post(reverse(f"admin:{name}_delete", args=[obj.pk]), {"post": "yes"})
            assert delete.status_code == 403, name
            bulk = client.post(
                reverse(f"admin:{name}_changelist"),
                {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
            )
            assert bulk.status_code in (200, 302, 403), name
            assert state_of(w.review.pk) == before, name

    def test_audit_events_have_no_add_change_or_delete_in_the_admin(self, client, approved,
                                                                    superuser):
        event = AuditEvent.objects.filter(review=approved.review).first()
        request = RequestFactory().get("/")
        request.user = superuser
        model_admin = admin.site._registry[AuditEvent]
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request, event)
        assert not model_admin.has_delete_permission(request, event)
        assert "delete_selected" not in model_admin.get_actions(request)
        client.force_login(superuser)
        count, row = AuditEvent.objects.count(), AuditEvent.objects.filter(pk=event.pk).values()
        row = row.get()
        url = reverse("admin:reviews_auditevent_change", args=[event.pk])
        assert client.post(url, {"action": "x", "target": "x"}).status_code == 403
        delete = reverse("admin:reviews_auditevent_delete", args=[event.pk])
        assert client.post(delete, {"post": "yes"}).status_code == 403
        client.post(
            reverse("admin:reviews_auditevent_changelist"),
            {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"},
        )
        assert AuditEvent.objects.count() == count
        assert AuditEvent.objects.filter(pk=event.pk).values().get() == row

    def test_no_url_of_the_app_edits_or_deletes_audit_entries(self):
        names, _ = url_names()
        assert not [n for n in names if "audit" in n.lower()]
        assert set(MATRIX) == names  # and the matrix checks who can call each of them


def refused(action, because: str = "") -> bool:
    """True when the database refuses `action` (a savepoint keeps the test going)."""
    try:
        with transaction.atomic():
            action()
    except (DatabaseError, ProtectedError) as exc:
        assert because in str(exc), exc
        return True
    return False


def sql(statement: str, *params):
    def run():
        with connection.cursor() as cursor:
            cursor.execute(statement, list(params))

    return run


class DatabaseGuardTests:
    """PostgreSQL: whatever bypasses the services (the ORM, a shell, raw SQL) is refused."""

    def test_raw_sql_and_orm_writes_to_an_approved_review_are_refused(self, approved):
        need_postgres()
        w = approved
        before = state_of(w.review.pk)
        rid, cid = w.review.pk, w.candidate.pk
        answer = ChecklistAnswer.objects.filter(candidate=w.candidate).first()
        signoff = SignOff.objects.get(review=w.review)
        attempts = {
            "review update": sql("UPDATE reviews_review SET title = 'x' WHERE id = %s", rid),
            "review reopen": sql("UPDATE reviews_review SET state = 'draft' WHERE id = %s", rid),
            "review delete": sql("DELETE FROM reviews_review WHERE id = %s", rid),
            "candidate update": sql("UPDATE reviews_candidate SET machines = 7 WHERE id = %s",
                                    cid),
            "candidate delete": sql("DELETE FROM reviews_candidate WHERE id = %s", cid),
            "answer update": sql(
                "UPDATE checklists_checklistanswer SET status = 'unanswered' WHERE id = %s",
                answer.pk,
            ),
            "answer delete": sql("DELETE FROM checklists_checklistanswer WHERE id = %s",
                                 answer.pk),
            "signoff update": sql("UPDATE reviews_signoff SET decision = 'reject' WHERE id = %s",
                                  signoff.pk),
            "signoff delete": sql("DELETE FROM reviews_signoff WHERE id = %s", signoff.pk),
            "orm review update": lambda: Review.objects.filter(pk=rid).update(title="x"),
            "orm candidate update": lambda: Candidate.objects.filter(pk=cid).update(machines=2),
            "orm answer delete": lambda: ChecklistAnswer.objects.filter(pk=answer.pk).delete(),
            "orm signoff delete": lambda: SignOff.objects.filter(pk=signoff.pk).delete(),
            "orm links clear": lambda: Review.objects.get(pk=rid).reserved_links.clear(),
            "orm candidate add": lambda: Candidate.objects.create(
                review_id=rid, offer=w.extra["spare_offer"], machines=1, position=9
            ),
        }
        for name, attempt in attempts.items():
            assert refused(attempt), f"{name} went through"
        assert state_of(rid) == before

    def test_audit_events_cannot_be_updated_or_deleted(self, approved):
        need_postgres()
        events = AuditEvent.objects.filter(team=approved.team)
        first = events.order_by("pk").first()
        count = events.count()
        for attempt in (
            sql("UPDATE reviews_auditevent SET action = 'x' WHERE id = %s", first.pk),
            sql("DELETE FROM reviews_auditevent WHERE id = %s", first.pk),
            lambda: AuditEvent.objects.filter(pk=first.pk).update(target="x"),
            lambda: AuditEvent.objects.filter(team=approved.team).delete(),
        ):
            assert refused(attempt, "append-only")
        assert events.count() == count
        assert AuditEvent.objects.get(pk=first.pk).action == first.action


class ProtectTests:
    """A profile, offer or site that a review uses is never deleted, and nothing cascades."""

    def used(self, w: TeamWorld) -> dict:
        return {
            "profile": (w.profile, "profiles:delete"),
            "offer": (w.offer, "catalog:offer_delete"),
            "site": (w.home, "catalog:site_delete"),
        }

    def test_the_orm_refuses_to_delete_what_a_review_uses(self, approved):
        before = all_rows()
        for name, (obj, _) in self.used(approved).items():
            with pytest.raises(ProtectedError), transaction.atomic():
                obj.delete()
            assert all_rows() == before, name
        # Nor do the people and the team behind a signed review go.
        for obj in (approved.member, approved.reviewer, approved.team):
            with pytest.raises(ProtectedError), transaction.atomic():
                obj.delete()
        assert all_rows() == before

    def test_the_pages_refuse_with_the_reason(self, approved):
        w = approved
        client = Client(raise_request_exception=False)
        client.force_login(w.owner)
        before = all_rows()
        for name, (obj, url_name) in self.used(w).items():
            url = reverse(url_name, args=[obj.pk])
            page = client.post(url)
            assert page.status_code == 409, name
            assert "cannot be deleted" in page.content.decode(), name
            if url_name.startswith("catalog:"):
                fragment = client.post(url, HTTP_HX_REQUEST="true")
                assert fragment.status_code == 200
                assert "cannot be deleted" in fragment.content.decode(), name
            assert all_rows() == before, name
            assert type(obj).objects.filter(pk=obj.pk).exists()

    def test_a_draft_review_protects_what_it_uses_too(self, db):
        w = build_team("bravo")  # its review is submitted, not approved
        before = all_rows()
        for obj in (w.profile, w.offer, w.home, w.far):
            with pytest.raises(ProtectedError), transaction.atomic():
                obj.delete()
        assert all_rows() == before
