"""Saving a checklist answer stays cheap (issue 35): it leaves the team's generation, and so the
team's other cached pages, alone, and none of those pages draws anything it changed."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from apps.accounts.generations import generation_key
from apps.reviews.models import Review, ReviewState
from tests.actuals.helpers import approved_review
from tests.factories import make_offer, make_review
from tests.reviews.checklists.test_views import HX, answer_data, answer_url

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]+"')


def _cached_pages(review) -> list[str]:
    """Every page that keeps fragments under the team's generation, as this team sees them."""
    return [
        reverse("reviews:list"),
        reverse("profiles:list"),
        reverse("scoring:history"),
        reverse("reviews:approvals"),
        reverse("reviews:detail", args=[review.pk]),
    ]


def _drawn(client, urls) -> list[str]:
    """Each page drawn afresh (the cache emptied first), the per-view CSRF token taken out."""
    pages = []
    for url in urls:
        cache.clear()
        response = client.get(url)
        assert response.status_code == 200, url
        pages.append(CSRF.sub("csrf", response.content.decode()))
    return pages


def _save(client, candidate, text: str):
    data = answer_data(candidate, "q1", text=text)
    return client.post(answer_url(candidate, "q1"), data, **HX)


class AnswerSaveCacheTests:
    def test_an_answer_save_leaves_the_generation_and_every_cached_page_alone(
        self, client, team, owner, reviewer
    ):
        signed = approved_review(team, owner, reviewer)
        draft = make_review(team, owner, offers=[make_offer(team)])
        candidate = draft.candidates.get()
        before_review = Review.objects.get(pk=draft.pk)
        client.force_login(owner)
        pages = _drawn(client, _cached_pages(signed))
        client.get(reverse("reviews:list"))  # kept under the generation
        generation = cache.get(generation_key(team.pk))

        assert _save(client, candidate, "Eight nodes, 64 GPUs.").status_code == 200

        assert candidate.answers.get(question="q1").text == "Eight nodes, 64 GPUs."
        assert cache.get(generation_key(team.pk)) == generation
        after_review = Review.objects.get(pk=draft.pk)
        assert after_review.version > before_review.version  # its own page still sees the save
        assert after_review.updated_at == before_review.updated_at  # what the lists show
        assert _drawn(client, _cached_pages(signed)) == pages

    def test_an_answer_that_reopens_a_review_moves_the_generation(self, client, team, owner):
        draft = make_review(team, owner, offers=[make_offer(team)])
        Review.objects.filter(pk=draft.pk).update(state=ReviewState.CHANGES_REQUESTED)
        client.force_login(owner)
        client.get(reverse("reviews:list"))
        generation = cache.get(generation_key(team.pk))

        assert _save(client, draft.candidates.get(), "Reworked.").status_code == 200

        assert Review.objects.get(pk=draft.pk).state == ReviewState.DRAFT
        assert cache.get(generation_key(team.pk)) != generation  # the lists show its state
