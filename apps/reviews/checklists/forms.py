"""One small form per question; many of them on one page, so each carries its own prefix."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.benchmarks.models import BenchmarkRecord
from apps.reviews.models import Candidate
from apps.web.forms import FiniteFloatField

from .models import AnswerStatus, ChecklistAnswer, Question


def answer_prefix(candidate_id: int, question: str) -> str:
    return f"a{candidate_id}-{question}"


def benchmark_label(record: BenchmarkRecord) -> str:
    offer = f" · {record.offer.name}" if record.offer_id else ""
    size = f"{record.nodes}×{record.gpus_per_node}"
    return f"#{record.pk} {record.get_kind_display()}{offer} · {size}"


class AnswerForm(forms.Form):
    """One control decides the status: a written answer counts as answered, unless the person
    ticks "cannot answer yet" (a note for later); no text is unanswered. `cleaned_data["status"]`
    is derived, so the saved status, the counter and the gate always agree with what was typed."""

    text = forms.CharField(
        label=_("Answer"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    evidence_benchmark = forms.ChoiceField(label=_("Evidence: benchmark record"), required=False)
    evidence_url = forms.URLField(
        label=_("Evidence: link"),
        required=False,
        max_length=500,
        assume_scheme="https",
        widget=forms.URLInput(attrs={"placeholder": "https://"}),
    )
    not_yet = forms.BooleanField(
        label=_("Cannot answer yet"),
        required=False,
        help_text=_("Keeps what is written as a note; the question still counts as unanswered."),
    )
    seen = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, benchmarks: list[BenchmarkRecord] = (), **kwargs):
        super().__init__(*args, **kwargs)
        # Choices built from one list shared by every form of the page: no query per form.
        self._benchmarks = {str(r.pk): r for r in benchmarks}
        self.fields["evidence_benchmark"].choices = [
            ("", _("No benchmark record")),
            *((str(r.pk), benchmark_label(r)) for r in benchmarks),
        ]

    @classmethod
    def for_answer(
        cls,
        answer: ChecklistAnswer | None,
        token: str,
        candidate: Candidate | None = None,
        **kwargs,
    ) -> AnswerForm:
        initial = {"seen": token}
        if answer is not None:
            initial.update(
                not_yet=answer.status == AnswerStatus.UNANSWERED and bool(answer.text.strip()),
                text=answer.text,
                evidence_benchmark=str(answer.evidence_benchmark_id or ""),
                evidence_url=answer.evidence_url,
            )
        if candidate is not None and "migration_effort_hours" in cls.base_fields:
            initial["migration_effort_hours"] = candidate.migration_effort_hours
        return cls(initial=initial, **kwargs)

    def clean_evidence_benchmark(self) -> BenchmarkRecord | None:
        value = self.cleaned_data.get("evidence_benchmark") or ""
        return self._benchmarks.get(value) if value else None

    def clean(self) -> dict:
        data = super().clean()
        written = bool((data.get("text") or "").strip())
        answered = written and not data.get("not_yet")
        data["status"] = AnswerStatus.ANSWERED if answered else AnswerStatus.UNANSWERED
        return data


class MigrationAnswerForm(AnswerForm):
    """Q5 (migration cost) also carries the candidate's migration effort in engineer hours: the
    bill prices it on its own line (SPEC 6.1 T)."""

    migration_effort_hours = FiniteFloatField(
        label=_("Migration effort (engineer hours)"),
        required=False,
        min_value=0,
        help_text=_(
            "Engineer hours to move the task onto this offer: adapting code, images, data and "
            "validation. The bill prices it on its own line at the team's engineer hour cost, "
            "spread over a year of runs. Blank = the largest effort of this task's pilot "
            "migrations onto this offer, if any."
        ),
        widget=forms.NumberInput(attrs={"min": 0, "step": "any"}),
    )


def answer_form_class(question: str) -> type[AnswerForm]:
    return MigrationAnswerForm if question == Question.Q5 else AnswerForm
