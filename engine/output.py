"""EngineOutput and its JSON form (SPEC 4 field names plus the documented extra fields)."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from .bench_verdicts import BenchmarkVerdict
from .bill import BillRow
from .checklist import ChecklistGate
from .cross_domain import CrossDomain
from .deadlines import DeadlinePlan
from .findings import Finding
from .indicators import Metrics
from .placement import Leg, PlacementOption
from .platform import PlatformChoice
from .rollout import Readiness
from .rounding import clean, num, nums
from .sensitivity import Flip
from .sizing import Breakdown, Sizing


def _leg(leg: Leg) -> dict[str, Any]:
    gb, hours, cost = nums((leg.gb, leg.hours, leg.cost))
    link = leg.link
    return {
        "what": leg.what,
        "from": leg.from_site,
        "to": leg.to_site,
        "gb": gb,
        "hours": hours,
        "cost": cost,
        "link_reserved": None if link is None else link.reserved,  # Leg.link_reserved
    }


# An option's figures shown by num(), in the order _option unpacks them.
_FIGURES = attrgetter(
    "transfer_gb",
    "transfer_hours",
    "queue_hours",
    "compute_hours",
    "total_hours",
    "effective_price",
    "compute_cost",
    "scheduling_cost",
    "transfer_cost",
    "preemption_hours",
    "preemption_cost",
    "rerun_cost",
    "migration_cost",
    "preprocess_hours",
    "preprocess_cost",
    "scheduler_ops_cost",
    "total_cost",
    "objective",
)


def _option(o: PlacementOption, legs: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    # Options at one site share their legs (placement.site_plan): each is shown once, then copied.
    shown = legs.get(id(o.legs))
    if shown is None:
        shown = legs[id(o.legs)] = [_leg(leg) for leg in o.legs]
    else:
        shown = [dict(leg) for leg in shown]
    (gb, t_hours, q_hours, c_hours, hours, price, c_cost, s_cost, t_cost, lost_hours, lost_cost,
     rerun, migration, p_hours, p_cost, ops, total, objective) = nums(_FIGURES(o))  # fmt: skip
    return {
        "kind": o.kind,
        "site": o.site,
        "offer": o.offer.id,
        "tier": o.tier,
        "feasible": o.feasible,
        "reason": o.reason,
        "reasons": list(o.reasons),
        "input_mode": o.input_mode,
        "transfer_gb": gb,
        "transfer_hours": t_hours,
        "queue_hours": q_hours,
        "compute_hours": c_hours,
        "total_hours": hours,
        "gpus": o.gpus,
        "boot_hours": o.offer.boot_hours,  # an input, finite and ≥ 0 after validation
        "billed_gpus": o.billed_gpus,
        "effective_price": price,
        "compute_cost": c_cost,
        "scheduling_cost": s_cost,
        "transfer_cost": t_cost,
        "preemptible": o.offer.preemptible,
        # SPEC 7.3: the renewal figures, shown even when they refuse the option (null only past
        # any finite number: the cost too when the hours are).
        "preemption_hours": lost_hours,
        "preemption_cost": None if lost_hours is None else lost_cost,
        # SPEC 7.2: the rerun and migration lines join total_cost.
        "rerun_cost": rerun,
        "migration_cost": migration,
        # SPEC 6.4: raw | staged away from the data when the task has a processed version.
        "plan": o.plan,
        "preprocess_hours": p_hours,
        "preprocess_cost": p_cost,
        # SPEC 7.5: the input leg streams beside compute (transfer_hours counts what outlasts it).
        "input_overlapped": o.input_overlapped,
        # SPEC 7.11: a self-hosted distributed layer's engineer time, per run.
        "scheduler_ops_cost": ops,
        "total_cost": total,
        "objective": objective,
        "within_budget": o.within_budget,
        "within_cost_budget": o.within_cost_budget,  # SPEC 7.7
        "legs": shown,
    }


def _breakdown(b: Breakdown | None) -> dict[str, Any] | None:
    if b is None:
        return None
    weights, gradients, optimizer, activations, kv_cache, overhead = nums(
        (b.weights, b.gradients, b.optimizer, b.activations, b.kv_cache, b.overhead)
    )
    return {
        "weights": weights,
        "gradients": gradients,
        "optimizer": optimizer,
        "activations": activations,
        "kv_cache": kv_cache,
        "overhead": overhead,
    }


def _signoff(findings: list[dict[str, Any]], offer_ids: list[str]) -> dict[str, Any]:
    """Per offer, in one pass over the findings, the rules of block findings that concern the
    offer or the whole review (offer null), in finding order (SPEC S, as signoff_check reads
    them)."""
    rules: dict[str, list[str]] = {oid: [] for oid in offer_ids}
    for f in findings:
        if f["severity"] != "block":
            continue
        offer = f["offer"]
        for oid in offer_ids if offer is None else (offer,):
            found = rules.get(oid)
            if found is not None and f["rule"] not in found:
                found.append(f["rule"])
    return {oid: {"blocked": bool(found), "rules": found} for oid, found in rules.items()}


def _pick(o: PlacementOption | None) -> dict[str, Any] | None:
    return None if o is None else {"kind": o.kind, "site": o.site, "offer": o.offer.id}


def _significant(value: float | None) -> float | None:
    """A break-even value to 12 significant digits: it may be tiny (a bandwidth of 2.6e-05
    Gbit/s), where 6 decimals would say 0."""
    if value is None or value - value != 0:
        return None
    return float(f"{value:.12g}") + 0.0


def _flip(f: Flip) -> dict[str, Any]:
    return {
        "input": f.input,
        "current": f.current,  # an input, finite and in range after validation
        "flips_at": _significant(f.flips_at),
        "to": _pick(f.to),
        "rank": f.rank,
        "message": f.message,
        "message_zh": f.message_zh,
    }


def _finding(f: Finding) -> dict[str, Any]:
    return {
        "rule": f.rule,
        "severity": f.severity,
        "message": f.message,
        "message_zh": f.message_zh,
        "key": f.key,
        "data": clean(f.data),
        "offer": f.offer,
    }


def _bill_row(row: BillRow, option: dict[str, Any]) -> dict[str, Any]:
    # The row's unit price, its cost lines and its total are its
    # option's (bill.total_bill copies them): shown as the option shows them, rounded once.
    return {
        "offer": row.offer,
        "feasible": row.feasible,
        "unit_price": option["effective_price"],
        "compute_cost": option["compute_cost"],
        "scheduling_cost": option["scheduling_cost"],
        "transfer_cost": option["transfer_cost"],
        "rerun_cost": option["rerun_cost"],
        "migration_effort_hours": num(row.migration_effort_hours),
        "migration_cost": option["migration_cost"],
        "preemption_cost": option["preemption_cost"],
        "preprocess_cost": option["preprocess_cost"],
        "scheduler_ops_cost": option["scheduler_ops_cost"],  # SPEC 7.11
        "total": option["total_cost"],  # SPEC 7.2: the option's total_cost, the same figure
        "rank_unit": row.rank_unit,
        "rank_total": row.rank_total,
    }


def _deadline_plan(p: DeadlinePlan) -> dict[str, Any]:
    """SPEC 7.7: one offer's plan to meet the compute budget (or why it has none)."""
    return {
        "offer": p.offer,
        "reason": p.reason,
        "gpus": p.gpus,
        "billed_gpus": p.billed_gpus,
        "compute_hours": num(p.compute_hours),
        "compute_cost": num(p.compute_cost),
        "scheduling_cost": num(p.scheduling_cost),
        "rerun_cost": num(p.rerun_cost),
        "total_cost": num(p.total_cost),
        "extra_cost": num(p.extra_cost),
        "efficiency": num(p.efficiency),
        "efficiency_source": p.efficiency_source,
        "extrapolated": p.extrapolated,
    }


def _verdict(v: BenchmarkVerdict) -> dict[str, Any]:
    speedup, efficiency, share, saved = nums(
        (v.speedup, v.scaling_efficiency, v.non_compute_share, v.hours_saved)
    )
    return {
        "offer": v.offer,
        "speedup": speedup,
        "scaling_efficiency": efficiency,
        "net_gain_positive": v.net_gain_positive,
        "non_compute_share": share,
        "hours_saved": saved,
        "single_benchmark": v.single_benchmark,
        "multi_benchmark": v.multi_benchmark,
        "single_index": v.single_index,
        "multi_index": v.multi_index,
    }


def _sizing(sizing: Sizing) -> dict[str, Any]:
    return {
        "estimated_gpu_mem_gb": num(sizing.estimated_gpu_mem_gb),
        "source": sizing.source,
        "formula_gpu_mem_gb": num(sizing.formula_gb),
        "offers": [
            {
                "offer": s.offer,
                "usable_gpu_mem_gb": num(s.usable_gpu_mem_gb),
                "gpus_needed": s.gpus_needed,
                "machines_needed": s.machines_needed,
                "fits_single_gpu": s.fits_single_gpu,
                "fits_single_machine": s.fits_single_machine,
                "near_capacity": s.near_capacity,
                "gpus_for_budget": s.gpus_for_budget,
            }
            for s in sizing.offers
        ],
        "breakdown": _breakdown(sizing.breakdown),
        "budget_efficiency": num(sizing.budget_efficiency),
        "budget_efficiency_source": sizing.budget_efficiency_source,
    }


def _cross_domain(cross: CrossDomain) -> dict[str, Any]:
    return {
        "eligible": cross.eligible,
        "exclusions": list(cross.exclusions),
        "gates": dict(cross.gates),
        "home_domain_only": cross.home_domain_only,
        "allowed_sites": None if cross.allowed_sites is None else sorted(cross.allowed_sites),
        "spread_tier": cross.spread_tier,
    }


def _metrics(metrics: Metrics) -> dict[str, Any]:
    ratio, share, interruption, benefit = nums(
        (
            metrics.data_compute_ratio,
            metrics.network_cost_share,
            metrics.interruption_cost,
            metrics.scheduling_benefit,
        )
    )
    return {
        "data_compute_ratio": ratio,
        "network_cost_share": share,
        "interruption_cost": interruption,
        "scheduling_benefit": benefit,
        "over_budget": list(metrics.over_budget),
    }


def _readiness(readiness: Readiness) -> dict[str, Any]:
    return {
        "channel_reserved": readiness.channel_reserved,
        "resume_verified": readiness.resume_verified,
        "env_aligned": readiness.env_aligned,
        "dispatch_ready": readiness.dispatch_ready,
    }


def _checklists(checklists: dict[str, ChecklistGate]) -> dict[str, Any]:
    return {
        oid: {
            "unanswered": gate.unanswered,
            "ready_to_sign": gate.ready_to_sign,
            "unanswered_questions": list(gate.unanswered_questions),
        }
        for oid, gate in checklists.items()
    }


@dataclass(slots=True)
class EngineOutput:
    engine_version: str
    thresholds: dict[str, float]
    currency: str | None
    sizing: Sizing
    platform: PlatformChoice
    benchmark: BenchmarkVerdict
    pairs: list[BenchmarkVerdict]
    cross_domain: CrossDomain
    options: list[PlacementOption]
    chosen: PlacementOption | None
    metrics: Metrics
    readiness: Readiness
    checklists: dict[str, ChecklistGate]
    findings: list[Finding]
    bill: list[BillRow]
    offer_ids: list[str]
    runner_up: PlacementOption | None = None  # SPEC 6.3: what the sensitivity compares against
    sensitivity: list[Flip] = field(default_factory=list)
    deadline_plans: list[DeadlinePlan] = field(default_factory=list)  # SPEC 7.7

    def to_dict(self) -> dict[str, Any]:
        findings = [_finding(f) for f in self.findings]
        legs: dict[int, list[dict[str, Any]]] = {}
        options = [_option(o, legs) for o in self.options]
        by_offer = {shown["offer"]: shown for shown in options}  # offer ids are unique
        chosen = self.chosen
        bench = self.benchmark
        return {
            "engine_version": self.engine_version,
            "currency": self.currency,
            # Inputs (or defaults), finite and in range after validation: shown as given.
            "thresholds": dict(self.thresholds),
            "sizing": _sizing(self.sizing),
            "platform": self.platform.platform,
            "platform_rule": self.platform.rule,
            "delivery": self.platform.delivery,
            "benchmark": {**_verdict(bench), "pairs": [_verdict(p) for p in self.pairs]},
            "cross_domain": _cross_domain(self.cross_domain),
            "options": options,
            "chosen": None
            if chosen is None
            else {"kind": chosen.kind, "site": chosen.site, "offer": chosen.offer.id},
            "metrics": _metrics(self.metrics),
            "readiness": _readiness(self.readiness),
            "checklists": _checklists(self.checklists),
            "findings": findings,
            "bill": [_bill_row(r, by_offer[r.offer]) for r in self.bill],
            "runner_up": _pick(self.runner_up),
            "sensitivity": [_flip(f) for f in self.sensitivity],
            "signoff": _signoff(findings, self.offer_ids),
            "deadline_plans": [_deadline_plan(p) for p in self.deadline_plans],
        }
