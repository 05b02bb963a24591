"""SPEC A: task size, and how many GPUs and machines each offer needs for one replica."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .findings import Finding, finding
from .schema import (
    BYTES_PER_PARAM,
    FULL_TRAINING,
    INFERENCE_LIKE,
    MODEL_SPLITTING,
    EngineInput,
    Offer,
    Task,
)

# Guards ceil() against float noise such as 2.0000000000000004 GPUs.
_EPS = 1e-9


@dataclass(slots=True)
class OfferSizing:
    offer: str
    usable_gpu_mem_gb: float
    gpus_needed: int
    machines_needed: int
    fits_single_gpu: bool
    fits_single_machine: bool
    near_capacity: bool
    gpus_for_budget: int | None = None  # SPEC 6.3 deadline sizing (set once the pair is known)


@dataclass(slots=True)
class Breakdown:
    """SPEC 6.3: one replica's memory by part, GB; the parts sum to the estimate."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    kv_cache: float
    overhead: float
    total: float  # the estimate: the parts' sum, and v1's formula bit for bit without a shape


@dataclass(slots=True)
class Sizing:
    estimated_gpu_mem_gb: float | None  # the figure used: measured when measured
    source: str  # estimate | measured | none
    formula_gb: float | None  # SPEC A formula, even when a measurement overrides it
    offers: list[OfferSizing]
    by_offer: dict[str, OfferSizing]
    breakdown: Breakdown | None = None  # SPEC 6.3: null when measured or without a formula
    # SPEC 6.3 deadline sizing: the scaling efficiency counted beyond one machine, and whence.
    budget_efficiency: float | None = None
    budget_efficiency_source: str | None = None  # measured | threshold
    # SPEC 7.7 and 7.10: the GPUs of the multi run that measured it (a plan beyond is
    # extrapolated).
    budget_measured_gpus: int | None = None

    @property
    def any_fits_single_machine(self) -> bool:
        return any(s.fits_single_machine for s in self.offers)


# SPEC 6.3: the share of the other parts kept for CUDA context, buffers and fragmentation.
OVERHEAD_SHARE = 0.2
# SPEC 6.3 [Korthikanti et al. 2022]: bytes per layer of training activations at 16-bit are
# seq × batch × hidden × (34 + 5 × heads × seq / hidden); 2 × seq × batch × hidden when only
# each layer's input is kept (full activation checkpointing). SPEC 7.1 [Dao et al. 2022,
# FlashAttention]: with `flash` attention the a·s·s score matrix is never stored, so 34 alone.
ACTIVATION_BYTES_PER_ELEMENT = 34
ATTENTION_BYTES_PER_HEAD = 5
GB = 1e9


def _training_width(precision: str) -> float:
    """SPEC 6.3: bytes of one stored weight or gradient (and KV value): 4 at fp32, else 2."""
    return 4.0 if precision == "fp32" else 2.0


def activation_bytes(task: Task) -> float:
    """SPEC 6.3 [Korthikanti et al. 2022, eq. 2 and §4.3] and 7.1: training activations of one
    replica, all layers. The formula is for 16-bit activations; fp32 doubles it."""
    s, b, h, a = task.seq_len, task.batch_size, task.hidden_size, task.heads
    assert s is not None and b is not None and h is not None and a is not None
    assert task.layers is not None
    if task.activation_checkpointing:
        per_layer = 2.0 * s * b * h
    elif task.attention == "flash":
        # SPEC 7.1: FlashAttention/SDPA recompute the scores in the backward pass.
        per_layer = s * b * h * ACTIVATION_BYTES_PER_ELEMENT
    else:
        attention = ATTENTION_BYTES_PER_HEAD * a * s / h
        per_layer = s * b * h * (ACTIVATION_BYTES_PER_ELEMENT + attention)
    return task.layers * per_layer * _training_width(task.precision) / 2


def kv_cache_bytes(task: Task) -> float:
    """SPEC 6.3: 2 (keys and values) × layers × kv_heads × head size × seq × batch × bytes per
    value; grouped-query attention shares one KV head among heads / kv_heads query heads."""
    s, b, h, a = task.seq_len, task.batch_size, task.hidden_size, task.heads
    assert s is not None and b is not None and h is not None and a is not None
    assert task.layers is not None and task.kv_heads is not None
    return 2.0 * task.layers * task.kv_heads * (h // a) * s * b * _training_width(task.precision)


def memory_breakdown(task: Task) -> Breakdown | None:
    """SPEC 6.3: one replica's memory by part (GB), or None when the workload has no formula.
    Without the model's shape, activations and KV cache are 0 and the total is v1's formula."""
    params_b = task.params_b
    if params_b is None:
        return None
    workload = task.workload
    bpp = BYTES_PER_PARAM[task.precision]
    gradients = optimizer = activations = kv_cache = 0.0
    if workload in INFERENCE_LIKE:
        weights = params_b * bpp
        v1 = params_b * bpp * 1.2
        if task.has_architecture:
            kv_cache = kv_cache_bytes(task) / GB
    elif workload in FULL_TRAINING:
        # Adam with master weights: 16 bytes per parameter in all, whatever the precision.
        w = _training_width(task.precision)
        weights = gradients = params_b * w
        optimizer = params_b * (16 - 2 * w)
        v1 = params_b * 16 * 1.2
        if task.has_architecture:
            activations = activation_bytes(task) / GB
    elif workload == "adapter_tuning":
        weights = params_b * bpp  # SPEC 6.1: LoRA/QLoRA (v1's "fine_tuning")
        optimizer = params_b * 0.16
        v1 = params_b * (bpp + 0.16) * 1.2
        if task.has_architecture:
            activations = activation_bytes(task) / GB  # backpropagation runs through every layer
    else:
        return None
    parts = weights + gradients + optimizer + activations + kv_cache
    # Without the shape the total is v1's figure to the last bit; the overhead takes the rest.
    total = parts * (1 + OVERHEAD_SHARE) if task.has_architecture else v1
    return Breakdown(weights, gradients, optimizer, activations, kv_cache, total - parts, total)


def _ceil(value: float) -> int:
    return max(1, math.ceil(value - _EPS))


def gpus_for_budget(inp: EngineInput, offer: Offer, efficiency: float) -> int | None:
    """SPEC 6.3 deadline sizing: the fewest GPUs g with work / (g × e × relative_speed) ≤ the
    compute budget, work = compute_hours × gpus (GPU-hours at speed 1.0), e = 1 within one
    machine of the offer, else `efficiency`; None without a budget or a planned GPU count, or
    when the offer's pool (max_machines × gpus_per_machine) cannot meet it."""
    task = inp.task
    budget = task.latency_budget_hours.compute
    if budget is None or task.gpus is None:
        return None
    work = task.compute_hours * task.gpus
    per_machine = offer.gpus_per_machine
    per_gpu = budget * offer.relative_speed  # GPU-hours at speed 1.0 one GPU does in budget
    if work <= 0:
        gpus = 1
    elif per_gpu <= 0 or efficiency <= 0 or not math.isfinite(work / per_gpu / efficiency):
        return None  # no budget at all, or one so close to 0 that no count of GPUs meets it
    else:
        need = work / per_gpu  # GPUs at perfect scaling
        gpus = _ceil(need)
        if gpus > per_machine:
            # Beyond one machine every GPU counts at e; and at least one more than a machine.
            gpus = max(per_machine + 1, _ceil(need / efficiency))
    if offer.max_machines is not None and gpus > offer.max_machines * per_machine:
        return None
    return gpus


def size_for_budget(
    inp: EngineInput, sizing: Sizing, measured: float | None, measured_gpus: int | None = None
) -> None:
    """SPEC 6.3: sets gpus_for_budget on every offer's row, with the reported pair's measured
    scaling efficiency when there is one (measured on `measured_gpus` GPUs), else the
    multi_machine_efficiency threshold."""
    if inp.task.latency_budget_hours.compute is None:
        return
    if measured is not None:
        sizing.budget_efficiency, sizing.budget_efficiency_source = measured, "measured"
        sizing.budget_measured_gpus = measured_gpus
    else:
        sizing.budget_efficiency = inp.thresholds["multi_machine_efficiency"]
        sizing.budget_efficiency_source = "threshold"
    for offer in inp.offers:
        row = sizing.by_offer[offer.id]
        row.gpus_for_budget = gpus_for_budget(inp, offer, sizing.budget_efficiency)


def size_task(inp: EngineInput) -> Sizing:
    """SPEC A: the memory figure and what it needs on each offer (the A finding comes after
    placement: sizing_note)."""
    task = inp.task
    breakdown = memory_breakdown(task)
    formula = None if breakdown is None else breakdown.total
    mem, source = _memory_figure(inp, formula)
    rows = _offer_sizings(inp, mem)
    # SPEC 6.3: the breakdown explains the estimate; a measured peak has none.
    shown = breakdown if source == "estimate" else None
    return Sizing(mem, source, formula, rows, {r.offer: r for r in rows}, shown)


def _memory_figure(inp: EngineInput, formula: float | None) -> tuple[float | None, str]:
    """SPEC A: a measured peak (profile, else the largest single-machine benchmark) overrides
    the formula's estimate; without either there is no memory figure."""
    measured = inp.task.peak_gpu_mem_gb
    if measured is None:
        peaks = [
            b.peak_gpu_mem_gb
            for b in inp.benchmarks
            if b.kind == "single" and b.peak_gpu_mem_gb is not None
        ]
        measured = max(peaks) if peaks else None
    if measured is not None:
        return measured, "measured"
    if formula is not None:
        return formula, "estimate"
    return None, "none"


def _offer_sizings(inp: EngineInput, mem: float | None) -> list[OfferSizing]:
    """SPEC A per offer: GPUs and machines one replica needs, and whether it fits."""
    headroom = inp.thresholds["headroom"]
    band = inp.thresholds["near_capacity_band"]
    # SPEC 6.1: tensor, pipeline and sharded (FSDP, ZeRO-3) split one model over GPUs.
    splittable = not MODEL_SPLITTING.isdisjoint(inp.task.parallelism)
    rows: list[OfferSizing] = []
    for offer in inp.offers:
        usable = offer.gpu_mem_gb * headroom
        if mem is None:
            # No memory figure: memory limits nothing.
            rows.append(OfferSizing(offer.id, usable, 1, 1, True, True, False))
            continue
        gpus_needed = _ceil(mem / usable)
        machines_needed = _ceil(gpus_needed / offer.gpus_per_machine)
        fits_gpu = gpus_needed <= 1
        fits_machine = machines_needed <= 1 and (fits_gpu or splittable)
        machine_usable = usable * offer.gpus_per_machine
        near = fits_machine and mem > (1 - band) * machine_usable
        rows.append(
            OfferSizing(
                offer.id, usable, gpus_needed, machines_needed, fits_gpu, fits_machine, near
            )
        )
    return rows


def sizing_note(task: Task, sizing: Sizing, fit_count: int) -> Finding:
    """SPEC A: one info finding stating the memory figure and on how many offers the task fits
    (SPEC 7.8: counted where its option is not refused for its size, `fit_count`)."""
    mem, source, count = sizing.estimated_gpu_mem_gb, sizing.source, len(sizing.offers)
    if source == "none":
        return finding("A", "info", "A.none", {"offer_count": count})
    if source == "measured":
        data = {"mem_gb": mem, "fit_count": fit_count, "offer_count": count}
        return finding("A", "info", "A.measured", data)
    data = {
        "mem_gb": mem,
        "params_b": task.params_b,
        "workload": task.workload,
        "precision": task.precision,
        "fit_count": fit_count,
        "offer_count": count,
    }
    return finding("A", "info", "A.estimate", data)
