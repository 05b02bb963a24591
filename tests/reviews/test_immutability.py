"""A signed review cannot change: not through the admin, and on PostgreSQL not even by raw SQL."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.db import DatabaseError, connection, transaction
from django.test import RequestFactory
from django.urls import reverse

from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.models import AuditEvent, Candidate, Review, SignOff
from apps.reviews.services.lifecycle import review_update
from tests.factories import make_link, make_offer, make_site, make_user
from tests.reviews.helpers import approve, ready_review, submitted_review
from tests.services import need_postgres

pytestmark = pytest.mark.django_db


@pytest.fixture
def approved(team, owner, reviewer):
    review = submitted_review(team, owner)
    approve(review, reviewer)
    review.refresh_from_db()
    return review


@pytest.fixture
def superuser(db):
    return make_user("root", is_superuser=True, is_staff=True)


class AdminTests:
    def objects_of(self, review):
        candidate = review.candidates.first()
        return {
            Review: review,
            Candidate: candidate,
            SignOff: review.signoffs.first(),
            ChecklistAnswer: candidate.answers.first(),
        }

    def test_admin_refuses_change_and_delete_of_a_final_review(self, approved, superuser):
        request = RequestFactory().get("/")
        request.user = superuser
        for model, obj in self.objects_of(approved).items():
            model_admin = admin.site._registry[model]
            assert model_admin.has_change_permission(request, obj) is False, model
            assert model_admin.has_delete_permission(request, obj) is False, model
            assert model_admin.has_view_permission(request, obj) is True, model

    def test_admin_allows_changes_of_a_draft(self, team, owner, superuser):
        draft = ready_review(team, owner)
        request = RequestFactory().get("/")
        request.user = superuser
        model_admin = admin.site._registry[Review]
        assert model_admin.has_change_permission(request, draft) is True

    def test_a_post_to_the_admin_change_page_is_refused(self, client, approved, superuser):
        client.force_login(superuser)
        url = reverse("admin:reviews_review_change", args=[approved.pk])
        response = client.post(url, {"title": "Rewritten", "state": "draft"})
        assert response.status_code == 403
        delete = client.post(
            reverse("admin:reviews_review_delete", args=[approved.pk]), {"post": "yes"}
        )
        assert delete.status_code == 403
        title = approved.title
        approved.refresh_from_db()
        assert (approved.title, approved.state) == (title, "approved")

    def test_audit_events_are_never_editable_in_the_admin(self, approved, superuser):
        request = RequestFactory().get("/")
        request.user = superuser
        model_admin = admin.site._registry[AuditEvent]
        event = approved.audit_events.first()
        assert model_admin.has_add_permission(request) is False
        assert model_admin.has_change_permission(request, event) is False
        assert model_admin.has_delete_permission(request, event) is False


def refused(sql: str, params: list, because: str = "approved") -> bool:
    """True when the database refuses the statement for the expected reason (a savepoint keeps
    the test's transaction usable afterwards)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
    except DatabaseError as exc:
        assert because in str(exc), exc
        return True
    return False


class DatabaseTriggerTests:
    """PostgreSQL only: the triggers of reviews 0005 and checklists 0003."""

    def test_the_review_row_of_an_approved_review_cannot_change(self, approved):
        need_postgres()
        assert refused("UPDATE reviews_review SET title = 'x' WHERE id = %s", [approved.pk])
        assert refused("UPDATE reviews_review SET state = 'draft' WHERE id = %s", [approved.pk])
        assert refused("DELETE FROM reviews_review WHERE id = %s", [approved.pk])
        approved.refresh_from_db()
        assert approved.state == "approved"

    def test_candidates_answers_and_signoffs_of_it_cannot_change(self, approved):
        need_postgres()
        candidate = approved.candidates.first()
        answer = candidate.answers.first()
        signoff = approved.signoffs.first()
        assert refused("UPDATE reviews_candidate SET machines = 9 WHERE id = %s", [candidate.pk])
        assert refused("DELETE FROM reviews_candidate WHERE id = %s", [candidate.pk])
        assert refused(
            "INSERT INTO reviews_candidate (review_id, offer_id, machines, position) "
            "VALUES (%s, %s, 1, 5)",
            [approved.pk, make_offer(approved.team).pk],
        )
        assert refused(
            "UPDATE checklists_checklistanswer SET text = 'x' WHERE id = %s", [answer.pk]
        )
        assert refused("DELETE FROM checklists_checklistanswer WHERE id = %s", [answer.pk])
        assert refused(
            "INSERT INTO checklists_checklistanswer "
            "(candidate_id, question, status, text, evidence_url, updated_at) "
            "VALUES (%s, 'q9', 'answered', 'x', '', now())",
            [candidate.pk],
        )
        assert refused("UPDATE reviews_signoff SET comment = 'x' WHERE id = %s", [signoff.pk])
        assert refused("DELETE FROM reviews_signoff WHERE id = %s", [signoff.pk])
        assert candidate.answers.count() == 6

    def test_the_links_it_reserved_cannot_change(self, team, owner, reviewer):
        need_postgres()
        review = submitted_review(team, owner)
        a, b, c = make_site(team), make_site(team), make_site(team)
        kept = make_link(team, a, b, reservable=True)
        other = make_link(team, b, c, reservable=True)
        review.reserved_links.add(kept)  # still submitted: the trigger lets it in
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == "approved"
        table = "reviews_review_reserved_links"
        row = [review.pk, kept.pk]
        assert refused(f"DELETE FROM {table} WHERE review_id = %s AND networklink_id = %s", row)
        assert refused(
            f"UPDATE {table} SET networklink_id = %s WHERE review_id = %s", [other.pk, review.pk]
        )
        assert refused(
            f"INSERT INTO {table} (review_id, networklink_id) VALUES (%s, %s)",
            [review.pk, other.pk],
        )
        # The ORM goes through the same table: unreserving is refused as well.
        with pytest.raises(DatabaseError, match="approved"), transaction.atomic():
            review.reserved_links.remove(kept)
        assert list(review.reserved_links.values_list("pk", flat=True)) == [kept.pk]

    def test_audit_events_are_append_only(self, approved, team, owner):
        need_postgres()
        draft = ready_review(team, owner)
        review_update(review=draft, actor=owner, title="Still a draft")
        for event in (approved.audit_events.first(), draft.audit_events.first()):
            assert refused(
                "UPDATE reviews_auditevent SET action = 'x' WHERE id = %s",
                [event.pk],
                "append-only",
            )
            assert refused(
                "DELETE FROM reviews_auditevent WHERE id = %s", [event.pk], "append-only"
            )

    def test_a_draft_still_changes_freely(self, team, owner):
        need_postgres()
        draft = ready_review(team, owner)
        candidate = draft.candidates.first()
        assert not refused("UPDATE reviews_review SET title = 'ok' WHERE id = %s", [draft.pk])
        assert not refused(
            "UPDATE reviews_candidate SET machines = 2 WHERE id = %s", [candidate.pk]
        )
        assert not refused(
            "UPDATE checklists_checklistanswer SET text = 'ok' WHERE candidate_id = %s",
            [candidate.pk],
        )
        draft.refresh_from_db()
        assert draft.title == "ok"
