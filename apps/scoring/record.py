"""The decision record of a review: one printable page with everything the decision rests on.

The profile and candidates as the engine saw them (frozen once approved), every checklist answer,
the figures (the signed snapshot's; before a signature the current one, labelled "not signed"),
the findings, the sign-offs with their comments, the audit trail and, as its appendix, the review's
discussion. It lives in the scoring app
because it shows a snapshot; it reads the review, its checklists and its snapshot through their
own selectors, so its query count does not grow with candidates, answers, sign-offs or events.
"""

from __future__ import annotations

from apps.profiles.summary import task_summary
from apps.reviews import selectors as review_selectors
from apps.reviews.checklists.selectors import review_candidates
from apps.reviews.comments.selectors import record_threads
from apps.reviews.models import Review, ReviewState
from apps.reviews.snapshots import selectors


def decision_record(review: Review) -> dict:
    """What templates/scoring/record.html shows.

    `signed`: the figures are those of the approved review's signature; otherwise `snapshot` is
    the current one (or, while it is being recomputed, the latest with `stale` set), and the page
    says it is not signed. `snapshot` is None when the review was never evaluated.
    """
    cards, reserved, review_input = selectors.review_with_input(review)
    evaluation = selectors.review_evaluation(review, review_input=review_input)
    # The evaluation block's context: the snapshot with its rows, summary and charts.
    context = dict(evaluation)
    if evaluation["stale"]:  # being recomputed: show the latest figures, saying so
        context.update(selectors.snapshot_display(evaluation["latest"]))
    snapshot = context["snapshot"]
    output = snapshot.output if snapshot is not None else None
    chosen = (output or {}).get("chosen")
    candidates = review_candidates(review, review_input, output, cards)
    return {
        **context,
        "signed": review.state == ReviewState.APPROVED and snapshot is not None,
        "currency": review.team.currency,
        "task_summary": task_summary(review_input.get("task", {})),
        "candidates": candidates,
        # Each candidate's card with the offer as the engine saw it (as signed, once approved).
        "answer_sections": list(zip(candidates, cards, strict=True)),
        "chosen_offer_id": chosen["offer"] if chosen else None,
        "reserved_links": reserved,
        "signoffs": review_selectors.review_signoffs(review),
        "timeline": review_selectors.timeline_entries(review_selectors.review_timeline(review)),
        # The appendix: the review's discussion, every comment of every thread.
        "discussion": record_threads(review),
    }
