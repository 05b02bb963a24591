"""SPEC 7.9 field table: the task, its latency budget and its team. Each row says a field's
name, type, default, range, meaning and the version that added it; the reader's known fields,
the field tables of docs/engine.md and the JSON Schema of the evaluate input are derived from
it (engine/fields.py)."""

from __future__ import annotations

from .field import F
from .schema import (
    ACCESS_PATTERNS,
    ATTENTIONS,
    CADENCES,
    COUPLINGS,
    INPUT_DELIVERIES,
    PAINS,
    PARALLELISM,
    PRECISIONS,
    TIERS,
    WORKLOADS,
)

# task
TASK: tuple[F, ...] = (
    F(("name",), "string", "string", "`null`", "",
      "recorded"),
    F(("workload",), "choice", "choice", "required",
      "`training`, `fine_tuning` (full), `adapter_tuning` (LoRA/QLoRA), `inference`, "
      "`batch_inference`, `data_processing`, `rendering`, `scientific_batch`, `online_service`",
      "what the job is; picks the sizing formula, D1 and X1", choices=WORKLOADS),
    F(("cadence",), "choice", "choice", "`one_off`", "`one_off`, `recurring`",
      "跑一次就扔 or 长期固定节奏; R1b, R6, R-mod, B3, the migration line", choices=CADENCES),
    F(("runs_per_quarter",), "number", "number", "`1`", "≥ 0",
      "runs of a recurring job per quarter (a year = × 4)", minimum=0.0),
    F(("params_b",), "number", "number or null", "`null`", "≥ 0",
      "parameters in billions; without it (and without a measured peak) memory limits nothing",
      nullable=True, minimum=0.0),
    F(("precision",), "choice", "choice", "`bf16`", "`fp32`, `bf16`, `fp16`, `fp8`, `int8`, `int4`",
      "bytes per parameter 4, 2, 2, 1, 1, 0.5", choices=PRECISIONS),
    F(("peak_gpu_mem_gb",), "number", "number or null", "`null`", "≥ 0",
      "measured peak GPU memory of one replica; overrides the estimate",
      nullable=True, minimum=0.0),
    F(("gpus",), "integer", "integer or null", "**required key** (null allowed → P3)", "≥ 1",
      "planned GPU count that `compute_hours` is measured on; billed per SPEC 6.1",
      nullable=True, minimum=1),
    F(("parallelism",), "choices", "list of choices", "`[]`",
      "`data`, `tensor`, `pipeline`, `sharded`",
      "splitting strategies the task's framework supports (`sharded` = FSDP, ZeRO-3)",
      choices=PARALLELISM),
    F(("coupling",), "choice", "choice", "`none`", "`none`, `loose`, `tight`",
      "耦合程度: how far the job may be spread across pools; `tight` → K1, X3", choices=COUPLINGS),
    F(("input_gb",), "number", "number", "`0`", "≥ 0",
      "input data at `data_site`, GB as stored", minimum=0.0),
    F(("result_gb",), "number", "number", "`0`", "≥ 0",
      "results to ship to `result_site`, GB", minimum=0.0),
    F(("compress_ratio",), "number", "number", "`1`", "(0, 1]",
      "size after compression ÷ before, for input and results in transit", above=0.0, maximum=1.0),
    F(("image_gb",), "number", "number", "`10`", "≥ 0",
      "environment image shipped from `home_site`", minimum=0.0),
    F(("access_pattern",), "choice", "choice", "`streaming`", "`streaming`, `repeated_full_scan`",
      "反复全量扫描: staged or streamed input, D2", choices=ACCESS_PATTERNS),
    F(("data_passes",), "integer", "integer", "`1`", "≥ 1",
      "full passes over the input; a streamed input moves this many times", minimum=1),
    F(("compute_hours",), "number", "number", "required", "0, or ≥ 1e-12",
      "compute segment on `gpus` GPUs at relative speed 1.0", minimum=0.0, zero_or_positive=True),
    F(("resumable",), "boolean", "boolean", "`false`", "",
      "能否续跑: G3, R7, K2's loose cross-hub spread"),
    F(("resume_verified",), "boolean", "boolean", "`false`", "",
      "续跑是否验证 (readiness, H2)"),
    F(("env_aligned",), "boolean", "boolean", "`false`", "",
      "环境是否对齐 (readiness, H2)"),
    F(("interruption_cost_hours",), "number", "number", "`0`", "≥ 0",
      "work lost by one interruption, hours (G3, M2)", minimum=0.0),
    F(("latency_budget_hours",), "object", "object or null", "all `null`",
      "only `transfer`, `queue`, `compute`",
      "时延预算 per segment, below", nullable=True),
    F(("delay_cost_per_hour",), "number", "number", "`0`", "≥ 0",
      "value of one hour of waiting; objective = total_cost + this × total_hours", minimum=0.0),
    F(("env_simple",), "boolean", "boolean", "`false`", "",
      "环境依赖是否简单 (G1)"),
    F(("image_packaged",), "boolean", "boolean", "`false`", "",
      "镜像与依赖能否打包带走 (G1)"),
    F(("offsite_allowed",), "boolean", "boolean", "`false`", "",
      "许可与合规是否允许在异地执行 (G1)"),
    F(("low_latency_online",), "boolean", "boolean", "`false`", "",
      "低延迟在线服务 (X1; workload `online_service` counts too)"),
    F(("stateful",), "boolean", "boolean", "`false`", "",
      "状态重的服务 (X2)"),
    F(("compliance_restricted",), "boolean", "boolean", "`false`", "",
      "数据合规受限: the data may not leave its domain (X4)"),
    F(("strict_consistency",), "boolean", "boolean", "`false`", "",
      "要求严格一致 (X5)"),
    F(("allowed_sites",), "sites", "list of site codes or null", "`[]`", "known site codes",
      "X4: where the restricted data may be processed; blank → the sites in the data site's "
      "datacenter (read only with `compliance_restricted`)", nullable=True),
    F(("results_restricted",), "boolean", "boolean", "`false`", "",
      "X4: the results may not leave the allowed sites either"),
    F(("team",), "object", "object or null", "all defaults", "below",
      "the team's situation", nullable=True),
    F(("home_site",), "site", "site code", "required", "a known, non-blank site code",
      "where the team sits: 就近等待 means running here"),
    F(("data_site",), "site", "site code or null", "`home_site`",
      "a known site code; blank → `home_site`",
      "where the input lives", nullable=True),
    F(("result_site",), "site", "site code or null", "`home_site`",
      "a known site code; blank → `home_site`",
      "where the results go", nullable=True),
    F(("batch_size",), "integer", "integer or null", "`null`", "≥ 1; with the other shape fields",
      "2.1: sequences per replica per step (SPEC 6.3 activations, KV cache)",
      version="2.1", nullable=True, minimum=1),
    F(("seq_len",), "integer", "integer or null", "`null`", "≥ 1; with the other shape fields",
      "2.1: tokens per sequence", version="2.1", nullable=True, minimum=1),
    F(("hidden_size",), "integer", "integer or null", "`null`", "≥ 1; with the other shape fields",
      "2.1: the model's hidden size (config.json `hidden_size`)",
      version="2.1", nullable=True, minimum=1),
    F(("layers",), "integer", "integer or null", "`null`", "≥ 1; with the other shape fields",
      "2.1: transformer layers (`num_hidden_layers`)", version="2.1", nullable=True, minimum=1),
    F(("heads",), "integer", "integer or null", "`null`",
      "≥ 1, divides `hidden_size`; with the other shape fields",
      "2.1: attention heads (`num_attention_heads`)", version="2.1", nullable=True, minimum=1),
    F(("kv_heads",), "integer", "integer or null", "`heads`",
      "≥ 1, ≤ `heads`, divides `heads`; only with the shape",
      "2.1: key/value heads (`num_key_value_heads`; fewer than `heads` = grouped-query "
      "attention)", version="2.1", nullable=True, minimum=1),
    F(("activation_checkpointing",), "boolean", "boolean", "`false`", "",
      "2.1: keep only each layer's input for the backward pass (activations `2 × s × b × h` per "
      "layer)", version="2.1"),
    F(("checkpoint_interval_hours",), "number", "number", "`1`", "≥ 0",
      "2.1: hours between checkpoints; a resumable task loses half of one per preemption",
      version="2.1", minimum=0.0),
    F(("processed_gb",), "number", "number or null", "`null`", "≥ 0",
      "2.2: size of the preprocessed version (features, shards, tokens); given, every option "
      "away from the data also costs a staged plan", version="2.2", nullable=True, minimum=0.0),
    F(("preprocess_hours",), "number", "number", "`0`", "≥ 0",
      "2.2: wall time of preprocessing at the data site (a fourth time segment of a staged "
      "plan)", version="2.2", minimum=0.0),
    F(("preprocess_cost_per_hour",), "number", "number", "`0`", "≥ 0",
      "2.2: what preprocessing costs per hour", version="2.2", minimum=0.0),
    F(("rounds_per_refresh",), "integer", "integer", "`1`", "≥ 1",
      "2.2: training runs that reuse one processed version (its shipment and preprocessing are "
      "shared by them)", version="2.2", minimum=1),
    F(("attention",), "choice", "choice", "`flash`", "`flash`, `eager`",
      "3.0 (SPEC 7.1): how attention is computed in training; `flash` (FlashAttention, PyTorch "
      "SDPA) never stores the a·s·s score matrix, so activations are `s·b·h·34` bytes a layer; "
      "`eager` keeps 2.1's `s·b·h·(34 + 5·a·s/h)`", version="3.0", choices=ATTENTIONS),
    F(("restart_hours",), "number", "number", "`0`", "≥ 0",
      "3.0 (SPEC 7.3): reload and re-queue hours each restart of a resumable run costs "
      "(preemptions and failures)", version="3.0", minimum=0.0),
    F(("input_delivery",), "choice", "choice", "`bulk`", "`bulk`, `streamed`",
      "3.1 (SPEC 7.5, seed B §4 \"分批传\"): `bulk` copies the input before compute starts; "
      "`streamed` reads it over the link while the job computes, so the input leg overlaps "
      "compute (`input_overlapped`); a streamed repeated scan is streamed whatever this says, "
      "a staged copy ships in bulk", version="3.1", choices=INPUT_DELIVERIES),
    F(("cost_budget",), "number", "number or null", "`null`", "≥ 0",
      "3.1 (SPEC 7.7): the money one run may cost, in the input's currency; options gain "
      "`within_cost_budget`, P4 warns when the chosen option's total_cost exceeds it and P1 "
      "counts it with the time budgets; blank = none", version="3.1", nullable=True, minimum=0.0),
)

# task.latency_budget_hours (blank = no limit; budgets guide the choice, they do not veto it)
BUDGET: tuple[F, ...] = (
    F(("transfer",), "number", "number or null", "`null`", "≥ 0",
      "hours the transfers may take; `0` fails gate G2", nullable=True, minimum=0.0),
    F(("queue",), "number", "number or null", "`null`", "≥ 0",
      "hours of queueing plus boot", nullable=True, minimum=0.0),
    F(("compute",), "number", "number or null", "`null`", "≥ 0",
      "hours of compute at the option's speed", nullable=True, minimum=0.0),
)

# task.team
TEAM: tuple[F, ...] = (
    F(("validated_tiers",), "choices", "list of choices", "`[\"same_site\"]`",
      "`same_site`, `same_datacenter`, `same_city`, `cross_hub`",
      "tiers the team has validated by pilots (H1); `same_site` is always added", choices=TIERS),
    F(("has_machines",), "boolean", "boolean", "`false`", "",
      "手上有机器 (R1c, R4, R6, J1)"),
    F(("has_scheduler",), "boolean", "boolean", "`false`", "",
      "a scheduler is in place (R4)"),
    F(("can_maintain_scheduler",), "boolean", "boolean", "`false`", "",
      "能维护调度器, not just use one (R1b, R3, R1e, J4, `delivery`)"),
    F(("pain",), "choice", "choice", "`none`", "`none`, `slow`, `queueing`",
      "跑得慢 (R4) or 排队 (R3)", choices=PAINS),
)
