"""Writes of what a review compares: its candidates (add, change the machine count, remove) and
the network links reserved for it (SPEC H).

Each service locks the review row first, checks the version the caller saw when it passes one,
refuses a review that is no longer editable, reopens one whose changes were requested, and writes
an AuditEvent.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from apps.catalog.models import NetworkLink, Offer
from apps.reviews.models import Candidate, Review
from apps.reviews.workflow import (
    audit,
    lock_review,
    membership_of,
    reopen_if_changes_requested,
    require_editable,
    touch,
)


def offer_label(offer: Offer) -> str:
    """How the audit trail names a candidate."""
    return f"{offer.provider} · {offer.name}"


def check_machines(offer: Offer, machines: int, field: str = "machines") -> None:
    """At least one machine, and no more than the offer has."""
    if machines is None or int(machines) < 1:
        raise ValidationError({field: _("At least one machine.")})
    if offer.max_machines is not None and int(machines) > offer.max_machines:
        raise ValidationError(
            {field: _("This offer has at most %(n)s machines.") % {"n": offer.max_machines}}
        )


def check_offer(review_team_id: int, offer: Offer, field: str = "offer") -> None:
    """Only an offer of the review's own team can be a candidate."""
    if offer.team_id != review_team_id:
        raise ValidationError({field: _("Choose an offer of this team.")})


@transaction.atomic
def candidate_add(
    *, review: Review, actor, offer: Offer, machines: int, version: int | None = None
) -> Candidate:
    review = lock_review(review.pk, version=version)
    membership_of(review, actor)
    require_editable(review)
    check_offer(review.team_id, offer)
    check_machines(offer, machines)
    if review.candidates.filter(offer=offer).exists():
        raise ValidationError({"offer": _("This offer is already a candidate.")})
    position = (review.candidates.aggregate(m=Max("position"))["m"] or 0) + 1
    candidate = Candidate.objects.create(
        review=review, offer=offer, machines=int(machines), position=position
    )
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review,
        actor=actor,
        action="candidate_added",
        target=offer_label(offer),
        changes={"machines": [None, candidate.machines]},
    )
    return candidate


@transaction.atomic
def candidate_update(
    *, candidate: Candidate, actor, machines: int, version: int | None = None
) -> Candidate:
    review = lock_review(candidate.review_id, version=version)
    membership_of(review, actor)
    require_editable(review)
    candidate = Candidate.objects.select_related("offer").get(pk=candidate.pk)
    check_machines(candidate.offer, machines)
    old = candidate.machines
    if old == int(machines):
        return candidate
    candidate.machines = int(machines)
    candidate.save(update_fields=["machines"])
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review,
        actor=actor,
        action="candidate_updated",
        target=offer_label(candidate.offer),
        changes={"machines": [old, candidate.machines]},
    )
    return candidate


@transaction.atomic
def candidate_remove(*, candidate: Candidate, actor, version: int | None = None) -> None:
    review = lock_review(candidate.review_id, version=version)
    membership_of(review, actor)
    require_editable(review)
    candidate = Candidate.objects.select_related("offer").get(pk=candidate.pk)
    answered = candidate.answers.filter(status="answered").count()
    label = offer_label(candidate.offer)
    machines = candidate.machines
    candidate.delete()
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review,
        actor=actor,
        action="candidate_removed",
        target=label,
        changes={"machines": [machines, None], "answered_questions": [answered, None]},
    )


@transaction.atomic
def review_reserve_links(
    *, review: Review, actor, links: Iterable[NetworkLink], version: int | None = None
) -> Review:
    """SPEC H: the channels reserved for this review; only reservable links of its team."""
    review = lock_review(review.pk, version=version)
    membership_of(review, actor)
    require_editable(review)
    links = list(links)
    for link in links:
        if link.team_id != review.team_id:
            raise ValidationError({"links": _("Choose links of this team.")})
        if not link.reservable:
            raise ValidationError(
                {"links": _("Only a reservable link can be reserved (%(link)s).") % {"link": link}}
            )
    old = sorted(str(link) for link in review.reserved_links.select_related("from_site", "to_site"))
    new = sorted(str(link) for link in links)
    if old == new:
        return review
    review.reserved_links.set(links)
    reopen_if_changes_requested(review, actor)
    touch(review, inputs=True)
    audit(
        review=review, actor=actor, action="links_reserved", changes={"reserved_links": [old, new]}
    )
    return review


def plan_links(review: Review, pairs: Iterable[tuple[str, str]]) -> list[NetworkLink]:
    """The team's links that carry the given (from site, to site) legs, the way the engine routes
    them (SPEC P): the link recorded in that direction, else the reverse one. A leg without a
    recorded link or over a link that cannot be reserved is refused, naming the leg and the fix."""
    links = list(
        NetworkLink.objects.filter(team_id=review.team_id).select_related("from_site", "to_site")
    )
    routes = {(link.from_site.code, link.to_site.code): link for link in links}
    for link in links:
        routes.setdefault((link.to_site.code, link.from_site.code), link)
    found: list[NetworkLink] = []
    for a, b in pairs:
        link = routes.get((a, b))
        leg = f"{a} → {b}"
        if link is None:
            raise ValidationError(
                {"pairs": _("No link is recorded for %(leg)s: record it in the catalog first.")
                 % {"leg": leg}}
            )
        if not link.reservable:
            raise ValidationError(
                {"pairs": _("The link %(leg)s cannot be reserved: mark it reservable in the "
                            "catalog if its provider takes reservations.") % {"leg": leg}}
            )
        if link not in found:
            found.append(link)
    return found


@transaction.atomic
def review_reserve_plan(
    *, review: Review, actor, pairs: Iterable[tuple[str, str]], version: int | None = None
) -> Review:
    """SPEC H2 fix: reserve the links of a plan's legs, keeping the channels already reserved."""
    review = lock_review(review.pk, version=version)
    wanted = plan_links(review, pairs)
    kept = list(review.reserved_links.all())
    return review_reserve_links(
        review=review, actor=actor, links=kept + [link for link in wanted if link not in kept],
        version=review.version,
    )
