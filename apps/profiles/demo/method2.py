"""Demo profiles of method 2.0 (SPEC 6.1): one Team Aurora story per correction, and one old
v1 profile imported without a planned GPU count (see __init__)."""

from __future__ import annotations

from .method1 import PORTABLE

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
    {
        # R6: the model fits one machine (1.3 × 16 × 1.2 = 24.96 GB, one GPU), but the team
        # measured one and four machines of the same H100 offer (apps.benchmarks.demo): 20 h vs
        # 6.25 h end to end is a speedup of 3.2 on 4 times the GPUs (32 ÷ 8), scaling efficiency
        # 3.2 ÷ 4 = 0.8 ≥ 0.7, and the multi run's rerun loss (1 × 0.5 h) is far below the 13.75 h
        # it saves (no B2). A weekly job with that gain: the distributed job becomes a standard
        # part, distributed_platform (the team has machines; it runs its own Ray layer, so
        # delivery self_hosted).
        "key": "embed-retrain",
        "name": "Text-embedding model weekly retraining (1.3B, data parallel)",
        "description": "Contrastive retraining on the week's query-document pairs.",
        "workload": "training",
        "cadence": "recurring",
        "runs_per_quarter": 13,
        "params_b": 1.3,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data"],
        "coupling": "loose",
        "input_gb": 600.0,
        "result_gb": 5.0,
        "image_gb": 15.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 18.0,
        "delay_cost_per_hour": 5.0,
        "resumable": True,
        "resume_verified": True,
        "env_aligned": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "has_machines": True,
        "has_scheduler": True,
        "can_maintain_scheduler": True,
    },
    {
        # K2: 160 GPUs and no pool that large: H100 16 × 8 = 128, A100 8 × 8 = 64, Ray pool
        # 6 × 8 = 48, L40S 10 × 4 = 40, H200 4 × 8 = 32, so every option is pool_too_small (P2:
        # nothing feasible). The shards are independent (coupling none: any tier), so K2 names the
        # sets of pools that together hold 160 GPUs, fewest pools first and largest pools first:
        # H100 + A100 = 192, H100 + Ray pool = 176, H100 + L40S = 168 (H100 + H200 = 160 would
        # too; K2 names three). The engine does not cost a spread plan: it is priced as its own
        # offer. 13 × 2 × 1.2 = 31.2 GB fits one GPU, and 160 GPUs exceed one machine of every
        # offer with nothing measured: R2, baseline first.
        "key": "synthetic-160",
        "name": "Synthetic instruction data, Llama-2-13B on 160 GPUs",
        "description": "Generates 2 M instruction-response pairs over a weekend; shards are "
        "independent.",
        "workload": "batch_inference",
        "cadence": "one_off",
        "params_b": 13.0,
        "precision": "fp16",
        "gpus": 160,
        "parallelism": ["data"],
        "coupling": "none",
        "input_gb": 50.0,
        "result_gb": 400.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 30.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
    },
    {
        # R1e and J4 as a block: the team's own A100 pool runs a Ray cluster whose maintainer
        # has left, and jobs are slow: machines and a scheduler in place, pain slow → R4, both
        # layers. Nobody can maintain the scheduler, so the distributed layer is bought managed
        # (delivery managed, R1e); the self-hosted Ray offer (kind distributed) gets J4 as a block,
        # the managed L40S platform does not. 1.55 × 16 × 1.2 = 29.76 GB fits one GPU of every
        # offer, far from any machine's capacity (no R2). See the draft review in
        # apps.reviews.demo, where the blocked candidate keeps it from being submitted.
        "key": "whisper-ft",
        "name": "Whisper-large-v3 fine-tuning on call-centre audio (monthly)",
        "description": "Full fine-tuning on the month's transcribed calls; the Ray cluster's "
        "maintainer left in spring.",
        "workload": "fine_tuning",
        "cadence": "recurring",
        "runs_per_quarter": 3,
        "params_b": 1.55,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data"],
        "coupling": "loose",
        "input_gb": 1200.0,
        "result_gb": 6.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 16.0,
        "delay_cost_per_hour": 5.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "has_machines": True,
        "has_scheduler": True,
        "can_maintain_scheduler": False,
        "pain": "slow",
    },
    {
        # D2 staged: 10 full passes over 30 TB at Guangzhou. Beijing A has room (800 TB ≥ 30 TB),
        # so its options stage the input once over gz-a → bj-a (5 Gbit/s, 0.05 USD/GB):
        # 30,000 × 0.05 = 1,500 USD and 30,000 × 8 ÷ (5 × 3,600) × 1.3 = 17.33 h, where streaming
        # would pay 10 passes (15,000 USD). Chosen: the H100 pool at bj-a, staged: compute
        # 8 × 80 h × 2.99 = 1,913.60, total 3,413.60 USD, 6.25 + 80 + 17.33 = 103.58 h, objective
        # 3,413.60 + 10 × 103.58 = 4,449.43; the Ray pool there is cheaper (8 × 133.33 h × 1.2
        # + 10 % + 1,500 = 2,908) but slower (158.67 h, objective 4,494.67), and the L40S next to
        # the data slower still (177.78 h of compute, objective 5,696.65). D2: stage the data
        # once (30000 GB at bj-a); M4 warns that the one copy is still 1,500 ÷ 3,413.60 = 44 % of
        # the bill.
        "key": "vit-epochs",
        "name": "ViT-L pre-training, 10 epochs over 30 TB of images in Guangzhou",
        "description": "Every epoch reads the whole product-image corpus.",
        "workload": "training",
        "cadence": "recurring",
        "runs_per_quarter": 1,
        "params_b": 0.3,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data"],
        "coupling": "loose",
        "input_gb": 30000.0,
        "result_gb": 2.0,
        "access_pattern": "repeated_full_scan",
        "data_passes": 10,
        "data_site": "gz-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 80.0,
        "delay_cost_per_hour": 10.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "has_machines": True,
    },
    {
        # M3 with an alternative: the retrain should start within the hour (queue budget 1 h).
        # Queue = site queue + boot: H100 bj-a 6 + 0.25 = 6.25 h, A100 bj-b 1 + 1 = 2, H200
        # 2 + 24 = 26, Ray pool 6 + 2 = 8, L40S gz-a 0.5 + 0.1 = 0.6: only the L40S meets it.
        # Chosen (least cost + 50 USD × hours): the H100 pool, 8 × 12 h × 2.99 = 287.04 USD +
        # 50 × 18.25 h = 1,199.54 (A100: 286.40 + 50 × 22.0 = 1,386.66; L40S 1,957.60). M3: the
        # queue segment takes 6.25 h, over 1 h; to meet every budget, the L40S platform at
        # gz-a costs 8 × 26.67 h × 2.62 = 558.93 + 5 % = 27.95 + transfers 200 × 0.02 + 10 × 0.02
        # + 2 × 0.05 = 4.30, i.e. 591.18: +304.14 USD.
        "key": "fraud-retrain",
        "name": "Fraud model retraining after an attack wave (start within the hour)",
        "description": "Retrains the transaction-fraud model on the newly labelled attack.",
        "workload": "training",
        "cadence": "recurring",
        "runs_per_quarter": 6,
        "params_b": 0.35,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data"],
        "coupling": "loose",
        "input_gb": 200.0,
        "result_gb": 2.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 12.0,
        "budget_queue_hours": 1.0,
        "delay_cost_per_hour": 50.0,
        "resumable": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
    },
]

# P3: an old v1 profile, imported before the planned GPU count became required (the form now
# requires it; the model still stores a blank one). Its 2 compute hours were measured on some
# GPU count nobody recorded, so no cost can be compared: P3 blocks until someone enters it.
AURORA_IMPORTED_V1_PROFILES = [
    {
        "key": "legacy-bert",
        "name": "BERT-large nightly embedding refresh (imported from v1)",
        "description": "Imported from the v1 spreadsheet; planned GPUs were never recorded.",
        "workload": "batch_inference",
        "cadence": "recurring",
        "runs_per_quarter": 90,
        "params_b": 0.34,
        "precision": "fp16",
        "gpus": None,
        "parallelism": ["data"],
        "input_gb": 40.0,
        "result_gb": 8.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 2.0,
        "resumable": True,
        **PORTABLE,
    },
]
