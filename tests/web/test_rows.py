"""List rows drawn once per content (apps/web/rows.py): after a change of the team, only the rows
whose content changed are drawn again, and every row shows its current content."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.urls import reverse

from apps.web.rows import drawn_rows
from tests import factories as f

pytestmark = pytest.mark.django_db


class DrawnRowsTests:
    def test_an_edit_draws_its_row_again_and_no_other(self, team, owner, drawn, seen_after):
        task = f.make_profile(team, name="Nightly eval")
        first = f.make_review(team, owner, task=task, title="First")
        f.make_review(team, owner, task=task, title="Second")
        f.make_review(team, owner, task=task, title="Third")
        page = seen_after(owner, reverse("reviews:list"), first, title="First, edited")
        assert drawn.count("review-row") == 1
        assert "First, edited" in page and "Second" in page and "Third" in page

    def test_a_renamed_task_draws_the_rows_that_show_it(self, team, owner, drawn, seen_after):
        nightly = f.make_profile(team, name="Nightly eval")
        weekly = f.make_profile(team, name="Weekly train")
        f.make_review(team, owner, task=nightly, title="A")
        f.make_review(team, owner, task=weekly, title="B")
        page = seen_after(owner, reverse("reviews:list"), nightly, name="Nightly eval v2")
        assert drawn.count("review-row") == 1  # the row of "A", which shows the task's name
        assert "Nightly eval v2" in page and "Weekly train" in page

    def test_each_language_has_its_rows(self, client, team, owner):
        task = f.make_profile(team, name="Nightly eval")
        f.make_review(team, owner, task=task, title="Plan", state="submitted")
        client.force_login(owner)
        url = reverse("reviews:list")
        english = client.get(url).content.decode()
        chinese = client.get(url, headers={"accept-language": "zh-hans"}).content.decode()
        assert 'data-state="submitted">Submitted<' in english
        assert 'data-state="submitted">Submitted<' not in chinese

    def test_a_row_holding_a_csrf_token_is_refused(self, team):
        request = RequestFactory().get("/")
        request.user = AnonymousUser()
        with pytest.raises(ValueError, match="CSRF token"):
            drawn_rows(
                request,
                "teams/settings.html",
                "threshold_row",
                [team],
                name="team",
                context={"is_owner": True, "row": {"key": "k", "spec": {"rule": ""}}},
            )
