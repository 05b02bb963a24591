"""A comment of a review's discussion: on the review itself, or on one of its candidates.

A model of the reviews app (apps/reviews/models.py registers it, so it names the review and the
candidate by their labels). It belongs to the review's team through `review__team` and is read
and written through `TeamScopedQuerySet`, so every write moves the team's generation and every
cached page that shows a thread (or the timeline its audit entries join) is drawn again.

A thread stays open once the review is approved: a comment is not a part of what was signed (no
trigger of migration 0005 guards this table), and writing one never touches the review row, its
candidates or its snapshot.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import TeamScopedQuerySet
from apps.web.limits import MAX_COMMENT_CHARS


class Comment(models.Model):
    review = models.ForeignKey("reviews.Review", on_delete=models.CASCADE, related_name="comments")
    # Blank: on the review itself; else on this candidate (an offer the review compares).
    candidate = models.ForeignKey(
        "reviews.Candidate",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="comments",
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="review_comments"
    )
    text = models.TextField(_("comment"), max_length=MAX_COMMENT_CHARS)
    # The usernames of the team's members the text @mentions, as they were when it was written
    # (those were told; the thread marks them): a thread is drawn without reading the team.
    mentions = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "review__team"

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["review", "candidate", "created_at", "id"], name="comment_thread")
        ]

    def __str__(self) -> str:
        return f"{self.author_id} on {self.review_id}: {self.text[:40]}"
