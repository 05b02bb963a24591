"""Issue 33: an approved page's discussion reads only its candidates' labels (their id and their
offer's provider and name) and draws each thread's empty comment field without a form or a
template (forms.blank_comment_field), the same markup as components/field.html draws it, in both
languages; a comment posted through a thread's form shows at the next view."""

from __future__ import annotations

import pytest
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
    def test_the_candidates_are_read_with_their_labels_only(self, client, member, signed):
        client.force_login(member)
        url = reverse("reviews:detail", args=[signed.pk])
        client.get(url)
        with CaptureQueriesContext(connection) as ctx:
            html = client.get(url).content.decode()
        reads = [q["sql"] for q in ctx.captured_queries if 'FROM "reviews_candidate"' in q["sql"]]
        assert len(reads) == 1
        # Its id and the offer's provider and name; not the candidate's figures nor the offer's.
        for column in ('"provider"', '"reviews_candidate"."id"', '"catalog_offer"."name"'):
            assert column in reads[0]
        for column in ('"machines"', '"gpu_model"', '"billing_basis"', '"kind"'):
            assert column not in reads[0]
        candidate = signed.candidates.select_related("offer").get()
        title = f"{candidate.offer.provider} · {candidate.offer.name}"
        assert f"<summary>{title} " in _discussion(html)

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
