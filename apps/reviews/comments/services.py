"""Writes of a review's discussion: post, edit and delete a comment (issue 40).

Each runs in one transaction: the comment, its audit entry (reviews.AuditEvent: who, what, the text
before and after) and the notice to the people it newly @mentions (apps.notifications.notify: the
bell, email and the team's webhooks, each by the person's preferences) commit together or not at
all. Only a member of the review's team writes in its threads; only the author edits or deletes a
comment. None of them touches the review row, its candidates or its snapshot: an approved
review's thread stays open, and what was signed stays as it was.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.notifications.models import Kind
from apps.notifications.services import notify
from apps.web.limits import MAX_COMMENT_CHARS, MAX_MENTIONS

from ..models import AuditEvent, Candidate, Review
from ..workflow import audit, membership_of
from .models import Comment
from .text import excerpt, mentioned_names

POSTED, EDITED, DELETED = "comment_posted", "comment_edited", "comment_deleted"


def clean_text(text: str) -> str:
    """The text as stored, or a ValidationError on `text`: empty, or too long."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise ValidationError({"text": _("Write a comment first.")}, code="required")
    if len(text) > MAX_COMMENT_CHARS:
        raise ValidationError(
            {
                "text": _(
                    "A comment holds at most %(max)d characters (this one has %(n)d): "
                    "shorten it or split it in two."
                )
                % {"max": MAX_COMMENT_CHARS, "n": len(text)}
            },
            code="max_length",
        )
    return text


def mentioned_members(review: Review, text: str) -> list:
    """The members of the review's team the text @mentions (at most MAX_MENTIONS, else a
    ValidationError on `text`)."""
    names = mentioned_names(text)
    if not names:
        return []
    users = list(
        get_user_model()
        .objects.annotate(name=Lower("username"))
        .filter(memberships__team_id=review.team_id, is_active=True, name__in=names)
        .order_by("username")
    )
    if len(users) > MAX_MENTIONS:
        raise ValidationError(
            {"text": _("A comment mentions at most %(max)d people.") % {"max": MAX_MENTIONS}},
            code="mentions",
        )
    return users


def _names(people) -> list[str]:
    return [user.get_username() for user in people]


def thread_label(candidate: Candidate | None) -> str:
    """What the audit entry names as the thread: the candidate's offer, or nothing (the review)."""
    if candidate is None:
        return ""
    offer = candidate.offer
    return f"{offer.provider} · {offer.name}"


def review_url(review: Review) -> str:
    return reverse("reviews:detail", args=[review.pk])


def comment_url(comment: Comment) -> str:
    return reverse("reviews:detail", args=[comment.review_id]) + f"#comment-{comment.pk}"


def _tell_mentioned(comment: Comment, review: Review, *, actor, people, event: AuditEvent) -> None:
    if not people:
        return
    notify(
        kind=Kind.COMMENT_MENTION,
        team=review.team,
        recipients=people,
        params={
            "review": review.title,
            "team": review.team.name,
            "actor": actor.get_username(),
            "offer": thread_label(comment.candidate),
            "excerpt": excerpt(comment.text),
            "mentioned": sorted(user.get_username() for user in people),
        },
        url=comment_url(comment),
        # One event per post or edit: an edit that mentions someone new tells them (and the
        # webhooks) once; someone already told of this comment is not told again.
        event_key=f"comment-mention:{event.pk}",
        actor=actor,
    )


def _changes(comment: Comment, before: str | None, after: str | None) -> dict:
    return {"comment": [before, after], "comment_id": comment.pk, "candidate": comment.candidate_id}


@transaction.atomic
def comment_post(
    *, review: Review, actor, text: str, candidate: Candidate | None = None
) -> Comment:
    """A new comment in the review's thread, or in its candidate's (of this review)."""
    membership_of(review, actor)
    if candidate is not None and candidate.review_id != review.pk:
        raise ValidationError({"candidate": _("This candidate is not one of the review's.")})
    text = clean_text(text)
    people = mentioned_members(review, text)
    comment = Comment.objects.create(
        review=review, candidate=candidate, author=actor, text=text, mentions=_names(people)
    )
    event = audit(
        review=review, actor=actor, action=POSTED, target=thread_label(candidate),
        changes=_changes(comment, None, text),
    )  # fmt: skip
    _tell_mentioned(comment, review, actor=actor, people=people, event=event)
    return comment


def _own(comment: Comment, actor) -> Comment:
    """The comment, locked, if `actor` wrote it; else PermissionDenied."""
    locked = Comment.objects.select_for_update().select_related("review__team").get(pk=comment.pk)
    if locked.author_id != actor.pk:
        raise PermissionDenied(_("Only its author edits or deletes a comment."))
    membership_of(locked.review, actor)
    return locked


@transaction.atomic
def comment_edit(*, comment: Comment, actor, text: str) -> Comment:
    """The author's new text; the people it mentions for the first time are told."""
    comment = _own(comment, actor)
    text = clean_text(text)
    if text == comment.text:
        return comment
    review = comment.review
    people = mentioned_members(review, text)
    before_names = set(mentioned_names(comment.text))
    new = [user for user in people if user.get_username().lower() not in before_names]
    before = comment.text
    comment.text, comment.edited_at, comment.mentions = text, timezone.now(), _names(people)
    comment.save(update_fields=["text", "edited_at", "mentions"])
    event = audit(
        review=review, actor=actor, action=EDITED, target=thread_label(comment.candidate),
        changes=_changes(comment, before, text),
    )  # fmt: skip
    _tell_mentioned(comment, review, actor=actor, people=new, event=event)
    return comment


@transaction.atomic
def comment_delete(*, comment: Comment, actor) -> None:
    """The author removes the comment; its text stays in the audit trail."""
    comment = _own(comment, actor)
    audit(
        review=comment.review, actor=actor, action=DELETED,
        target=thread_label(comment.candidate), changes=_changes(comment, comment.text, None),
    )  # fmt: skip
    comment.delete()
