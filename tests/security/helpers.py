"""One world for the security tests: two teams with every kind of object, and the people in them.

Team A ("alpha") has an owner, a reviewer and a member; the member authored a submitted review
whose snapshot is computed. Team B ("bravo") has the same kinds of objects; its owner is the
"outsider" of team A.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import transaction

from apps.accounts.tokens import api_token_create, api_token_revoke
from apps.reviews.checklists.models import AnswerStatus, ChecklistAnswer, Question
from apps.reviews.services.candidates import review_reserve_links
from apps.reviews.services.submission import review_submit
from apps.reviews.snapshots.services import snapshot_compute
from tests.factories import (
    make_benchmark,
    make_link,
    make_membership,
    make_offer,
    make_profile,
    make_review,
    make_site,
    make_team,
    make_user,
)


@dataclass
class TeamWorld:
    team: object
    owner: object
    reviewer: object
    member: object
    home: object  # site
    far: object  # site
    link: object
    offer: object
    profile: object
    single: object  # benchmark records
    multi: object
    probe: object
    token: object
    token_raw: str
    review: object  # submitted, authored by `member`
    candidate: object
    snapshot: object
    member_membership: object
    extra: dict = field(default_factory=dict)


def answer_all(review, user) -> None:
    for candidate in review.candidates.all():
        for question in Question.values:
            ChecklistAnswer.objects.update_or_create(
                candidate=candidate,
                question=question,
                defaults={
                    "status": AnswerStatus.ANSWERED,
                    "text": f"Answer to {question}",
                    "updated_by": user,
                },
            )


def _actual(team, review):
    """An actual cost of the review (written directly: the review is not approved)."""
    from apps.actuals.models import ActualCost

    return ActualCost.objects.create(
        team=team, review=review, period="2026-03-01", compute_cost=1.0
    )


def build_team(slug: str, *, owner=None) -> TeamWorld:
    """A team with two sites, a link, an offer, a profile, three benchmark records, a token,
    and a submitted review (by its member) with its snapshot."""
    team = make_team(f"Team {slug.title()}", slug)
    owner = owner or make_user(f"{slug}-owner")
    make_membership(owner, team, "owner")
    reviewer = make_membership(make_user(f"{slug}-reviewer"), team, "reviewer").user
    member_membership = make_membership(make_user(f"{slug}-member"), team, "member")
    member = member_membership.user
    home = make_site(team, f"home-{slug}", city="Shanghai", hub="east")
    far = make_site(team, f"far-{slug}", city="Guiyang", hub="west")
    link = make_link(team, home, far, bandwidth_gbps=10, rtt_ms=30, reservable=True)
    offer = make_offer(team, site=home, name=f"H100 at {slug}")
    profile = make_profile(
        team, site=home, name=f"Nightly eval {slug}", resume_verified=True, env_aligned=True
    )
    single = make_benchmark(team, profile, offer, kind="single", e2e_hours=10, compute_hours=9)
    multi = make_benchmark(
        team, profile, offer, kind="multi", nodes=2, e2e_hours=6, compute_hours=5
    )
    probe = make_benchmark(
        team,
        profile,
        None,
        kind="network_probe",
        from_site=home,
        to_site=far,
        bandwidth_gbps=8,
        rtt_ms=31,
        e2e_hours=0,
        compute_hours=0,
    )
    token, raw = api_token_create(team=team, name=f"ci-{slug}", created_by=owner)
    review = make_review(team, member, task=profile, offers=[offer], title=f"Review {slug}")
    answer_all(review, member)
    review_reserve_links(review=review, actor=member, links=[link])
    review_submit(review=review, actor=member)
    review.refresh_from_db()
    snapshot = snapshot_compute(review_id=review.pk)
    return TeamWorld(
        team=team,
        owner=owner,
        reviewer=reviewer,
        member=member,
        home=home,
        far=far,
        link=link,
        offer=offer,
        profile=profile,
        single=single,
        multi=multi,
        probe=probe,
        token=token,
        token_raw=raw,
        review=review,
        candidate=review.candidates.get(),
        snapshot=snapshot,
        member_membership=member_membership,
        extra={"actual": _actual(team, review)},
    )


@dataclass
class World:
    a: TeamWorld
    b: TeamWorld
    revoked_raw: str

    @property
    def outsider(self):
        return self.b.owner


def build_world() -> World:
    a = build_team("alpha")
    b = build_team("bravo")
    revoked, revoked_raw = api_token_create(team=a.team, name="revoked", created_by=a.owner)
    api_token_revoke(token=revoked)
    return World(a=a, b=b, revoked_raw=revoked_raw)


@contextmanager
def rolled_back():
    """Run the block in a savepoint that is always rolled back: a request's writes (deletes
    included) never change the world seen by the next one."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)
