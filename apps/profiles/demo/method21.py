"""Demo profile of engine 2.1 (SPEC 6.3): a model shape from a preset, a checkpoint interval, a
compute budget; the story of the spot review in the reviews demo (see __init__)."""

from __future__ import annotations

from engine.presets import PRESETS

from .method1 import PORTABLE

LLAMA_3_8B = PRESETS["Llama-3-8B"]

AURORA_V21_PROFILES = [
    {
        # The Llama-3-8B preset (its config.json: hidden 4096, 32 layers, 32 heads, 8 KV heads;
        # 8.03 B parameters) with the job's batch 4 and 4,096-token sequences, checkpointed
        # activations. Adapter tuning at bf16: weights 8.03 × 2 = 16.06 GB, optimizer 8.03 × 0.16
        # = 1.28 GB, activations 32 layers × 2 × 4096 × 4 × 4096 bytes = 4.29 GB, overhead
        # 0.2 × 21.64 = 4.33 GB: 25.97 GB, one GPU of any H100 offer. Deadline sizing: 6 h on
        # 8 GPUs is 48 GPU-hours; within the 8 h compute budget 48 / 8 = 6 GPUs suffice.
        # Resumable with a checkpoint every 30 minutes, so on spot capacity a preemption loses
        # 0.25 h: the spot H100 in Shanghai is priced with its preemption cost (see the review).
        "key": "lora-8b-spot",
        "name": "Llama-3-8B LoRA on support tickets (checkpoints every 30 min)",
        "description": "Weekly adapter on the week's resolved tickets; the data sits in Shanghai.",
        "workload": "adapter_tuning",
        "cadence": "recurring",
        "runs_per_quarter": 13,
        "params_b": LLAMA_3_8B.params_b,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data"],
        "coupling": "loose",
        "hidden_size": LLAMA_3_8B.hidden_size,
        "layers": LLAMA_3_8B.layers,
        "heads": LLAMA_3_8B.heads,
        "kv_heads": LLAMA_3_8B.kv_heads,
        "batch_size": 4,
        "seq_len": 4096,
        "activation_checkpointing": True,
        "input_gb": 60.0,
        "result_gb": 0.5,
        "data_site": "sh-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 6.0,
        "budget_compute_hours": 8.0,
        "resumable": True,
        "resume_verified": True,
        "env_aligned": True,
        "interruption_cost_hours": 0.5,
        "checkpoint_interval_hours": 0.5,
        **PORTABLE,
        "has_machines": False,
        "pain": "queueing",
    },
]
