"""Sites (resource pools), network links between them, and candidate offers (SPEC section 2)."""

from __future__ import annotations

import math

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Team, TeamScopedQuerySet


def non_finite_errors(instance: models.Model) -> dict[str, list]:
    """Errors for every float field holding NaN or infinity (Django's FloatField accepts them)."""
    errors: dict[str, list] = {}
    for f in instance._meta.concrete_fields:
        if isinstance(f, models.FloatField):
            value = getattr(instance, f.attname)
            if isinstance(value, float) and not math.isfinite(value):
                errors[f.name] = [
                    ValidationError(
                        _("Enter a finite number (not NaN or infinity)."), code="not_finite"
                    )
                ]
    return errors


def raise_if(errors: dict[str, list]) -> None:
    if errors:
        raise ValidationError(errors)


class Tier(models.TextChoices):
    SAME_SITE = "same_site", _("Same site")
    SAME_DATACENTER = "same_datacenter", _("Same datacenter")
    SAME_CITY = "same_city", _("Same city")
    CROSS_HUB = "cross_hub", _("Cross hub")


class Site(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="sites")
    code = models.SlugField(_("code"), max_length=40, help_text=_("Short unique code, e.g. bj-a."))
    name = models.CharField(_("name"), max_length=120)
    datacenter = models.CharField(_("datacenter"), max_length=120)
    city = models.CharField(_("city"), max_length=120)
    hub = models.CharField(_("hub"), max_length=120, help_text=_("Regional network hub."))
    queue_hours = models.FloatField(
        _("queue hours"),
        default=0,
        validators=[MinValueValidator(0)],
        help_text=_("Typical wait for capacity now, in hours."),
    )
    storage_tb = models.FloatField(
        _("storage (TB)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
        help_text=_("Room to stage a task's input next to the compute; blank = unlimited."),
    )

    # Optimistic lock (apps.web.concurrency): every write bumps it; a save made on an older
    # version changes nothing and answers 409 with what changed.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(fields=["team", "code"], name="site_unique_code_per_team"),
            models.CheckConstraint(condition=Q(queue_hours__gte=0), name="site_queue_nonneg"),
        ]

    def __str__(self) -> str:
        return f"{self.code} · {self.name}"

    def clean(self) -> None:
        raise_if(non_finite_errors(self))


class NetworkLink(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="links")
    from_site = models.ForeignKey(
        Site, on_delete=models.PROTECT, related_name="links_out", verbose_name=_("from site")
    )
    to_site = models.ForeignKey(
        Site, on_delete=models.PROTECT, related_name="links_in", verbose_name=_("to site")
    )
    bandwidth_gbps = models.FloatField(_("bandwidth (Gbit/s)"))
    rtt_ms = models.FloatField(_("RTT (ms)"), default=0, validators=[MinValueValidator(0)])
    price_per_gb = models.FloatField(
        _("price per GB"), default=0, validators=[MinValueValidator(0)]
    )
    buffer = models.FloatField(
        _("jitter buffer"),
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
        help_text=_(
            "Blank: the default of the tier (same datacenter 0, same city 0.1, cross hub 0.3)."
        ),
    )
    reservable = models.BooleanField(
        _("reservable"), default=False, help_text=_("A channel can be reserved ahead.")
    )
    measured_at = models.DateTimeField(_("measured at"), null=True, blank=True)

    # Optimistic lock (apps.web.concurrency): every write bumps it; a save made on an older
    # version changes nothing and answers 409 with what changed.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["from_site__code", "to_site__code"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "from_site", "to_site"], name="link_unique_direction"
            ),
            models.CheckConstraint(condition=Q(bandwidth_gbps__gt=0), name="link_bandwidth_pos"),
            models.CheckConstraint(condition=Q(price_per_gb__gte=0), name="link_price_nonneg"),
            models.CheckConstraint(condition=Q(rtt_ms__gte=0), name="link_rtt_nonneg"),
            models.CheckConstraint(condition=~Q(from_site=F("to_site")), name="link_two_sites"),
        ]

    def __str__(self) -> str:
        return f"{self.from_site.code} → {self.to_site.code}"

    def clean(self) -> None:
        errors = non_finite_errors(self)
        if "bandwidth_gbps" not in errors and self.bandwidth_gbps is not None:
            if self.bandwidth_gbps <= 0:
                errors["bandwidth_gbps"] = [
                    ValidationError(_("Bandwidth must be above 0 Gbit/s."), code="min")
                ]
        for name in ("from_site", "to_site"):
            site = getattr(self, name) if getattr(self, f"{name}_id") else None
            if site is not None and self.team_id is not None and site.team_id != self.team_id:
                errors[name] = [
                    ValidationError(_("Choose a site of this team."), code="other_team")
                ]
        if self.from_site_id and self.from_site_id == self.to_site_id:
            errors.setdefault("to_site", []).append(
                ValidationError(_("A link joins two different sites."), code="same_site")
            )
        raise_if(errors)


class OfferKind(models.TextChoices):
    COMPUTE = "compute", _("Compute platform")
    DISTRIBUTED = "distributed", _("Distributed computing platform")
    MANAGED = "managed", _("Managed (both layers)")


class BillingBasis(models.TextChoices):
    GPU_HOUR = "gpu_hour", _("GPU-hour")
    MACHINE_HOUR = "machine_hour", _("Machine-hour")
    CONTRACT = "contract", _("Contract package")


class Parallelism(models.TextChoices):
    DATA = "data", _("Data parallel")
    TENSOR = "tensor", _("Tensor parallel")
    PIPELINE = "pipeline", _("Pipeline parallel")
    # SPEC 6.1: parameters, gradients and optimizer state split over the data-parallel GPUs.
    SHARDED = "sharded", _("Sharded data parallel (FSDP, ZeRO-3)")


class Interconnect(models.TextChoices):
    # SPEC 7.4: what joins an offer's machines; blank = not recorded (unknown).
    INFINIBAND = "infiniband", _("InfiniBand")
    ROCE = "roce", _("RoCE (RDMA over Ethernet)")
    ETHERNET = "ethernet", _("Ethernet (TCP)")


PARALLELISM_CHOICE_ERROR = _("Choose among data, tensor, pipeline and sharded.")
# SPEC 6.3: the engine's own rule (a rate on on-demand capacity would silently cost nothing).
PREEMPTIONS_REQUIRED = _(
    "Spot capacity needs its expected preemptions per day (0 if none are expected)."
)
PREEMPTIONS_WITHOUT_SPOT = _(
    "Only spot (preemptible) capacity has preemptions: mark the offer preemptible or leave "
    "this blank."
)
PREEMPTIONS_NEGATIVE = _("Preemptions per day cannot be negative.")
# SPEC 7.6: the engine's own rule (a paid flag on another basis would price the offer at nothing).
PAID_WITHOUT_CONTRACT = _("Only a contract package can be already paid.")


class Offer(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="offers")
    provider = models.CharField(_("provider"), max_length=120)
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=16, choices=OfferKind.choices)
    site = models.ForeignKey(
        Site, on_delete=models.PROTECT, related_name="offers", verbose_name=_("site")
    )
    gpu_model = models.CharField(_("GPU model"), max_length=60)
    gpu_mem_gb = models.FloatField(_("GPU memory (GB)"))
    gpus_per_machine = models.PositiveSmallIntegerField(_("GPUs per machine"), default=8)
    max_machines = models.PositiveIntegerField(_("max machines"), null=True, blank=True)
    billing_basis = models.CharField(
        _("billing basis"), max_length=16, choices=BillingBasis.choices
    )
    price = models.FloatField(
        _("price"), help_text=_("Per GPU-hour, per machine-hour, or per contract package.")
    )
    contract_hours = models.FloatField(_("contract hours"), null=True, blank=True)
    expected_utilization = models.FloatField(_("expected utilization"), null=True, blank=True)
    # SPEC 7.6: a package already paid is sunk: the runs it covers cost only what they displace.
    contract_paid = models.BooleanField(
        _("contract already paid"),
        default=False,
        help_text=_(
            "Contract only: the package is already paid. Runs that fit its hours cost no new "
            "money (they cost only the work they displace); hours beyond it are billed at the "
            "pro-rated price. Unpaid, a one-off job pays the whole package."
        ),
    )
    scheduling_fee_pct = models.FloatField(_("scheduling fee (%)"), default=0)
    parallelism = models.JSONField(_("parallelism supported"), default=list, blank=True)
    checkpoint_resume = models.BooleanField(_("checkpoint resume"), default=False)
    relative_speed = models.FloatField(_("relative speed"), default=1.0)
    boot_hours = models.FloatField(_("boot hours"), default=0)
    # SPEC 7.4: a tightly coupled job over several machines needs InfiniBand or RoCE.
    interconnect = models.CharField(
        _("interconnect between machines"),
        max_length=16,
        blank=True,
        default="",
        choices=Interconnect.choices,
        help_text=_(
            "What joins the pool's machines. A tightly coupled job that spans several machines "
            "is refused on Ethernet and gets a warning (K3) when this is blank, unless a "
            "multi-machine benchmark run on this offer at that size scales well. Blank = not "
            "known."
        ),
    )
    # SPEC 6.3 preemptible capacity: the engine prices the expected loss (preemption_cost, G4).
    preemptible = models.BooleanField(
        _("preemptible (spot)"),
        default=False,
        help_text=_(
            "Spot capacity: the provider may take the machines back. Each preemption loses the "
            "work since the last checkpoint (half a checkpoint interval), or the whole "
            "interruption cost for a task that cannot resume (G4)."
        ),
    )
    preemptions_per_day = models.FloatField(
        _("preemptions per day"),
        null=True,
        blank=True,
        help_text=_(
            "Expected preemptions per day of use, 0 or more; required for spot capacity, blank "
            "otherwise. Expected preemptions = this × compute hours / 24."
        ),
    )
    # Where a launcher finds the machine (a provider's catalog names both); blank when unknown.
    region = models.CharField(_("region"), max_length=80, blank=True)
    instance_type = models.CharField(_("instance type"), max_length=120, blank=True)
    exit_path = models.TextField(
        _("exit path"),
        blank=True,
        help_text=_("Can weights, data and job configs be taken away as they are?"),
    )

    # Optimistic lock (apps.web.concurrency): every write bumps it; a save made on an older
    # version changes nothing and answers 409 with what changed.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["provider", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(gpu_mem_gb__gt=0), name="offer_gpu_mem_pos"),
            models.CheckConstraint(condition=Q(gpus_per_machine__gte=1), name="offer_gpm_pos"),
            models.CheckConstraint(condition=Q(price__gte=0), name="offer_price_nonneg"),
            models.CheckConstraint(condition=Q(relative_speed__gt=0), name="offer_speed_pos"),
            models.CheckConstraint(condition=Q(scheduling_fee_pct__gte=0), name="offer_fee_nonneg"),
            models.CheckConstraint(
                condition=~Q(billing_basis="contract")
                | (
                    Q(contract_hours__gt=0)
                    & Q(expected_utilization__gt=0)
                    & Q(expected_utilization__lte=1)
                ),
                name="offer_contract_terms",
            ),
            models.CheckConstraint(
                # isnull=False: a NULL rate would make the whole check NULL, which passes.
                condition=(
                    Q(preemptible=True)
                    & Q(preemptions_per_day__isnull=False)
                    & Q(preemptions_per_day__gte=0)
                )
                | (Q(preemptible=False) & Q(preemptions_per_day__isnull=True)),
                name="offer_preemption_terms",
            ),
            models.CheckConstraint(
                condition=Q(contract_paid=False) | Q(billing_basis="contract"),
                name="offer_paid_is_contract",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.provider} · {self.name}"

    def clean(self) -> None:
        errors = non_finite_errors(self)

        def add(field: str, message, code: str) -> None:
            errors.setdefault(field, []).append(ValidationError(message, code=code))

        def ok(field: str) -> bool:
            return field not in errors and getattr(self, field) is not None

        if ok("gpu_mem_gb") and self.gpu_mem_gb <= 0:
            add("gpu_mem_gb", _("GPU memory must be above 0 GB."), "min")
        if self.gpus_per_machine is not None and self.gpus_per_machine < 1:
            add("gpus_per_machine", _("A machine has at least one GPU."), "min")
        if self.max_machines is not None and self.max_machines < 1:
            add("max_machines", _("Leave blank for no limit, or enter at least 1."), "min")
        if ok("price") and self.price < 0:
            add("price", _("A price cannot be negative."), "min")
        if ok("relative_speed") and not 0.01 <= self.relative_speed <= 100:
            # SPEC 7.8: the engine takes a speed in [0.01, 100].
            message = _("Relative speed lies between 0.01 and 100 (1.0 = reference).")
            add("relative_speed", message, "min")
        if ok("scheduling_fee_pct") and self.scheduling_fee_pct < 0:
            add("scheduling_fee_pct", _("A fee cannot be negative."), "min")
        if ok("boot_hours") and self.boot_hours < 0:
            add("boot_hours", _("Hours cannot be negative."), "min")
        if self.billing_basis == BillingBasis.CONTRACT:
            if "contract_hours" not in errors and not (
                self.contract_hours is not None and self.contract_hours > 0
            ):
                add("contract_hours", _("A contract needs its hours (above 0)."), "contract")
            utilization = self.expected_utilization
            if "expected_utilization" not in errors and not (
                utilization is not None and 0 < utilization <= 1
            ):
                add(
                    "expected_utilization",
                    _("A contract needs the expected utilization: above 0, at most 1."),
                    "contract",
                )
        if ok("preemptions_per_day") and self.preemptions_per_day < 0:
            add("preemptions_per_day", PREEMPTIONS_NEGATIVE, "min")
        if (
            self.preemptible
            and self.preemptions_per_day is None
            and ("preemptions_per_day" not in errors)
        ):
            add("preemptions_per_day", PREEMPTIONS_REQUIRED, "preemptible_needs_rate")
        if not self.preemptible and ok("preemptions_per_day"):
            add("preemptions_per_day", PREEMPTIONS_WITHOUT_SPOT, "not_preemptible")
        if self.contract_paid and self.billing_basis != BillingBasis.CONTRACT:
            add("contract_paid", PAID_WITHOUT_CONTRACT, "not_contract")
        parallelism = self.parallelism if isinstance(self.parallelism, list) else None
        if parallelism is None or not set(parallelism) <= set(Parallelism.values):
            add("parallelism", PARALLELISM_CHOICE_ERROR, "invalid_choice")
        if self.site_id and self.team_id is not None and self.site.team_id != self.team_id:
            add("site", _("Choose a site of this team."), "other_team")
        raise_if(errors)


class OfferPriceChange(models.Model):
    """An offer's price as a catalog import changed it: the offer's price history."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    offer = models.ForeignKey(Offer, on_delete=models.CASCADE, related_name="price_changes")
    price_before = models.FloatField(_("price before"))
    price_after = models.FloatField(_("price after"))
    source = models.CharField(_("source"), max_length=200)
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["-changed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.offer}: {self.price_before:g} -> {self.price_after:g}"
