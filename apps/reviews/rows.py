"""The review list's and the approval queue's rows drawn in Python (apps/web/rows.py): the markup
reviews/list.html and reviews/approvals.html drew with a template per cell, checked against them
by tests/reviews/test_list_rows.py and tests/reviews/test_queue_rows.py."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince
from django.utils.translation import gettext

from apps.web.rows import choice_labels, date, text

from .models import Review

_ROW = (
    '\n      <tr id="queue-{pk}">\n'
    '        <td><a href="{url}">{title}</a></td>\n'
    "        <td>{team}</td>\n"
    "        <td>{task}</td>\n"
    "        <td>{author}</td>\n"
    '        <td class="num">{candidates}</td>\n'
    '        <td class="num">{approvals} / {needed}</td>\n'
    '        <td class="small muted">{submitted}</td>\n'
    '        <td><div class="row-actions"><a class="btn btn--small btn--primary" '
    'href="{url}#decision-panel">{review}</a></div></td>\n'
    "      </tr>\n        "
)


def _ago(value: datetime, now: datetime) -> str:
    """Django's `timesince` filter against `now`: empty when it cannot tell."""
    try:
        return timesince(value, now)
    except (ValueError, TypeError):
        return ""


def queue_rows(reviews: Iterable, now: datetime) -> SafeString:
    """The table rows of a page of the queue (selectors.review_rows), "submitted ... ago" told
    against `now`, in the active language."""
    ago = gettext("%(ago)s ago")
    review_label = text(gettext("Review"))
    rows = []
    for review in reviews:
        submitted = ""
        if review.submitted_at:
            when = ago % {"ago": text(_ago(review.submitted_at, now))}
            submitted = f'<time datetime="{date(review.submitted_at, "c")}">{when}</time>'
        rows.append(
            _ROW.format(
                pk=text(review.pk),
                url=text(reverse("reviews:detail", args=[review.pk])),
                title=text(review.title),
                team=text(review.team_name),
                task=text(review.task_name),
                author=text(review.author_username),
                candidates=text(review.candidate_count),
                approvals=text(review.round_approvals),
                needed=text(review.approvals_needed),
                submitted=submitted,
                review=review_label,
            )
        )
    return mark_safe("".join(rows))


_LIST_ROW = (
    '\n        <tr id="review-{pk}">\n'
    '          <td><a href="{url}">{title}</a></td>\n'
    "          <td>{task}</td>\n"
    '          <td><span class="badge badge--{state}" data-state="{state}">'
    "{state_label}</span></td>\n"
    "          <td>{author}</td>\n"
    '          <td class="num">{candidates}</td>\n'
    '          <td class="num">{approvals}</td>\n'
    '          <td class="small muted"><time datetime="{updated}">{updated_at}</time></td>\n'
    "        </tr>\n        "
)


def list_rows(reviews: Iterable) -> SafeString:
    """The table rows of a page of the review list (selectors.review_rows), in the active
    language; the approvals of a review submitted or approved, "—" for the others."""
    states = choice_labels(Review, "state")
    rows = []
    for review in reviews:
        approvals = "—"
        if review.state in ("submitted", "approved"):
            approvals = f"{text(review.round_approvals)} / {text(review.approvals_needed)}"
        rows.append(
            _LIST_ROW.format(
                pk=text(review.pk),
                url=text(reverse("reviews:detail", args=[review.pk])),
                title=text(review.title),
                task=text(review.task_name),
                state=text(review.state),
                state_label=text(states.get(review.state, review.state)),
                author=text(review.author_username),
                candidates=text(review.candidate_count),
                approvals=approvals,
                updated=date(review.updated_at, "c"),
                updated_at=date(review.updated_at, "Y-m-d H:i"),
            )
        )
    return mark_safe("".join(rows))
