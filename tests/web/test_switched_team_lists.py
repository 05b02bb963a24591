"""Every list a member of two teams reads after switching team shows the team switched to, even
when the first team's list was just drawn (and kept in the cache); the lists drawn from all of a
person's teams (history, approvals) show both, and never to someone of one team only
(issue 36's blind spots)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.actuals.services import actual_create
from tests.actuals.helpers import approved_review
from tests.factories import (
    make_benchmark,
    make_membership,
    make_offer,
    make_profile,
    make_review,
    make_site,
    make_user,
)

pytestmark = pytest.mark.django_db


def _get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _switch(client, team) -> None:
    assert client.post(reverse("accounts:team_switch"), {"team": team.pk}).status_code == 302


# Each team's one actual compute cost, told apart on the quarterly review.
COST = {"alpha": "111", "bravo": "333"}


def _team_world(team, author, reviewer, tag: str) -> None:
    """One of each listed thing in `team`, each named with `tag`."""
    site = make_site(team, code=f"site-{tag}", name=f"Site {tag}")
    offer = make_offer(team, site=site, name=f"Offer {tag}")
    task = make_profile(team, site=site, name=f"Task {tag}")
    make_benchmark(team, task, offer=offer, notes=f"Bench {tag}")
    make_review(team, author, task=task, title=f"Draft {tag}")
    review = approved_review(team, author, reviewer, title=f"Signed {tag}")
    data = {"review": review.pk, "period": "2026-02-01", "compute_cost": COST[tag]}
    actual_create(team=team, data=data, created_by=author)


@pytest.fixture
def both(team, other_team):
    """A member of two teams; each team has one of everything, named after it."""
    person = make_user("both")
    make_membership(person, team, "member")
    make_membership(person, other_team, "member")
    for each, tag in ((team, "alpha"), (other_team, "bravo")):
        reviewer = make_user(f"reviewer-{tag}")
        make_membership(reviewer, each, "reviewer")
        _team_world(each, person, reviewer, tag)
    return person


# The current team's lists, and the name that only its own world holds.
CURRENT_TEAM_LISTS = [
    ("reviews:list", "Draft {tag}"),
    ("profiles:list", "Task {tag}"),
    ("benchmarks:list", "Task {tag}"),
    ("catalog:offer_list", "Offer {tag}"),
    ("catalog:site_list", "Site {tag}"),
    ("actuals:list", "Signed {tag}"),
    ("scoring:quarterly", "{cost}.00"),
    # The dashboard's "latest snapshots of the team" (its notifications are of all one's teams).
    ("home", "Signed {tag}"),
]
SECTION = {"home": 'id="snapshots"'}


def _read(client, name: str) -> str:
    if name == "scoring:quarterly":  # its figures are computed on request (or nightly)
        client.post(reverse("scoring:quarterly_refresh"))
    html = _get(client, reverse(name))
    start = SECTION.get(name)
    return html if start is None else html.split(start, 1)[1].split("</section>", 1)[0]


def _shown(template: str, tag: str) -> str:
    return template.format(tag=tag, cost=COST[tag])


@pytest.mark.parametrize(
    ("name", "shown"), CURRENT_TEAM_LISTS, ids=[n for n, _ in CURRENT_TEAM_LISTS]
)
def test_a_list_shows_the_team_switched_to(client, team, other_team, both, name, shown):
    client.force_login(both)
    _switch(client, team)
    first = _read(client, name)
    assert _shown(shown, "alpha") in first and _shown(shown, "bravo") not in first
    _switch(client, other_team)
    second = _read(client, name)
    assert _shown(shown, "bravo") in second
    assert _shown(shown, "alpha") not in second


def test_the_history_shows_all_ones_teams_and_only_them(client, team, other_team, both):
    """Cached under all the viewer's teams: a colleague of one team only, reading after the
    member of both, sees their own team's snapshots only."""
    only_one = make_user("only-one")  # joined first: a new member changes the team's data
    make_membership(only_one, team, "member")
    client.force_login(both)
    _switch(client, team)
    everything = _get(client, reverse("scoring:history"))
    assert "Signed alpha" in everything and "Signed bravo" in everything
    client.force_login(only_one)
    mine = _get(client, reverse("scoring:history"))
    assert "Signed alpha" in mine and "Signed bravo" not in mine


def test_the_inbox_holds_ones_own_notifications_of_both_teams(client, team, other_team, both):
    """Notifications are the person's own, from all their teams whichever is current; a
    colleague's never show."""
    client.force_login(both)
    _switch(client, other_team)
    mine = _get(client, reverse("notifications:inbox"))
    assert "Signed alpha" in mine and "Signed bravo" in mine
    colleague = make_user("colleague")
    make_membership(colleague, other_team, "member")
    client.force_login(colleague)
    theirs = _get(client, reverse("notifications:inbox"))
    assert "Signed alpha" not in theirs and "Signed bravo" not in theirs
