"""The inbox, following a notification, read marks, the bell and the preferences page."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.accounts.models import Membership
from apps.notifications.models import EmailLanguage, Kind, Notification, Preference
from apps.notifications.services import notification_mark_read, notify

pytestmark = pytest.mark.django_db


def tell(user, team, n: int = 1, *, kind=Kind.REVIEW_SUBMITTED, start: int = 0) -> None:
    for i in range(start, start + n):
        notify(
            kind=kind,
            team=team,
            recipients=[user],
            params={"review": f"Review {i}", "actor": "member", "team": team.name},
            url=reverse("reviews:list"),
            event_key=f"test:{team.pk}:{i}",
        )


def items(html: str) -> list[str]:
    return re.findall(r"Review (\d+)", html)


class InboxTests:
    def test_it_lists_the_newest_first_with_the_unread_marked(self, client, team, reviewer):
        tell(reviewer, team, 3)
        Notification.objects.filter(params__review="Review 0").update(read_at="2026-01-01T00:00Z")
        client.force_login(reviewer)
        html = client.get(reverse("notifications:inbox")).content.decode()
        assert items(html) == ["2", "1", "0"]
        assert html.count('class="notification is-unread"') == 2
        assert "member submitted “Review 2” for your decision." in html

    def test_an_empty_inbox_says_what_will_come(self, client, owner):
        client.force_login(owner)
        html = client.get(reverse("notifications:inbox")).content.decode()
        assert "No notifications yet" in html

    def test_it_pages_by_twenty(self, client, team, reviewer):
        tell(reviewer, team, 25)
        client.force_login(reviewer)
        first = client.get(reverse("notifications:inbox")).content.decode()
        second = client.get(reverse("notifications:inbox") + "?page=2").content.decode()
        assert len(items(first)) == 20 and items(first)[0] == "24"
        assert items(second) == ["4", "3", "2", "1", "0"]
        assert "Page 2 of 2" in second

    def test_an_htmx_request_gets_the_list_alone(self, client, team, reviewer):
        tell(reviewer, team, 2)
        client.force_login(reviewer)
        response = client.get(reverse("notifications:inbox"), HTTP_HX_REQUEST="true")
        html = response.content.decode()
        assert html.lstrip().startswith('<div id="notification-list">')
        assert "<html" not in html and items(html) == ["1", "0"]
        assert "HX-Request" in response["Vary"]

    def test_a_team_left_takes_its_notifications_along(self, client, team, other_team, reviewer):
        Membership.objects.create(user=reviewer, team=other_team, role="member")
        tell(reviewer, team, 1)
        tell(reviewer, other_team, 1, start=1)
        Membership.objects.filter(user=reviewer, team=team).delete()
        client.force_login(reviewer)
        html = client.get(reverse("notifications:inbox")).content.decode()
        assert items(html) == ["1"]


class ReadTests:
    def test_following_one_marks_it_read_and_goes_to_its_page(self, client, team, reviewer):
        tell(reviewer, team, 1)
        note = Notification.objects.get()
        client.force_login(reviewer)
        response = client.get(reverse("notifications:open", args=[note.pk]))
        assert response.status_code == 302 and response["Location"] == reverse("reviews:list")
        note.refresh_from_db()
        first_read = note.read_at
        assert first_read is not None
        client.get(reverse("notifications:open", args=[note.pk]))
        note.refresh_from_db()
        assert note.read_at == first_read  # reading again keeps the first time

    def test_following_one_of_another_team_makes_that_team_current(
        self, client, team, other_team, reviewer
    ):
        Membership.objects.create(user=reviewer, team=other_team, role="member")
        tell(reviewer, other_team, 1)
        client.force_login(reviewer)
        assert "Team One" in client.get(reverse("home")).content.decode()
        client.get(reverse("notifications:open", args=[Notification.objects.get().pk]))
        assert client.get(reverse("home")).context["current_team"] == other_team

    def test_a_foreign_url_is_never_followed(self, client, team, reviewer):
        tell(reviewer, team, 1)
        Notification.objects.update(url="https://evil.example/phish")
        client.force_login(reviewer)
        response = client.get(reverse("notifications:open", args=[Notification.objects.get().pk]))
        assert response["Location"] == reverse("notifications:inbox")

    def test_mark_one_read_as_a_fragment_and_as_a_page(self, client, team, reviewer):
        tell(reviewer, team, 2)
        first, second = Notification.objects.order_by("id")
        client.force_login(reviewer)
        url = reverse("notifications:read", args=[first.pk])
        fragment = client.post(url, HTTP_HX_REQUEST="true").content.decode()
        assert fragment.lstrip().startswith(
            f'<li id="notification-{first.pk}" class="notification">'
        )
        # The bell follows out of band: one unread left.
        bell = re.search(r'<a [^>]*id="notification-bell"[^>]*>.*?</a>', fragment, re.S).group(0)
        assert 'hx-swap-oob="true"' in bell and ">1<span" in bell
        page = client.post(reverse("notifications:read", args=[second.pk]))
        assert page.status_code == 302
        assert not Notification.objects.filter(read_at__isnull=True).exists()

    def test_mark_all_read_touches_only_my_notifications(self, client, team, reviewer, owner):
        tell(reviewer, team, 3)
        tell(owner, team, 2, start=3)
        client.force_login(reviewer)
        response = client.post(reverse("notifications:read_all"))
        assert response.status_code == 302
        assert not Notification.objects.filter(recipient=reviewer, read_at__isnull=True).exists()
        assert Notification.objects.filter(recipient=owner, read_at__isnull=True).count() == 2
        htmx = client.post(reverse("notifications:read_all"), HTTP_HX_REQUEST="true")
        assert htmx["HX-Redirect"] == reverse("notifications:inbox")

    def test_another_persons_notification_does_not_exist_even_in_my_team(
        self, client, team, reviewer, owner, outsider
    ):
        tell(reviewer, team, 1)
        note = Notification.objects.get()
        for intruder in (owner, outsider):
            client.force_login(intruder)
            assert client.get(reverse("notifications:open", args=[note.pk])).status_code == 404
            assert client.post(reverse("notifications:read", args=[note.pk])).status_code == 404
        note.refresh_from_db()
        assert note.read_at is None


class BellTests:
    def test_the_bell_counts_my_unread_notifications_and_follows_each_change(
        self, client, team, reviewer, django_capture_on_commit_callbacks
    ):
        client.force_login(reviewer)
        bell = re.compile(r'id="notification-bell".*?</a>', re.S)

        def badge():
            html = bell.search(client.get(reverse("home")).content.decode()).group(0)
            found = re.search(r'>(\d+)<span class="visually-hidden"> unread', html)
            return int(found.group(1)) if found else 0

        assert badge() == 0  # and cached
        with django_capture_on_commit_callbacks(execute=True):
            tell(reviewer, team, 3)
        assert badge() == 3
        with django_capture_on_commit_callbacks(execute=True):
            notification_mark_read(notification=Notification.objects.first())
        assert badge() == 2
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("notifications:read_all"))
        assert badge() == 0

    def test_the_inbox_and_the_bell_do_not_grow_with_rows(self, client, team, reviewer):
        client.force_login(reviewer)

        def count(url):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            return len(queries)

        count(reverse("home"))  # the first request of a session writes it: not measured
        # Both measured right after notifications were saved (the team's cached parts redrawn).
        tell(reviewer, team, 3)
        few = (count(reverse("notifications:inbox")), count(reverse("home")))
        tell(reviewer, team, 40, start=3)
        many = (count(reverse("notifications:inbox")), count(reverse("home")))
        assert many == few
        assert few[0] <= 6  # session, user, memberships, the bell, the page's count and rows


class PreferencesTests:
    def test_every_kind_starts_with_both_channels_on(self, client, owner):
        client.force_login(owner)
        html = client.get(reverse("notifications:preferences")).content.decode()
        assert html.count("checked") == 2 * len(Kind.values)
        assert "A review is submitted for your decision" in html

    def test_saving_stores_each_kind_and_the_page_shows_it(self, client, owner):
        client.force_login(owner)
        data = {f"{kind}__inbox": "on" for kind in Kind.values}
        data[f"{Kind.QUARTERLY_READY}__email"] = "on"
        data["language"] = "zh-hans"
        response = client.post(reverse("notifications:preferences"), data)
        assert response.status_code == 302
        stored = {p.kind: (p.inbox, p.email) for p in Preference.objects.filter(user=owner)}
        assert stored[Kind.QUARTERLY_READY] == (True, True)
        assert stored[Kind.REVIEW_SUBMITTED] == (True, False)
        assert EmailLanguage.objects.get(user=owner).language == "zh-hans"
        html = client.get(reverse("notifications:preferences")).content.decode()
        assert html.count("checked") == len(Kind.values) + 1
        assert re.search(r'<option value="zh-hans"[^>]*selected', html)

    def test_an_unknown_field_is_refused_and_nothing_saved(self, client, owner):
        client.force_login(owner)
        response = client.post(
            reverse("notifications:preferences"),
            {"review_submitted__inbox": "on", "sms": "on", "language": "en"},
        )
        assert response.status_code == 200
        assert "Unknown fields: sms" in response.content.decode()
        assert not Preference.objects.exists() and not EmailLanguage.objects.exists()

    def test_a_language_the_site_does_not_speak_is_refused_on_its_field(self, client, owner):
        client.force_login(owner)
        response = client.post(reverse("notifications:preferences"), {"language": "fr"})
        assert response.status_code == 200
        assert response.context["form"].errors["language"]
        assert not Preference.objects.exists() and not EmailLanguage.objects.exists()

    def test_it_needs_a_signed_in_user(self, client):
        for name in ("notifications:inbox", "notifications:preferences"):
            response = client.get(reverse(name))
            assert response.status_code == 302
            assert response["Location"].startswith(reverse("accounts:login"))


class PreferencesFuzzTests:
    def test_hostile_posts_never_fail_nor_half_write(self, owner):
        """Known and unknown keys with hostile values: a 302 that stored every kind and the
        language, or a 200 with the form's errors that stored nothing. Never a 500."""
        from django.test import Client
        from hypothesis import given
        from hypothesis import strategies as st

        from tests.security.fuzzing import HOSTILE, SETTINGS
        from tests.security.helpers import rolled_back

        client = Client(raise_request_exception=False)
        client.force_login(owner)
        keys = [f"{k}__{c}" for k in Kind.values for c in ("inbox", "email")]
        keys += ["language", "language", "sms", "user", "kind", "__inbox", "review_submitted"]

        @SETTINGS
        @given(
            data=st.dictionaries(
                st.sampled_from(keys),
                st.one_of(st.sampled_from([*HOSTILE, "on", "en", "zh-hans"]), st.text()),
                max_size=8,
            )
        )
        def fuzz(data):
            with rolled_back():
                response = client.post(reverse("notifications:preferences"), data)
                assert response.status_code in (200, 302), (data, response.status_code)
                stored = Preference.objects.filter(user=owner).count()
                languages = EmailLanguage.objects.filter(user=owner).count()
                if response.status_code == 302:
                    assert (stored, languages) == (len(Kind.values), 1)
                else:
                    assert (stored, languages) == (0, 0)

        fuzz()
