"""Reads of benchmark records: the team's list, a task's comparison, probes and links, tokens."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, QuerySet

from apps.accounts.models import ApiToken, Team
from apps.catalog.models import NetworkLink, Offer
from apps.profiles.engine_input import evaluate_profile
from apps.profiles.models import TaskProfile
from apps.web.search import search_queryset
from engine.bench_verdicts import (
    fastest_per_offer,
    run_scaling_efficiency,
    run_speedup,
)

from .charts import scaling_figure
from .models import BenchmarkKind, BenchmarkRecord, Source

TIMED_KINDS = (BenchmarkKind.SINGLE, BenchmarkKind.MULTI)
PAIR_RULES = ("R0", "B1", "B2", "B3")


def _with_relations(queryset: QuerySet) -> QuerySet:
    return queryset.select_related(
        "task",
        "offer",
        "offer__site",
        "from_site",
        "to_site",
        "site",
        "applied_to_link__from_site",
        "applied_to_link__to_site",
    )


# What the list's search box looks in: task, offer, sites, author.
BENCHMARK_SEARCH_FIELDS = (
    "task__name",
    "offer__name",
    "offer__provider",
    "offer__site__code",
    "from_site__code",
    "to_site__code",
    "created_by__username",
)


def benchmark_list(
    *,
    team: Team,
    task: int | None = None,
    kind: str | None = None,
    offer: int | None = None,
    source: str | None = None,
    q: str | None = None,
) -> QuerySet[BenchmarkRecord]:
    """The team's records, newest first, filtered (`q`: the search box, apps.web.search); one
    query whatever the page size."""
    records = BenchmarkRecord.objects.for_team(team)
    if task:
        records = records.filter(task_id=task)
    if kind:
        records = records.filter(kind=kind)
    if offer:
        records = records.filter(offer_id=offer)
    if source:
        records = records.filter(source=source)
    records = search_queryset(records, q, BENCHMARK_SEARCH_FIELDS)
    return _with_relations(records).order_by("-recorded_at", "-id")


def benchmark_detail(*, record_id: int, user) -> BenchmarkRecord:
    return _with_relations(BenchmarkRecord.objects.for_user(user)).get(pk=record_id)


def filter_choices(*, team: Team) -> dict:
    return {
        "tasks": list(TaskProfile.objects.for_team(team).order_by("name").only("id", "name")),
        "offers": list(
            Offer.objects.for_team(team).order_by("provider", "name").only("id", "provider", "name")
        ),
        "kinds": BenchmarkKind.choices,
        "sources": Source.choices,
    }


@dataclass
class RunRow:
    """One single/multi record of a task, with its figures against the fastest single run on the
    same offer (SPEC 6.1: like for like, never across hardware)."""

    record: BenchmarkRecord
    baseline: BenchmarkRecord | None = None
    speedup: float | None = None
    scaling_efficiency: float | None = None
    rerun_loss_hours: float = 0.0
    in_pair: bool = False


@dataclass
class TaskComparison:
    profile: TaskProfile
    runs: list[RunRow] = field(default_factory=list)
    probes: list[BenchmarkRecord] = field(default_factory=list)
    pilots: list[BenchmarkRecord] = field(default_factory=list)
    preprocess: list[BenchmarkRecord] = field(default_factory=list)
    # SPEC 6.1: each offer's fastest single run; speedups are against the run's own offer's one.
    baselines: dict[int | None, BenchmarkRecord] = field(default_factory=dict)
    verdict: dict = field(default_factory=dict)
    findings: list[dict] = field(default_factory=list)
    engine_errors: list[dict] = field(default_factory=list)
    figure: dict | None = None


def task_comparison(*, profile: TaskProfile) -> TaskComparison:
    """Runs of a task side by side, the engine's pair verdict (R0, B1–B3) and the scaling chart.

    Speedup of each run is against the fastest single-machine run on the same offer (SPEC 6.1:
    pairs are like for like; the engine reports each offer's pair and says which one it read).
    """
    records = list(
        _with_relations(BenchmarkRecord.objects.filter(task=profile)).order_by("kind", "id")
    )
    comparison = TaskComparison(profile=profile)
    timed = [r for r in records if r.kind in TIMED_KINDS]
    comparison.probes = [r for r in records if r.kind == BenchmarkKind.NETWORK_PROBE]
    comparison.pilots = [r for r in records if r.kind == BenchmarkKind.PILOT_MIGRATION]
    comparison.preprocess = [r for r in records if r.kind == BenchmarkKind.PREPROCESS]
    comparison.baselines = fastest_per_offer(
        sorted(timed, key=lambda r: r.pk), BenchmarkKind.SINGLE,
        offer_of=lambda r: r.offer_id, kind_of=lambda r: r.kind, e2e_of=lambda r: r.e2e_hours,
    )

    data, output, errors = evaluate_profile(profile)
    comparison.engine_errors = errors
    pair_ids: set[str] = set()
    if output is not None:
        bench = dict(output.get("benchmark") or {})
        inputs = data.get("benchmarks", [])
        for side in ("single", "multi"):
            # The engine names the compared records by id (or, in older versions, by index).
            ref = bench.get(f"{side}_benchmark")
            index = bench.get(f"{side}_index", ref if isinstance(ref, int) else None)
            if isinstance(ref, str):
                pair_ids.add(ref)
            elif isinstance(index, int) and 0 <= index < len(inputs):
                pair_ids.add(str(inputs[index].get("id")))
        comparison.verdict = bench
        comparison.findings = [f for f in output.get("findings", []) if f.get("rule") in PAIR_RULES]

    for record in sorted(timed, key=lambda r: (r.gpus, r.e2e_hours, r.pk)):
        base = comparison.baselines.get(record.offer_id)
        row = RunRow(
            record=record,
            baseline=base,
            rerun_loss_hours=record.failure_reruns * record.hours_lost_per_rerun,
            in_pair=str(record.pk) in pair_ids,
        )
        if base is not None:
            row.speedup = run_speedup(base.e2e_hours, record.e2e_hours)
            row.scaling_efficiency = run_scaling_efficiency(row.speedup, record.gpus, base.gpus)
        comparison.runs.append(row)
    comparison.figure = scaling_figure(comparison.runs)
    return comparison


def probes_applied_by_link(*, links: list[NetworkLink]) -> dict[int, BenchmarkRecord]:
    """For each link, the probe applied to it last (for "measured <date> by probe #id")."""
    latest: dict[int, BenchmarkRecord] = {}
    probes = BenchmarkRecord.objects.filter(
        applied_to_link__in=[link.pk for link in links]
    ).order_by("applied_at", "id")
    for probe in probes:
        latest[probe.applied_to_link_id] = probe
    return latest


def probe_link_status(*, probe: BenchmarkRecord) -> dict:
    """The link a probe measures (either direction) and the probe that last set its figures."""
    if probe.kind != BenchmarkKind.NETWORK_PROBE or probe.from_site_id is None:
        return {"link": None, "measured_by": None}
    links = NetworkLink.objects.filter(team_id=probe.team_id).select_related("from_site", "to_site")
    link = links.filter(from_site_id=probe.from_site_id, to_site_id=probe.to_site_id).first()
    if link is None:
        link = links.filter(from_site_id=probe.to_site_id, to_site_id=probe.from_site_id).first()
    measured_by = probes_applied_by_link(links=[link]).get(link.pk) if link else None
    return {"link": link, "measured_by": measured_by}


def token_list(*, team: Team) -> QuerySet[ApiToken]:
    return (
        ApiToken.objects.for_team(team)
        .select_related("created_by")
        .order_by(F("revoked_at").asc(nulls_first=True), "-created_at")
    )


def tasks_with_runs(*, team: Team) -> QuerySet[TaskProfile]:
    """Task profiles of the team that have benchmark records, for the comparison links."""
    return (
        TaskProfile.objects.for_team(team)
        .annotate(runs=Count("benchmarks"))
        .filter(runs__gt=0)
        .order_by("name")
        .only("id", "name", "workload")
    )
