"""Forms of the catalog: every number finite, every site one of the team's."""

from __future__ import annotations

from django import forms
from django.core.validators import MinValueValidator
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Team
from apps.web.concurrency import VersionedFormMixin
from apps.web.forms import finite_formfield

from .models import PAID_WITHOUT_CONTRACT, NetworkLink, Offer, Parallelism, Site


def require_at_least(field: forms.Field, minimum: float, *, above: bool = False) -> None:
    """Refuse values under `minimum` (or at it, when `above`) on the field itself."""
    if above:
        message = _("Enter a number above %(limit)s.") % {"limit": minimum}

        def check(value, limit=minimum, message=message):
            if value is not None and value <= limit:
                raise forms.ValidationError(message, code="min")

        field.validators.append(check)
    else:
        field.validators.append(MinValueValidator(minimum))
    field.widget.attrs.setdefault("min", minimum)


class TeamSitesMixin:
    """Site selects list the team's sites only: another team's id is an invalid choice."""

    site_fields: tuple[str, ...] = ()

    def restrict_sites(self, team: Team) -> None:
        sites = Site.objects.for_team(team).order_by("code")
        for name in self.site_fields:
            self.fields[name].queryset = sites


class SiteForm(VersionedFormMixin, forms.ModelForm):
    class Meta:
        model = Site
        fields = ["code", "name", "datacenter", "city", "hub", "queue_hours", "storage_tb"]
        formfield_callback = finite_formfield

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.team = team
        require_at_least(self.fields["queue_hours"], 0)
        require_at_least(self.fields["storage_tb"], 0)

    def clean_code(self) -> str:
        code = self.cleaned_data["code"]
        taken = Site.objects.for_team(self.team).filter(code=code).exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(
                _("The team already has a site with this code."), code="unique"
            )
        return code


class NetworkLinkForm(VersionedFormMixin, TeamSitesMixin, forms.ModelForm):
    site_fields = ("from_site", "to_site")

    class Meta:
        model = NetworkLink
        fields = [
            "from_site",
            "to_site",
            "bandwidth_gbps",
            "rtt_ms",
            "price_per_gb",
            "buffer",
            "reservable",
        ]
        formfield_callback = finite_formfield
        help_texts = {
            "bandwidth_gbps": _("Usable bandwidth of the path, above 0."),
            "rtt_ms": _("Round-trip time in milliseconds."),
            "price_per_gb": _("What one GB sent over this link costs, in the team's currency."),
        }

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.team = team
        self.restrict_sites(team)
        require_at_least(self.fields["bandwidth_gbps"], 0, above=True)
        for name in ("rtt_ms", "price_per_gb", "buffer"):
            require_at_least(self.fields[name], 0)

    def clean(self) -> dict:
        data = super().clean()
        source, target = data.get("from_site"), data.get("to_site")
        if source and target:
            if source == target:
                self.add_error("to_site", _("A link joins two different sites."))
            else:
                taken = NetworkLink.objects.for_team(self.team).filter(
                    from_site=source, to_site=target
                )
                if taken.exclude(pk=self.instance.pk).exists():
                    self.add_error(
                        "to_site",
                        _("A link in this direction is already recorded; edit that one."),
                    )
        return data


class OfferForm(VersionedFormMixin, TeamSitesMixin, forms.ModelForm):
    site_fields = ("site",)

    parallelism = forms.MultipleChoiceField(
        label=capfirst(_("parallelism supported")),
        choices=Parallelism.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The split strategies the platform runs."),
    )

    class Meta:
        model = Offer
        fields = [
            "provider",
            "name",
            "kind",
            "site",
            "gpu_model",
            "gpu_mem_gb",
            "gpus_per_machine",
            "max_machines",
            "interconnect",
            "billing_basis",
            "price",
            "contract_hours",
            "expected_utilization",
            "contract_paid",
            "scheduling_fee_pct",
            "preemptible",
            "preemptions_per_day",
            "parallelism",
            "checkpoint_resume",
            "relative_speed",
            "boot_hours",
            "region",
            "instance_type",
            "exit_path",
        ]
        formfield_callback = finite_formfield
        help_texts = {
            "contract_hours": _("Contract only: hours the package covers."),
            "expected_utilization": _(
                "Contract only: share of those hours you expect to use, above 0, at most 1."
            ),
            "scheduling_fee_pct": _("Percent added on top of compute by the scheduling layer."),
            "relative_speed": _("1.0 = reference speed; 1.5 finishes the same job 1.5× faster."),
            "boot_hours": _("Time from order to a usable machine; counts in the queue segment."),
            "max_machines": _("Blank = no limit."),
            "region": _(
                "The provider's region, e.g. us-east-1 (to launch the plan with SkyPilot)."
            ),
            "instance_type": _("The provider's machine type, e.g. p5.48xlarge."),
        }
        widgets = {"exit_path": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        self.team = team
        self.restrict_sites(team)
        require_at_least(self.fields["gpu_mem_gb"], 0, above=True)
        require_at_least(self.fields["gpus_per_machine"], 1)
        require_at_least(self.fields["max_machines"], 1)
        require_at_least(self.fields["price"], 0)
        require_at_least(self.fields["contract_hours"], 0, above=True)
        require_at_least(self.fields["expected_utilization"], 0, above=True)
        self.fields["expected_utilization"].validators.append(_at_most_one)
        self.fields["expected_utilization"].widget.attrs["max"] = 1
        require_at_least(self.fields["scheduling_fee_pct"], 0)
        require_at_least(self.fields["relative_speed"], 0, above=True)
        require_at_least(self.fields["boot_hours"], 0)
        # The model's clean() refuses a negative rate and ties the rate to `preemptible`, each on
        # this field; a second form-level "min" would only repeat it.
        self.fields["preemptions_per_day"].widget.attrs["min"] = 0

    def clean(self) -> dict:
        data = super().clean()
        if data.get("billing_basis") == "contract":
            if "contract_hours" not in self.errors and not data.get("contract_hours"):
                self.add_error("contract_hours", _("A contract needs its hours (above 0)."))
            if "expected_utilization" not in self.errors and not data.get("expected_utilization"):
                self.add_error(
                    "expected_utilization",
                    _("A contract needs the expected utilization: above 0, at most 1."),
                )
        else:
            # The contract terms mean nothing on other bases; do not keep stale ones.
            data["contract_hours"] = None
            data["expected_utilization"] = None
            if data.get("contract_paid"):
                # SPEC 7.6: said on the field, never silently dropped.
                self.add_error("contract_paid", PAID_WITHOUT_CONTRACT)
        return data


def _at_most_one(value):
    if value is not None and value > 1:
        raise forms.ValidationError(
            _("Enter a share of at most 1 (1 = the whole time)."), code="max"
        )
