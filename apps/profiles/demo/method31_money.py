"""Demo profile of engine 3.1 (SPEC 7.7): a deadline the cheapest offer cannot meet and a money
budget per run, so the review shows what meeting the deadline costs on each offer (deadline
plans, M3 naming the cheapest) and P4 beside the chosen total (see __init__)."""

from __future__ import annotations

from .method1 import PORTABLE

AURORA_V31_MONEY_PROFILES = [
    {
        # A release-candidate evaluation sweep: 8 GPUs × 48 h of work that must be done within
        # 12 h of compute, at most 950 USD a run. On 8 GPUs nothing meets 12 h, so each
        # on-demand offer gets a deadline plan at the GPUs that would (spot capacity gets none:
        # its hours are not its to promise), and the chosen option is over the money budget.
        "key": "eval-sweep-deadline",
        "name": "Release-candidate eval sweep (12 h deadline, 950 USD a run)",
        "description": "Benchmarks every release candidate before the Monday launch meeting.",
        "workload": "batch_inference",
        "cadence": "one_off",
        "runs_per_quarter": 1,
        "params_b": 13.0,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data"],
        "coupling": "loose",
        "input_gb": 20.0,
        "result_gb": 1.0,
        "data_site": "bj-a",
        "home_site": "bj-a",
        "result_site": "bj-a",
        "compute_hours": 48.0,
        "budget_compute_hours": 12.0,
        "cost_budget": 950.0,
        # An hour of waiting is worth 12 USD to the launch: the spot H100s have the least
        # objective and cost 986.66 a run, over the money budget (P4 names the team's own A100
        # pool, within it); the H200 quarterly contract, one-off, would pay its whole package.
        "delay_cost_per_hour": 12.0,
        "resumable": True,
        "resume_verified": True,
        "env_aligned": True,
        "interruption_cost_hours": 0.5,
        **PORTABLE,
        "has_machines": True,
    },
]
