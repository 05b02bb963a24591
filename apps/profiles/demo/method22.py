"""Demo profile of engine 2.2 (SPEC 6.4 staged plans): raw data far from the GPUs, a processed
version made next to it and reused by several runs; the story of the staged review (see
apps.teams.demo_staged and __init__)."""

from __future__ import annotations

from .method1 import PORTABLE

AURORA_V22_PROFILES = [
    {
        # 20 TB of raw clickstream logs in Guangzhou; the GPUs in Beijing over the 5 Gbit/s
        # return path at 0.05 USD/GB. Raw: 20,000 GB × 0.05 = 1,000 USD and 20,000 × 8 / 5 /
        # 3,600 = 8.9 h per run. Staged: a CPU job next to the data tokenizes the logs into
        # 400 GB of shards in 5 h at 24 USD/h, and four training runs reuse one tokenization:
        # per run 400 × 0.05 ÷ 4 = 5 USD shipped plus 5 × 24 ÷ 4 = 30 USD of preprocessing,
        # 35 USD against 1,000; the first run waits 5 h plus the 0.18 h shipment.
        # 14B parameters trained in bf16 need about 14 × 16 × 1.2 = 269 GB: sharded over the
        # H100s in Beijing; the managed L40S pool in Guangzhou splits by data only.
        "key": "tokens-14b-staged",
        "name": "14B domain model on tokenized clickstream (4 runs per tokenization)",
        "description": "The raw logs stay in Guangzhou; a CPU job there tokenizes them into "
        "400 GB of shards that four training runs reuse.",
        "workload": "training",
        "cadence": "recurring",
        "runs_per_quarter": 8,
        "params_b": 14.0,
        "precision": "bf16",
        "gpus": 16,
        "parallelism": ["data", "sharded"],
        "coupling": "loose",
        "input_gb": 20000.0,
        "result_gb": 28.0,
        "image_gb": 20.0,
        "data_site": "gz-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 30.0,
        "processed_gb": 400.0,
        "preprocess_hours": 5.0,
        "preprocess_cost_per_hour": 24.0,
        "rounds_per_refresh": 4,
        "resumable": True,
        "interruption_cost_hours": 1.0,
        **PORTABLE,
        "has_machines": False,
        "pain": "none",
    },
]
