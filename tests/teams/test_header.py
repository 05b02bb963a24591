"""The page header: what it shows follows the viewer, the page, the language and the counts, and
each request gets its own CSRF token and path back."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests import factories as f

pytestmark = pytest.mark.django_db


def _header(response) -> str:
    html = response.content.decode()
    return html[html.index('<header class="topbar">') : html.index("</header>")]


def _client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


class HeaderTests:
    def test_each_viewer_sees_their_own_name_team_and_role(self, owner, member, outsider):
        mine, theirs = _header(_client(owner).get("/reviews/")), None
        theirs = _header(_client(outsider).get("/reviews/"))
        assert ">owner<" in mine and "Team One · Owner" in mine
        assert ">outsider<" in theirs and "Team Two · Owner" in theirs
        assert "Team One" not in theirs and ">owner<" not in theirs
        assert "Team One · Member" in _header(_client(member).get("/reviews/"))

    def test_the_active_section_follows_the_page(self, owner):
        client = _client(owner)
        reviews = _header(client.get("/reviews/"))
        profiles = _header(client.get("/profiles/"))
        benchmarks = _header(client.get("/benchmarks/"))  # "list" as well, another namespace
        assert re.search(r'href="/reviews/" class="is-active" aria-current="page"', reviews)
        assert 'href="/profiles/" class=""' in reviews
        assert re.search(r'href="/profiles/" class="is-active" aria-current="page"', profiles)
        assert 'href="/reviews/" class=""' in profiles
        assert re.search(r'href="/benchmarks/" class="is-active" aria-current="page"', benchmarks)
        assert 'href="/reviews/" class=""' in benchmarks

    def test_the_language_and_a_renamed_team_show_at_once(self, owner, team):
        client = _client(owner)
        assert ">Reviews<" in _header(client.get("/reviews/"))
        zh = _header(client.get("/reviews/", headers={"accept-language": "zh-hans"}))
        assert ">Reviews<" not in zh and 'lang="zh-hans"' in zh
        team.name = "Renamed Team"
        team.save()
        assert "Renamed Team · Owner" in _header(client.get("/reviews/"))

    def test_the_approvals_badge_counts_a_new_submission(self, owner, reviewer, team):
        client = _client(reviewer)
        assert "badge--accent" not in _header(client.get("/reviews/"))
        f.make_review(team, owner, state="submitted")
        header = _header(client.get("/reviews/"))
        assert re.search(r"Approvals <span class=\"badge badge--accent\"[^>]*>1</span>", header)

    def test_each_request_gets_its_own_token_and_path_back(self, owner):
        client = _client(owner)
        first = _header(client.get("/reviews/?q=a&state=draft"))
        # Another session: another token, although the header is the kept one.
        other = _client(owner)
        second = _header(other.get("/reviews/?q=b"))
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', first + second)
        assert len(tokens) == 4 and len(set(tokens[:2])) == 1 and tokens[0] != tokens[2]
        assert 'name="next" value="/reviews/?q=a&amp;state=draft"' in first
        assert 'name="next" value="/reviews/?q=b"' in second
        # The token put in is the session's: the language form posts with it.
        response = other.post(
            "/i18n/setlang/", {"csrfmiddlewaretoken": tokens[2], "language": "zh-hans"}
        )
        assert response.status_code == 302
