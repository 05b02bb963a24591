"""The page of an approved review: its head, body and plan against actual come from the cache
(apps/reviews/views/approved_page.py) while they hold; the header, the actions and their CSRF token
are the viewer's own, and anything the team writes shows at the next view."""

from __future__ import annotations

import re

import pytest
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.messages.storage.session import SessionStorage
from django.core.management import call_command
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.notifications.models import Notification
from apps.reviews.models import Review

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed(db):
    call_command("load_demo", verbosity=0)
    return Review.objects.filter(team__slug="aurora", state="approved").order_by("id").first()


def _get(client, url, **extra):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, **extra)
    return response, len(ctx.captured_queries)


class ApprovedReviewPageTests:
    def test_the_second_view_serves_the_cached_body_with_fewer_queries(self, client, signed):
        bob = get_user_model().objects.get(username="bob")
        client.force_login(bob)
        url = reverse("reviews:detail", args=[signed.pk])
        first, first_queries = _get(client, url)
        second, second_queries = _get(client, url)
        assert first.status_code == second.status_code == 200
        body = first.content.decode()
        assert "Timeline" in body and "review-evaluation" in body
        # Same body, read from the cache: a handful of queries instead of the whole page. (The
        # discussion after it is drawn per view: its forms carry a freshly masked CSRF token.)

        def cached_part(html: str) -> str:
            after = html.split('id="main"')[1].split("Clone as a new draft")[1]
            return after.split('id="discussion"')[0]

        assert cached_part(second.content.decode()) == cached_part(body)
        assert second_queries < first_queries
        assert second_queries <= 6

    def test_each_user_gets_their_own_csrf_token_in_the_header(self, client, signed):
        url = reverse("reviews:detail", args=[signed.pk])
        tokens = []
        for name in ("alice", "bob"):
            client.force_login(get_user_model().objects.get(username=name))
            page = client.get(url).content.decode()
            form = page.split(reverse("reviews:clone", args=[signed.pk]))[1]
            tokens.append(form.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0])
            client.logout()
        assert tokens[0] != tokens[1]

    def test_the_clone_form_carries_the_viewers_token_which_works(self, signed):
        client = Client(enforce_csrf_checks=True)
        client.force_login(get_user_model().objects.get(username="bob"))
        url, clone = reverse("reviews:detail", args=[signed.pk]), reverse(
            "reviews:clone", args=[signed.pk]
        )
        client.get(url)  # drawn and cached
        page = client.get(url).content.decode()  # from the cache
        token = page.split(clone)[1].split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
        assert client.post(clone, {}).status_code == 403  # without a token: refused
        response = client.post(clone, {"csrfmiddlewaretoken": token})
        assert response.status_code == 302 and Review.objects.filter(cloned_from=signed).exists()

    def test_each_language_has_its_own_cached_body(self, client, signed):
        client.force_login(get_user_model().objects.get(username="bob"))
        url = reverse("reviews:detail", args=[signed.pk])
        english = client.get(url).content.decode()
        chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        assert "Timeline" in english
        assert "时间线" in chinese and "Timeline" not in chinese.split('id="main"')[1]

    def test_an_outsider_still_gets_404(self, client, signed):
        client.force_login(get_user_model().objects.get(username="carol"))
        assert client.get(reverse("reviews:detail", args=[signed.pk])).status_code == 404

    def test_an_engine_upgrade_renders_the_body_again_and_says_what_was_signed(
        self, client, signed, monkeypatch
    ):
        import engine

        client.force_login(get_user_model().objects.get(username="bob"))
        url = reverse("reviews:detail", args=[signed.pk])
        version = signed.signoffs.filter(decision="approve").last().snapshot.engine_version
        before = client.get(url).content.decode()
        assert f"Computed by engine {version}." in before
        assert "The current method is" not in before
        snapshots = signed.snapshots.count()
        monkeypatch.setattr(engine, "ENGINE_VERSION", "9.0.0")
        after = client.get(url).content.decode()
        assert f"The current method is 9.0.0; this decision was signed under {version}." in after
        assert signed.snapshots.count() == snapshots  # shown as signed, never recomputed

    def test_an_outsider_gets_404_from_a_cached_page_too(self, client, signed):
        url = reverse("reviews:detail", args=[signed.pk])
        client.force_login(get_user_model().objects.get(username="bob"))
        assert client.get(url).status_code == 200  # now cached
        client.force_login(get_user_model().objects.get(username="carol"))
        assert client.get(url).status_code == 404

    def test_another_viewer_sees_their_own_header(self, client, signed):
        url = reverse("reviews:detail", args=[signed.pk])
        client.force_login(get_user_model().objects.get(username="bob"))
        client.get(url)
        assert ">bob</a>" in client.get(url).content.decode().split("</header>")[0]
        client.force_login(get_user_model().objects.get(username="alice"))
        header = client.get(url).content.decode().split("</header>")[0]
        assert ">alice</a>" in header and ">bob</a>" not in header

    def test_a_new_notification_shows_in_the_bell_at_once(self, client, signed):
        bob = get_user_model().objects.get(username="bob")
        client.force_login(bob)
        url = reverse("reviews:detail", args=[signed.pk])
        Notification.objects.filter(recipient=bob).delete()
        assert "unread</span>" not in client.get(url).content.decode()
        Notification.objects.create(
            recipient=bob, team=signed.team, kind="review_submitted", event_key="fresh"
        )
        after = client.get(url).content.decode()
        assert re.search(r'badge--accent">1<span class="visually-hidden"> unread', after)

    def test_a_message_is_shown_once(self, client, signed):
        client.force_login(get_user_model().objects.get(username="bob"))
        url = reverse("reviews:detail", args=[signed.pk])
        client.get(url)
        request = RequestFactory().get(url)
        request.session = client.session
        storage = SessionStorage(request)
        storage.add(messages.SUCCESS, "A new draft was planted here.")
        storage.update(response=None)
        request.session.save()
        assert "A new draft was planted here." in client.get(url).content.decode()
        assert "A new draft was planted here." not in client.get(url).content.decode()

    def test_an_unchanged_page_answers_304_and_a_new_actual_cost_changes_it(self, client, signed):
        from apps.actuals.models import ActualCost

        client.force_login(get_user_model().objects.get(username="bob"))
        url = reverse("reviews:detail", args=[signed.pk])
        client.get(url)  # the session's first page sets its CSRF cookie, which the ETag holds
        etag = client.get(url)["ETag"]
        assert client.get(url, headers={"if-none-match": etag}).status_code == 304
        ActualCost.objects.bulk_create(
            [ActualCost(team=signed.team, review=signed, period="2026-02-03", compute_cost=777)]
        )
        fresh = client.get(url, headers={"if-none-match": etag})
        assert fresh.status_code == 200 and fresh["ETag"] != etag
        assert "777.00" in fresh.content.decode()

    def test_a_member_who_left_gets_404_from_a_cached_page(self, client, signed):
        bob = get_user_model().objects.get(username="bob")
        client.force_login(bob)
        url = reverse("reviews:detail", args=[signed.pk])
        assert client.get(url).status_code == 200  # now cached
        bob.memberships.filter(team=signed.team).delete()
        assert client.get(url).status_code == 404

    def test_a_draft_page_is_never_served_from_the_cache(self, client, signed):
        draft = Review.objects.filter(team=signed.team, state="draft").order_by("id").first()
        client.force_login(get_user_model().objects.get(username="bob"))
        page = client.get(reverse("reviews:detail", args=[draft.pk])).content.decode()
        assert "Approved and frozen." not in page and draft.title in page
