"""Task profiles (任务画像): every field of SPEC section 2 that the engine reasons about."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import Team, TeamOwnedQuerySet, TeamScopedQuerySet
from apps.catalog.models import (
    PARALLELISM_CHOICE_ERROR,
    Parallelism,
    Site,
    non_finite_errors,
    raise_if,
)

from .choices import (
    AccessPattern,
    Attention,
    Cadence,
    Coupling,
    InputDelivery,
    Pain,
    Precision,
    Workload,
)
from .shape import SHAPE_FIELDS, SHAPE_MAX, shape_errors

__all__ = [
    "SHAPE_FIELDS", "SHAPE_MAX", "AccessPattern", "Attention", "Cadence", "Coupling", "Pain",
    "Precision", "TaskProfile", "Workload", "shape_errors",
]


class TaskProfile(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="profiles")
    name = models.CharField(_("name"), max_length=160)
    description = models.TextField(_("description"), blank=True)

    # Workload and model
    workload = models.CharField(_("workload"), max_length=24, choices=Workload.choices)
    cadence = models.CharField(
        _("cadence"), max_length=12, choices=Cadence.choices, default=Cadence.ONE_OFF
    )
    runs_per_quarter = models.PositiveIntegerField(_("runs per quarter"), default=1)
    params_b = models.FloatField(
        _("parameters (billions)"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    precision = models.CharField(
        _("precision"), max_length=8, choices=Precision.choices, default=Precision.BF16
    )
    peak_gpu_mem_gb = models.FloatField(
        _("measured peak GPU memory (GB)"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    gpus = models.PositiveIntegerField(_("planned GPUs"), null=True, blank=True)
    parallelism = models.JSONField(_("parallelism supported"), default=list, blank=True)
    coupling = models.CharField(
        _("coupling"), max_length=8, choices=Coupling.choices, default=Coupling.NONE
    )

    # Model shape (SPEC 6.3 memory breakdown): all five of batch, sequence length, hidden size,
    # layers and heads, or none (kv_heads blank = heads: no grouped-query attention). Blank
    # fields are not sent to the engine, so a profile without them evaluates as before.
    batch_size = models.PositiveIntegerField(
        _("batch size"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(SHAPE_MAX["batch_size"])],
    )
    seq_len = models.PositiveIntegerField(
        _("sequence length (tokens)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(SHAPE_MAX["seq_len"])],
    )
    hidden_size = models.PositiveIntegerField(
        _("hidden size"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(SHAPE_MAX["hidden_size"])],
    )
    layers = models.PositiveIntegerField(
        _("layers"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(SHAPE_MAX["layers"])],
    )
    heads = models.PositiveIntegerField(
        _("attention heads"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(SHAPE_MAX["heads"])],
    )
    kv_heads = models.PositiveIntegerField(
        _("KV heads"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(SHAPE_MAX["heads"])],
    )
    activation_checkpointing = models.BooleanField(_("activation checkpointing"), default=False)
    # SPEC 7.1: flash (FlashAttention, SDPA) stores no attention scores; eager does.
    attention = models.CharField(
        _("attention"), max_length=8, choices=Attention.choices, default=Attention.FLASH
    )

    # Data
    input_gb = models.FloatField(_("input (GB)"), default=0, validators=[MinValueValidator(0)])
    result_gb = models.FloatField(_("results (GB)"), default=0, validators=[MinValueValidator(0)])
    compress_ratio = models.FloatField(
        _("compression ratio"),
        default=1.0,
        validators=[MinValueValidator(0), MaxValueValidator(1)],
        help_text=_("Size after compression ÷ before: 0 < r ≤ 1."),
    )
    image_gb = models.FloatField(
        _("environment image (GB)"), default=10, validators=[MinValueValidator(0)]
    )
    access_pattern = models.CharField(
        _("access pattern"),
        max_length=24,
        choices=AccessPattern.choices,
        default=AccessPattern.STREAMING,
    )
    data_passes = models.PositiveIntegerField(_("data passes"), default=1)
    # SPEC 7.5: a streamed input is read while the job computes (its leg overlaps compute).
    input_delivery = models.CharField(
        _("input delivery"),
        max_length=8,
        choices=InputDelivery.choices,
        default=InputDelivery.BULK,
    )
    # SPEC 6.4 staged plans: the processed version (features, shards, tokens) made next to the
    # data and shipped instead of the raw input. Blank processed size: no staged plan is costed.
    processed_gb = models.FloatField(
        _("processed version (GB)"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    preprocess_hours = models.FloatField(
        _("preprocessing (h)"), default=0, db_default=0, validators=[MinValueValidator(0)]
    )
    preprocess_cost_per_hour = models.FloatField(
        _("preprocessing cost per hour"), default=0, db_default=0,
        validators=[MinValueValidator(0)],
    )
    rounds_per_refresh = models.PositiveIntegerField(
        _("runs per processed version"), default=1, db_default=1
    )
    data_site = models.ForeignKey(
        Site, on_delete=models.PROTECT, related_name="+", verbose_name=_("data site")
    )
    home_site = models.ForeignKey(
        Site, on_delete=models.PROTECT, related_name="+", verbose_name=_("home site")
    )
    result_site = models.ForeignKey(
        Site, on_delete=models.PROTECT, related_name="+", verbose_name=_("result site")
    )

    # Time and budget
    compute_hours = models.FloatField(_("compute hours"), validators=[MinValueValidator(0)])
    budget_transfer_hours = models.FloatField(
        _("transfer budget (h)"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    budget_queue_hours = models.FloatField(
        _("queue budget (h)"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    budget_compute_hours = models.FloatField(
        _("compute budget (h)"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    delay_cost_per_hour = models.FloatField(
        _("delay cost per hour"), default=0, validators=[MinValueValidator(0)]
    )
    # SPEC 7.7: the money one run may cost (P4, P1); blank = no money budget.
    cost_budget = models.FloatField(
        _("cost budget per run"), null=True, blank=True, validators=[MinValueValidator(0)]
    )

    # Fault tolerance
    resumable = models.BooleanField(_("resumable"), default=False)
    resume_verified = models.BooleanField(_("resume verified"), default=False)
    env_aligned = models.BooleanField(_("environment aligned"), default=False)
    interruption_cost_hours = models.FloatField(
        _("interruption cost (h)"), default=0, validators=[MinValueValidator(0)]
    )
    # SPEC 6.3 preemptible capacity: a resumable task loses half an interval per preemption.
    # Blank: not sent, the engine's default of 1 h.
    checkpoint_interval_hours = models.FloatField(
        _("checkpoint interval (h)"), null=True, blank=True, validators=[MinValueValidator(0)]
    )
    # SPEC 7.3: reload and re-queue hours each restart of a resumable run costs.
    restart_hours = models.FloatField(
        _("restart time (h)"), default=0, validators=[MinValueValidator(0)]
    )

    # Portability and compliance
    env_simple = models.BooleanField(_("simple environment"), default=False)
    image_packaged = models.BooleanField(_("image packaged"), default=False)
    offsite_allowed = models.BooleanField(_("may run off-site"), default=False)
    low_latency_online = models.BooleanField(_("low-latency online"), default=False)
    stateful = models.BooleanField(_("stateful"), default=False)
    compliance_restricted = models.BooleanField(_("compliance restricted"), default=False)
    # SPEC 6.1 X4: where a compliance-restricted task's data may be processed (none chosen: the
    # sites in the data site's datacenter), and whether its results are bound to them too.
    allowed_sites = models.ManyToManyField(
        Site,
        through="AllowedSite",
        blank=True,
        related_name="+",
        verbose_name=_("allowed sites"),
    )
    results_restricted = models.BooleanField(_("results restricted"), default=False)
    strict_consistency = models.BooleanField(_("strict consistency"), default=False)

    # Team situation
    has_machines = models.BooleanField(_("team has machines"), default=False)
    has_scheduler = models.BooleanField(_("team has a scheduler"), default=False)
    can_maintain_scheduler = models.BooleanField(_("team can maintain a scheduler"), default=False)
    pain = models.CharField(
        _("current pain"), max_length=12, choices=Pain.choices, default=Pain.NONE
    )

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The latest editor (set by the profile services): the reviews' four-eyes rule counts them as a
    # contributor of a round the edit fell in. Only the latest one is known (no per-edit trail).
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )
    updated_at = models.DateTimeField(auto_now=True)

    # Optimistic lock (apps.web.concurrency): every write bumps it; a save made on an older
    # version changes nothing and answers 409 with what changed.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    objects = TeamScopedQuerySet.as_manager()
    team_path = "team"

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["team", "-updated_at"], name="profile_team_recent"),
            models.Index(fields=["team", "workload"], name="profile_team_workload"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(compress_ratio__gt=0) & Q(compress_ratio__lte=1),
                name="profile_compress_ratio_range",
            ),
            models.CheckConstraint(
                condition=Q(input_gb__gte=0) & Q(result_gb__gte=0) & Q(image_gb__gte=0),
                name="profile_sizes_nonneg",
            ),
            models.CheckConstraint(condition=Q(compute_hours__gte=0), name="profile_hours_nonneg"),
            # Two profiles of a team never share a name (in any case): a review's task list and
            # the history tell tasks apart by it. clean() says so on the name field.
            models.UniqueConstraint(Lower("name"), "team", name="profile_name_once_per_team"),
        ]

    def __str__(self) -> str:
        return self.name

    def full_clean(self, exclude=None, validate_unique=True, validate_constraints=True) -> None:
        # clean() reads the exclusions: a ModelForm excludes the fields it refused, whose
        # values never reached this instance (a blank there is not a blank in the post).
        self._excluded_from_clean = set(exclude or ())
        try:
            super().full_clean(exclude, validate_unique, validate_constraints)
        finally:
            del self._excluded_from_clean

    def validate_constraints(self, exclude=None) -> None:
        # The name's uniqueness is told on the name field by clean() (Django would report the
        # two-column constraint as an error of the whole form); the constraint is the backstop.
        super().validate_constraints(exclude={*(exclude or ()), "name"})

    def _name_taken(self) -> bool:
        if not self.team_id or not self.name:
            return False
        same = TaskProfile.objects.filter(team_id=self.team_id, name__iexact=self.name)
        return same.exclude(pk=self.pk).exists()

    def clean(self) -> None:
        errors = non_finite_errors(self)

        def add(field: str, message, code: str) -> None:
            errors.setdefault(field, []).append(ValidationError(message, code=code))

        ratio = self.compress_ratio
        if "compress_ratio" not in errors and ratio is not None and not 0 < ratio <= 1:
            add(
                "compress_ratio",
                _("Enter a ratio above 0 and at most 1 (size after compression ÷ before)."),
                "range",
            )
        for name in ("runs_per_quarter", "data_passes", "gpus", "rounds_per_refresh"):
            value = getattr(self, name)
            if value is not None and value < 1:
                add(name, _("Enter at least 1."), "min")
        parallelism = self.parallelism if isinstance(self.parallelism, list) else None
        if parallelism is None or not set(parallelism) <= set(Parallelism.values):
            add("parallelism", PARALLELISM_CHOICE_ERROR, "invalid_choice")
        interval = self.checkpoint_interval_hours
        if "checkpoint_interval_hours" not in errors and interval is not None and interval <= 0:
            add("checkpoint_interval_hours", _("Enter a number of hours above 0."), "min")
        # A field the caller's form refused is excluded from full_clean: judged there already.
        refused = set(errors) | getattr(self, "_excluded_from_clean", set())
        shape = {n: getattr(self, n) for n in (*SHAPE_FIELDS, "kv_heads") if n not in refused}
        for name, shape_errs in shape_errors(shape).items():
            errors.setdefault(name, []).extend(shape_errs)
        if "name" not in getattr(self, "_excluded_from_clean", set()) and self._name_taken():
            add(
                "name",
                _("Your team already has a profile named “%(name)s”: choose another name.")
                % {"name": self.name},
                "name_taken",
            )
        for name in ("data_site", "home_site", "result_site"):
            site = getattr(self, name) if getattr(self, f"{name}_id") else None
            if site is not None and self.team_id is not None and site.team_id != self.team_id:
                add(name, _("Choose a site of this team."), "other_team")
        raise_if(errors)


class AllowedSite(models.Model):
    """One site where a compliance-restricted profile's data may be processed (SPEC 6.1 X4). It
    cannot be deleted: that would silently widen where the data may go (an empty list means the
    whole datacenter of the data site)."""

    profile = models.ForeignKey(TaskProfile, on_delete=models.CASCADE, related_name="+")
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="+")

    objects = TeamOwnedQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["profile", "site"], name="allowed_site_once")
        ]

    def __str__(self) -> str:
        return f"{self.profile} · {self.site.code}"
