"""SPEC A: task size, and how many GPUs and machines each offer needs for one replica."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .findings import Finding, finding
from .schema import BYTES_PER_PARAM, FULL_TRAINING, INFERENCE_LIKE, MODEL_SPLITTING, EngineInput

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


@dataclass(slots=True)
class Sizing:
    estimated_gpu_mem_gb: float | None  # the figure used: measured when measured
    source: str  # estimate | measured | none
    formula_gb: float | None  # SPEC A formula, even when a measurement overrides it
    offers: list[OfferSizing]
    by_offer: dict[str, OfferSizing]

    @property
    def any_fits_single_machine(self) -> bool:
        return any(s.fits_single_machine for s in self.offers)


def estimate_gpu_mem_gb(workload: str, params_b: float | None, precision: str) -> float | None:
    """SPEC A: GPU memory of one replica in GB, or None when the workload has no formula."""
    if params_b is None:
        return None
    bpp = BYTES_PER_PARAM[precision]
    if workload in INFERENCE_LIKE:
        return params_b * bpp * 1.2
    if workload in FULL_TRAINING:
        # SPEC A / 6.1: training and full fine-tuning, Adam, mixed precision: 16 bytes per param.
        return params_b * 16 * 1.2
    if workload == "adapter_tuning":
        return params_b * (bpp + 0.16) * 1.2  # SPEC 6.1: LoRA/QLoRA (v1's "fine_tuning")
    return None


def _ceil(value: float) -> int:
    return max(1, math.ceil(value - _EPS))


def size_task(inp: EngineInput) -> tuple[Sizing, list[Finding]]:
    task = inp.task
    headroom = inp.thresholds["headroom"]
    band = inp.thresholds["near_capacity_band"]
    formula = estimate_gpu_mem_gb(task.workload, task.params_b, task.precision)
    # SPEC A: a measured peak (profile, else the largest single-machine benchmark) overrides.
    measured = task.peak_gpu_mem_gb
    if measured is None:
        peaks = [
            b.peak_gpu_mem_gb
            for b in inp.benchmarks
            if b.kind == "single" and b.peak_gpu_mem_gb is not None
        ]
        measured = max(peaks) if peaks else None
    if measured is not None:
        mem, source = measured, "measured"
    elif formula is not None:
        mem, source = formula, "estimate"
    else:
        mem, source = None, "none"
    # SPEC 6.1: tensor, pipeline and sharded (FSDP, ZeRO-3) split one model over GPUs.
    splittable = not MODEL_SPLITTING.isdisjoint(task.parallelism)

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
    sizing = Sizing(mem, source, formula, rows, {r.offer: r for r in rows})

    # SPEC A: one info finding stating the memory figure and how many offers fit one machine.
    fit_count = sum(1 for r in rows if r.fits_single_machine)
    if source == "none":
        note = finding("A", "info", "A.none", {"offer_count": len(rows)})
    elif source == "measured":
        data = {"mem_gb": mem, "fit_count": fit_count, "offer_count": len(rows)}
        note = finding("A", "info", "A.measured", data)
    else:
        data = {
            "mem_gb": mem,
            "params_b": task.params_b,
            "workload": task.workload,
            "precision": task.precision,
            "fit_count": fit_count,
            "offer_count": len(rows),
        }
        note = finding("A", "info", "A.estimate", data)
    return sizing, [note]
