"""SPEC 7.9 field table: the top level, sites, links, offers, benchmark records, checklists
and thresholds. Each row says a field's name, type, default, range, meaning and the version that
added it; the reader's known fields, the field tables of docs/engine.md and the JSON Schema of
the evaluate input are derived from it (engine/fields.py)."""

from __future__ import annotations

from .field import F
from .schema import (
    ANSWER_STATES,
    BENCHMARK_KINDS,
    BILLING_BASES,
    INTERCONNECTS,
    OFFER_KINDS,
    PARALLELISM,
    TIERS,
)

# top
TOP: tuple[F, ...] = (
    F(("task",), "object", "object", "required", "below",
      "the task profile (任务画像)"),
    F(("sites",), "list", "list of objects", "`[]`", "≤ 200 items",
      "resource pools / sites (资源池/站点)"),
    F(("links",), "list", "list of objects", "`[]`", "≤ 5,000 items",
      "network links between sites"),
    F(("offers",), "list", "list of objects", "`[]`", "≤ 500 items",
      "candidate offers (报价); one placement option each"),
    F(("benchmarks",), "list", "list of objects", "`[]`", "≤ 10,000 items",
      "benchmark records: single, multi, network probes, pilot migrations"),
    F(("checklists",), "answers", "object: offer id → answers", "`{}`", "keys must be offer ids",
      "the six-question checklist (选型核对清单) per candidate"),
    F(("thresholds",), "object", "object", "all defaults", "keys of `DEFAULT_THRESHOLDS` only",
      "team thresholds overriding the defaults"),
    F(("currency",), "string", "string", "`null`", "ISO 4217 form",
      "the team's one currency; no conversion"),
)

# sites[]
SITE: tuple[F, ...] = (
    F(("code",), "string", "string", "required", "non-blank, unique",
      "the site's code, used everywhere else"),
    F(("name",), "string", "string or null", "`null`", "",
      "recorded", nullable=True),
    F(("storage_tb",), "number", "number or null", "`null`", "≥ 0",
      "room for staged data, TB; null = not limited", nullable=True, minimum=0.0),
    F(("datacenter",), "string", "string or null", "`null`", "",
      "the site's datacenter = its **domain**; blank is a domain of its own", nullable=True),
    F(("city",), "string", "string or null", "`null`", "",
      "same city → tier `same_city`; blank never matches", nullable=True),
    F(("hub",), "string", "string or null", "`null`", "",
      "recorded (any two sites not in one city are `cross_hub`)", nullable=True),
    F(("queue_hours",), "number", "number", "`0`", "≥ 0",
      "typical wait for capacity now", minimum=0.0),
)

# links[] (a link serves both directions unless the reverse direction has its own record)
LINK: tuple[F, ...] = (
    F(('from', 'to'), "site", "site codes", "required",
      "known, different sites; one record per direction",
      "the two ends"),
    F(("bandwidth_gbps",), "number", "number", "required", "> 0",
      "可用带宽", above=0.0),
    F(("rtt_ms",), "number", "number", "`0`", "≥ 0",
      "recorded", minimum=0.0),
    F(("price_per_gb",), "number", "number", "required", "≥ 0",
      "传输单价", minimum=0.0),
    F(("buffer",), "number", "number or null", "the tier's `buffer_*` threshold", "≥ 0",
      "jitter margin: leg hours × (1 + buffer) (排期要留缓冲)", nullable=True, minimum=0.0),
    F(("reservable",), "boolean", "boolean", "`false`", "",
      "a channel can be reserved ahead"),
    F(("reserved",), "boolean", "boolean", "`false`", "only when `reservable`",
      "the channel is reserved for this review (通道是否预留)"),
)

# offers[]
OFFER: tuple[F, ...] = (
    F(("id",), "id", "string or integer", "required", "non-blank; unique as a string",
      "the candidate's id"),
    F(("currency",), "string", "string or null", "`null`", "ISO 4217 form, equal to the input's",
      "the offer's currency", nullable=True),
    F(("site",), "site", "site code", "required", "a known site",
      "where it runs: sets the option's kind and legs"),
    F(("billing_basis",), "choice", "choice", "required", "`gpu_hour`, `machine_hour`, `contract`",
      "按卡时、按整机还是按合同包段", choices=BILLING_BASES),
    F(("preemptible",), "boolean", "boolean", "`false`", "",
      "2.1: spot / preemptible capacity: the provider may take it back (G4, `preemption_cost`)",
      version="2.1"),
    F(("preemptions_per_day",), "number", "number",
      "required when `preemptible`; refused otherwise", "≥ 0",
      "2.1: expected preemptions per day of use (`offers[1].preemptions_per_day: only a "
      "preemptible offer has preemptions (set preemptible: true)`)", version="2.1", minimum=0.0),
    F(("kind",), "choice", "choice", "required", "`compute`, `distributed`, `managed`",
      "算力平台, 分布式计算平台, or both layers sold together (J1, J4)", choices=OFFER_KINDS),
    F(("gpu_mem_gb",), "number", "number", "required", "> 0",
      "memory of one GPU", above=0.0),
    F(("gpus_per_machine",), "integer", "integer", "required", "≥ 1",
      "GPUs in one machine", minimum=1),
    F(("max_machines",), "integer", "integer or null", "`null`", "≥ 1",
      "pool size; null = not limited (capacity, K2)", nullable=True, minimum=1),
    F(("price",), "number", "number", "required", "≥ 0",
      "per GPU-hour, per machine-hour, or per contract package", minimum=0.0),
    F(("contract_hours",), "number", "number", "required for `contract`, else `null`", "> 0",
      "hours in the package", nullable=True, above=0.0),
    F(("expected_utilization",), "number", "number", "required for `contract`, else `null`",
      "(0, 1]",
      "share of the package expected to be used", nullable=True, above=0.0, maximum=1.0),
    F(("contract_paid",), "boolean", "boolean", "`false`", "only with `billing_basis: contract`",
      "3.1 (SPEC 7.6): the package is already paid (sunk): the run's GPU-hours that fit it cost "
      "nothing (T.paid); beyond it, the pro-rated price", version="3.1"),
    F(("scheduling_fee_pct",), "number", "number", "`0`", "≥ 0",
      "调度开销 billed, % of compute cost", minimum=0.0),
    F(("parallelism",), "choices", "list of choices", "`[]`",
      "`data`, `tensor`, `pipeline`, `sharded`",
      "strategies the offer supports", choices=PARALLELISM),
    F(("relative_speed",), "number", "number", "`1`", "[0.01, 100]",
      "speed against the reference; compute hours ÷ this", minimum=0.01, maximum=100.0),
    F(("machines",), "integer", "integer or null", "`null`", "≥ 1",
      "the review's machine count for this candidate; used for GPUs only when `task.gpus` is "
      "null", nullable=True, minimum=1),
    F(("name", "provider"), "string", "string or null", "`null`", "",
      "`name` shows in messages (\"name (#id)\"); `provider` is recorded", nullable=True),
    F(("boot_hours",), "number", "number", "`0`", "≥ 0",
      "开机快慢: time until usable, added to the queue segment", minimum=0.0),
    F(("migration_effort_hours",), "number", "number or null", "`null`", "≥ 0",
      "engineer hours from the Q5 answer (迁移成本)", nullable=True, minimum=0.0),
    F(("gpu_model",), "string", "string or null", "`null`", "",
      "recorded", nullable=True),
    F(("interconnect",), "choice", "choice or null", "`null` (unknown)",
      "`infiniband`, `roce`, `ethernet`",
      "3.1 (SPEC 7.4, seed B §3 \"整体放在一个高速互联的池子里\", seed A Q2 "
      "\"跨机通信走什么网络\"): "
      "what joins the offer's machines; a `tight` task on more than one machine is refused on "
      "`ethernet` (`no_fast_interconnect`) and warned on `null` (K3), unless a multi run "
      "measured on the offer proves the fabric at that size", version="3.1", nullable=True,
      choices=INTERCONNECTS),
)

# benchmarks[]
BENCHMARK: tuple[F, ...] = (
    F(("id",), "text_id", "string or number", "`null`",
      "any non-boolean value is read as text (not refused); a boolean is ignored",
      "the record's id, echoed in `benchmark`"),
    F(("kind",), "choice", "choice", "required",
      "`single`, `multi`, `network_probe`, `pilot_migration`",
      "", choices=BENCHMARK_KINDS),
    F(("offer",), "offer", "offer id", "required for `single`/`multi`, else `null`",
      "a known offer id",
      "the hardware it ran on; pairs are formed per offer"),
    F(("e2e_hours",), "number", "number", "required for `single`/`multi`, else `0`",
      "0, or ≥ 1e-12",
      "端到端耗时, the figure that counts", minimum=0.0, zero_or_positive=True),
    F(("compute_hours",), "number", "number", "required for `single`/`multi`, else `0`",
      "≥ 0, ≤ `e2e_hours`",
      "compute segment of the run", minimum=0.0),
    F(("comm_hours",), "number", "number or null", "`null`", "≥ 0, ≤ `e2e_hours`",
      "communication, when recorded (non-compute share)", nullable=True, minimum=0.0),
    F(('nodes', 'gpus_per_node'), "integer", "integer", "`1`", "≥ 1",
      "the run's configuration (GPUs = product)", minimum=1),
    F(("peak_gpu_mem_gb",), "number", "number or null", "`null`", "≥ 0",
      "measured peak of one replica (the largest `single` one sizes the task)",
      nullable=True, minimum=0.0),
    F(("failure_reruns",), "integer", "integer", "`0`", "≥ 0",
      "失败重跑次数", minimum=0),
    F(("hours_lost_per_rerun",), "number", "number", "`0`", "≥ 0",
      "hours each rerun lost", minimum=0.0),
    F(("migration_effort_hours",), "number", "number or null", "`null`", "≥ 0",
      "retrofit hours (B3; a pilot's feeds its offer's migration line)",
      nullable=True, minimum=0.0),
    F(("cost",), "number", "number or null", "`null`", "≥ 0",
      "recorded", nullable=True, minimum=0.0),
    F(("tier",), "choice", "choice or null", "`null`", "a tier",
      "a pilot's tier (H1)", nullable=True, choices=TIERS),
    F(("succeeded",), "boolean", "boolean or null", "`null`", "",
      "a pilot's outcome (H1)", nullable=True),
)

# checklists.<offer id> (an offer without an entry is six unanswered, SPEC 6.1)
ANSWERS: tuple[F, ...] = (
    F(('q1', 'q2', 'q3', 'q4', 'q5', 'q6'), "choice", "choice", "`unanswered`",
      "`answered`, `unanswered`",
      "Q1 task scale, Q2 split and network, Q3 fault tolerance, Q4 billing basis, Q5 migration "
      "cost, Q6 exit path", choices=ANSWER_STATES),
)

# thresholds (every value ≥ 0; `data_compute_low` ≤ `data_compute_high`)
THRESHOLD: tuple[F, ...] = (
    F(("data_compute_high",), "number", "number", "`100`", "≥ 0",
      "M1: GB per compute hour from which compute moves to the data", minimum=0.0),
    F(("data_compute_low",), "number", "number", "`10`", "≤ `data_compute_high`",
      "M1: below it the task is light", minimum=0.0),
    F(("network_cost_share",), "number", "number", "`0.2`", "≤ 1",
      "M4: transfer cost ÷ total cost above which to rethink (超过两成)", minimum=0.0, maximum=1.0),
    F(("interruption_cost_hours",), "number", "number", "`1`", "≥ 0",
      "G3: hours one interruption may lose on a task that cannot resume", minimum=0.0),
    F(("headroom",), "number", "number", "`0.9`", "(0, 1]",
      "A: usable share of GPU memory", above=0.0, maximum=1.0),
    F(("near_capacity_band",), "number", "number", "`0.15`", "≤ 1",
      "A, R2: within this share of a machine's usable memory is near capacity",
      minimum=0.0, maximum=1.0),
    F(("buffer_same_site",), "number", "number", "`0`", "≥ 0",
      "link buffer by tier when the link has none", minimum=0.0),
    F(("buffer_same_datacenter",), "number", "number", "`0`", "≥ 0",
      "〃", minimum=0.0),
    F(("buffer_same_city",), "number", "number", "`0.1`", "≥ 0",
      "〃", minimum=0.0),
    F(("buffer_cross_hub",), "number", "number", "`0.3`", "≥ 0",
      "〃", minimum=0.0),
    F(("loose_cross_hub_hours",), "number", "number", "`24`", "≥ 0",
      "spread tier: a loose, resumable job this long may be spread cross-hub", minimum=0.0),
    F(("scaling_efficiency_min",), "number", "number", "`0.7`", "≤ 1",
      "R6: the measured scaling efficiency that counts as a clear gain", minimum=0.0, maximum=1.0),
    F(("long_run_hours",), "number", "number", "`12`", "≥ 0",
      "R7: compute hours from which a multi-machine job needs resume", minimum=0.0),
    F(("engineer_hour_cost",), "number", "number", "`0`", "≥ 0",
      "T: price of one engineer hour for the migration line (0 = not priced)", minimum=0.0),
    F(("multi_machine_efficiency",), "number", "number", "`0.8`", "(0, 1]",
      "2.1 deadline sizing: scaling efficiency counted beyond one machine when no like-for-like "
      "pair is measured", version="2.1", above=0.0, maximum=1.0),
    F(("failure_rate_per_gpu_hour",), "number", "number", "`0`", "≥ 0",
      "3.0 (SPEC 7.2): the team's fleet failure rate, failures a GPU-hour, used when an offer's "
      "records hold too few GPU-hours; 0 = reruns not priced. About 2e-5 is what Llama 3's "
      "training saw (419 unexpected interruptions in 54 days on 16,384 GPUs: Meta, \"The Llama "
      "3 Herd of Models\", 2024, §3.3.4)", version="3.0", minimum=0.0),
    F(("failure_evidence_gpu_hours",), "number", "number", "`1000`", "≥ 1",
      "3.0 (SPEC 7.2): GPU-hours an offer's single/multi records must hold before their own "
      "failure rate and losses count", version="3.0", minimum=1),
    F(("scheduler_ops_hours_per_month",), "number", "number", "`0`", "≥ 0",
      "3.1 (SPEC 7.11, seed A \"调度器的运维成本可能高于算力本身\"): engineer hours a month a "
      "self-hosted distributed layer takes; × `engineer_hour_cost` ÷ runs a month is each "
      "distributed candidate's `scheduler_ops_cost` (0 = not priced)", version="3.1",
      minimum=0.0),
)
