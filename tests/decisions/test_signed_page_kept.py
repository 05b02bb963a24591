"""The whole page of an approved review kept per process (apps/decisions/signed_page.py): a view
of a page so kept renders no template, yet shows what a page drawn now would, for its viewer."""

from __future__ import annotations

import re

import pytest
from django.contrib import messages
from django.contrib.messages.storage.session import SessionStorage
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from apps.decisions import signed_page
from apps.notifications.bell import inbox_changed
from apps.notifications.models import Notification
from apps.reviews.models import Review
from tests.actuals.helpers import approved_review

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r"[A-Za-z0-9]{64}")  # a masked CSRF token: one per view


@pytest.fixture
def signed(team, owner, reviewer):
    return approved_review(team, owner, reviewer)


@pytest.fixture
def viewer(client, reviewer):
    client.force_login(reviewer)
    return reviewer


def _kept(client, url):
    """The page twice: drawn (and kept), then from what was kept, which renders no template."""
    client.get(url)
    response = client.get(url)
    assert response.status_code == 200 and response.templates == []
    return response.content.decode()


class KeptSignedPageTests:
    def test_a_kept_page_is_the_page_drawn_now_but_for_the_token(self, client, signed, viewer):
        url = reverse("reviews:detail", args=[signed.pk])
        kept = _kept(client, url)
        signed_page._pages.clear()
        drawn = client.get(url)
        assert drawn.templates  # drawn again
        assert TOKEN.sub("T", kept) == TOKEN.sub("T", drawn.content.decode())
        assert signed_page._TOKEN not in kept and signed_page._csrf_placeholder() not in kept

    def test_each_view_has_the_viewers_own_token_which_works(self, signed, viewer):
        from django.test import Client

        client = Client(enforce_csrf_checks=True)
        client.force_login(viewer)
        url, clone = (reverse(name, args=[signed.pk]) for name in ("reviews:detail", "reviews:clone"))
        page = _kept(client, url)
        tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
        assert len(tokens) == 1  # the header's forms and the clone form alike
        assert f'"X-CSRFToken": "{next(iter(tokens))}"' in page
        response = client.post(clone, {"csrfmiddlewaretoken": tokens.pop()})
        assert response.status_code == 302 and Review.objects.filter(cloned_from=signed).exists()

    def test_another_viewer_sees_their_own_header(self, client, signed, viewer, owner):
        url = reverse("reviews:detail", args=[signed.pk])
        assert ">reviewer</a>" in _kept(client, url).split("</header>")[0]
        client.force_login(owner)
        header = client.get(url).content.decode().split("</header>")[0]
        assert ">owner</a>" in header and ">reviewer</a>" not in header

    def test_a_new_notification_shows_in_the_bell_at_once(
        self, client, signed, viewer, django_capture_on_commit_callbacks
    ):
        url = reverse("reviews:detail", args=[signed.pk])
        Notification.objects.filter(recipient=viewer, read_at=None).update(read_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=True):
            inbox_changed([viewer.pk])
        before = _kept(client, url)
        assert "unread</span>" not in before
        with django_capture_on_commit_callbacks(execute=True):
            Notification.objects.create(
                recipient=viewer, team=signed.team, kind="review_submitted", event_key="kept"
            )
            inbox_changed([viewer.pk])
        after = client.get(url).content.decode()
        assert re.search(r'badge--accent">1<span class="visually-hidden"> unread', after)

    def test_a_message_is_shown_once_and_the_page_is_not_kept_with_it(self, client, signed, viewer):
        url = reverse("reviews:detail", args=[signed.pk])
        _kept(client, url)
        request = RequestFactory().get(url)
        request.session = client.session
        storage = SessionStorage(request)
        storage.add(messages.SUCCESS, "A new draft was planted here.")
        storage.update(response=None)
        request.session.save()
        assert "A new draft was planted here." in client.get(url).content.decode()
        assert "A new draft was planted here." not in _kept(client, url)

    def test_another_language_is_another_page(self, client, signed, viewer):
        url = reverse("reviews:detail", args=[signed.pk])
        assert "Timeline" in _kept(client, url)
        chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        assert "时间线" in chinese and 'lang="zh-hans"' in chinese

    def test_what_is_kept_stays_within_its_budget(self, client, signed, viewer, monkeypatch):
        """The oldest pages are dropped first once the kept characters pass the budget."""
        monkeypatch.setattr(signed_page, "_BUDGET", 1)
        signed_page._pages.clear()
        signed_page._kept[0] = 0
        url = reverse("reviews:detail", args=[signed.pk])
        client.get(url)
        client.get(url + "?a=1")  # another path: another page; the first is dropped
        assert len(signed_page._pages) == 1
        assert signed_page._kept[0] == len(next(iter(signed_page._pages.values())))
