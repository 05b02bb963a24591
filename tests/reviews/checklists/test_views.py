"""The checklist page: both shapes, autosave in place, the counter event, no-JS fallbacks."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.reviews.checklists.forms import answer_prefix
from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.checklists.services import answer_token
from apps.reviews.models import Candidate, Review
from tests.factories import make_benchmark, make_offer, make_review
from tests.reviews.helpers import ready_review, submitted_review

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def answer_data(candidate, question: str, **values) -> dict:
    prefix = answer_prefix(candidate.pk, question)
    data = {"status": "answered", "text": "", "evidence_benchmark": "", "evidence_url": ""}
    data.update(values)
    return {f"{prefix}-{key}": value for key, value in data.items()}


def answer_url(candidate, question: str) -> str:
    return reverse("checklists:answer", args=[candidate.pk, question])


class ChecklistPageTests:
    def test_it_shows_six_questions_with_guidance_per_candidate(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team), make_offer(team)])
        client.force_login(owner)
        response = client.get(reverse("checklists:review", args=[review.pk]))
        body = response.content.decode()
        assert response.status_code == 200
        assert body.count('class="question"') == 12
        for title in (
            "Task scale",
            "Split and network",
            "Fault tolerance",
            "Billing basis",
            "Migration cost",
            "Exit path",
        ):
            assert title in body
        assert "usable memory (GPU memory × 0.9 headroom)" in body
        # Saved as typed (debounced) and on leaving a field; what is pending when the page is
        # left is sent by static/js/app.js (data-autosave).
        assert body.count('hx-trigger="input delay:600ms, change, submit"') == 12
        assert body.count("data-autosave ") == 12
        assert "6 unanswered" in body
        assert "Not ready to sign" in body
        assert 'hx-trigger="checklistChanged from:body"' in body

    def test_htmx_gets_the_progress_panel(self, client, team, owner):
        review = ready_review(team, owner, unanswered=1)
        client.force_login(owner)
        response = client.get(reverse("checklists:review", args=[review.pk]), **HX)
        body = response.content.decode()
        assert body.lstrip().startswith('<section id="checklist-progress"')
        assert "<html" not in body
        assert "1 unanswered" in body
        assert "Ready to sign" in body

    def test_a_submitted_review_is_shown_read_only(self, client, team, owner):
        review = submitted_review(team, owner)
        client.force_login(owner)
        body = client.get(reverse("checklists:review", args=[review.pk])).content.decode()
        assert "hx-post" not in body
        assert "Answer to q1" in body
        assert "its answers cannot change" in body

    def test_its_query_count_does_not_grow_with_candidates(self, client, team, owner):
        client.force_login(owner)

        def count(n: int) -> int:
            review = make_review(team, owner, offers=[make_offer(team) for _ in range(n)])
            with CaptureQueriesContext(connection) as ctx:
                client.get(reverse("checklists:review", args=[review.pk]))
            return len(ctx.captured_queries)

        assert count(1) == count(6)


class AnswerViewTests:
    def test_htmx_save_answers_saved_in_place_with_the_counter_and_an_event(
        self, client, team, owner
    ):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        response = client.post(
            answer_url(candidate, "q1"),
            answer_data(candidate, "q1", text="One machine holds it.", seen=""),
            **HX,
        )
        assert response.status_code == 200
        assert response["HX-Trigger"] == "checklistChanged"
        body = response.content.decode()
        assert body.lstrip().startswith(f'<div id="answer-state-{candidate.pk}-q1"')
        assert "save-state--saved" in body and "Saved" in body
        assert f'id="counter-{candidate.pk}"' in body and 'hx-swap-oob="true"' in body
        assert "5 unanswered" in body
        answer = ChecklistAnswer.objects.get()
        # The hidden token moves on, so the next save from the same form is not a conflict.
        assert answer_token(answer) in body
        assert (answer.status, answer.text) == ("answered", "One machine holds it.")

    def test_an_error_is_shown_in_place_without_the_event(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        bad_url = client.post(
            answer_url(candidate, "q2"),
            answer_data(candidate, "q2", text="x", evidence_url="not a url"),
            **HX,
        )
        assert bad_url.status_code == 200
        assert "HX-Trigger" not in bad_url
        body = bad_url.content.decode()
        assert "save-state--error" in body and "Enter a valid URL." in body
        assert not ChecklistAnswer.objects.exists()

    def test_evidence_of_the_task_is_accepted(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        record = make_benchmark(team, review.task, candidate.offer)
        client.force_login(owner)
        client.post(
            answer_url(candidate, "q3"),
            answer_data(candidate, "q3", text="Resumes", evidence_benchmark=record.pk),
            **HX,
        )
        assert ChecklistAnswer.objects.get().evidence_benchmark == record

    def test_a_concurrent_save_shows_the_other_answer(self, client, team, owner, member):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(member)
        client.post(answer_url(candidate, "q4"), answer_data(candidate, "q4", text="Theirs"), **HX)
        client.force_login(owner)
        response = client.post(
            answer_url(candidate, "q4"), answer_data(candidate, "q4", text="Mine", seen=""), **HX
        )
        body = response.content.decode()
        assert "Someone else saved this answer meanwhile" in body
        assert "Theirs" in body
        assert ChecklistAnswer.objects.get().text == "Theirs"

    def test_a_submitted_review_refuses_in_place(self, client, team, owner):
        review = submitted_review(team, owner)
        candidate = review.candidates.get()
        client.force_login(owner)
        response = client.post(
            answer_url(candidate, "q1"), answer_data(candidate, "q1", status="unanswered"), **HX
        )
        assert response.status_code == 200
        assert "cannot be edited now" in response.content.decode()
        assert ChecklistAnswer.objects.get(candidate=candidate, question="q1").status == "answered"

    def test_without_javascript_it_redirects_back_to_the_question(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        response = client.post(
            answer_url(candidate, "q6"), answer_data(candidate, "q6", text="Weights leave as is")
        )
        assert response.status_code == 302
        assert response["Location"] == (
            reverse("checklists:review", args=[review.pk]) + f"#q-{candidate.pk}-q6"
        )
        assert "Saved." in client.get(response["Location"]).content.decode()

    def test_without_javascript_an_error_rerenders_the_page(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        response = client.post(
            answer_url(candidate, "q6"), answer_data(candidate, "q6", text="x", evidence_url="no")
        )
        assert response.status_code == 400
        body = response.content.decode()
        assert "<html" in body
        assert "Enter a valid URL." in body

    def test_unknown_question_and_other_team_are_404(self, client, team, owner, outsider):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        assert client.post(answer_url(candidate, "q9"), {}).status_code == 404
        client.force_login(outsider)
        assert (
            client.post(answer_url(candidate, "q1"), answer_data(candidate, "q1")).status_code
            == 404
        )
        assert client.get(reverse("checklists:review", args=[review.pk])).status_code == 404
        assert not ChecklistAnswer.objects.exists()

    def test_a_changes_requested_review_goes_back_to_draft_on_answer(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)], state="changes_requested")
        candidate = review.candidates.get()
        client.force_login(owner)
        client.post(answer_url(candidate, "q1"), answer_data(candidate, "q1", text="x"), **HX)
        review.refresh_from_db()
        assert review.state == "draft"
        assert Review.objects.get(pk=review.pk).audit_events.count() == 2


class MigrationEffortViewTests:
    """The Q5 card edits the candidate's migration effort with the answer (SPEC 6.1 T)."""

    def test_the_q5_card_alone_shows_the_effort_field_with_its_help(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        Candidate.objects.filter(pk=candidate.pk).update(migration_effort_hours=6)
        client.force_login(owner)
        body = client.get(reverse("checklists:review", args=[review.pk])).content.decode()
        name = f"{answer_prefix(candidate.pk, 'q5')}-migration_effort_hours"
        assert re.findall(r'name="([^"]*migration_effort_hours)"', body) == [name]
        assert f'name="{name}" value="6.0"' in body
        assert "Migration effort (engineer hours)" in body
        assert "The bill prices it on its own line" in body

    def test_htmx_saves_the_effort_with_the_answer_in_place(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        response = client.post(
            answer_url(candidate, "q5"),
            answer_data(candidate, "q5", text="Same image.", migration_effort_hours="12.5"),
            **HX,
        )
        assert response.status_code == 200
        assert response["HX-Trigger"] == "checklistChanged"
        body = response.content.decode()
        assert body.lstrip().startswith(f'<div id="answer-state-{candidate.pk}-q5"')
        candidate.refresh_from_db()
        assert candidate.migration_effort_hours == 12.5
        event = review.audit_events.get()
        assert event.changes["migration_effort_hours"] == [None, "12.5"]

    def test_without_javascript_it_saves_and_redirects_to_the_question(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        response = client.post(
            answer_url(candidate, "q5"),
            answer_data(candidate, "q5", text="Same image.", migration_effort_hours="3"),
        )
        assert response.status_code == 302
        assert response["Location"].endswith(f"#q-{candidate.pk}-q5")
        candidate.refresh_from_db()
        assert candidate.migration_effort_hours == 3.0

    @pytest.mark.parametrize("value", ["-1", "nan", "inf", "a week"])
    def test_a_bad_effort_is_an_error_on_the_field_and_nothing_is_stored(
        self, client, team, owner, value
    ):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        data = answer_data(candidate, "q5", text="x", migration_effort_hours=value)
        fragment = client.post(answer_url(candidate, "q5"), data, **HX)
        assert "HX-Trigger" not in fragment
        assert "save-state--error" in fragment.content.decode()
        page = client.post(answer_url(candidate, "q5"), data)
        assert page.status_code == 400
        field = f"{answer_prefix(candidate.pk, 'q5')}-migration_effort_hours"
        html = page.content.decode()
        assert f'id="field-{field}"' in html and "field--error" in html
        candidate.refresh_from_db()
        assert candidate.migration_effort_hours is None
        assert not ChecklistAnswer.objects.exists()

    def test_a_read_only_checklist_shows_the_effort(self, client, team, owner):
        review = submitted_review(team, owner)
        Candidate.objects.filter(review=review).update(migration_effort_hours=8)
        client.force_login(owner)
        body = client.get(reverse("checklists:review", args=[review.pk])).content.decode()
        assert "Migration effort (engineer hours): 8.00 h" in body


class OneControlOneStatusTests:
    """Issue 15: a typed answer showed "✓ Saved" while the question still counted as unanswered
    (the status was a separate radio left on "unanswered"). Now the text decides, unless the
    person marks it "cannot answer yet"; the saved state, the counter and the gate agree."""

    def test_a_written_answer_counts_as_answered_and_says_so(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        data = answer_data(candidate, "q1", text="One machine holds it.")
        data.pop(f"{answer_prefix(candidate.pk, 'q1')}-status")  # no such control any more
        response = client.post(answer_url(candidate, "q1"), data, **HX)
        body = response.content.decode()
        assert "Saved" in body and "badge--ok" in body and ">Answered<" in body
        assert 'data-unanswered="5"' in body  # the counter swapped in with the save
        assert ChecklistAnswer.objects.get(candidate=candidate, question="q1").status == "answered"

    def test_cannot_answer_yet_keeps_the_note_and_stays_unanswered(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        data = answer_data(candidate, "q3", text="Waiting for the vendor's quote.", not_yet="on")
        body = client.post(answer_url(candidate, "q3"), data, **HX).content.decode()
        assert "Saved" in body and ">Unanswered<" in body and 'data-unanswered="6"' in body
        answer = ChecklistAnswer.objects.get(candidate=candidate, question="q3")
        assert (answer.status, answer.text) == ("unanswered", "Waiting for the vendor's quote.")
        page = client.get(reverse("checklists:review", args=[review.pk])).content.decode()
        assert re.search(r'name="[^"]*q3-not_yet"[^>]*checked', page)

    def test_an_empty_answer_is_unanswered_without_an_error(self, client, team, owner):
        review = make_review(team, owner, offers=[make_offer(team)])
        candidate = review.candidates.get()
        client.force_login(owner)
        body = client.post(
            answer_url(candidate, "q4"), answer_data(candidate, "q4", text="   "), **HX
        ).content.decode()
        assert "save-state--error" not in body and ">Unanswered<" in body
