"""Demo task profiles: six jobs for Team Aurora, each chosen so that the engine's conclusion
teaches something, and two for Team Borealis. Runs after apps.catalog.demo (it needs
ctx.objects["sites"]); idempotent by (team, name).

Model sizes are public parameter counts (Llama 2 7B / 13B / 70B, a 40B dense model, Qwen 14B);
compute hours are plausible orders of magnitude, not measurements.

What the engine concludes on the demo catalog (see tests/profiles/test_demo.py):
- inference-7b: 16.8 GB, one GPU fits (R5, compute platform); no transfer budget (G2), so it
  waits locally.
- training-70b: 1,344 GB, no offer fits one machine; one-off and nobody maintains a scheduler
  (R1b: rent multi-node capacity, do not build a scheduler); loose coupling lets it move.
- training-tp: tensor parallel, tight coupling: X3 and K1, stays in its pool; fits one H200
  machine only because it splits (R4: machines, scheduler, too slow → look at both layers).
- cleaning-5tb: 5 TB at gz-a, 50 GB of results, home bj-a: move compute to the data (D1, M1).
- compliance-batch: compliance restricted (X4): the data does not move; it waits locally.
- online-service: low-latency online service (X1): deployed locally.
"""

from __future__ import annotations

from apps.accounts.demo import DemoContext

from .models import TaskProfile

PORTABLE = {"env_simple": True, "image_packaged": True, "offsite_allowed": True}

AURORA_PROFILES = [
    {
        "key": "inference-7b",
        "name": "Llama-2-7B batch evaluation (nightly)",
        "description": "Runs the regression prompt set through the 7B chat model every night.",
        "workload": "inference",
        "cadence": "recurring",
        "runs_per_quarter": 90,
        "params_b": 7.0,
        "precision": "bf16",
        "gpus": 1,
        "parallelism": ["data"],
        "coupling": "none",
        "input_gb": 20.0,
        "result_gb": 1.0,
        "image_gb": 12.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 3.0,
        "budget_transfer_hours": 0.0,  # a nightly job: no time to move anything (G2)
        "budget_queue_hours": 8.0,
        "delay_cost_per_hour": 5.0,
        "resumable": True,
        "resume_verified": True,
        "env_aligned": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "has_machines": False,
        "pain": "none",
    },
    {
        "key": "training-70b",
        "name": "70B full training, data parallel (one-off)",
        "description": "Continued pre-training of a 70B model on 2 TB of domain text.",
        "workload": "training",
        "cadence": "one_off",
        "params_b": 70.0,
        "precision": "bf16",
        "gpus": 32,
        "parallelism": ["data", "pipeline"],
        "coupling": "loose",
        "input_gb": 2000.0,
        "result_gb": 140.0,
        "compress_ratio": 0.8,
        "image_gb": 20.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 200.0,
        "delay_cost_per_hour": 50.0,
        "resumable": True,
        "interruption_cost_hours": 2.0,
        **PORTABLE,
        "has_machines": False,
        "has_scheduler": False,
        "can_maintain_scheduler": False,
        "pain": "none",
    },
    {
        "key": "training-tp",
        "name": "40B pre-training, tensor parallel",
        "description": "Tensor-parallel run with high-frequency exchange between GPUs.",
        "workload": "training",
        "cadence": "recurring",
        "runs_per_quarter": 2,
        "params_b": 40.0,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data", "tensor", "pipeline"],
        "coupling": "tight",
        "input_gb": 1500.0,
        "result_gb": 80.0,
        "image_gb": 25.0,
        "data_site": "sh-a",
        "home_site": "sh-a",
        "result_site": "sh-a",
        "compute_hours": 120.0,
        "delay_cost_per_hour": 40.0,
        "resumable": True,
        "resume_verified": True,
        "interruption_cost_hours": 4.0,
        "env_simple": False,
        "image_packaged": True,
        "offsite_allowed": True,
        "has_machines": True,
        "has_scheduler": True,
        "can_maintain_scheduler": True,
        "pain": "slow",
    },
    {
        "key": "cleaning-5tb",
        "name": "Clickstream cleaning, 5 TB at Guangzhou",
        "description": "Dedup, filtering and feature generation; only 50 GB of results come back.",
        "workload": "data_processing",
        "cadence": "one_off",
        "params_b": None,
        "gpus": 4,
        "parallelism": ["data"],
        "coupling": "none",
        "input_gb": 5000.0,
        "result_gb": 50.0,
        "compress_ratio": 0.6,
        "image_gb": 10.0,
        "data_site": "gz-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 6.0,
        "budget_transfer_hours": 4.0,
        "delay_cost_per_hour": 10.0,
        "resumable": True,
        "resume_verified": True,
        "env_aligned": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "has_machines": True,
        "pain": "queueing",
        "can_maintain_scheduler": False,
    },
    {
        "key": "compliance-batch",
        "name": "Medical imaging batch inference (data stays in Beijing)",
        "description": "Patient scans may not leave the Beijing domain.",
        "workload": "batch_inference",
        "cadence": "recurring",
        "runs_per_quarter": 6,
        "params_b": 13.0,
        "precision": "fp16",
        "gpus": 8,
        "parallelism": ["data"],
        "coupling": "none",
        "input_gb": 800.0,
        "result_gb": 5.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 10.0,
        "delay_cost_per_hour": 10.0,
        "resumable": True,
        "interruption_cost_hours": 1.0,
        "env_simple": True,
        "image_packaged": True,
        "offsite_allowed": False,
        "compliance_restricted": True,
        "has_machines": False,
        "pain": "none",
    },
    {
        "key": "online-service",
        "name": "Customer-support chatbot (online, 13B)",
        "description": "Serves agents in Beijing; p99 latency under 300 ms.",
        "workload": "online_service",
        "cadence": "recurring",
        "runs_per_quarter": 1,
        "params_b": 13.0,
        "precision": "fp8",
        "gpus": 2,
        "parallelism": ["data"],
        "coupling": "none",
        "input_gb": 1.0,
        "result_gb": 1.0,
        "data_site": "bj-b",
        "home_site": "bj-b",
        "result_site": "bj-b",
        "compute_hours": 720.0,
        "budget_queue_hours": 2.0,
        "low_latency_online": True,
        "stateful": False,
        "interruption_cost_hours": 0.0,
        "env_simple": True,
        "image_packaged": True,
        "has_machines": False,
        "pain": "none",
    },
]

# Method 2.0 corrections (SPEC 6.1), each shown by one profile a real team starts from.
AURORA_V2_PROFILES = [
    {
        # X4: the data sits in Guangzhou and may not leave its domain: running next to it is the
        # one compliant plan (v1 refused every option).
        "key": "compliance-away",
        "name": "Genomics variant calling (data stays in Guangzhou)",
        "description": "Sequencing data may be processed only in the Guangzhou datacenter.",
        "workload": "data_processing",
        "cadence": "recurring",
        "runs_per_quarter": 3,
        "gpus": 8,
        "input_gb": 3000.0,
        "result_gb": 20.0,
        "data_site": "gz-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 6.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "compliance_restricted": True,
        "has_machines": True,
    },
    {
        # Sharded + full fine-tuning: 7 × 16 × 1.2 = 134.4 GB over ZeRO-3 fits one 8×80 GB node,
        # so a compute platform is enough (v1 sized it as LoRA and, with plain data parallelism,
        # would have split it across machines).
        "key": "finetune-7b-full",
        "name": "Mistral-7B full fine-tuning (FSDP)",
        "workload": "fine_tuning",
        "cadence": "recurring",
        "runs_per_quarter": 2,
        "params_b": 7.0,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data", "sharded"],
        "coupling": "loose",
        "input_gb": 40.0,
        "result_gb": 15.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 8.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "has_machines": True,
    },
    {
        # R7: 48 h on 64 GPUs without resume; capacity: pools under 64 GPUs are too small.
        "key": "pretrain-no-resume",
        "name": "13B continued pre-training, no checkpoint resume",
        "workload": "training",
        "cadence": "one_off",
        "params_b": 13.0,
        "precision": "bf16",
        "gpus": 64,
        "parallelism": ["data", "tensor", "pipeline"],
        "coupling": "tight",
        "input_gb": 500.0,
        "result_gb": 30.0,
        "data_site": "sh-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 48.0,
        "resumable": False,
        "interruption_cost_hours": 6.0,
        **PORTABLE,
        "has_machines": False,
    },
]

BOREALIS_PROFILES = [
    {
        "key": "borealis-finetune",
        "name": "Qwen-14B LoRA fine-tuning",
        "workload": "adapter_tuning",
        "cadence": "recurring",
        "runs_per_quarter": 4,
        "params_b": 14.0,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data", "pipeline"],
        "coupling": "loose",
        "input_gb": 50.0,
        "result_gb": 1.0,
        "data_site": "hz-a",
        "home_site": "hz-a",
        "result_site": "hz-a",
        "compute_hours": 12.0,
        "delay_cost_per_hour": 30.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "pain": "queueing",
    },
    {
        "key": "borealis-logs",
        "name": "Log cleaning, 2 TB at Ulanqab",
        "workload": "data_processing",
        "cadence": "recurring",
        "runs_per_quarter": 12,
        "gpus": 8,
        "input_gb": 2000.0,
        "result_gb": 20.0,
        "compress_ratio": 0.5,
        "data_site": "wlcb-a",
        "home_site": "hz-a",
        "result_site": "hz-a",
        "compute_hours": 4.0,
        "delay_cost_per_hour": 30.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
    },
]


def _load_team(ctx: DemoContext, team, specs) -> None:
    sites = ctx.objects["sites"]
    profiles = ctx.objects.setdefault("profiles", {})
    for spec in specs:
        fields = dict(spec)
        key = fields.pop("key")
        for name in ("data_site", "home_site", "result_site"):
            fields[name] = sites[fields[name]]
        fields.setdefault("created_by", ctx.users.get("alice" if team == ctx.team1 else "carol"))
        profile, _ = TaskProfile.objects.update_or_create(
            team=team, name=fields.pop("name"), defaults=fields
        )
        profile.full_clean()
        profiles[key] = profile


def load(ctx: DemoContext) -> None:
    """ctx.objects["profiles"][key] for the keys above."""
    _load_team(ctx, ctx.team1, AURORA_PROFILES + AURORA_V2_PROFILES)
    _load_team(ctx, ctx.team2, BOREALIS_PROFILES)
