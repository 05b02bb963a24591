"""Forms of the actual cost pages. They parse types and render widgets; the rules are
`actual_clean`'s (the same for the form, the CSV import, the API and a bill)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.fields import FileTextField, SafeModelChoiceField
from apps.accounts.models import Team
from apps.reviews.models import Review
from apps.web.concurrency import VERSION, VersionField
from apps.web.forms import FiniteFloatField

from .models import ActualCost, BillCost
from .selectors import approved_reviews
from .validation import ActualValidationError


class ReviewChoiceField(SafeModelChoiceField):
    def label_from_instance(self, obj: Review) -> str:
        return f"#{obj.pk} · {obj.title}"


def _amount(label, help_text="", required=False):
    return FiniteFloatField(
        label=label, help_text=help_text, required=required, min_value=0,
        widget=forms.NumberInput(attrs={"step": "any", "min": 0}),
    )


class ActualForm(forms.Form):
    review = ReviewChoiceField(
        label=_("Review"), queryset=Review.objects.none(),
        help_text=_("An approved review: its signed plan is what this run is compared with."),
    )
    period = forms.DateField(
        label=_("Period"), widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("The day the run started (a monthly bill: the first day of the month)."),
    )
    compute_cost = _amount(_("Compute cost"), _("What the compute cost, scheduling fees "
                                                "included, in the team's currency."), True)
    transfer_cost = _amount(_("Transfer cost"), _("What moving the data cost (egress, lines)."))
    gpu_hours = _amount(_("GPU-hours"), _("GPUs × hours the run held them (optional)."))
    hours = _amount(_("Hours end to end"), _("From submission to results (optional)."))
    reference = forms.CharField(
        label=_("Reference"), max_length=200, required=False,
        help_text=_("The provider's invoice line or job id, to find it again."),
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    version = VersionField()

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["review"].queryset = approved_reviews(team=team)

    def data_for_service(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop(VERSION, None)
        return data

    def add_service_errors(self, error: ActualValidationError) -> None:
        for name, messages in error.errors.items():
            for message in messages:
                self.add_error(name if name in self.fields else None, message)


def initial_from_record(record: ActualCost) -> dict:
    names = ("period", "compute_cost", "transfer_cost", "gpu_hours", "hours", "reference", "notes")
    initial = {name: getattr(record, name) for name in names}
    initial.update(review=record.review_id, version=record.version)
    return initial


class UploadForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"), required=False,
        help_text=_("UTF-8, comma-separated, header on line 1."),
    )
    content = FileTextField(required=False, widget=forms.Textarea(attrs={"hidden": True}))


class ThresholdForm(forms.Form):
    over_plan_pct = FiniteFloatField(
        label=_("Over-plan notice from (%)"), min_value=0, max_value=1000,
        help_text=_("A later review of the task says so when its last run cost more than this "
                    "over plan."),
    )


class BillSettingsForm(forms.Form):
    bill_tag_key = forms.RegexField(
        label=_("Tag key that names a review"), max_length=60, regex=r"^[A-Za-z0-9_.:/+=@-]+$",
        error_messages={"invalid": _("Letters, digits and _ . : / + = @ - only, no spaces.")},
        help_text=_("A bill line's tag with this key names its review: 12, #12 or review:12."),
    )
    bill_cost = forms.ChoiceField(label=_("Cost counted"), choices=BillCost.choices)
