"""A page of a list read ids first (apps/web/paging.page_by_ids): the same page, number and
count as Django's Paginator.get_page, in two queries however long the list."""

from __future__ import annotations

import pytest
from django.core.paginator import Paginator
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.reviews.models import Review
from apps.reviews.selectors import review_list, review_rows
from apps.web.paging import page_by_ids
from tests.factories import make_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def seven(team, owner):
    """Seven reviews of the team (and one of another team's, never on its pages)."""
    return [make_review(team, owner, title=f"Review {i}") for i in range(7)]


def _titles(page) -> list[str]:
    return [review.title for review in page.object_list]


class PageByIdsTests:
    @pytest.mark.parametrize("number", [None, "", "x", "2.5", "-3", "0", "1", "2", "3", "4", "99",
                                        str(10**30)])
    def test_the_same_page_as_the_paginator(self, team, seven, other_team, outsider, number):
        make_review(other_team, outsider, title="Theirs")
        reviews = review_list(team=team)
        ours = page_by_ids(reviews, number, 3)
        django = Paginator(reviews, 3).get_page(number)
        assert _titles(ours) == _titles(django) and "Theirs" not in _titles(ours)
        assert ours.number == django.number
        assert (ours.paginator.count, ours.paginator.num_pages) == (7, 3)
        assert (ours.has_next(), ours.has_previous()) == (django.has_next(), django.has_previous())

    def test_newest_change_first_with_the_rows_annotations(self, team, seven):
        page = page_by_ids(review_list(team=team), 1, 3, rows=review_rows)
        # review_list orders by the last change, newest first: the last three made, last first
        assert _titles(page) == ["Review 6", "Review 5", "Review 4"]
        assert all(review.candidate_count == 0 for review in page.object_list)

    def test_two_queries_whatever_the_page(self, team, seven):
        for number in (1, 2, 3):
            for rows in (None, review_rows):
                with CaptureQueriesContext(connection) as ctx:
                    page_by_ids(review_list(team=team), number, 3, rows=rows)
                assert len(ctx.captured_queries) == 2

    def test_past_the_end_counts_and_reads_the_last_page(self, team, seven):
        with CaptureQueriesContext(connection) as ctx:
            page = page_by_ids(review_list(team=team), 9, 3)
        assert page.number == 3 and _titles(page) == ["Review 0"]
        assert len(ctx.captured_queries) == 4  # the empty page, the count, the last page, rows

    def test_an_empty_list_is_one_empty_page(self, team):
        page = page_by_ids(review_list(team=team), 5, 3)
        assert (page.number, page.object_list, page.paginator.count) == (1, [], 0)
        assert page.paginator.num_pages == 1 and not page.has_next()

    def test_a_row_gone_between_the_two_queries_is_left_out(self, team, seven, monkeypatch):
        """The ids are read, then one of them is deleted before the rows are."""
        reviews = review_list(team=team)
        gone = seven[6]
        real_filter = type(reviews).filter

        def filter_after_a_delete(qs, *args, **kwargs):
            if "pk__in" in kwargs:
                Review.objects.filter(pk=gone.pk).delete()
            return real_filter(qs, *args, **kwargs)

        monkeypatch.setattr(type(reviews), "filter", filter_after_a_delete)
        page = page_by_ids(reviews, 1, 3, rows=review_rows)
        assert _titles(page) == ["Review 5", "Review 4"]
