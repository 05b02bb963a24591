"""Forms of the benchmark pages. They parse types and render widgets; the rules themselves are
`benchmark_clean`'s (the same for the form, the CSV import and the API)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.accounts.fields import FileTextField
from apps.accounts.models import Team
from apps.accounts.widgets import FastSelect
from apps.catalog.models import Offer, Site, Tier
from apps.profiles.models import TaskProfile
from apps.web.concurrency import VERSION, VersionField

from .models import BenchmarkKind, BenchmarkRecord, Recovery
from .validation import FIELDS_BY_KIND, REQUIRED_BY_KIND, BenchmarkValidationError


def _number(label, help_text="", minimum=0, step="any", integer=False):
    widget = forms.NumberInput(attrs={"step": "1" if integer else step, "min": minimum})
    field_class = forms.IntegerField if integer else forms.FloatField
    return field_class(label=label, help_text=help_text, required=False, widget=widget)


class OfferChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Offer) -> str:
        return f"{obj.provider} · {obj.name} ({obj.site.code})"


class SiteChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Site) -> str:
        return f"{obj.code} · {obj.name}"


class BenchmarkForm(forms.Form):
    task = forms.ModelChoiceField(
        label=_("Task"), queryset=TaskProfile.objects.none(), required=False, widget=FastSelect
    )
    offer = OfferChoiceField(
        label=_("Offer"),
        queryset=Offer.objects.none(),
        required=False,
        help_text=_("The offer the run used."),
    )
    nodes = _number(_("Nodes"), _("Machines the run used (1 for a single-machine run)."), 1,
                    integer=True)
    gpus_per_node = _number(_("GPUs per node"), "", 1, integer=True)
    e2e_hours = _number(
        _("End-to-end hours"),
        _("From submission to results: the figure that counts. At least the compute hours."),
    )
    compute_hours = _number(_("Compute hours"), _("The compute segment alone."))
    transfer_hours = _number(_("Transfer hours"), _("Moving data, images and results."))
    queue_hours = _number(_("Queue hours"), _("Waiting for capacity, including start-up."))
    comm_hours = _number(
        _("Communication hours"), _("Cross-machine communication, when measured (optional).")
    )
    peak_gpu_mem_gb = _number(
        _("Peak GPU memory (GB)"),
        _("Optional: one replica's peak over all its GPUs. On a single-machine run it replaces "
          "the engine's memory estimate."),
    )
    failure_reruns = _number(_("Failure reruns"), _("How many times the run failed and was rerun."),
                             0, integer=True)
    hours_lost_per_rerun = _number(_("Hours lost per rerun"), _("Work lost by one failure."))
    recovery = forms.ChoiceField(
        label=_("Recovery"), choices=Recovery.choices, required=False,
        help_text=_("How the run resumed after a failure."),
    )
    cost = _number(_("Cost"), _("What the run cost, in the team's currency (optional)."))
    from_site = SiteChoiceField(label=_("From site"), queryset=Site.objects.none(), required=False)
    to_site = SiteChoiceField(label=_("To site"), queryset=Site.objects.none(), required=False)
    bandwidth_gbps = _number(_("Bandwidth (Gbit/s)"), _("Measured throughput; more than zero."))
    rtt_ms = _number(_("RTT (ms)"), _("Measured round-trip time."))
    tier = forms.ChoiceField(
        label=_("Tier"), choices=[("", "—"), *Tier.choices], required=False,
        help_text=_("Where the pilot moved the job, relative to its home."),
    )
    succeeded = forms.ChoiceField(
        label=_("Outcome"),
        choices=[("yes", _("Succeeded")), ("no", _("Failed"))],
        widget=forms.RadioSelect,
        required=False,
    )
    migration_effort_hours = _number(
        _("Migration effort (h)"),
        _("Engineering hours to adapt the job (optional); weighed against a year of gains (B3)."),
    )
    site = SiteChoiceField(
        label=_("Site"), queryset=Site.objects.none(), required=False,
        help_text=_("Where the preprocessing ran: next to the raw data."),
    )
    preprocess_hours = _number(
        _("Preprocessing hours"), _("Wall-clock hours of the run, more than zero.")
    )
    input_gb = _number(_("Input (GB)"), _("Raw data read, in GB; more than zero."))
    output_gb = _number(
        _("Output (GB)"),
        _("The processed version written (features, shards, tokens), in GB; more than zero."),
    )
    preprocess_cost_per_hour = _number(
        _("Cost per hour"),
        _("What one hour of the run cost, in the team's currency per hour (0 if free)."),
    )
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    # The record's version the edit form was rendered with (empty on the create form).
    version = VersionField()

    def __init__(self, *args, team: Team, kind: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind if kind in BenchmarkKind.values else BenchmarkKind.SINGLE
        self.fields["task"].queryset = TaskProfile.objects.for_team(team).order_by("name")
        self.fields["offer"].queryset = (
            Offer.objects.for_team(team).select_related("site").order_by("provider", "name")
        )
        sites = Site.objects.for_team(team).order_by("code")
        self.fields["from_site"].queryset = sites
        self.fields["to_site"].queryset = sites
        self.fields["site"].queryset = sites
        carried = {*FIELDS_BY_KIND[self.kind], VERSION}
        for name in list(self.fields):
            if name not in carried:
                del self.fields[name]
        for name in REQUIRED_BY_KIND[self.kind]:
            if name in self.fields:
                # Marked required for the label; the check itself is benchmark_clean's.
                self.fields[name].required = True
        if "offer" in self.fields and self.kind not in ("single", "multi"):
            self.fields["offer"].help_text = _("Optional for probes and pilots.")

    def data_for_service(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop(VERSION, None)
        data["kind"] = self.kind
        return data

    def add_service_errors(self, error: BenchmarkValidationError) -> None:
        for name, messages in error.errors.items():
            for message in messages:
                self.add_error(name if name in self.fields else None, message)


def initial_from_record(record: BenchmarkRecord) -> dict:
    initial = {name: getattr(record, name) for name in FIELDS_BY_KIND[record.kind]}
    initial[VERSION] = record.version
    for name in ("task", "offer", "from_site", "to_site", "site"):
        if name in initial:
            initial[name] = getattr(record, f"{name}_id")
    if "succeeded" in initial and record.succeeded is not None:
        initial["succeeded"] = "yes" if record.succeeded else "no"
    return initial


def initial_from_query(query) -> dict:
    """Values carried over when the kind changes (htmx re-renders the form with them)."""
    names = {VERSION, *(name for fields in FIELDS_BY_KIND.values() for name in fields)}
    return {name: query.get(name) for name in names if query.get(name) not in (None, "")}


class CsvUploadForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        required=False,
        help_text=_(
            "UTF-8, comma-separated, header on line 1. Download the template for the columns."
        ),
    )
    content = FileTextField(required=False, widget=forms.Textarea(attrs={"hidden": True}))


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=80,
        help_text=_("What uses it, e.g. “training pipeline on cluster A”."),
    )
