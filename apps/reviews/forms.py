"""Forms of the review pages. Choices are always limited to the current team's objects."""

from __future__ import annotations

import copy

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.fields import SafeModelChoiceField, SafeModelMultipleChoiceField
from apps.accounts.widgets import FastSelect
from apps.catalog.models import NetworkLink, Offer
from apps.profiles.forms import TaskProfileForm
from apps.profiles.models import TaskProfile
from apps.web.search import MAX_QUERY
from apps.web.typeahead import TypeAheadField

from .models import Candidate, Decision, ReviewState

# Far above any real order and far inside the database column.
MAX_MACHINES = 100_000


class VersionField(forms.IntegerField):
    """The review version the page was rendered with (optimistic lock)."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("min_value", 0)
        super().__init__(**kwargs)


class ReviewFilterForm(forms.Form):
    q = forms.CharField(
        label=_("Search"),
        required=False,
        max_length=MAX_QUERY,
        widget=forms.TextInput(
            attrs={"type": "search", "placeholder": _("Title, task, offer or author")}
        ),
    )
    state = forms.ChoiceField(
        label=_("State"),
        required=False,
        choices=[("", _("All states")), *ReviewState.choices],
        widget=forms.Select(attrs={"data-autosubmit": ""}),
    )
    # Type-ahead boxes, not a <select> of every task and author (apps.web.typeahead).
    task = TypeAheadField(
        label=_("Task"), options_url="reviews:filter_options", placeholder=_("All tasks")
    )
    author = TypeAheadField(
        label=_("Author"), options_url="reviews:filter_options", placeholder=_("All authors")
    )


class ReviewCreateForm(forms.Form):
    """A task profile, a title, and the offers to compare with a machine count each."""

    title = forms.CharField(
        label=_("Title"),
        max_length=200,
        help_text=_("What is being decided, e.g. “Fine-tune 7B in Q3: where and on what”."),
    )
    task = SafeModelChoiceField(
        label=_("Task profile"),
        queryset=TaskProfile.objects.none(),
        widget=FastSelect,
        help_text=_("The job being planned: its size, data and time budget."),
    )
    offers = SafeModelMultipleChoiceField(
        label=_("Candidates"),
        queryset=Offer.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tick the offers to compare; each becomes a candidate with its checklist."),
    )

    def __init__(self, *args, team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["task"].queryset = TaskProfile.objects.filter(team=team).order_by("name")
        offers = Offer.objects.filter(team=team).select_related("site").order_by("provider", "name")
        self.fields["offers"].queryset = offers
        self.offer_rows = []
        for offer in offers:
            name = f"machines_{offer.pk}"
            self.fields[name] = forms.IntegerField(
                label=_("Machines"),
                min_value=1,
                max_value=min(offer.max_machines or MAX_MACHINES, MAX_MACHINES),
                initial=1,
                required=False,
                widget=forms.NumberInput(attrs={"min": 1, "class": "input input--narrow"}),
            )
            self.offer_rows.append((offer, name))

    def offer_fields(self):
        """(offer, checked, machines bound field) per offer, for the table of the page."""
        chosen = {str(v) for v in (self["offers"].value() or [])}
        return [(offer, str(offer.pk) in chosen, self[name]) for offer, name in self.offer_rows]

    def candidates(self) -> list[tuple[Offer, int]]:
        return [
            (offer, self.cleaned_data.get(f"machines_{offer.pk}") or 1)
            for offer in self.cleaned_data["offers"]
        ]


class ReviewTitleForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    version = VersionField()


class ReservedLinksForm(forms.Form):
    links = SafeModelMultipleChoiceField(
        label=_("Reserved channels"),
        queryset=NetworkLink.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "A plan that moves data is ready to dispatch only when every link it uses is "
            "reserved (rule H2). Only reservable links are listed."
        ),
    )
    version = VersionField()

    def __init__(self, *args, team, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["links"].queryset = (
            NetworkLink.objects.filter(team=team, reservable=True)
            .select_related("from_site", "to_site")
            .order_by("from_site__code", "to_site__code")
        )


class CandidateAddForm(forms.Form):
    offer = SafeModelChoiceField(label=_("Offer"), queryset=Offer.objects.none())
    machines = forms.IntegerField(
        label=_("Machines"),
        min_value=1,
        max_value=MAX_MACHINES,
        initial=1,
        widget=forms.NumberInput(attrs={"min": 1}),
    )
    version = VersionField()

    def __init__(self, *args, review, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["offer"].queryset = (
            Offer.objects.filter(team_id=review.team_id)
            .exclude(candidates__review=review)
            .select_related("site")
            .order_by("provider", "name")
        )


class CandidateChangeForm(forms.Form):
    """Change the machine count of a candidate, or remove it (`action`)."""

    candidate = SafeModelChoiceField(queryset=Candidate.objects.none(), widget=forms.HiddenInput)
    machines = forms.IntegerField(
        label=_("Machines"), min_value=1, max_value=MAX_MACHINES, required=False
    )
    version = VersionField()

    def __init__(self, *args, review, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["candidate"].queryset = Candidate.objects.filter(review=review).select_related(
            "offer"
        )


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(label=_("Decision"), choices=Decision.choices)
    comment = forms.CharField(
        label=_("Comment"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Required when you request changes or reject: say what and why."),
    )
    snapshot = forms.IntegerField(widget=forms.HiddenInput)
    version = VersionField()

    def clean(self):
        data = super().clean()
        if (
            data.get("decision") in {Decision.REJECT, Decision.REQUEST_CHANGES}
            and not (data.get("comment") or "").strip()
        ):
            self.add_error("comment", _("Say why: a comment is required for this decision."))
        return data


class VersionForm(forms.Form):
    version = VersionField()


class ReadinessForm(forms.Form):
    """Rule H2: the readiness facts a user confirms from the review (set to true only)."""

    resume_verified = forms.BooleanField(
        label=_("Resuming from a checkpoint was verified (a run was stopped and resumed)"),
        required=False,
    )
    env_aligned = forms.BooleanField(
        label=_("The environments at both ends are aligned (same image, drivers and paths)"),
        required=False,
    )
    version = VersionField()
    profile_version = VersionField()

    def clean(self):
        data = super().clean()
        data["fields"] = [n for n in ("resume_verified", "env_aligned") if data.get(n)]
        if not data["fields"]:
            raise forms.ValidationError(_("Tick what was done before confirming."))
        return data


class PlanChannelsForm(forms.Form):
    """The legs of the chosen plan to reserve (rule H2), as "from>to" site codes."""

    pairs = forms.Field(label=_("Channels"), required=False, widget=forms.MultipleHiddenInput)
    version = VersionField()

    MAX_PAIRS = 20  # a plan has at most three legs (input, image, results); room for more

    def clean_pairs(self):
        raw = self.cleaned_data.get("pairs") or []
        if isinstance(raw, str):
            raw = [raw]
        if not raw:
            raise forms.ValidationError(_("Name at least one channel to reserve."))
        if len(raw) > self.MAX_PAIRS:
            raise forms.ValidationError(
                _("At most %(n)s channels at once.") % {"n": self.MAX_PAIRS}
            )
        pairs = []
        for value in raw:
            a, sep, b = str(value).partition(">")
            if not sep or not a or not b or len(value) > 200:
                raise forms.ValidationError(
                    _("A channel is written from>to (site codes): %(value)s")
                    % {"value": value[:60]}
                )
            pairs.append((a, b))
        return pairs


class ProfileFieldForm(forms.Form):
    """One task profile field set from a block finding (P3 planned GPUs, R1a parallelism, J4 a
    maintained scheduler). The value field is the profile form's own (label, choices, bounds),
    required here: a fix that leaves the field as it was fixes nothing."""

    FIELDS = ("gpus", "parallelism", "can_maintain_scheduler")
    # The profile form already requires the GPU count, with its own message.
    REQUIRED = {
        "parallelism": _("Choose at least one way the job can be split."),
        "can_maintain_scheduler": _("Tick the box to record that someone maintains a scheduler."),
    }

    field = forms.ChoiceField(choices=[(name, name) for name in FIELDS], widget=forms.HiddenInput)
    version = VersionField()
    profile_version = VersionField()

    def __init__(self, data=None, *, team, field: str | None = None, **kwargs):
        super().__init__(data, **kwargs)
        name = field if field is not None else (data or {}).get("field")
        if name in self.FIELDS:
            # The profile form's field, so the bounds and choices have one home.
            value = copy.deepcopy(TaskProfileForm(team=team).fields[name])
            value.required = True
            if name in self.REQUIRED:
                value.error_messages["required"] = self.REQUIRED[name]
            value.help_text = ""
            self.fields["value"] = value
            self.fields["field"].initial = name
