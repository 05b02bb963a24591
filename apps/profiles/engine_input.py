"""Build the engine's JSON input (SPEC section 4, with the v2 fields of SPEC 6) from the database.

The pages, the snapshot task and the profile panel all go through here, so what the engine sees
is the same wherever it is called from. A handful of queries, whatever the sizes.

The v2 engine refuses unknown fields (SPEC 6.2), so an optional field is either sent with a
value the engine reads or left out; nothing else is added here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

import engine
from apps.accounts.models import Team
from apps.catalog.models import NetworkLink, Offer, Site

from .models import AllowedSite, TaskProfile

TIMED_KINDS = ("single", "multi")
# SPEC 6.3: the model shape's task fields (the engine needs the first five together).
SHAPE_KEYS = ("batch_size", "seq_len", "hidden_size", "layers", "heads", "kv_heads")


def _num(value):
    return None if value is None else float(value)


def allowed_site_codes(profile: TaskProfile) -> list[str]:
    """The codes of the profile's allowed sites, sorted (an unsaved profile has none yet)."""
    if profile.pk is None:
        return []
    return sorted(site.code for site in profile.allowed_sites.all())


def _team_sites(team: Team, profile: TaskProfile) -> list[Site]:
    """The team's sites by code, each marked `allowed` when it is one of the profile's allowed
    sites: one query for both (allowed sites are sites of the profile's team)."""
    sites = Site.objects.filter(team=team).order_by("code")
    if profile.pk is None:
        return list(sites)
    allowed = AllowedSite.objects.filter(profile_id=profile.pk, site_id=OuterRef("pk"))
    return list(sites.annotate(allowed=Exists(allowed)))


def task_input(
    profile: TaskProfile, team: Team, allowed_sites: Iterable[str] | None = None
) -> dict:
    """The `task` object: every profile field, with the team situation and validated tiers.

    `allowed_sites`: site codes to use instead of the saved ones (the live form panel).
    """
    codes = sorted(allowed_sites) if allowed_sites is not None else allowed_site_codes(profile)
    data = {
        "name": profile.name,
        "workload": profile.workload,
        "cadence": profile.cadence,
        "runs_per_quarter": profile.runs_per_quarter,
        "params_b": _num(profile.params_b),
        "precision": profile.precision,
        "peak_gpu_mem_gb": _num(profile.peak_gpu_mem_gb),
        # Always a key: null is an older profile without it (P3), not a forgotten field.
        "gpus": profile.gpus,
        "parallelism": sorted(profile.parallelism or []),
        "coupling": profile.coupling,
        "input_gb": float(profile.input_gb),
        "result_gb": float(profile.result_gb),
        "compress_ratio": float(profile.compress_ratio),
        "image_gb": float(profile.image_gb),
        "access_pattern": profile.access_pattern,
        "data_passes": profile.data_passes,
        "compute_hours": float(profile.compute_hours),
        "resumable": profile.resumable,
        "resume_verified": profile.resume_verified,
        "env_aligned": profile.env_aligned,
        "interruption_cost_hours": float(profile.interruption_cost_hours),
        "latency_budget_hours": {
            "transfer": _num(profile.budget_transfer_hours),
            "queue": _num(profile.budget_queue_hours),
            "compute": _num(profile.budget_compute_hours),
        },
        "delay_cost_per_hour": float(profile.delay_cost_per_hour),
        "env_simple": profile.env_simple,
        "image_packaged": profile.image_packaged,
        "offsite_allowed": profile.offsite_allowed,
        "low_latency_online": profile.low_latency_online,
        "stateful": profile.stateful,
        "compliance_restricted": profile.compliance_restricted,
        "results_restricted": profile.results_restricted,
        "strict_consistency": profile.strict_consistency,
        "team": {
            "has_machines": profile.has_machines,
            "has_scheduler": profile.has_scheduler,
            "can_maintain_scheduler": profile.can_maintain_scheduler,
            "pain": profile.pain,
            "validated_tiers": sorted(set(team.validated_tiers or []) | {"same_site"}),
        },
        "home_site": profile.home_site.code,
        "data_site": profile.data_site.code,
        "result_site": profile.result_site.code,
    }
    if codes:  # none chosen: the engine uses the sites in the data site's datacenter (X4)
        data["allowed_sites"] = codes
    data.update(_given_only(profile))
    return data


def _given_only(profile: TaskProfile) -> dict:
    """The task keys sent only when the profile gives them, so a profile without them sends what
    it sent before (and its snapshots keep their fingerprints)."""
    data: dict = {}
    # SPEC 6.3: the model shape and the checkpoint interval.
    for key in SHAPE_KEYS:
        value = getattr(profile, key)
        if value is not None:
            data[key] = value
    if profile.activation_checkpointing:
        data["activation_checkpointing"] = True
    if profile.checkpoint_interval_hours is not None:
        data["checkpoint_interval_hours"] = float(profile.checkpoint_interval_hours)
    # SPEC 7.1, 7.3: sent only when they differ from the engine's defaults (flash, 0 h).
    if profile.attention and profile.attention != "flash":
        data["attention"] = str(profile.attention)
    if profile.restart_hours:
        data["restart_hours"] = float(profile.restart_hours)
    # SPEC 7.5: sent only when streamed (bulk is the engine's default; fingerprints stay).
    if profile.input_delivery and profile.input_delivery != "bulk":
        data["input_delivery"] = str(profile.input_delivery)
    # SPEC 7.7: the money budget only when given.
    if profile.cost_budget is not None:
        data["cost_budget"] = float(profile.cost_budget)
    # SPEC 6.4: a staged plan only when the processed size is given.
    if profile.processed_gb is not None:
        data["processed_gb"] = float(profile.processed_gb)
        data["preprocess_hours"] = float(profile.preprocess_hours)
        data["preprocess_cost_per_hour"] = float(profile.preprocess_cost_per_hour)
        data["rounds_per_refresh"] = profile.rounds_per_refresh
    return data


def site_input(site: Site) -> dict:
    return {
        "code": site.code,
        "datacenter": site.datacenter,
        "city": site.city,
        "hub": site.hub,
        "queue_hours": float(site.queue_hours),
        "storage_tb": _num(site.storage_tb),  # null: no limit, the input can be staged there
    }


def link_input(link: NetworkLink, reserved_ids: set[int] = frozenset()) -> dict:
    data = {
        "from": link.from_site.code,
        "to": link.to_site.code,
        "bandwidth_gbps": float(link.bandwidth_gbps),
        "rtt_ms": float(link.rtt_ms),
        "price_per_gb": float(link.price_per_gb),
        "reservable": link.reservable,
        "reserved": link.reservable and link.pk in reserved_ids,
    }
    if link.buffer is not None:
        data["buffer"] = float(link.buffer)
    return data


def offer_input(
    offer: Offer, machines: int | None = None, migration_effort_hours: float | None = None
) -> dict:
    """One offer; `machines` and `migration_effort_hours` are the review candidate's (Q5)."""
    data = {
        "id": str(offer.pk),
        "name": offer.name,
        "provider": offer.provider,
        "kind": offer.kind,
        "site": offer.site.code,
        "gpu_mem_gb": float(offer.gpu_mem_gb),
        "gpus_per_machine": offer.gpus_per_machine,
        "billing_basis": offer.billing_basis,
        "price": float(offer.price),
        "scheduling_fee_pct": float(offer.scheduling_fee_pct),
        "parallelism": sorted(offer.parallelism or []),
        "relative_speed": float(offer.relative_speed),
        "boot_hours": float(offer.boot_hours),
    }
    if offer.max_machines is not None:
        data["max_machines"] = offer.max_machines
    if offer.interconnect:
        # SPEC 7.4: sent only when recorded (unknown is the engine's default; fingerprints stay).
        data["interconnect"] = offer.interconnect
    if offer.preemptible:
        # SPEC 6.3: on-demand offers send neither key (the engine's default), so their inputs,
        # and the snapshots fingerprinted on them, stay as they were.
        data["preemptible"] = True
        data["preemptions_per_day"] = _num(offer.preemptions_per_day)
    if offer.billing_basis == "contract":
        data["contract_hours"] = _num(offer.contract_hours)
        data["expected_utilization"] = _num(offer.expected_utilization)
        if offer.contract_paid:
            # SPEC 7.6: sent only when paid, so unpaid packages' inputs stay as they were.
            data["contract_paid"] = True
    if machines is not None:
        data["machines"] = machines
    if migration_effort_hours is not None:
        data["migration_effort_hours"] = float(migration_effort_hours)
    return data


def benchmark_input(record: Any) -> dict:
    """One benchmark record (apps.benchmarks.models.BenchmarkRecord, read through the profile's
    `benchmarks` relation: the benchmarks app sits above profiles)."""
    data = {
        "id": str(record.pk),
        "kind": record.kind,
        "nodes": record.nodes,
        "gpus_per_node": record.gpus_per_node,
        "e2e_hours": float(record.e2e_hours),
        "compute_hours": float(record.compute_hours),
        "failure_reruns": record.failure_reruns,
        "hours_lost_per_rerun": float(record.hours_lost_per_rerun),
    }
    if record.offer_id is not None:
        data["offer"] = str(record.offer_id)
    for key in ("comm_hours", "peak_gpu_mem_gb", "migration_effort_hours", "cost"):
        value = getattr(record, key)
        if value is not None:
            data[key] = float(value)
    if record.kind == "pilot_migration":
        if record.tier:
            data["tier"] = record.tier
        if record.succeeded is not None:
            data["succeeded"] = record.succeeded
    return data


def benchmarks_for(profile: TaskProfile, offer_ids: Iterable[int]) -> list[dict]:
    """The task's records that the evaluation may use.

    Single and multi runs count only on the offers being compared (a run on another platform is
    shown on the task's benchmark page, but is not evidence about these candidates); pilots count
    whatever their offer. Network probes feed links, not the engine.
    """
    if profile.pk is None:  # an unsaved profile (the live form panel) has no records yet
        return []
    wanted = set(offer_ids)
    # task_id too: the related manager sets each record's task from it (deferred, it would cost
    # one query per record).
    records = (
        profile.benchmarks.filter(kind__in=(*TIMED_KINDS, "pilot_migration"))
        .only(
            "id", "task_id", "kind", "offer_id", "nodes", "gpus_per_node", "e2e_hours",
            "compute_hours",
            "failure_reruns", "hours_lost_per_rerun", "comm_hours", "peak_gpu_mem_gb",
            "migration_effort_hours", "cost", "tier", "succeeded",
        )
        .order_by("id")
    )
    out = []
    for record in records:
        if record.kind in TIMED_KINDS and record.offer_id not in wanted:
            continue
        item = benchmark_input(record)
        if record.kind == "pilot_migration" and record.offer_id not in wanted:
            item.pop("offer", None)
        out.append(item)
    return out


def team_links_query(team_id: int) -> QuerySet[NetworkLink]:
    """The team's links with their two sites, in the engine input's order (a caller may annotate
    it, as the review page does with which links the review reserved)."""
    return (
        NetworkLink.objects.filter(team_id=team_id)
        .select_related("from_site", "to_site")
        .order_by("from_site__code", "to_site__code")
    )


def team_links(team: Team) -> list[NetworkLink]:
    return list(team_links_query(team.pk))


def build_profile_input(
    profile: TaskProfile,
    *,
    offers: Iterable[Offer] | None = None,
    machines: dict[int, int] | None = None,
    migration_effort: dict[int, float] | None = None,
    checklists: dict[str, dict[str, str]] | None = None,
    reserved_link_ids: set[int] = frozenset(),
    allowed_sites: Iterable[str] | None = None,
    links: list[NetworkLink] | None = None,
) -> dict:
    """The engine input for a profile against `offers` (default: all the team's offers).

    `machines` and `migration_effort` are per offer id (a review's candidates); `allowed_sites`
    are site codes that replace the saved ones (the live form panel); `links`: the team's links
    (`team_links_query`) when the caller already read them.
    """
    team = profile.team
    if offers is None:
        offers = Offer.objects.filter(team=team).select_related("site").order_by("id")
    offers = list(offers)
    machines = machines or {}
    migration_effort = migration_effort or {}
    sites = _team_sites(team, profile)
    if allowed_sites is None:
        allowed_sites = [s.code for s in sites if getattr(s, "allowed", False)]
    data = {
        "currency": team.currency,
        "task": task_input(profile, team, allowed_sites),
        "sites": [site_input(s) for s in sites],
        "links": [
            link_input(link, reserved_link_ids)
            for link in (links if links is not None else team_links(team))
        ],
        "offers": [offer_input(o, machines.get(o.pk), migration_effort.get(o.pk)) for o in offers],
        "benchmarks": benchmarks_for(profile, [o.pk for o in offers]),
        "checklists": checklists or {},
    }
    if team.thresholds:
        data["thresholds"] = dict(team.thresholds)
    return data


def canonical_json(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def input_hash(data: dict) -> str:
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def fingerprint(data: dict, engine_version: str = engine.ENGINE_VERSION) -> str:
    """Same inputs and the same engine version give the same fingerprint (and snapshot)."""
    return hashlib.sha256(
        (engine_version + "\n" + canonical_json(data)).encode("utf-8")
    ).hexdigest()


def evaluate_profile(profile: TaskProfile, **kwargs) -> tuple[dict, dict | None, list]:
    """(input, output or None, errors): the engine's view of a profile, never raising on data."""
    data = build_profile_input(profile, **kwargs)
    try:
        return data, engine.evaluate(data), []
    except engine.EngineInputError as exc:
        return data, None, exc.errors
