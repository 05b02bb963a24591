"""Method guide entries: sizing (see apps/method/entries/__init__.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .model import Entry, Passage

ENTRIES: tuple[Entry, ...] = (
    Entry(
        "A",
        "sizing",
        "info",
        title=_("Sizing: the memory of one replica"),
        checks=_(
            "How much GPU memory one copy of the model needs, and on how many offers it fits: "
            "those where the planned GPUs hold it (not refused as pool too small, no shared "
            "parallelism or too few GPUs)."
        ),
        formula=_(
            "Usable memory per GPU = GPU memory × headroom %(headroom)s. Replica memory = the "
            "measured peak, else the estimate: training and full fine-tuning parameters "
            "(billions) × 16 GB × 1.2; adapter tuning parameters × (bytes per parameter + "
            "0.16) × 1.2; inference parameters × bytes per parameter × 1.2; plus activations "
            "or KV cache when the model's shape is given (training activations a layer: "
            "s·b·h·34 bytes with flash attention, s·b·h·(34 + 5·a·s/h) with eager). GPUs "
            "needed = ⌈replica ÷ usable "
            "memory⌉. Near capacity: within %(near_capacity_band)s of one machine's usable "
            "memory. Deadline sizing counts a scaling efficiency of "
            "%(multi_machine_efficiency)s beyond one machine when no pair is measured."
        ),
        fix=_(
            "Enter the parameter count and precision, or better a measured peak from a "
            "single-machine benchmark. If nothing fits, choose offers with more memory per "
            "GPU, or a strategy that splits the model (tensor, pipeline, sharded)."
        ),
        passages=(
            Passage(
                "a_checklist",
                "任务规模先算单次任务的显存和数据量,看能不能塞进一台机器",
                (
                    "Task scale: first work out one run's GPU memory and data volume, and see "
                    "whether it fits into one machine."
                ),
            ),
        ),
        note=_(
            "Version 3: activations follow Dao et al. 2022 (FlashAttention never stores the "
            "attention scores) unless the profile says the attention is eager."
        ),
    ),
    Entry(
        "A2",
        "sizing",
        "block",
        title=_("Too few GPUs to hold one replica"),
        checks=_(
            "Whether the planned GPUs can hold one copy of the model on an offer that splits it "
            "(tensor, pipeline or sharded)."
        ),
        formula=_(
            "An option whose planned GPUs are below the offer's GPUs needed is infeasible "
            "(too_few_gpus). When no option is feasible and some are refused only for that, "
            "A2 blocks: plan at least N GPUs, N the least GPUs needed among them."
        ),
        fix=_(
            "Use the fix on the review: it sets the profile's planned GPUs to N, rounded up to "
            "whole machines of that offer when N exceeds one machine; then remeasure the "
            "compute hours on that count."
        ),
        passages=(
            Passage(
                "a_checklist",
                "任务规模先算单次任务的显存和数据量,看能不能塞进一台机器",
                (
                    "Task scale: first work out one run's GPU memory and data volume, and see "
                    "whether it fits into one machine."
                ),
            ),
        ),
        note=_("A later addition to the method (version 3); the nearest seed passage is quoted."),
    ),
)
