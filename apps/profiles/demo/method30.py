"""Demo profile of engine 3.0 (SPEC 7.1): a plan with too few GPUs to hold the model, which A2
blocks with the GPU count to plan instead (see __init__)."""

from __future__ import annotations

from .method1 import PORTABLE

AURORA_V30_PROFILES = [
    {
        # The case: a 70B full fine-tune planned on 8 GPUs. One replica needs
        # 70 × 16 × 1.2 = 1,344 GB (weights, gradients, Adam state and master weights, +20 %):
        # sharded (FSDP) over 80 GB cards at 0.9 headroom, 1,344 ÷ 72 = 18.7 → 19 GPUs; over the
        # 141 GB H200s, 1,344 ÷ 126.9 = 10.6 → 11. 8 planned GPUs hold it nowhere: too_few_gpus
        # on every offer that can shard, no_shared_parallelism on the others, and A2 blocks
        # ("plan at least N GPUs") with its one-click fix on the review.
        "key": "finetune-70b-8gpus",
        "name": "Llama-2-70B full fine-tune planned on 8 GPUs",
        "description": "A full fine-tune sized by habit at one 8-GPU machine.",
        "workload": "fine_tuning",
        "cadence": "one_off",
        "runs_per_quarter": 1,
        "params_b": 70.0,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["sharded"],
        "coupling": "loose",
        "input_gb": 50.0,
        "result_gb": 140.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 40.0,
        "resumable": True,
        "resume_verified": True,
        "env_aligned": True,
        "interruption_cost_hours": 1.0,
        "restart_hours": 0.25,
        **PORTABLE,
        "has_machines": True,
        "pain": "slow",
    },
    {
        # SPEC 7.8 X4 with G1: the scans may leave neither the hospital's Guangzhou datacenter
        # (X4) nor be processed by anyone off the sites the licence names (offsite_allowed:
        # false, G1). 2.2 limited the job to the home datacenter in Beijing, which X4 forbids
        # too: no feasible placement while M1 said move compute to the data. The contract
        # allows Guangzhou, so 3.0 runs it there, next to the data.
        "key": "scans-stay-gz",
        "name": "Clinical scan segmentation (hospital data, licence limits the sites)",
        "description": "CT scans from the Guangzhou hospital; the licence allows only its own "
        "datacenter.",
        "workload": "batch_inference",
        "cadence": "recurring",
        "runs_per_quarter": 6,
        "params_b": 1.0,
        "gpus": 8,
        "input_gb": 800.0,
        "result_gb": 5.0,
        "data_site": "gz-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 4.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "offsite_allowed": False,
        "compliance_restricted": True,
        "has_machines": True,
    },
]
