"""Input dataclasses, enumerations and default thresholds of the scoring engine (SPEC 2 and 4)."""

from __future__ import annotations

from dataclasses import dataclass, field

ENGINE_VERSION = "3.1.0"

WORKLOADS = (
    "training",
    "fine_tuning",  # full fine-tuning, sized like training (SPEC 6.1)
    "adapter_tuning",  # LoRA/QLoRA (SPEC 6.1; v1's "fine_tuning")
    "inference",
    "batch_inference",
    "data_processing",
    "rendering",
    "scientific_batch",
    "online_service",
)
# SPEC A: workloads sized like inference (weights only).
INFERENCE_LIKE = frozenset({"inference", "batch_inference", "online_service"})
# SPEC 6.1: full training and full fine-tuning are sized alike (weights, gradients, Adam state).
FULL_TRAINING = frozenset({"training", "fine_tuning"})
# SPEC D1: data-intensive workloads.
DATA_INTENSIVE = frozenset({"data_processing", "batch_inference", "rendering", "scientific_batch"})
# SPEC A: bytes per parameter.
BYTES_PER_PARAM = {"fp32": 4.0, "bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}
CADENCES = ("one_off", "recurring")
PARALLELISM = ("data", "tensor", "pipeline", "sharded")
# SPEC 6.1: strategies that split one model over GPUs (plain `data` copies it onto every GPU).
MODEL_SPLITTING = frozenset({"tensor", "pipeline", "sharded"})
COUPLINGS = ("none", "loose", "tight")
# SPEC 7.1: how attention is computed; `flash` (FlashAttention, SDPA) never stores the scores.
ATTENTIONS = ("flash", "eager")
ACCESS_PATTERNS = ("streaming", "repeated_full_scan")
# SPEC 7.5: how the input reaches the job: copied before compute, or read while it computes.
INPUT_DELIVERIES = ("bulk", "streamed")
# SPEC 7.4: what joins an offer's machines (null: unknown).
INTERCONNECTS = ("infiniband", "roce", "ethernet")
PAINS = ("none", "slow", "queueing")
TIERS = ("same_site", "same_datacenter", "same_city", "cross_hub")
TIER_RANK = {tier: rank for rank, tier in enumerate(TIERS)}
OFFER_KINDS = ("compute", "distributed", "managed")
BILLING_BASES = ("gpu_hour", "machine_hour", "contract")
BENCHMARK_KINDS = ("single", "multi", "network_probe", "pilot_migration")

# SPEC 7.9: the fields each object may carry are stated once, in the field table (fields.py).
# SPEC 6.4: the staged plan's fields (all optional; without processed_gb none is used).
STAGED_FIELDS = ("processed_gb", "preprocess_hours", "preprocess_cost_per_hour",
                 "rounds_per_refresh")  # fmt: skip
# SPEC 6.3: the model's shape; all five or none (kv_heads, checkpointing optional with them).
SHAPE_FIELDS = ("batch_size", "seq_len", "hidden_size", "layers", "heads")
SHAPE_KEYS = frozenset((*SHAPE_FIELDS, "kv_heads"))
PRECISIONS = tuple(BYTES_PER_PARAM)
QUESTIONS = ("q1", "q2", "q3", "q4", "q5", "q6")
ANSWER_STATES = ("answered", "unanswered")
SEGMENTS = ("transfer", "queue", "compute")
OPTION_KINDS = ("wait_local", "move_compute", "move_data")
# SPEC P: tie-break order of option kinds.
KIND_ORDER = {kind: rank for rank, kind in enumerate(OPTION_KINDS)}

DEFAULT_THRESHOLDS: dict[str, float] = {
    "data_compute_high": 100.0,
    "data_compute_low": 10.0,
    "network_cost_share": 0.20,
    "interruption_cost_hours": 1.0,
    "headroom": 0.9,
    "near_capacity_band": 0.15,
    "buffer_same_site": 0.0,
    "buffer_same_datacenter": 0.0,
    "buffer_same_city": 0.1,
    "buffer_cross_hub": 0.3,
    "loose_cross_hub_hours": 24.0,
    # SPEC 6.1 R6: a measured multi-machine gain counts from this scaling efficiency.
    "scaling_efficiency_min": 0.7,
    # SPEC 6.1 R7: a multi-machine run at least this long needs resume or partial retry.
    "long_run_hours": 12.0,
    # SPEC 6.1 T: price of one engineer hour for the migration-cost line (0 = not priced).
    "engineer_hour_cost": 0.0,
    # SPEC 6.3 deadline sizing: scaling efficiency assumed beyond one machine when none is measured.
    "multi_machine_efficiency": 0.8,
    # SPEC 7.2 rerun cost: the team's fleet failure rate per GPU-hour (0 = not priced) and the
    # GPU-hours an offer's own records must hold before their rate counts instead.
    "failure_rate_per_gpu_hour": 0.0,
    "failure_evidence_gpu_hours": 1000.0,
    # SPEC 7.11: engineer hours a month a self-hosted distributed layer takes (0 = not priced).
    "scheduler_ops_hours_per_month": 0.0,
}


# SPEC 6.2: size limits of one input, and how many errors one refusal lists.
MAX_ITEMS = {"sites": 200, "links": 5_000, "offers": 500, "benchmarks": 10_000}
MAX_ERRORS = 100


class EngineInputError(ValueError):
    """Bad engine input; ``errors`` names every offending field at once."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        self.errors = errors
        summary = "; ".join(f"{e['field'] or '<input>'}: {e['message']}" for e in errors[:5])
        more = f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"{len(errors)} input error(s): {summary}{more}")


@dataclass(slots=True)
class LatencyBudget:
    """Hours each segment may take; None means no limit."""

    transfer: float | None = None
    queue: float | None = None
    compute: float | None = None

    def get(self, segment: str) -> float | None:
        return getattr(self, segment)


@dataclass(slots=True)
class Team:
    has_machines: bool = False
    has_scheduler: bool = False
    can_maintain_scheduler: bool = False
    pain: str = "none"
    # SPEC 6.1 rollout order: a new team has validated only same_site.
    validated_tiers: tuple[str, ...] = ("same_site",)


@dataclass(slots=True)
class Task:
    workload: str
    compute_hours: float
    home_site: str
    data_site: str
    result_site: str
    name: str | None = None
    cadence: str = "one_off"
    runs_per_quarter: float = 1.0
    params_b: float | None = None
    precision: str = "bf16"
    peak_gpu_mem_gb: float | None = None
    gpus: int | None = None  # None: no planned GPU count (P3)
    parallelism: tuple[str, ...] = ()
    coupling: str = "none"
    input_gb: float = 0.0
    result_gb: float = 0.0
    compress_ratio: float = 1.0
    image_gb: float = 10.0
    access_pattern: str = "streaming"
    data_passes: int = 1
    resumable: bool = False
    resume_verified: bool = False
    env_aligned: bool = False
    interruption_cost_hours: float = 0.0
    latency_budget_hours: LatencyBudget = field(default_factory=LatencyBudget)
    delay_cost_per_hour: float = 0.0
    env_simple: bool = False
    image_packaged: bool = False
    offsite_allowed: bool = False
    low_latency_online: bool = False
    stateful: bool = False
    compliance_restricted: bool = False
    strict_consistency: bool = False
    # SPEC 6.1 X4: where the restricted data may be processed (empty: the data site's datacenter).
    allowed_sites: tuple[str, ...] = ()
    results_restricted: bool = False
    team: Team = field(default_factory=Team)
    # SPEC 6.3 memory breakdown: the model's shape (all five or none; kv_heads defaults to heads).
    batch_size: int | None = None
    seq_len: int | None = None
    hidden_size: int | None = None
    layers: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    activation_checkpointing: bool = False
    # SPEC 6.3 preemptible capacity: a resumable task loses half an interval per preemption.
    checkpoint_interval_hours: float = 1.0
    # SPEC 6.4 staged plans: the size of the preprocessed version (None: no staged plan), the
    # preprocessing's wall time and cost per hour at the data site, and the runs reusing it.
    processed_gb: float | None = None
    preprocess_hours: float = 0.0
    preprocess_cost_per_hour: float = 0.0
    rounds_per_refresh: int = 1
    # SPEC 7.1: flash (default) stores no attention scores; eager stores 5·a·s/h more per element.
    attention: str = "flash"
    # SPEC 7.3: reload and re-queue hours per restart of a resumable run.
    restart_hours: float = 0.0
    # SPEC 7.5: bulk (copied before compute) or streamed (read over the link while computing).
    input_delivery: str = "bulk"
    # SPEC 7.7: the money one run may cost, in the input's currency (None: no cost budget).
    cost_budget: float | None = None

    @property
    def has_architecture(self) -> bool:
        return self.layers is not None


@dataclass(slots=True)
class Site:
    code: str
    datacenter: str | None = None
    city: str | None = None
    hub: str | None = None
    queue_hours: float = 0.0
    storage_tb: float | None = None  # None: room is not limited
    name: str | None = None
    index: int = -1  # position in the input's sites list (SPEC 6.3 sensitivity names it)


@dataclass(slots=True)
class Link:
    from_site: str
    to_site: str
    bandwidth_gbps: float
    price_per_gb: float
    rtt_ms: float = 0.0
    buffer: float | None = None
    reserved: bool = False
    reservable: bool = False
    index: int = -1  # position in the input's links list (SPEC 6.3 sensitivity names it)


@dataclass(slots=True)
class Offer:
    id: str
    kind: str
    site: str
    gpu_mem_gb: float
    gpus_per_machine: int
    billing_basis: str
    price: float
    max_machines: int | None = None
    contract_hours: float | None = None
    expected_utilization: float | None = None
    scheduling_fee_pct: float = 0.0
    parallelism: tuple[str, ...] = ()
    relative_speed: float = 1.0
    machines: int | None = None
    name: str | None = None
    provider: str | None = None
    boot_hours: float = 0.0  # SPEC 6.1: time until usable, counted in the queue segment
    migration_effort_hours: float | None = None  # SPEC 6.1: from the candidate's Q5 answer
    currency: str | None = None
    gpu_model: str | None = None
    # SPEC 6.3: spot capacity and its expected preemptions per day (only when preemptible).
    preemptible: bool = False
    preemptions_per_day: float = 0.0
    index: int = -1  # position in the input's offers list (SPEC 6.3 sensitivity names it)
    # SPEC 7.4: infiniband | roce | ethernet, or None when unknown.
    interconnect: str | None = None
    # SPEC 7.6: a contract package already paid (sunk); only with billing_basis contract.
    contract_paid: bool = False


@dataclass(slots=True)
class Benchmark:
    index: int
    kind: str
    offer: str | None = None
    nodes: int = 1
    gpus_per_node: int = 1
    e2e_hours: float = 0.0
    compute_hours: float = 0.0
    comm_hours: float | None = None
    peak_gpu_mem_gb: float | None = None
    failure_reruns: int = 0
    hours_lost_per_rerun: float = 0.0
    migration_effort_hours: float | None = None
    cost: float | None = None
    tier: str | None = None
    succeeded: bool | None = None
    id: str | None = None

    @property
    def gpus(self) -> int:
        return self.nodes * self.gpus_per_node


@dataclass(slots=True)
class EngineInput:
    task: Task
    sites: dict[str, Site]
    links: tuple[Link, ...]
    offers: tuple[Offer, ...]
    benchmarks: tuple[Benchmark, ...]
    # offer id -> question -> "answered" | "unanswered" (all six present after parsing)
    checklists: dict[str, dict[str, str]]
    thresholds: dict[str, float]
    currency: str | None = None
