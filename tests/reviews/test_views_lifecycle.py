"""Pages and actions of a review's life (apps/reviews/views/lifecycle.py): create, edit, submit,
clone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.reviews.models import Review
from apps.reviews.snapshots.services import current_snapshot
from tests.factories import make_offer, make_profile
from tests.reviews.helpers import (
    approve,
    ready_review,
    submitted_review,
)

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


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
