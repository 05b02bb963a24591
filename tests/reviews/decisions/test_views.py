"""The review page and the decision on it (apps/reviews/views/detail.py): the decision panel as a
full page and as an htmx fragment, refusals in place, the engine version of what was signed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.models import Review
from tests.reviews.helpers import (
    approve,
    current_snapshot_id,
    ready_review,
    second_reviewer,
    submitted_review,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


class ReviewDetailTests:
    def test_it_shows_profile_candidates_evaluation_and_timeline(self, client, team, owner):
        review = submitted_review(team, owner, title="Detail page")
        client.force_login(owner)
        response = client.get(reverse("reviews:detail", args=[review.pk]))
        body = response.content.decode()
        assert response.status_code == 200
        assert 'id="review-evaluation"' in body
        assert "Task profile" in body and "Sign-offs" in body
        timeline = response.context["timeline"]
        assert [e.event.action for e in timeline] == ["submitted"]
        assert "submitted the review" in body
        assert "You wrote this review" in body  # the author has no decision form

    def test_a_reviewer_sees_the_decision_form_and_htmx_gets_the_panel(
        self, client, team, owner, reviewer
    ):
        review = submitted_review(team, owner)
        client.force_login(reviewer)
        page = client.get(reverse("reviews:detail", args=[review.pk]))
        assert page.context["can_decide"] is True
        assert page.context["decision_form"].initial["snapshot"] == current_snapshot_id(review)
        fragment = client.get(reverse("reviews:detail", args=[review.pk]), **HX)
        body = fragment.content.decode()
        assert body.lstrip().startswith('<section id="decision-panel"')
        assert 'name="decision" value="approve"' in body
        assert "<html" not in body

    def test_the_approve_button_is_off_while_a_block_finding_stands(
        self, client, team, owner, reviewer, django_capture_on_commit_callbacks
    ):
        review = submitted_review(team, owner)
        ChecklistAnswer.objects.filter(question__in=["q1", "q2"]).update(status="unanswered")
        client.force_login(reviewer)
        with django_capture_on_commit_callbacks(execute=True):
            client.get(reverse("reviews:detail", args=[review.pk]))  # computes the figures
        response = client.get(reverse("reviews:detail", args=[review.pk]), **HX)
        body = response.content.decode()
        assert "Approval is not possible on these figures" in body
        assert 'value="approve" class="btn btn--ok" disabled' in body


class DecideViewTests:
    def test_a_reviewer_approves_and_the_page_shows_it(self, client, team, owner, reviewer):
        review = submitted_review(team, owner)
        client.force_login(reviewer)
        response = client.post(
            reverse("reviews:decide", args=[review.pk]),
            {
                "decision": "approve",
                "comment": "Good.",
                "snapshot": current_snapshot_id(review),
                "version": review.version,
            },
        )
        assert response.status_code == 302
        review.refresh_from_db()
        assert review.state == "approved"
        page = client.get(response["Location"])
        body = page.content.decode()
        assert "Your approval is recorded." in body
        assert "Approved and frozen." in body
        assert [e.event.action for e in page.context["timeline"]] == [
            "submitted",
            "signed_off",
            "approved",
        ]

    def test_htmx_gets_a_redirect_header_on_success(self, client, team, owner, reviewer):
        review = submitted_review(team, owner)
        client.force_login(reviewer)
        response = client.post(
            reverse("reviews:decide", args=[review.pk]),
            {"decision": "reject", "comment": "No.", "snapshot": current_snapshot_id(review)},
            **HX,
        )
        assert response.status_code == 200
        assert response["HX-Redirect"] == reverse("reviews:detail", args=[review.pk])
        review.refresh_from_db()
        assert review.state == "rejected"

    def test_a_missing_comment_is_shown_on_the_field(self, client, team, owner, reviewer):
        review = submitted_review(team, owner)
        client.force_login(reviewer)
        url = reverse("reviews:decide", args=[review.pk])
        data = {"decision": "request_changes", "snapshot": current_snapshot_id(review)}
        fragment = client.post(url, data, **HX)
        assert fragment.status_code == 200
        body = fragment.content.decode()
        assert body.lstrip().startswith('<section id="decision-panel"')
        assert "a comment is required" in body
        full = client.post(url, data)
        assert full.status_code == 400
        assert "comment" in full.context["decision_form"].errors
        review.refresh_from_db()
        assert review.state == "submitted"

    def test_self_approval_is_refused_with_its_reason(self, client, team, owner):
        review = submitted_review(team, owner)
        client.force_login(owner)
        url = reverse("reviews:decide", args=[review.pk])
        data = {"decision": "approve", "snapshot": current_snapshot_id(review)}
        response = client.post(url, data)
        assert response.status_code == 409
        assert "cannot sign it off" in response.content.decode()
        fragment = client.post(url, data, **HX)
        assert fragment.status_code == 200
        assert "cannot sign it off" in fragment.content.decode()
        assert not review.signoffs.exists()

    def test_a_stale_snapshot_brings_the_fresh_figures(
        self, client, team, owner, reviewer, django_capture_on_commit_callbacks
    ):
        review = submitted_review(team, owner)
        seen = current_snapshot_id(review)
        review.task.compute_hours = 42
        review.task.save()
        client.force_login(reviewer)
        url = reverse("reviews:decide", args=[review.pk])
        response = client.post(url, {"decision": "approve", "snapshot": seen}, **HX)
        assert response.status_code == 409
        assert response["HX-Redirect"] == reverse("reviews:detail", args=[review.pk])
        with django_capture_on_commit_callbacks(execute=True):
            first = client.get(response["HX-Redirect"])  # the page asks for the fresh figures
        assert "the figures changed since you opened this page" in first.content.decode().lower()
        page = client.get(response["HX-Redirect"])
        fresh = page.context["snapshot"]
        assert fresh.pk != seen
        assert fresh.input["task"]["compute_hours"] == 42
        assert page.context["decision_form"].initial["snapshot"] == fresh.pk
        review.refresh_from_db()
        assert review.state == "submitted"

    def test_a_decision_on_a_decided_review_is_a_conflict_not_a_500(
        self, client, team, owner, reviewer
    ):
        review = submitted_review(team, owner)
        seen = current_snapshot_id(review)
        approve(review, second_reviewer(team))
        client.force_login(reviewer)
        url = reverse("reviews:decide", args=[review.pk])
        response = client.post(url, {"decision": "reject", "comment": "x", "snapshot": seen}, **HX)
        assert response.status_code == 409
        full = client.post(url, {"decision": "reject", "comment": "x", "snapshot": seen})
        assert full.status_code == 302
        page = client.get(full["Location"])
        assert "no longer waiting for a decision" in page.content.decode()
        review.refresh_from_db()
        assert review.state == "approved"


class ReviewPageContentTests:
    def test_the_review_page_shows_the_answers(self, client, team, owner, reviewer):
        review = submitted_review(team, owner)
        client.force_login(reviewer)
        body = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        assert "Checklist answers" in body
        for question in ("q1", "q2", "q3", "q4", "q5", "q6"):
            assert f"Answer to {question}" in body

    def test_it_speaks_chinese(self, client, team, owner):
        review = submitted_review(team, owner)
        client.force_login(owner)
        client.cookies["django_language"] = "zh-hans"
        body = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        assert "时间线" in body and "核对清单回答" in body
        checklist = client.get(reverse("checklists:review", args=[review.pk])).content.decode()
        assert "选型核对清单" in checklist
        assert "显存和数据量：任务能不能单机放下？" in checklist


def _signed_under(review, version: str) -> int:
    """Make the snapshot the approved review was signed on look computed by engine `version`."""
    from apps.profiles.engine_input import fingerprint
    from apps.reviews.snapshots.models import EvaluationSnapshot

    signed = review.signoffs.get(decision="approve").snapshot
    EvaluationSnapshot.objects.filter(pk=signed.pk).update(
        engine_version=version, fingerprint=fingerprint(signed.input, version)
    )
    return signed.pk


class SignedEngineVersionTests:
    """An approved review says which engine computed what was signed (SPEC 6), and never gets a
    snapshot of the current engine behind the reviewers' backs."""

    @pytest.fixture
    def signed(self, team, owner, reviewer):
        review = submitted_review(team, owner)
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.state == "approved"
        return review

    def test_the_page_names_the_engine_of_a_snapshot_signed_on_the_current_one(
        self, client, signed, reviewer
    ):
        import engine

        client.force_login(reviewer)
        html = client.get(reverse("reviews:detail", args=[signed.pk])).content.decode()
        assert f"Computed by engine {engine.ENGINE_VERSION}." in html
        assert "The current method is" not in html

    def test_an_older_engine_is_said_plainly_and_nothing_is_recomputed(
        self, client, signed, reviewer
    ):
        import engine

        signed_pk = _signed_under(signed, "1.1.0")
        count = signed.snapshots.count()
        client.force_login(reviewer)
        response = client.get(reverse("reviews:detail", args=[signed.pk]))
        html = response.content.decode()
        assert response.status_code == 200
        assert "Computed by engine 1.1.0." in html
        assert (
            f"The current method is {engine.ENGINE_VERSION}; this decision was signed under "
            "1.1.0." in html
        )
        assert f'data-snapshot="{signed_pk}"' in html  # the signed figures are the ones shown
        assert signed.snapshots.count() == count

    def test_the_htmx_fragments_show_the_signed_snapshot_and_its_engine(
        self, client, signed, reviewer
    ):
        import engine

        signed_pk = _signed_under(signed, "1.1.0")
        client.force_login(reviewer)
        panel = client.get(reverse("reviews:detail", args=[signed.pk]), **HX)
        html = panel.content.decode()
        assert html.strip().startswith('<section id="decision-panel"')
        assert f"Approved on snapshot #{signed_pk}" in html
        assert "Computed by engine 1.1.0." in html
        assert f"The current method is {engine.ENGINE_VERSION}" in html
        evaluation = client.get(reverse("scoring:review_evaluation", args=[signed.pk]), **HX)
        assert evaluation.status_code == 286  # done: nothing to poll for
        assert f'data-snapshot="{signed_pk}"' in evaluation.content.decode()
        assert signed.snapshots.count() == 1

    def test_it_says_so_in_chinese(self, client, signed, reviewer):
        import engine

        _signed_under(signed, "1.1.0")
        client.force_login(reviewer)
        url = reverse("reviews:detail", args=[signed.pk])
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        assert "由引擎 1.1.0 计算。" in html
        assert f"当前方法为 {engine.ENGINE_VERSION}；此决定是在 1.1.0 下签署的。" in html
        panel = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans", **HX).content.decode()
        assert "由引擎 1.1.0 计算。" in panel and "Computed by engine" not in panel

    def test_an_outsider_still_gets_404(self, client, signed, outsider):
        client.force_login(outsider)
        assert client.get(reverse("reviews:detail", args=[signed.pk])).status_code == 404
        assert client.get(reverse("reviews:detail", args=[signed.pk]), **HX).status_code == 404


class MigrationEffortPageTests:
    """The candidates' Q5 migration effort on the review and candidates pages (SPEC 6.1 T)."""

    def _with_effort(self, team, owner, hours: float) -> Review:
        from apps.reviews.checklists.services import checklist_answer_save

        review = ready_review(team, owner)
        checklist_answer_save(
            candidate=review.candidates.get(),
            question="q5",
            actor=owner,
            status="answered",
            text="Same image; a day of work.",
            migration_effort_hours=hours,
        )
        return review

    def test_the_review_page_shows_it_and_the_timeline_names_it(self, client, team, owner):
        review = self._with_effort(team, owner, 7.5)
        client.force_login(owner)
        response = client.get(reverse("reviews:detail", args=[review.pk]))
        body = response.content.decode()
        assert [c.migration_effort_hours for c in response.context["candidates"]] == [7.5]
        assert "Migration effort" in body and '<td class="num">7.50 h</td>' in body
        assert "migration effort 7.50 h" in body  # under the Q5 answer
        assert "migration effort (engineer hours)" in body  # the audit entry's field

    def test_the_candidates_page_links_it_to_q5_as_page_and_fragment(self, client, team, owner):
        review = self._with_effort(team, owner, 2)
        candidate = review.candidates.get()
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        anchor = reverse("checklists:review", args=[review.pk]) + f"#q-{candidate.pk}-q5"
        for response in (client.get(url), client.get(url, **HX)):
            assert f'href="{anchor}"' in response.content.decode()
            assert ">2.00 h</a>" in response.content.decode()

    def test_a_signed_review_shows_the_effort_it_was_signed_with(
        self, client, team, owner, reviewer
    ):
        review = self._with_effort(team, owner, 5)
        from apps.reviews.services.submission import review_submit

        review_submit(review=review, actor=owner)
        review.refresh_from_db()
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.frozen_input["offers"][0]["migration_effort_hours"] == 5.0
        client.force_login(owner)
        body = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        assert '<td class="num">5.00 h</td>' in body
