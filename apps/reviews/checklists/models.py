"""The six-question checklist (选型核对清单) answered for each candidate (SPEC C).

A model of the reviews app (apps/reviews/models.py registers it, so it names the candidate by
its label); it keeps the table it had when checklists were an app of their own."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import TeamScopedQuerySet
from apps.benchmarks.models import BenchmarkRecord


class Question(models.TextChoices):
    Q1 = "q1", _("Task scale")
    Q2 = "q2", _("Split and network")
    Q3 = "q3", _("Fault tolerance")
    Q4 = "q4", _("Billing basis")
    Q5 = "q5", _("Migration cost")
    Q6 = "q6", _("Exit path")


class AnswerStatus(models.TextChoices):
    ANSWERED = "answered", _("Answered")
    UNANSWERED = "unanswered", _("Unanswered")


class ChecklistAnswer(models.Model):
    candidate = models.ForeignKey(
        "reviews.Candidate", on_delete=models.CASCADE, related_name="answers"
    )
    question = models.CharField(_("question"), max_length=2, choices=Question.choices)
    status = models.CharField(
        _("status"), max_length=12, choices=AnswerStatus.choices, default=AnswerStatus.UNANSWERED
    )
    text = models.TextField(_("answer"), blank=True)
    evidence_benchmark = models.ForeignKey(
        BenchmarkRecord,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("evidence: benchmark record"),
    )
    evidence_url = models.URLField(_("evidence: link"), blank=True, max_length=500)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "candidate__review__team"

    class Meta:
        db_table = "checklists_checklistanswer"  # the table it had in apps.checklists
        ordering = ["candidate_id", "question"]
        constraints = [
            models.UniqueConstraint(
                fields=["candidate", "question"], name="answer_unique_question"
            )
        ]

    def __str__(self) -> str:
        return f"{self.candidate} {self.question}: {self.status}"
