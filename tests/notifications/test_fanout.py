"""Who hears of each event (issue 20): the inbox and the email, per person and preference.

The events run through the real services (submission, sign-off, snapshots, the quarterly
review); the emails are the outbox rows they queue (sent after commit: tests/notifications/
test_worker.py sends them through a real worker).
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from apps.accounts.models import OutgoingEmail
from apps.catalog.services import offer_update
from apps.notifications.models import EmailLanguage, Kind, Notification
from apps.notifications.services import notify
from apps.reviews.services import review_update
from apps.reviews.services.signoff import signoff_create
from apps.reviews.snapshots.jobs import snapshot_sweep_submitted
from apps.reviews.snapshots.services import snapshot_compute
from apps.scoring.services.quarterly_review import quarterly_refresh
from tests.notifications.helpers import inboxed, mailed, person, prefer
from tests.teams.helpers import moving_review, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(team, other_team, owner, reviewer, member, outsider):
    """Team One: owner, reviewer, member (the author), a second member who edits the review,
    and two reviewers who turned a channel off. Team Two: the outsider (an owner there)."""
    return {
        "owner": owner,
        "reviewer": reviewer,
        "member": member,
        "helper": person(team, "helper"),
        "quiet": person(team, "quiet", "reviewer"),
        "nomail": person(team, "nomail", "reviewer"),
        "outsider": outsider,
    }


def _submitted(team, people, title="Plan A"):
    review = moving_review(team, people["member"], ready=True, title=title)
    review_update(review=review, actor=people["helper"], title=f"{title}.")  # a contributor
    review.refresh_from_db()
    return submit(review)


def _decide(review, reviewer, decision, comment="Because."):
    signoff_create(
        review=review,
        reviewer=reviewer,
        decision=decision,
        comment=comment,
        snapshot_id=review.snapshots.order_by("-id").first().pk,
    )
    review.refresh_from_db()
    return review


class ReviewSubmittedTests:
    def test_the_deciders_hear_of_it_by_their_channels_never_the_submitter_or_an_outsider(
        self, team, people
    ):
        prefer(people["quiet"], Kind.REVIEW_SUBMITTED, inbox=False, email=False)
        prefer(people["nomail"], Kind.REVIEW_SUBMITTED, inbox=True, email=False)
        review = _submitted(team, people)
        assert inboxed(Kind.REVIEW_SUBMITTED) == {"owner", "reviewer", "nomail"}
        assert mailed("review-submitted") == sorted(
            [people["owner"].email, people["reviewer"].email]
        )
        note = Notification.objects.get(recipient=people["reviewer"])
        assert note.team == team
        assert note.url == reverse("reviews:detail", args=[review.pk])
        assert note.text == "member submitted “Plan A.” for your decision."
        assert note.read_at is None

    def test_the_submitter_who_decides_too_is_not_told_of_their_own_act(self, team, people):
        review = moving_review(team, people["owner"], ready=True, title="Owner's plan")
        submit(review)
        assert inboxed(Kind.REVIEW_SUBMITTED) == {"reviewer", "quiet", "nomail"}

    def test_a_second_submission_after_changes_is_a_new_event(self, team, people):
        review = _submitted(team, people)
        _decide(review, people["reviewer"], "request_changes")
        review_update(review=review, actor=people["member"], title="Plan A, compressed")
        submit(review)
        assert (
            Notification.objects.filter(
                recipient=people["reviewer"], kind=Kind.REVIEW_SUBMITTED
            ).count()
            == 2
        )


class DecisionTests:
    def test_an_approval_tells_the_author_and_contributors_not_the_decider(self, team, people):
        review = _decide(_submitted(team, people), people["reviewer"], "approve")
        assert review.state == "approved"
        assert inboxed(Kind.DECISION_TAKEN) == {"member", "helper"}
        assert sorted(mailed("review-approved")) == sorted(
            [people["member"].email, people["helper"].email]
        )
        note = Notification.objects.get(recipient=people["member"], kind=Kind.DECISION_TAKEN)
        assert note.text == "“Plan A.” is approved (last approval by reviewer)."

    def test_a_rejection_says_who_rejected(self, team, people):
        _decide(_submitted(team, people), people["owner"], "reject", "Too far from the data.")
        note = Notification.objects.get(recipient=people["helper"], kind=Kind.DECISION_TAKEN)
        assert note.text == "owner rejected “Plan A.”."
        assert inboxed(Kind.DECISION_TAKEN) == {"member", "helper"}

    def test_a_request_for_changes_is_its_own_kind_with_its_own_preference(self, team, people):
        prefer(people["helper"], Kind.CHANGES_REQUESTED, inbox=False, email=True)
        prefer(people["member"], Kind.DECISION_TAKEN, inbox=False, email=False)  # another kind
        _decide(_submitted(team, people), people["reviewer"], "request_changes")
        assert inboxed(Kind.CHANGES_REQUESTED) == {"member"}
        assert inboxed(Kind.DECISION_TAKEN) == set()
        assert sorted(mailed("review-changes_requested")) == sorted(
            [people["member"].email, people["helper"].email]
        )

    def test_an_approval_that_does_not_decide_the_round_tells_nobody(self, team, people):
        team.approvals_required = 2
        team.save(update_fields=["approvals_required"])
        review = _decide(_submitted(team, people), people["reviewer"], "approve")
        assert review.state == "submitted"
        assert not Notification.objects.filter(kind=Kind.DECISION_TAKEN).exists()
        _decide(review, people["owner"], "approve")
        note = Notification.objects.get(recipient=people["member"], kind=Kind.DECISION_TAKEN)
        assert "last approval by owner" in note.text


class StaleSnapshotTests:
    def test_new_inputs_under_a_submitted_review_tell_the_author_and_deciders_once(
        self, team, people
    ):
        review = _submitted(team, people)
        offer = review.candidates.get().offer
        offer_update(offer=offer, price=3.0)
        snapshot_compute(review_id=review.pk)  # what opening the review does
        assert inboxed(Kind.SNAPSHOT_STALE) == {"member", "owner", "reviewer", "quiet", "nomail"}
        offer.refresh_from_db()
        offer_update(offer=offer, price=3.5)
        snapshot_compute(review_id=review.pk)
        # Once per round: a second change under the same request does not tell them again.
        assert Notification.objects.filter(kind=Kind.SNAPSHOT_STALE).count() == 5

    def test_the_sweep_finds_it_without_anyone_opening_the_review(
        self, team, people, django_capture_on_commit_callbacks
    ):
        review = _submitted(team, people)
        assert snapshot_sweep_submitted() == 0  # nothing changed: nothing to compute
        offer_update(offer=review.candidates.get().offer, price=3.0)
        with django_capture_on_commit_callbacks(execute=True):
            # The job is published on commit and runs (eagerly here, by a worker live).
            assert snapshot_sweep_submitted() == 1
        assert inboxed(Kind.SNAPSHOT_STALE) == {"member", "owner", "reviewer", "quiet", "nomail"}
        assert snapshot_sweep_submitted() == 0
        note = Notification.objects.filter(kind=Kind.SNAPSHOT_STALE).first()
        assert note.text == (
            "The figures of “Plan A.” changed after it was submitted: the decision is now taken "
            "on the new evaluation."
        )

    def test_a_draft_whose_inputs_change_tells_nobody(self, team, people):
        review = moving_review(team, people["member"], ready=True)
        snapshot_compute(review_id=review.pk)
        offer_update(offer=review.candidates.get().offer, price=3.0)
        snapshot_compute(review_id=review.pk)
        assert not Notification.objects.filter(kind=Kind.SNAPSHOT_STALE).exists()


class QuarterlyReadyTests:
    def test_the_first_figures_of_a_quarter_tell_every_member_once(self, team, people):
        _decide(_submitted(team, people), people["reviewer"], "approve")
        Notification.objects.all().delete()
        assert quarterly_refresh(team=team) == 1
        told = inboxed(Kind.QUARTERLY_READY)
        assert told == {"owner", "reviewer", "member", "helper", "quiet", "nomail"}
        quarterly_refresh(team=team)  # the nightly refresh again: the same quarter
        assert Notification.objects.filter(kind=Kind.QUARTERLY_READY).count() == len(told)
        note = Notification.objects.filter(kind=Kind.QUARTERLY_READY).first()
        assert note.url == reverse("scoring:quarterly")
        assert note.text.startswith("The quarterly cost review of Team One for ")


class NotifyTests:
    def test_only_members_of_the_events_team_are_told(self, team, people):
        told = notify(
            kind=Kind.REVIEW_SUBMITTED,
            team=team,
            recipients=[people["outsider"], people["reviewer"].pk],
            params={"review": "X", "actor": "someone"},
            url="/",
            event_key="test-1",
        )
        assert told == [people["reviewer"].pk]
        assert not Notification.objects.filter(recipient=people["outsider"]).exists()
        assert mailed() == [people["reviewer"].email]

    def test_the_same_event_twice_tells_once_by_each_channel(
        self, team, people, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            for _ in range(2):
                notify(
                    kind=Kind.QUARTERLY_READY,
                    team=team,
                    recipients=[people["owner"]],
                    params={"team": "Team One", "quarter": "2026-Q1"},
                    url="/scoring/quarterly/",
                    event_key="quarterly-test",
                )
        assert Notification.objects.filter(recipient=people["owner"]).count() == 1
        assert mailed() == [people["owner"].email]
        assert [m.to for m in mail.outbox] == [[people["owner"].email]]
        body = mail.outbox[0].body
        assert "The quarterly cost review of Team One for 2026-Q1 is ready." in body
        assert "http://localhost:8000/scoring/quarterly/" in body
        assert mail.outbox[0].subject.startswith("[Team One] The quarterly cost review")

    def test_plain_text_stays_plain_and_html_is_escaped(self, team, people):
        notify(
            kind=Kind.REVIEW_SUBMITTED,
            team=team,
            recipients=[people["owner"]],
            params={"review": "R&D's <b>plan</b>", "actor": "member"},
            url="/",
            event_key="escape",
        )
        email = OutgoingEmail.objects.get()
        assert "“R&D's <b>plan</b>”" in email.subject and "“R&D's <b>plan</b>”" in email.text
        assert "R&amp;D&#x27;s &lt;b&gt;plan&lt;/b&gt;" in email.html and "<b>" not in email.html

    def test_an_unknown_kind_is_refused_and_writes_nothing(self, team, people):
        with pytest.raises(ValidationError):
            notify(
                kind="gossip",
                team=team,
                recipients=[people["owner"]],
                params={},
                url="/",
                event_key="x",
            )
        assert not Notification.objects.exists()

    def test_each_email_is_written_in_the_language_its_reader_chose(self, team, people):
        EmailLanguage.objects.create(user=people["owner"], language="zh-hans")
        notify(
            kind=Kind.REVIEW_SUBMITTED,
            team=team,
            recipients=[people["owner"], people["reviewer"]],
            params={"review": "X", "actor": "member"},
            url="/",
            event_key="zh",
        )
        english = OutgoingEmail.objects.get(to=people["reviewer"].email)
        assert english.subject == "[Team One] member submitted “X” for your decision."
        email = OutgoingEmail.objects.get(to=people["owner"].email)
        assert "member 提交了“X”，等待你的决定。" in email.text
        assert email.subject == "[Team One] member 提交了“X”，等待你的决定。"
        assert "打开：" in email.text and "你好" in email.html
