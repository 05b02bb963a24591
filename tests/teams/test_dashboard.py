"""The home dashboard: what waits for me, my drafts, what is new for me, the team's snapshots."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.notifications.models import Kind
from apps.notifications.services import notify
from apps.reviews.models import SignOff
from apps.reviews.services.signoff import signoff_create
from apps.reviews.snapshots.services import snapshot_compute
from apps.teams import services
from tests.factories import make_offer, make_profile, make_review, make_site
from tests.teams.helpers import moving_review, submit

pytestmark = pytest.mark.django_db


def section(html: str, section_id: str) -> str:
    match = re.search(rf'<section class="card[^"]*" id="{section_id}">(.*?)</section>', html, re.S)
    assert match, f"no section {section_id}"
    return match.group(1)


def home(client) -> str:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def submitted(team, author, **kw):
    """A submitted review without going through the engine (the dashboard reads states)."""
    return make_review(team, author, state="submitted", submitted_at=timezone.now(), **kw)


def signoff(review, reviewer, decision="request_changes", comment="Please compress the input."):
    snapshot = snapshot_compute(review_id=review.pk)
    return SignOff.objects.create(
        review=review, reviewer=reviewer, decision=decision, comment=comment,
        snapshot=snapshot, round=review.round,
    )


class WaitingTests:
    def test_a_reviewer_sees_a_submitted_review_and_reaches_it_in_one_click(
        self, client, team, owner, reviewer
    ):
        review = submit(moving_review(team, owner, ready=True, title="Move the ETL to Shanghai"))
        client.force_login(reviewer)
        waiting = section(home(client), "waiting")
        assert "Move the ETL to Shanghai" in waiting
        assert f'href="{reverse("reviews:detail", args=[review.pk])}"' in waiting
        assert "by owner" in waiting

    def test_it_leaves_out_own_reviews_drafts_and_reviews_already_decided(
        self, client, team, owner, reviewer
    ):
        submitted(team, reviewer, title="My own submission")
        make_review(team, owner, title="Still a draft")
        decided = submit(moving_review(team, owner, ready=True, title="Already decided"))
        signoff_create(
            review=decided, reviewer=reviewer, decision="approve",
            snapshot_id=decided.snapshots.first().pk,
        )
        client.force_login(reviewer)
        waiting = section(home(client), "waiting")
        for title in ("My own submission", "Still a draft", "Already decided"):
            assert title not in waiting
        assert "Nothing waits for your decision" in waiting

    def test_a_new_round_puts_the_review_back_in_the_queue(self, client, team, owner, reviewer):
        review = submit(moving_review(team, owner, ready=True, title="Second round"))
        signoff_create(
            review=review, reviewer=reviewer, decision="request_changes", comment="Add a pilot.",
            snapshot_id=review.snapshots.first().pk,
        )
        client.force_login(reviewer)
        assert "Second round" not in section(home(client), "waiting")
        review.refresh_from_db()
        submit(review)
        assert "Second round" in section(home(client), "waiting")

    def test_members_have_nothing_to_decide(self, client, team, owner, member):
        submitted(team, owner, title="Waiting for a reviewer")
        client.force_login(member)
        waiting = section(home(client), "waiting")
        assert "Waiting for a reviewer" not in waiting
        assert "as a member you submit them" in waiting

    def test_another_teams_reviews_never_show(self, client, team, other_team, owner, outsider):
        submitted(team, owner, title="Team one only")
        client.force_login(outsider)
        assert "Team one only" not in home(client)


class DraftTests:
    def test_it_lists_my_drafts_with_their_blocking_findings(self, client, team, owner):
        blocked = moving_review(team, owner, title="Blocked plan")  # checklist unanswered: C blocks
        snapshot_compute(review_id=blocked.pk)
        make_review(team, owner, title="Fresh draft")
        client.force_login(owner)
        drafts = section(home(client), "drafts")
        assert "Blocked plan" in drafts
        assert 'data-rule="C"' in drafts
        assert 'data-rule="M4"' not in drafts  # warnings are not blocking findings
        assert "Fresh draft" in drafts
        assert "Not evaluated yet" in drafts

    def test_a_clean_draft_says_nothing_blocks(self, client, team, owner):
        review = moving_review(team, owner, ready=True, title="Clean plan")
        snapshot_compute(review_id=review.pk)
        client.force_login(owner)
        drafts = section(home(client), "drafts")
        assert "no blocking finding" in drafts
        assert "2 warnings" in drafts  # M4 and H1

    def test_a_settings_change_marks_the_evaluation_outdated(self, client, team, owner):
        review = moving_review(team, owner, ready=True, title="Clean plan")
        snapshot_compute(review_id=review.pk)
        services.team_threshold_set(team=team, actor=owner, key="network_cost_share", value=0.3)
        client.force_login(owner)
        assert "team settings changed since this evaluation" in section(home(client), "drafts")

    def test_others_drafts_and_submitted_reviews_are_not_mine(
        self, client, team, owner, member
    ):
        make_review(team, member, title="Member's draft")
        submitted(team, owner, title="Submitted one")
        client.force_login(owner)
        drafts = section(home(client), "drafts")
        assert "Member's draft" not in drafts and "Submitted one" not in drafts
        assert "No drafts" in drafts


class NotificationBoxTests:
    def test_it_shows_unread_notifications_until_they_are_read(
        self, client, team, owner, reviewer
    ):
        review = submit(moving_review(team, owner, ready=True, title="Plan A"))
        client.force_login(owner)
        assert "Nothing new" in section(home(client), "notifications")
        signoff_create(
            review=review, reviewer=reviewer, decision="request_changes",
            comment="Please compress the input.", snapshot_id=review.snapshots.get().pk,
        )
        box = section(home(client), "notifications")
        assert "reviewer requested changes on “Plan A”." in box
        assert f'href="{reverse("notifications:inbox")}"' in box
        # Still there on the next visit: it stays until it is read, not until it is seen.
        assert "Plan A" in section(home(client), "notifications")
        notification = owner.notifications.get()
        follow = client.get(reverse("notifications:open", args=[notification.pk]))
        assert follow.status_code == 302
        assert follow["Location"] == reverse("reviews:detail", args=[review.pk])
        assert "Nothing new" in section(home(client), "notifications")

    def test_another_persons_notifications_are_not_mine(self, client, team, owner, reviewer):
        submit(moving_review(team, owner, ready=True, title="For the reviewer"))
        client.force_login(owner)  # the submitter: the reviewer is told, not them
        assert "For the reviewer" not in section(home(client), "notifications")
        client.force_login(reviewer)
        assert "For the reviewer" in section(home(client), "notifications")


class SnapshotTests:
    def test_it_shows_the_five_newest_snapshots_of_the_current_team(
        self, client, team, other_team, owner, outsider
    ):
        for i in range(7):
            review = moving_review(team, owner, title=f"Review {i}")
            snapshot_compute(review_id=review.pk)
        foreign = moving_review(other_team, outsider, title="Foreign review")
        snapshot_compute(review_id=foreign.pk)
        client.force_login(owner)
        snapshots = section(home(client), "snapshots")
        shown = re.findall(r"Review (\d)", snapshots)
        assert shown == ["6", "5", "4", "3", "2"]
        assert "Foreign review" not in snapshots
        assert "Total (USD)" in snapshots

    def test_an_empty_team_explains_snapshots(self, client, team, owner):
        client.force_login(owner)
        assert "No evaluation yet" in section(home(client), "snapshots")


class GuidedStartTests:
    def test_a_brand_new_team_gets_the_four_steps(self, client, team, owner):
        client.force_login(owner)
        guide = section(home(client), "guided-start")
        assert guide.count('class="guide-step"') == 4
        for name in ("catalog:site_create", "catalog:offer_create", "profiles:create",
                     "reviews:create"):
            assert f'href="{reverse(name)}"' in guide

    def test_steps_are_ticked_as_the_team_grows_and_the_guide_goes(self, client, team, owner):
        site = make_site(team, "bj-a")
        make_offer(team, site=site)
        client.force_login(owner)
        guide = section(home(client), "guided-start")
        assert re.findall(r'guide-step is-done" data-step="(\w+)"', guide) == ["site", "offer"]
        make_review(team, owner, task=make_profile(team, site=site))
        assert 'id="guided-start"' not in home(client)

    def test_quick_actions_and_settings_links(self, client, team, owner):
        client.force_login(owner)
        html = home(client)
        for name in ("reviews:create", "profiles:create", "profiles:sizing", "teams:settings",
                     "teams:calibration"):
            assert f'href="{reverse(name)}"' in html

    def test_a_user_without_a_team_is_guided_to_ask_for_one(self, client):
        from tests.factories import make_user

        client.force_login(make_user("loner"))
        html = home(client)
        assert "not in a team yet" in html
        assert 'id="waiting"' not in html


class QueryCountTests:
    def _fill(self, team, owner, reviewer, n: int) -> None:
        task = moving_review(team, owner).task
        offer = task.reviews.first().candidates.first().offer
        for i in range(n):
            submitted(team, owner, task=task, title=f"Waiting {i}")
            draft = make_review(team, reviewer, task=task, offers=[offer], title=f"Draft {i}")
            snapshot_compute(review_id=draft.pk)
            mine = submitted(team, reviewer, task=task, title=f"Mine {i}")
            mine.candidates.create(offer=offer, machines=1)
            signoff(mine, owner)
            notify(
                kind=Kind.DECISION_TAKEN, team=team, recipients=[reviewer], url="/",
                params={"review": f"Mine {i}", "actor": "owner", "decision": "rejected"},
                event_key=f"fill:{mine.pk}",
            )

    def _count(self, client) -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            html = home(client)
        return len(queries), html

    def test_the_page_does_not_grow_with_rows(self, client, team, owner, reviewer):
        client.force_login(reviewer)
        self._fill(team, owner, reviewer, 3)
        few, html = self._count(client)
        assert html.count("Waiting ") >= 3 and html.count("Draft ") >= 3
        assert section(html, "notifications").count("owner rejected") == 3
        self._fill(team, owner, reviewer, 27)
        many, html = self._count(client)
        assert section(html, "notifications").count("owner rejected") == 5
        assert "All 30 waiting" in html
        assert "All 30 drafts" in html
        assert many == few


class SnapshotLegendTests:
    def test_the_finding_counts_say_what_they_count(self, client, team, owner):
        blocked = moving_review(team, owner, title="Blocked plan")  # C blocks
        snapshot_compute(review_id=blocked.pk)
        client.force_login(owner)
        snapshots = section(home(client), "snapshots")
        assert 'data-legend="findings"' in snapshots
        assert "blocks (sign-off refused until fixed)" in snapshots
        # Each count names itself for a screen reader and on hover.
        assert re.search(r'badge--block" title="\d+ blocks?"', snapshots)
        assert '<span class="visually-hidden"> blocks</span>' in snapshots
