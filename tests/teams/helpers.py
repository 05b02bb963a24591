"""Builders for the accounts tests: reviews whose plan moves data, so M4 can fire."""

from __future__ import annotations

from tests.factories import make_link, make_offer, make_profile, make_review, make_site


def moving_review(team, author, *, price_per_gb: float = 4.0, ready: bool = False, **review_kw):
    """A review whose only candidate sits by the data, away from home.

    Compute: 8 GPUs × 10 h × 2.5 = 200; transfers: (10 GB image + 5 GB results) × price_per_gb.
    With the default 4.0 per GB the network cost share is 60 / 260 ≈ 0.231 (M4 warns at 0.20).
    `ready`: every checklist question answered, the channel reserved, resume verified and the
    environment aligned, so nothing blocks submission or approval.
    """
    n = team.sites.count()
    home = make_site(team, f"home-{n}", datacenter=f"dc-h{n}", city="Beijing", hub="north")
    data = make_site(team, f"data-{n}", datacenter=f"dc-d{n}", city="Shanghai", hub="east")
    link = make_link(team, home, data, bandwidth_gbps=10, price_per_gb=price_per_gb, reservable=True)
    offer = make_offer(team, site=data)
    profile = make_profile(
        team,
        site=home,
        data_site=data,
        env_simple=True,
        image_packaged=True,
        offsite_allowed=True,
        resumable=True,
        resume_verified=ready,
        env_aligned=ready,
    )
    review = make_review(team, author, task=profile, offers=[offer], **review_kw)
    if ready:
        answer_all(review)
        review.reserved_links.add(link)
    return review


def answer_all(review) -> None:
    from apps.reviews.checklists.models import ChecklistAnswer, Question

    for candidate in review.candidates.all():
        for question in Question.values:
            ChecklistAnswer.objects.update_or_create(
                candidate=candidate,
                question=question,
                defaults={"status": "answered", "text": "Checked."},
            )


def submit(review):
    from apps.reviews.services.submission import review_submit

    review_submit(review=review, actor=review.author)
    review.refresh_from_db()
    return review


def approve(review, reviewer):
    """Submit (if needed) and approve through the reviews services: frozen input and all."""
    from apps.reviews.services.signoff import signoff_create
    from apps.reviews.snapshots.services import current_snapshot

    if review.state != "submitted":
        submit(review)
    signoff_create(
        review=review,
        reviewer=reviewer,
        decision="approve",
        snapshot_id=current_snapshot(review).pk,
    )
    review.refresh_from_db()
    return review
