"""Review pages: access, both shapes of each htmx view, the decision flow, query counts."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.checklists.models import ChecklistAnswer
from apps.reviews.models import Review
from apps.reviews.selectors import approvals_waiting_count
from apps.scoring.services import current_snapshot
from tests.factories import make_membership, make_offer, make_profile, make_review, make_user
from tests.reviews.helpers import (
    approve,
    current_snapshot_id,
    ready_review,
    second_reviewer,
    submitted_review,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def review_urls(review) -> list[tuple[str, str]]:
    """(method, url) of every page of one review, including its checklist."""
    candidate = review.candidates.first()
    urls = [
        ("get", reverse("reviews:detail", args=[review.pk])),
        ("get", reverse("reviews:edit", args=[review.pk])),
        ("get", reverse("reviews:candidates", args=[review.pk])),
        ("post", reverse("reviews:submit", args=[review.pk])),
        ("post", reverse("reviews:decide", args=[review.pk])),
        ("post", reverse("reviews:clone", args=[review.pk])),
        ("get", reverse("checklists:review", args=[review.pk])),
    ]
    if candidate is not None:
        urls.append(("post", reverse("checklists:answer", args=[candidate.pk, "q1"])))
    return urls


class AccessTests:
    def test_anonymous_users_are_sent_to_login(self, client, team, owner):
        review = ready_review(team, owner)
        pages = [
            ("get", reverse("reviews:list")),
            ("get", reverse("reviews:create")),
            ("get", reverse("reviews:approvals")),
            *review_urls(review),
        ]
        for method, url in pages:
            response = getattr(client, method)(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("accounts:login")), url

    def test_an_outsider_gets_404_on_every_review_and_checklist_url(
        self, client, team, owner, outsider
    ):
        review = submitted_review(team, owner)
        client.force_login(outsider)
        for method, url in review_urls(review):
            assert getattr(client, method)(url).status_code == 404, url
            assert getattr(client, method)(url, **HX).status_code == 404, url
        review.refresh_from_db()
        assert review.state == "submitted"

    def test_a_member_who_is_not_a_reviewer_gets_403_on_decide(self, client, team, owner, member):
        review = submitted_review(team, owner)
        client.force_login(member)
        assert client.get(reverse("reviews:detail", args=[review.pk])).status_code == 200
        response = client.post(
            reverse("reviews:decide", args=[review.pk]),
            {"decision": "approve", "snapshot": current_snapshot_id(review)},
        )
        assert response.status_code == 403
        assert not review.signoffs.exists()


class ReviewListTests:
    def test_it_lists_the_team_reviews_with_state_badges(self, client, team, other_team, owner):
        mine = ready_review(team, owner, title="Fine-tune in Q3")
        make_review(other_team, make_user("x"), title="Not ours")
        client.force_login(owner)
        response = client.get(reverse("reviews:list"))
        assert response.status_code == 200
        body = response.content.decode()
        assert "Fine-tune in Q3" in body and "Not ours" not in body
        assert f'id="review-{mine.pk}"' in body
        assert "badge badge--draft" in body

    def test_it_filters_and_serves_the_results_fragment_to_htmx(self, client, team, owner):
        draft = ready_review(team, owner, title="Alpha plan")
        other = submitted_review(team, owner, title="Beta plan")
        client.force_login(owner)
        response = client.get(reverse("reviews:list"), {"state": "submitted"}, **HX)
        body = response.content.decode()
        assert body.lstrip().startswith('<section id="review-results"')
        assert "<html" not in body
        assert "Beta plan" in body and "Alpha plan" not in body
        response = client.get(reverse("reviews:list"), {"q": "alpha"})
        assert [r.pk for r in response.context["reviews"]] == [draft.pk]
        response = client.get(reverse("reviews:list"), {"task": other.task_id})
        assert [r.pk for r in response.context["reviews"]] == [other.pk]
        response = client.get(reverse("reviews:list"), {"author": owner.pk, "state": "approved"})
        assert "No review matches these filters" in response.content.decode()
        # An unknown choice is ignored rather than failing the page.
        response = client.get(reverse("reviews:list"), {"author": make_user("nobody").pk})
        assert len(response.context["reviews"]) == 2

    def test_it_shows_an_empty_state_with_new_review(self, client, team, owner):
        client.force_login(owner)
        body = client.get(reverse("reviews:list")).content.decode()
        assert "No reviews yet" in body
        assert reverse("reviews:create") in body

    def test_it_paginates_by_25(self, client, team, owner):
        task = make_profile(team)
        for i in range(30):
            make_review(team, owner, task=task, title=f"R{i}")
        client.force_login(owner)
        first = client.get(reverse("reviews:list"))
        assert len(first.context["reviews"]) == 25
        second = client.get(reverse("reviews:list"), {"page": 2})
        assert len(second.context["reviews"]) == 5

    def test_its_query_count_does_not_grow_with_reviews(self, client, team, owner):
        client.force_login(owner)

        def count(n: int) -> int:
            Review.objects.all().delete()
            task = make_profile(team)
            offer = make_offer(team)
            for i in range(n):
                make_review(team, owner, task=task, offers=[offer], title=f"R{i}")
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(reverse("reviews:list")).status_code == 200
            return len(ctx.captured_queries)

        assert count(5) == count(60)


class ApprovalsTests:
    def test_the_queue_holds_what_waits_for_this_reviewer(
        self, client, team, other_team, owner, reviewer
    ):
        waiting = submitted_review(team, owner, title="Waiting for you")
        ready_review(team, owner, title="Still a draft")
        decided = submitted_review(team, owner, title="Already decided")
        team.approvals_required = 2
        team.save()
        Review.objects.filter(pk=decided.pk).update(approvals_required=2)
        approve(decided, reviewer)
        own = submitted_review(team, reviewer, title="Written by you")
        stranger = make_membership(make_user("x"), other_team, "owner").user
        submitted_review(other_team, stranger, title="Another team")
        client.force_login(reviewer)
        response = client.get(reverse("reviews:approvals"))
        assert [r.pk for r in response.context["reviews"]] == [waiting.pk]
        assert response.context["waiting"] == 1
        assert approvals_waiting_count(reviewer) == 1
        assert own.pk not in [r.pk for r in response.context["reviews"]]

    def test_the_navigation_count_is_one_query(self, team, owner, reviewer):
        for _ in range(3):
            submitted_review(team, owner)
        with CaptureQueriesContext(connection) as ctx:
            assert approvals_waiting_count(reviewer) == 3
        assert len(ctx.captured_queries) == 1
        assert approvals_waiting_count(owner) == 0  # the author of all three

    def test_a_member_sees_that_they_do_not_sign_off(self, client, team, owner, member):
        submitted_review(team, owner)
        client.force_login(member)
        response = client.get(reverse("reviews:approvals"))
        assert list(response.context["reviews"]) == []
        assert "You do not sign off reviews" in response.content.decode()
        assert approvals_waiting_count(member) == 0

    def test_its_query_count_does_not_grow_with_reviews(self, client, team, owner, reviewer):
        client.force_login(reviewer)
        task = make_profile(team)
        offer = make_offer(team)

        def count(n: int) -> int:
            Review.objects.all().delete()
            for i in range(n):
                make_review(
                    team, owner, task=task, offers=[offer], title=f"R{i}", state="submitted"
                )
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(reverse("reviews:approvals"))
            assert response.context["waiting"] == n
            return len(ctx.captured_queries)

        assert count(5) == count(60)


class ReviewCreateViewTests:
    def test_it_creates_a_review_and_opens_its_checklist(self, client, team, owner):
        task = make_profile(team)
        a, b = make_offer(team), make_offer(team)
        client.force_login(owner)
        page = client.get(reverse("reviews:create"), {"task": task.pk})
        assert page.status_code == 200
        assert page.context["form"]["task"].value() == str(task.pk)
        response = client.post(
            reverse("reviews:create"),
            {
                "title": "Fine-tune 7B",
                "task": task.pk,
                "offers": [a.pk, b.pk],
                f"machines_{a.pk}": 2,
                f"machines_{b.pk}": 1,
            },
        )
        review = Review.objects.get()
        assert response.status_code == 302
        assert response["Location"] == reverse("checklists:review", args=[review.pk])
        assert sorted(review.candidates.values_list("machines", flat=True)) == [1, 2]
        assert review.author == owner

    def test_it_shows_errors_on_the_fields(self, client, team, other_team, owner):
        foreign = make_profile(other_team)
        make_offer(team)
        client.force_login(owner)
        response = client.post(reverse("reviews:create"), {"title": "", "task": foreign.pk})
        assert response.status_code == 400
        form = response.context["form"]
        assert {"title", "task", "offers"} <= set(form.errors)
        assert Review.objects.count() == 0

    def test_it_points_to_profiles_when_there_is_nothing_to_review(self, client, team, owner):
        client.force_login(owner)
        body = client.get(reverse("reviews:create")).content.decode()
        assert "A review needs a task profile and at least one offer" in body


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


class EditViewTests:
    def test_it_saves_the_title_and_refuses_an_old_version(self, client, team, owner):
        review = ready_review(team, owner)
        client.force_login(owner)
        url = reverse("reviews:edit", args=[review.pk])
        assert client.get(url).status_code == 200
        response = client.post(
            url, {"form": "title", "title": "Renamed", "version": review.version}
        )
        assert response.status_code == 302
        stale = client.post(url, {"form": "title", "title": "Lost", "version": review.version})
        assert stale.status_code == 302
        page = client.get(stale["Location"])
        assert "Someone changed this review since you opened it" in page.content.decode()
        review.refresh_from_db()
        assert review.title == "Renamed"

    def test_it_reserves_links(self, client, team, owner):
        from tests.factories import make_link, make_site

        review = ready_review(team, owner)
        link = make_link(team, make_site(team), make_site(team), reservable=True)
        client.force_login(owner)
        response = client.post(
            reverse("reviews:edit", args=[review.pk]),
            {"form": "links", "links": [link.pk], "version": review.version},
        )
        assert response.status_code == 302
        assert list(review.reserved_links.all()) == [link]


class CandidatesViewTests:
    def test_full_page_and_fragment(self, client, team, owner):
        review = ready_review(team, owner)
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        page = client.get(url)
        assert page.status_code == 200 and "<html" in page.content.decode()
        fragment = client.get(url, **HX).content.decode()
        assert fragment.lstrip().startswith('<section id="candidates"')

    def test_add_update_remove_through_htmx(self, client, team, owner):
        review = ready_review(team, owner)
        offer = make_offer(team, site=review.task.home_site)
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        added = client.post(
            url,
            {"action": "add", "offer": offer.pk, "machines": 2, "version": review.version},
            **HX,
        )
        assert added.status_code == 200
        candidate = review.candidates.get(offer=offer)
        assert f'id="candidate-{candidate.pk}"' in added.content.decode()
        review.refresh_from_db()
        updated = client.post(
            url,
            {
                "action": "update",
                "candidate": candidate.pk,
                "machines": 3,
                "version": review.version,
            },
            **HX,
        )
        assert updated.status_code == 200
        candidate.refresh_from_db()
        assert candidate.machines == 3
        review.refresh_from_db()
        removed = client.post(
            url, {"action": "remove", "candidate": candidate.pk, "version": review.version}, **HX
        )
        assert removed.status_code == 200
        assert not review.candidates.filter(pk=candidate.pk).exists()

    def test_errors_are_shown_in_place(self, client, team, owner):
        review = ready_review(team, owner)
        existing = review.candidates.get()
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        response = client.post(
            url, {"action": "update", "candidate": existing.pk, "machines": 0}, **HX
        )
        assert response.status_code == 200
        assert "form-error" in response.content.decode()
        full = client.post(url, {"action": "add", "offer": "", "machines": 1})
        assert full.status_code == 400
        assert "offer" in full.context["add_form"].errors

    def test_a_submitted_review_is_read_only(self, client, team, owner):
        review = submitted_review(team, owner)
        client.force_login(owner)
        url = reverse("reviews:candidates", args=[review.pk])
        body = client.get(url).content.decode()
        assert 'name="action" value="add"' not in body
        response = client.post(
            url, {"action": "update", "candidate": review.candidates.get().pk, "machines": 5}, **HX
        )
        assert response.status_code == 409
        assert response["HX-Redirect"] == url
        assert review.candidates.get().machines == 1


class SubmitAndCloneViewTests:
    def test_submit_moves_to_the_review_page_with_findings(self, client, team, owner):
        review = ready_review(team, owner)
        client.force_login(owner)
        response = client.post(
            reverse("reviews:submit", args=[review.pk]), {"version": review.version}
        )
        assert response.status_code == 302
        page = client.get(response["Location"])
        assert page.context["snapshot"] == current_snapshot(review)
        assert "finding" in page.content.decode()
        review.refresh_from_db()
        assert review.state == "submitted"

    def test_a_refused_submission_lists_its_reasons(self, client, team, owner):
        review = ready_review(team, owner, unanswered=3)
        client.force_login(owner)
        response = client.post(reverse("reviews:submit", args=[review.pk]), **HX)
        assert response.status_code == 409
        page = client.get(response["HX-Redirect"])
        body = page.content.decode()
        assert "Not submitted: blocking findings stand" in body
        assert "3 of 6 checklist questions unanswered" in body
        review.refresh_from_db()
        assert review.state == "draft"

    def test_clone_opens_the_new_draft(self, client, team, owner, reviewer):
        review = submitted_review(team, owner)
        approve(review, reviewer)
        client.force_login(owner)
        response = client.post(reverse("reviews:clone", args=[review.pk]))
        clone = Review.objects.exclude(pk=review.pk).get()
        assert response["Location"] == reverse("reviews:detail", args=[clone.pk])
        assert clone.cloned_from == review
        refused = client.post(reverse("reviews:clone", args=[clone.pk]))
        assert refused.status_code == 302
        assert Review.objects.count() == 2


class MembershipOfOtherTeamTests:
    def test_a_user_in_two_teams_reaches_both(self, client, team, other_team, owner):
        both = make_user("both")
        make_membership(both, team, "member")
        make_membership(both, other_team, "member")
        review = ready_review(other_team, make_membership(make_user("x"), other_team).user)
        client.force_login(both)
        assert client.get(reverse("reviews:detail", args=[review.pk])).status_code == 200


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
    from apps.scoring.inputs import fingerprint
    from apps.scoring.models import EvaluationSnapshot

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
        from apps.scoring import engine

        client.force_login(reviewer)
        html = client.get(reverse("reviews:detail", args=[signed.pk])).content.decode()
        assert f"Computed by engine {engine.ENGINE_VERSION}." in html
        assert "The current method is" not in html

    def test_an_older_engine_is_said_plainly_and_nothing_is_recomputed(
        self, client, signed, reviewer
    ):
        from apps.scoring import engine

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
        from apps.scoring import engine

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
        from apps.scoring import engine

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
        from apps.checklists.services import checklist_answer_save

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
        from apps.reviews import services

        services.review_submit(review=review, actor=owner)
        review.refresh_from_db()
        approve(review, reviewer)
        review.refresh_from_db()
        assert review.frozen_input["offers"][0]["migration_effort_hours"] == 5.0
        client.force_login(owner)
        body = client.get(reverse("reviews:detail", args=[review.pk])).content.decode()
        assert '<td class="num">5.00 h</td>' in body
