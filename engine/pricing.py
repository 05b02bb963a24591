"""SPEC P (口径对齐) and 7.6: what a GPU-hour of an offer costs, the GPUs it bills, and what a run
pays on a contract package that is paid or new for a one-off task."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .schema import Offer, Task


def effective_gpu_hour_price(
    billing_basis: str,
    price: float,
    gpus_per_machine: int,
    contract_hours: float | None = None,
    expected_utilization: float | None = None,
) -> float:
    """SPEC P (口径对齐): the price of one GPU-hour whatever the billing basis."""
    if gpus_per_machine < 1:
        raise ValueError("gpus_per_machine must be at least 1")
    if billing_basis == "gpu_hour":
        return float(price)
    if billing_basis == "machine_hour":
        return price / gpus_per_machine
    if billing_basis == "contract":
        if not contract_hours or not expected_utilization:
            raise ValueError("a contract price needs contract_hours and expected_utilization")
        return price / (contract_hours * gpus_per_machine * expected_utilization)
    raise ValueError(f"unknown billing basis {billing_basis!r}")


@dataclass(slots=True)
class PackageBill:
    """SPEC 7.6 and 7.10: what a run pays on a contract package that is paid (sunk) or new for a
    one-off task: the compute cost, the price of a billed GPU-hour lost to reruns and
    preemptions (0 while the run fits the package: those hours are package hours, not money)
    and the GPU-hours the paid package covers."""

    compute_cost: float
    burn_price: float
    paid_gpu_hours: float


def package_bill(
    task: Task, offer: Offer, gpus: int, billed: int, hours: float, price: float
) -> PackageBill | None:
    """SPEC 7.6: None unless the offer is a contract package that is paid, or new and the task
    is one-off (a recurring task keeps section 3's pro-rating by expected_utilization).

    Paid: the package holds contract_hours × gpus_per_machine GPU-hours per machine, times
    max_machines (or the machines used when it is null); the run's GPU-hours that fit cost
    nothing. New and one-off: the whole package, `price` × machines billed, holding
    contract_hours × gpus_per_machine GPU-hours per machine billed. GPU-hours beyond either are
    billed at the pro-rated price. `price` is the offer's price (1.0 for a slope)."""
    if offer.billing_basis != "contract" or not (offer.contract_paid or task.cadence == "one_off"):
        return None
    per_machine = offer.gpus_per_machine
    prorated = effective_gpu_hour_price(
        "contract", price, per_machine, offer.contract_hours, offer.expected_utilization
    )
    # SPEC 7.10: machines used = ⌈GPUs ÷ gpus_per_machine⌉, the machines billed too (`billed`
    # fills them whole: billed_gpus).
    machines = -(-gpus // per_machine)
    if offer.contract_paid:
        # An option beyond the pool (pool_too_small) is refused; its figures still count the
        # machines it would use, so a paid package never holds less than a new one would.
        held = machines if offer.max_machines is None else max(offer.max_machines, machines)
        whole = 0.0
    else:
        held = machines
        whole = price * machines
    package = offer.contract_hours * per_machine * held  # type: ignore[operator]
    run = billed * hours
    beyond = max(run - package, 0.0)
    paid = (run - beyond) if offer.contract_paid else 0.0
    return PackageBill(whole + beyond * prorated, prorated if beyond > 0 else 0.0, paid)


def billed_gpus(offer: Offer, gpus: int) -> int:
    """SPEC 6.1: machine_hour and contract offers bill ceil(gpus / gpus_per_machine) whole
    machines (idle GPUs on the last one are paid); gpu_hour offers bill GPUs."""
    if offer.billing_basis == "gpu_hour":
        return gpus
    return math.ceil(gpus / offer.gpus_per_machine) * offer.gpus_per_machine


def compute_bill(
    task: Task, offer: Offer, gpus: int, billed: int, hours: float
) -> tuple[float, float, PackageBill | None]:
    """The compute cost of `billed` GPUs for `hours`, the unit price T and J3 read, and the
    package bill when a package prices the run (SPEC 7.6: the unit price is then what the run
    really pays a GPU-hour; the pro-rated price when it runs no GPU-hours)."""
    basis = offer.billing_basis
    price = effective_gpu_hour_price(
        basis, offer.price, offer.gpus_per_machine, offer.contract_hours, offer.expected_utilization
    )
    package = None
    if basis == "contract":  # SPEC 7.6: only a contract can be a package (package_bill says when)
        package = package_bill(task, offer, gpus, billed, hours, offer.price)
    if package is None:
        return billed * hours * price, price, None
    if billed * hours > 0:
        price = package.compute_cost / (billed * hours)
    return package.compute_cost, price, package
