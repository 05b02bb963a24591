"""Issue 33: an approved page's discussion reads only its candidates' labels (their id and their
offer's provider and name) and draws each thread's empty comment field without a form or a
template (forms.blank_comment_field), the same markup as components/field.html draws it, in both
languages; a comment posted through a thread's form shows at the next view."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from apps.reviews.comments.forms import CommentForm, blank_comment_field
from apps.reviews.comments.selectors import thread_key
from tests.actuals.helpers import approved_review

pytestmark = pytest.mark.django_db


def _field_template(prefix: str) -> str:
    return render_to_string("components/field.html", {"field": CommentForm(prefix=prefix)["text"]})


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("prefix", ["review", "candidate-7", "odd<&\"'prefix"])
def test_the_blank_field_is_the_template_drawn_field(language, prefix):
    with translation.override(language):
        assert str(blank_comment_field(prefix)) == _field_template(prefix)


def test_the_blank_field_is_in_the_active_language():
    with translation.override("zh-hans"):
        zh = str(blank_comment_field("review"))
    with translation.override("en"):
        en = str(blank_comment_field("review"))
    assert '<label for="id_review-text">Comment</label>' in en
    assert '<label for="id_review-text">意见</label>' in zh


def test_an_odd_prefix_is_escaped_in_every_attribute():
    html = str(blank_comment_field('a"<b'))
    assert 'a"<b' not in html
    assert 'name="a&quot;&lt;b-text"' in html and 'id="field-a&quot;&lt;b-text"' in html


@pytest.fixture
def signed(team, member, reviewer):
    return approved_review(team, member, reviewer)


def _discussion(html: str) -> str:
    return html.split('id="discussion"')[1]


class ApprovedPageDiscussionTests:
    def test_a_warm_view_reads_no_candidate_and_a_cold_one_no_more_than_its_body(
        self, client, member, signed
    ):
        """The discussion's inputs (the candidates' labels, the number of comments) come with
        the page's cached parts: a warm view reads no candidate nor comment count; a cold one
        takes them from the body it draws, no query of their own."""
        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        candidate = signed.candidates.select_related("offer").get()
        title = f"{candidate.offer.provider} · {candidate.offer.name}"
        for warm in (False, True):
            if not warm:
                cache.clear()
            with CaptureQueriesContext(connection) as ctx:
                html = client.get(url).content.decode()
            sql = [q["sql"] for q in ctx.captured_queries]
            reads = [q for q in sql if 'FROM "reviews_candidate"' in q]
            counts = [q for q in sql if q.startswith("SELECT COUNT(*)") and "reviews_comment" in q]
            assert (len(reads), len(counts)) == ((0, 0) if warm else (1, 0)), warm
            assert f"<summary>{title} " in _discussion(html)

    def test_a_new_comment_and_its_count_show_at_the_next_view(self, client, member, signed):
        from apps.reviews.comments.services import comment_post

        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        candidate = signed.candidates.get()
        assert "No comments yet." in _discussion(client.get(url).content.decode())
        comment_post(review=signed, candidate=candidate, actor=member, text="kept an eye on it")
        html = _discussion(client.get(url).content.decode())
        assert "kept an eye on it" in html and "(1)</span></summary>" in html

    @pytest.mark.parametrize("language", ["en", "zh-hans"])
    def test_every_thread_has_its_form_with_the_templates_field(
        self, client, member, signed, language
    ):
        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        html = _discussion(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        candidate = signed.candidates.get()
        with translation.override(language):
            for key in ("review", thread_key(candidate)):
                assert _field_template(key) in html
        assert html.count("<textarea") == 2  # the review's thread and the one candidate's

    def test_a_comment_posted_through_a_candidates_form_shows_at_the_next_view(
        self, client, member, signed
    ):
        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        client.get(url)
        candidate = signed.candidates.get()
        key = thread_key(candidate)
        action = reverse("reviews:candidate_comments", args=[signed.pk, candidate.pk])
        assert f'action="{action}"' in _discussion(client.get(url).content.decode())
        response = client.post(action, {f"{key}-text": "Reserved price confirmed."})
        assert response.status_code in (200, 302)
        html = _discussion(client.get(url).content.decode())
        assert "Reserved price confirmed." in html
        # The thread's box is open now that it has a comment, and its form is still there.
        assert '<details class="thread-box" open>' in html
        assert f'<textarea name="{key}-text"' in html
