"""The history filters: a GET form, so a filtered list is a URL that can be shared."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.widgets import FastSelect
from apps.reviews.models import Decision, ReviewState
from apps.web.search import MAX_QUERY
from apps.web.typeahead import TypeAheadField

from .history_list import HistoryFilters


class HistoryFilterForm(forms.Form):
    q = forms.CharField(
        label=_("Search"),
        required=False,
        max_length=MAX_QUERY,
        widget=forms.TextInput(
            attrs={"type": "search", "placeholder": _("Task, offer, site or author")}
        ),
    )
    team = forms.TypedChoiceField(
        label=_("Team"), required=False, coerce=int, empty_value=None, widget=FastSelect
    )
    # Type-ahead boxes, not a <select> of every task and reviewer (apps.web.typeahead).
    task = TypeAheadField(
        label=_("Task"), options_url="scoring:history_options", placeholder=_("All")
    )
    state = forms.ChoiceField(
        label=_("Review state"),
        required=False,
        help_text=_("The review's state now."),
    )
    decision = forms.ChoiceField(
        label=_("Decision"), required=False, help_text=_("A sign-off with this decision.")
    )
    reviewer = TypeAheadField(
        label=_("Reviewer"), options_url="scoring:history_options", placeholder=_("All"),
        help_text=_("Who signed off."),
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, memberships=(), **kwargs):
        super().__init__(*args, **kwargs)
        anything = [("", _("All"))]
        self.fields["team"].choices = anything + [(m.team_id, m.team.name) for m in memberships]
        self.fields["state"].choices = anything + list(ReviewState.choices)
        self.fields["decision"].choices = anything + list(Decision.choices)

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end date is before the start date."))
        return cleaned

    def filters(self, named: dict) -> HistoryFilters:
        """The valid filters; a field with an error does not filter. `named`: the rows each
        type-ahead box named (apps.web.typeahead)."""
        data = getattr(self, "cleaned_data", {}) if self.is_bound else {}
        valid = {k: v for k, v in data.items() if k not in self.errors}
        return HistoryFilters(
            team=valid.get("team"),
            tasks=named.get("task"),
            state=valid.get("state") or "",
            decision=valid.get("decision") or "",
            reviewers=named.get("reviewer"),
            date_from=valid.get("date_from"),
            date_to=valid.get("date_to") if "date_to" not in self.errors else None,
            q=(valid.get("q") or "").strip(),
        )
