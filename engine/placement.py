"""SPEC P: one placement option per offer, its transfers, hours and costs, and the chosen one."""

from __future__ import annotations

from dataclasses import dataclass
from math import isfinite

from .cross_domain import CrossDomain
from .findings import Finding, finding
from .network import Network
from .pricing import billed_gpus, compute_bill
from .run_losses import (
    OfferRecords,
    fabric,
    failure_terms,
    migration_line,
    preempted_before_done,
    preemption_hours,
    preemption_rate,
)
from .schema import (
    KIND_ORDER,
    MODEL_SPLITTING,
    EngineInput,
    Offer,
    Task,
)
from .site_plans import Leg, SitePlan, plan_of_site, preprocessing, transfer_segment
from .sizing import OfferSizing

# Why an option is not feasible, checked in this order; `reason` is the first that applies and
# `reasons` lists them all.
REASONS = (
    "pool_too_small",  # SPEC 6.1 capacity: more GPUs than max_machines × gpus_per_machine
    "no_shared_parallelism",  # SPEC 6.1 R1a: the model must be split, or spread, and cannot be
    "too_few_gpus",  # SPEC 7.1: the planned GPUs cannot hold one replica on this offer
    "preempted_before_done",  # SPEC 7.3: not resumable and λT > 2 preemptions expected
    "no_fast_interconnect",  # SPEC 7.4: a tight job over machines joined by ethernet
    "compliance_site",  # SPEC 6.1 X4: the site is not among the allowed sites
    "compliance_moves_data",  # SPEC 6.1 X4: the input leg leaves the allowed sites
    "compliance_moves_results",  # SPEC 6.1 X4 with results_restricted
    "not_eligible",  # SPEC 6.1: a failed gate or exclusion keeps the task in its home domain
    "no_link",  # SPEC P: a transfer leg without a recorded link
)

# SPEC 7.8: the reasons that refuse an offer for the task's size (A counts the others as fits).
SIZE_REASONS = frozenset({"pool_too_small", "no_shared_parallelism", "too_few_gpus"})

# SPEC 6.4's tie: the raw and staged plans work out the same GB by different products
# (input × passes × ratio, or processed × ratio), which may differ in the last bit; a staged
# plan must be cheaper by more than that noise (relative, as sizing's _EPS).
_TIE = 1e-9


@dataclass(slots=True)
class PlacementOption:
    kind: str
    site: str
    offer: Offer
    tier: str
    feasible: bool
    reason: str | None
    reasons: list[str]
    legs: list[Leg]
    input_mode: str | None  # SPEC 6.1: staged | streamed for repeated full scans, else None
    gpus: int
    billed_gpus: int  # SPEC 6.1: whole machines for machine_hour and contract offers
    effective_price: float
    transfer_gb: float
    transfer_hours: float | None
    queue_hours: float
    compute_hours: float
    total_hours: float | None
    compute_cost: float
    scheduling_cost: float
    transfer_cost: float | None
    total_cost: float | None
    objective: float | None
    within_budget: bool | None
    preemption_cost: float = 0.0  # SPEC 6.3: expected loss to preemptions on spot capacity
    # SPEC 6.4: "raw" or "staged" for an option away from the data when the task has a
    # processed version (None otherwise); a staged plan's preprocessing hours and cost per run.
    plan: str | None = None
    preprocess_hours: float = 0.0
    preprocess_cost: float = 0.0
    # SPEC 7.3: expected hours lost to preemptions (None when not a finite number).
    preemption_hours: float | None = 0.0
    # SPEC 7.2: expected hours lost to failures (× hourly burn = rerun_cost), and the migration
    # line; both join total_cost.
    rerun_hours: float = 0.0
    rerun_cost: float = 0.0
    migration_effort_hours: float | None = None
    migration_cost: float = 0.0
    # SPEC 7.8: the variant not kept (raw or staged), so that a flip is solved on the option's
    # lower envelope of both; None when the option has one plan.
    other: PlacementOption | None = None
    # SPEC 7.5: the input leg is streamed beside compute (its hours overlap the compute segment).
    input_overlapped: bool = False
    # SPEC 7.4: a tight job over machines whose interconnect is unknown and unproven (K3).
    fabric_unconfirmed: bool = False
    # SPEC 7.11: engineer time of running the distributed layer oneself, per run.
    scheduler_ops_cost: float = 0.0
    # SPEC 7.6: the price of a billed GPU-hour lost to reruns and preemptions when it is not the
    # unit price (a package's: 0 while the run fits it), and the GPU-hours a paid package covers.
    burn_price: float | None = None
    paid_gpu_hours: float = 0.0
    # SPEC 7.7: total_cost within the task's cost_budget (None without one or without a total).
    within_cost_budget: bool | None = None

    @property
    def hourly_burn(self) -> float:
        price = self.effective_price if self.burn_price is None else self.burn_price
        return self.billed_gpus * price

    @property
    def run_hours(self) -> float | None:
        """SPEC 7.3: the compute segment budgets read: compute + preemption hours."""
        if self.preemption_hours is None:
            return None
        return self.compute_hours + self.preemption_hours

    def segment_hours(self, segment: str) -> float | None:
        if segment == "transfer":
            # SPEC 6.4: preprocessing waits like a transfer does (M3 reads it there).
            if self.transfer_hours is None:
                return None
            return self.transfer_hours + self.preprocess_hours
        return self.queue_hours if segment == "queue" else self.run_hours


def planned_gpus(inp: EngineInput, offer: Offer, sized: OfferSizing) -> int:
    """GPUs planned: the task's count; without one (P3 blocks), the candidate's machines, else
    what fits, so that the figures are still shown."""
    if inp.task.gpus is not None:
        return inp.task.gpus
    if offer.machines is not None:
        return offer.machines * offer.gpus_per_machine
    return sized.machines_needed * offer.gpus_per_machine


def build_option(
    inp: EngineInput,
    net: Network,
    cross: CrossDomain,
    offer: Offer,
    sized: OfferSizing,
    plans: dict[tuple[str, bool], SitePlan],
    records: OfferRecords | None,
    ops_cost: float,
) -> PlacementOption:
    """SPEC P for one offer; SPEC 6.4: away from the data, when the task has a processed
    version, the staged variant too, keeping the one of lower objective (the raw one on a tie,
    float noise included, or when neither can be costed). `records`: the offer's benchmark
    records (SPEC 7.2); `ops_cost`: SPEC 7.11's scheduler operations a run, for a self-hosted
    distributed layer."""
    task = inp.task
    raw = _option(inp, net, cross, offer, sized, plans, False, records, ops_cost)
    if task.processed_gb is None or offer.site == task.data_site:
        return raw
    staged = _option(inp, net, cross, offer, sized, plans, True, records, ops_cost)
    raw.plan = "raw"
    if staged.objective is not None and (
        raw.objective is None or staged.objective < raw.objective - _TIE * max(1.0, raw.objective)
    ):
        staged.other = raw
        return staged
    raw.other = staged
    return raw


def _option(
    inp: EngineInput,
    net: Network,
    cross: CrossDomain,
    offer: Offer,
    sized: OfferSizing,
    plans: dict[tuple[str, bool], SitePlan],
    staged: bool,
    records: OfferRecords | None,
    ops_cost: float,
) -> PlacementOption:
    task = inp.task
    plan = plan_of_site(inp, net, cross, offer.site, plans, staged)
    gpus = planned_gpus(inp, offer, sized)
    reasons = _offer_reasons(task, offer, sized, gpus)
    compute_hours = task.compute_hours / offer.relative_speed  # SPEC P: at the offer's speed
    lost: float | None = 0.0  # SPEC 7.3: expected hours lost to preemptions (none off spot)
    if offer.preemptible:
        rate = preemption_rate(offer, gpus)  # SPEC 7.3: λ, preemptions an hour
        if preempted_before_done(task, rate, compute_hours):
            reasons.append("preempted_before_done")  # SPEC 7.3
        lost = preemption_hours(task, rate, compute_hours)
    # SPEC 7.4: only a tight task asks for a fast fabric.
    fabric_status = fabric(task, offer, gpus, records) if task.coupling == "tight" else None
    if fabric_status == "refused":
        reasons.append("no_fast_interconnect")
    reasons += plan.reasons
    unconfirmed = fabric_status == "unconfirmed"
    option = _priced(
        inp, plan, offer, reasons, gpus, staged, compute_hours, records, lost, unconfirmed, ops_cost
    )
    if option.objective is not None:
        option.within_budget = not over_budget(inp, option)
        if task.cost_budget is not None:
            option.within_cost_budget = option.total_cost <= task.cost_budget  # SPEC 7.7
    return option


def _priced(
    inp: EngineInput,
    plan: SitePlan,
    offer: Offer,
    reasons: list[str],
    gpus: int,
    staged: bool,
    hours: float,
    records: OfferRecords | None,
    lost: float | None,
    unconfirmed: bool,
    ops_cost: float,
) -> PlacementOption:
    """The option of one offer under one site plan: its time segments, its bill with SPEC 7.2
    and 7.3's expected preemption (`lost` hours, None when not a finite number) and rerun
    losses and its migration line, and its totals (total_cost is the whole bill) and objective,
    each None when it cannot be worked out or is not a finite number. `unconfirmed`: SPEC
    7.4's unknown fabric (K3)."""
    task = inp.task
    billed = billed_gpus(offer, gpus)
    queue_hours = inp.sites[offer.site].queue_hours + offer.boot_hours  # SPEC 6.1: boot waits
    compute_cost, price, package = compute_bill(task, offer, gpus, billed, hours)
    scheduling_cost = compute_cost * offer.scheduling_fee_pct / 100
    # SPEC 6.4: a plan shipping the raw data has no preprocessing.
    preprocess_hours, preprocess_cost = preprocessing(task) if staged else (0.0, 0.0)
    transfer_hours, overlapped = transfer_segment(task, plan, staged, hours)  # SPEC 7.5
    # The hourly burn (SPEC 7.10: a package's is 0 while the run fits it).
    burn = billed * (price if package is None else package.burn_price)
    preemption_cost = 0.0 if lost is None else lost * burn
    if not isfinite(preemption_cost):
        lost, preemption_cost = None, 0.0  # beyond any finite figure: infeasible by λT > 2
    # SPEC 7.2: expected failures (rate × billed GPUs × compute hours) × hours lost by each.
    failures, per_failure = failure_terms(inp, records)
    rerun_hours = failures * billed * hours * per_failure
    rerun_cost = rerun_hours * burn
    effort, migration = migration_line(inp, offer, records)
    total_hours = total_cost = objective = None  # unknown transfer or preemption: never guessed
    transfer_cost = plan.transfer_cost
    if lost is not None and transfer_cost is not None:
        # The preprocessing hours are a fourth time segment, waited like the queue (SPEC 6.4);
        # a plan has transfer hours exactly when it has a transfer cost (site_plan).
        total = transfer_hours + (queue_hours + preprocess_hours) + hours + lost  # type: ignore
        cost = (compute_cost + scheduling_cost + transfer_cost + preprocess_cost + preemption_cost
                + migration + rerun_cost + ops_cost)  # fmt: skip  # ops_cost: SPEC 7.11, else 0
        objective = cost + task.delay_cost_per_hour * total
        if isfinite(objective):
            total_hours, total_cost = total, cost
        else:
            objective = None
    # Positional, in PlacementOption's field order: a third of the cost of keywords.
    # fmt: off
    return PlacementOption(
        plan.kind, offer.site, offer, plan.tier, not reasons, reasons[0] if reasons else None,
        reasons, plan.legs, plan.input_mode, gpus, billed, price, plan.transfer_gb,
        transfer_hours, queue_hours, hours, total_hours, compute_cost, scheduling_cost,
        transfer_cost, total_cost, objective, None, preemption_cost, "staged" if staged else None,
        preprocess_hours, preprocess_cost, lost, rerun_hours, rerun_cost, effort, migration, None,
        overlapped, unconfirmed, ops_cost, None if package is None else package.burn_price,
        0.0 if package is None else package.paid_gpu_hours,
    )
    # fmt: on


def _offer_reasons(task: Task, offer: Offer, sized: OfferSizing, gpus: int) -> list[str]:
    """Why the offer itself cannot run the task (the site's reasons come from its plan)."""
    reasons: list[str] = []
    if offer.max_machines is not None and (
        gpus > offer.max_machines * offer.gpus_per_machine
        or sized.machines_needed > offer.max_machines
    ):
        reasons.append("pool_too_small")  # SPEC 6.1 capacity, whatever the coupling
    shared = set(task.parallelism).intersection(offer.parallelism)
    if (not sized.fits_single_gpu and shared.isdisjoint(MODEL_SPLITTING)) or (
        not sized.fits_single_machine and not shared
    ):
        reasons.append("no_shared_parallelism")  # SPEC 6.1 R1a: plain data copies the model
    elif gpus < sized.gpus_needed and not shared.isdisjoint(MODEL_SPLITTING):
        # SPEC 7.1: the plan splits the model over fewer GPUs than one replica needs here.
        reasons.append("too_few_gpus")
    return reasons


def over_budget(inp: EngineInput, option: PlacementOption) -> list[str]:
    """SPEC P/M3: the segments whose hours exceed their budget (a blank budget is no limit)."""
    budget = inp.task.latency_budget_hours
    over: list[str] = []
    # The three segments in schema.SEGMENTS order, spelled out: this runs for every option.
    limit = budget.transfer
    if limit is not None and option.transfer_hours is not None:
        # SPEC 6.4: a staged plan's preprocessing hours count in the transfer segment.
        if option.transfer_hours + option.preprocess_hours > limit:
            over.append("transfer")
    limit = budget.queue
    if limit is not None and option.queue_hours > limit:
        over.append("queue")
    limit = budget.compute
    run_hours = option.run_hours  # SPEC 7.3: compute + preemption hours
    if limit is not None and run_hours is not None and run_hours > limit:
        over.append("compute")
    return over


def tie_key(option: PlacementOption) -> tuple[int, str, str]:
    return KIND_ORDER[option.kind], option.site, option.offer.id


def least_objective(options: list[PlacementOption], first: int = 0) -> int:
    """SPEC 6.1: the index of the option of least objective among options[first:] (every one
    costed), a tie broken by tie_key: the one min() by (objective, *tie_key) gives, without a key
    tuple for every option."""
    best = first
    for i in range(first + 1, len(options)):
        option, least = options[i], options[best]
        if option.objective < least.objective:  # type: ignore[operator]
            best = i
        elif option.objective == least.objective and min(least, option, key=tie_key) is option:
            best = i
    return best


def choose_option(
    options: list[PlacementOption], cost_budget: float | None = None
) -> tuple[PlacementOption | None, list[Finding]]:
    """SPEC 6.1 (budgets guide, they do not veto): the least objective among all feasible
    options; P1 when none meets every budget (SPEC 7.7: the cost budget with the time
    budgets); P2 when none is feasible."""
    feasible = [o for o in options if o.feasible]
    if not feasible:
        # SPEC P2: no feasible placement at all.
        return None, [finding("P2", "block", "P2", {"options": len(options)})]
    chosen = feasible[least_objective(feasible)]
    found: list[Finding] = []
    if not any(meets_budgets(o) for o in feasible):
        # SPEC 6.1 P1: no feasible option meets every latency budget; SPEC 7.7: and the cost
        # budget together, when there is one.
        if cost_budget is None:
            found.append(finding("P1", "warn", "P1", {"options": len(feasible)}))
        else:
            data = {"options": len(feasible), "cost_budget": cost_budget}
            found.append(finding("P1", "warn", "P1.cost", data))
    return chosen, found


def meets_budgets(option: PlacementOption) -> bool:
    """SPEC 7.7: within every time budget and the cost budget (when there is one)."""
    return bool(option.within_budget) and option.within_cost_budget is not False


def cheapest_within_budget(options: list[PlacementOption]) -> PlacementOption | None:
    """SPEC 6.1 M3: the feasible option of least total cost that meets every budget (SPEC 7.7:
    the cost budget too, when there is one)."""
    within = [o for o in options if o.feasible and meets_budgets(o)]
    if not within:
        return None
    return min(within, key=lambda o: (o.total_cost, o.objective, *tie_key(o)))
