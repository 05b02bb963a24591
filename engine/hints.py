"""Placement hints that read the options: D2 (where to stage repeated full scans), D3 (what a
staged plan ships, SPEC 6.4) and K2 (which pools together would hold a job that no single pool
holds)."""

from __future__ import annotations

from itertools import combinations

from .cross_domain import CrossDomain
from .findings import Finding, finding
from .network import Network
from .placement import PlacementOption
from .schema import TIER_RANK, EngineInput, Task

# K2 names at most this many sets, and looks at sets of at most this many pools.
K2_SETS = 3
K2_MAX_POOLS = 4
# Combinations examined before K2 gives up looking for more sets (500 offers stay fast).
K2_BUDGET = 20_000


def staging_hint(
    inp: EngineInput, options: list[PlacementOption], chosen: PlacementOption | None
) -> list[Finding]:
    """SPEC 6.1 D2: repeated full scans are staged once next to the compute when there is room;
    when no site has room, moving compute does not pay. SPEC 7.8: the advice is about the
    chosen option: staged at its site, read on every pass there (no room), or run at the data
    (no input leg), which avoids the recurring transfers."""
    task = inp.task
    if task.access_pattern != "repeated_full_scan":
        return []
    staged = [o for o in options if o.input_mode == "staged"]
    streamed = [o for o in options if o.input_mode == "streamed"]
    passes = task.data_passes
    if not staged and not streamed:
        # Nothing moves the input (every option runs next to the data): the v1 advice stands.
        return [finding("D2", "info", "D2", {"data_passes": passes})]
    at = chosen.site if chosen is not None else None
    mode = chosen.input_mode if chosen is not None else None
    if mode == "staged" or (chosen is None and staged):
        # Staged at the chosen option's site (with nothing chosen, the first site with room).
        data = {"data_passes": passes, "input_gb": task.input_gb, "site": at or staged[0].site}
        return [finding("D2", "info", "D2.staged", data)]
    if chosen is not None and mode is None:
        return [finding("D2", "info", "D2.at_data", {"data_passes": passes, "site": at})]
    if staged:
        # The chosen site has no room though others have: read on every pass there.
        return [finding("D2", "info", "D2.streamed", {"data_passes": passes, "site": at})]
    return [finding("D2", "info", "D2.no_room", {"data_passes": passes})]


def staged_plan_hint(
    inp: EngineInput, options: list[PlacementOption], chosen: PlacementOption | None
) -> list[Finding]:
    """SPEC 6.4 D3: when the chosen option is staged, what it ships per run against the raw
    input (−X %); a processed version at least as large as the raw input is worth a warning
    (a staged plan can then only cost more). D1/D2 read the raw figures."""
    task = inp.task
    if task.processed_gb is None:
        return []
    found: list[Finding] = []
    if task.input_gb > 0 and task.processed_gb >= task.input_gb:
        data = {"processed_gb": task.processed_gb, "input_gb": task.input_gb}
        found.append(finding("D3", "warn", "D3.larger", data))
    if chosen is not None and chosen.plan == "staged":
        data = {**staged_shipment(task, chosen.input_mode), "site": chosen.site}
        del data["processed_gb"]
        found.append(finding("D3", "info", "D3", data))
    return found


def staged_shipment(task: Task, input_mode: str | None = None) -> dict[str, float]:
    """SPEC 6.4: what a staged plan ships per run against the raw plan (D3 and the live panel).

    Per run: processed × compress ÷ rounds, against the raw input × compress (× passes when
    streamed: what the raw plan would have moved)."""
    if task.processed_gb is None:
        raise ValueError("a staged shipment needs processed_gb")
    processed = task.processed_gb * task.compress_ratio
    shipped = processed / task.rounds_per_refresh
    passes = task.data_passes if input_mode == "streamed" else 1
    raw = task.input_gb * task.compress_ratio * passes
    return {
        "processed_gb": processed,
        "shipped_gb": shipped,
        "raw_gb": raw,
        "saved_pct": (1 - shipped / raw) * 100 if raw > 0 else 0.0,
        "rounds": task.rounds_per_refresh,
    }


def spread_hint(
    inp: EngineInput, net: Network, cross: CrossDomain, options: list[PlacementOption]
) -> list[Finding]:
    """SPEC 6.1 K2: when every candidate pool is too small for the job, name the sets of pools
    within the allowed spread tier whose GPUs together would hold it (fewest pools first).
    The engine does not cost spread plans; a tightly coupled job is never spread."""
    if not options or any(o.reason != "pool_too_small" for o in options):
        return []
    if inp.task.coupling == "tight":
        return []
    need = max(o.gpus for o in options)
    pools = sorted(
        options,
        key=lambda o: (-(o.offer.max_machines or 0) * o.offer.gpus_per_machine, o.offer.id),
    )
    limit = TIER_RANK[cross.spread_tier]
    examined = 0
    found: list[tuple[PlacementOption, ...]] = []
    for size in range(2, min(K2_MAX_POOLS, len(pools)) + 1):
        for group in combinations(pools, size):
            examined += 1
            if examined > K2_BUDGET or len(found) >= K2_SETS:
                break
            capacity = sum((o.offer.max_machines or 0) * o.offer.gpus_per_machine for o in group)
            ids = {id(o) for o in group}
            if capacity < need or any({id(o) for o in smaller} <= ids for smaller in found):
                continue  # too small, or a named set plus a pool it does not need
            if all(TIER_RANK[net.tier(a.site, b.site)] <= limit for a, b in combinations(group, 2)):
                found.append(group)
    if not found:
        return []
    data = {
        "gpus": need,
        "tier": cross.spread_tier,
        "sets": [[o.offer.id for o in group] for group in found],
        "pools": [" + ".join(o.offer.name or o.offer.id for o in group) for group in found],
    }
    return [finding("K2", "info", "K2", data)]
