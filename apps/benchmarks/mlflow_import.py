"""MLflow runs as benchmark records (issue 40), read through the MLflow REST API
(`experiments/get-by-name`, then `runs/search`, page by page).

The team's saved mapping (`MlflowMapping`) says which tag names the offer, which param (or tag)
the node and GPU-per-node counts, which metric the compute hours, the peak GPU memory and the
failure reruns; the end-to-end hours are the run's end time minus its start time. Each run
becomes the raw values of a record and goes through the one set of rules every record meets
(apps.benchmarks.validation.benchmark_clean, by benchmark_create): a run missing a mapped value,
or whose values break a rule, is listed with the reason and not imported. The run id is the
record's idempotency key (`mlflow:<run id>`), so a run imported once is never imported twice.

Calls go through apps.web.outbound: a tracking URI typed on a page obeys the webhook address
rule; the operator's command line may reach a private tracking server (never a metadata one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from django.db import transaction
from django.utils.translation import gettext as _

from apps.accounts.models import Team
from apps.web import outbound

from .models import BenchmarkKind, BenchmarkRecord, MlflowMapping, Source
from .services import benchmark_create
from .validation import BenchmarkValidationError, benchmark_clean

KEY_PREFIX = "mlflow:"
PAGE_SIZE = 1000
MAX_PAGES = 50  # 50,000 runs: an experiment past that is imported in parts by a filter
MS_PER_HOUR = 3_600_000


class MlflowError(Exception):
    """The tracking server could not be read; `message` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class RunRow:
    run_id: str
    run_name: str
    status: str  # "new", "imported" (before), "skipped" (with reasons), "created" (now)
    reasons: list[str] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)
    record_id: int | None = None

    def as_dict(self) -> dict[str, Any]:
        values = {k: getattr(v, "pk", v) for k, v in self.values.items()}
        return {"run_id": self.run_id, "run_name": self.run_name, "status": self.status,
                "reasons": self.reasons, "values": values, "record_id": self.record_id}  # fmt: skip


def _call(method: str, url: str, body: dict | None, allow_private: bool | None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    try:
        answer = outbound.request(
            method, url, body=data, headers=headers, allow_private=allow_private
        )
    except outbound.OutboundRefused as exc:
        raise MlflowError(exc.message) from exc
    except OSError as exc:
        raise MlflowError(_("The tracking server did not answer: %(e)s") % {"e": exc}) from exc
    try:
        parsed = json.loads(answer.body or b"{}")
    except ValueError:
        parsed = None
    if answer.status != 200 or not isinstance(parsed, dict):
        detail = parsed.get("message", "") if isinstance(parsed, dict) else ""
        raise MlflowError(
            _("The tracking server answered HTTP %(code)s. %(detail)s")
            % {"code": answer.status, "detail": detail}
        )
    return parsed


def fetch_runs(
    tracking_uri: str, experiment: str, *, allow_private: bool | None = None
) -> list[dict]:
    """Every run of the named experiment (MLflow REST API 2.0)."""
    base = tracking_uri.rstrip("/") + "/api/2.0/mlflow"
    try:
        found = _call(
            "GET", f"{base}/experiments/get-by-name?experiment_name={quote(experiment)}", None,
            allow_private,
        )  # fmt: skip
    except MlflowError as exc:
        if "RESOURCE_DOES_NOT_EXIST" in exc.message or "404" in exc.message:
            raise MlflowError(
                _("No experiment named %(name)s on this tracking server.") % {"name": experiment}
            ) from exc
        raise
    experiment_id = (found.get("experiment") or {}).get("experiment_id")
    if not experiment_id:
        raise MlflowError(_("No experiment named %(name)s on this tracking server.")
                          % {"name": experiment})  # fmt: skip
    runs, token = [], None
    for _page in range(MAX_PAGES):
        body = {"experiment_ids": [experiment_id], "max_results": PAGE_SIZE}
        if token:
            body["page_token"] = token
        page = _call("POST", f"{base}/runs/search", body, allow_private)
        runs.extend(page.get("runs") or [])
        token = page.get("next_page_token")
        if not token:
            return runs
    raise MlflowError(_("The experiment has more than %(n)s runs.") % {"n": PAGE_SIZE * MAX_PAGES})


def _pairs(run: dict, part: str) -> dict[str, Any]:
    return {item["key"]: item.get("value") for item in (run.get("data") or {}).get(part) or []}


def run_data(run: dict, mapping: MlflowMapping) -> tuple[dict[str, Any], list[str]]:
    """The raw values of a record from a run, and what the mapping names that the run lacks."""
    info = run.get("info") or {}
    tags, params, metrics = _pairs(run, "tags"), _pairs(run, "params"), _pairs(run, "metrics")
    missing: list[str] = []

    def pick(source: dict, key: str, what: str):
        if not key:
            return None
        if key not in source:
            missing.append(_("no %(what)s %(key)s") % {"what": what, "key": key})
            return None
        return source[key]

    def param_or_tag(key: str):
        if key in params:
            return params[key]
        return pick(tags, key, _("param or tag"))

    start, end = info.get("start_time"), info.get("end_time")
    e2e = None
    if start is None or end is None:
        missing.append(_("the run has not ended (no end time)"))
    else:
        e2e = (int(end) - int(start)) / MS_PER_HOUR
    nodes = param_or_tag(mapping.nodes_key)
    data = {
        "task": mapping.task_id,
        "offer": pick(tags, mapping.offer_tag, _("tag")),
        "nodes": nodes,
        "gpus_per_node": param_or_tag(mapping.gpus_per_node_key),
        "compute_hours": pick(metrics, mapping.compute_hours_metric, _("metric")),
        "e2e_hours": e2e,
        "peak_gpu_mem_gb": pick(metrics, mapping.peak_gpu_mem_metric, _("metric")),
        "failure_reruns": pick(metrics, mapping.failure_reruns_metric, _("metric")),
        "notes": _("MLflow run %(name)s (%(id)s), experiment %(experiment)s")
        % {
            "name": info.get("run_name") or "",
            "id": info.get("run_id"),
            "experiment": mapping.experiment,
        },  # fmt: skip
        "idempotency_key": KEY_PREFIX + str(info.get("run_id")),
    }
    try:
        multi = nodes is not None and int(float(nodes)) > 1
    except (TypeError, ValueError):
        multi = False
    data["kind"] = BenchmarkKind.MULTI if multi else BenchmarkKind.SINGLE
    return data, missing


def preview(team: Team, mapping: MlflowMapping, runs: list[dict]) -> list[RunRow]:
    """What an import would do with each run, writing nothing."""
    keys = [KEY_PREFIX + str((r.get("info") or {}).get("run_id")) for r in runs]
    done = dict(
        BenchmarkRecord.objects.filter(team=team, idempotency_key__in=keys).values_list(
            "idempotency_key", "pk"
        )
    )
    rows = []
    for run, key in zip(runs, keys, strict=True):
        info = run.get("info") or {}
        row = RunRow(str(info.get("run_id")), info.get("run_name") or "", "new")
        if key in done:
            row.status, row.record_id = "imported", done[key]
            rows.append(row)
            continue
        data, missing = run_data(run, mapping)
        if missing:
            row.status, row.reasons = "skipped", missing
            rows.append(row)
            continue
        try:
            row.values = benchmark_clean(team=team, data=data)
            row.values["idempotency_key"] = key
        except BenchmarkValidationError as exc:
            row.status = "skipped"
            row.reasons = [f"{e['field']}: {e['message']}" for e in exc.as_list()]
        rows.append(row)
    return rows


def import_runs(
    team: Team, mapping: MlflowMapping, runs: list[dict], *, created_by=None
) -> list[RunRow]:
    """Import the new runs (each alone: one bad run never stops the others) and say what each
    run became."""
    rows = preview(team, mapping, runs)
    by_id = {str((r.get("info") or {}).get("run_id")): r for r in runs}
    for row in rows:
        if row.status != "new":
            continue
        data, _missing = run_data(by_id[row.run_id], mapping)
        try:
            with transaction.atomic():
                record = benchmark_create(
                    team=team, data=data, source=Source.MLFLOW, created_by=created_by
                )
        except BenchmarkValidationError as exc:  # imported meanwhile by another import
            row.status = "skipped"
            row.reasons = [f"{e['field']}: {e['message']}" for e in exc.as_list()]
            continue
        row.status, row.record_id = "created", record.pk
    return rows


def counts(rows: list[RunRow]) -> dict[str, int]:
    out = {"new": 0, "created": 0, "imported": 0, "skipped": 0}
    for row in rows:
        out[row.status] += 1
    return out
