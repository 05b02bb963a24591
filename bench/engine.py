"""Throughput of the scoring engine next to engine 2.2.0, measured in the same run.

    python bench/engine.py                   # table: current engine, 2.2.0, ratio
    python bench/engine.py --json            # the same as one JSON line (what bench/run reads)
    python bench/engine.py --seconds 1       # shorter: timed seconds per engine per input
    python bench/engine.py --baseline REV    # compare with the engine of another commit

The current engine is the top-level package ``engine`` as it is on disk. The baseline is 2.2.0
(issue 32: engine 3.x is not to be slower than it; until 2026-12-05 the default was 1.1.0, issue
13's bar, still measured with ``--baseline d534d4e``), taken from git history: the newest commit
touching the engine (``engine/``, or ``apps/scoring/engine/`` where it lived until engine 2.2)
whose ``schema.py`` says ``ENGINE_VERSION = "2.2.0"``. Its tree is extracted with ``git
archive`` into a temporary directory and imported standalone as the package ``engine_v2_2_0``
(the engine imports its own modules relatively and nothing of Django).

Three inputs, valid for both engines (1.1.0 fields only, plus ``task.gpus`` which 2.0 requires
and 1.1.0 accepts), every offer with all six checklist questions answered: a typical review
(5 offers, 4 sites, 10 benchmark records), a large one (50 offers, 20 sites, links between
every pair) and a larger one (100 offers). Each engine runs ``evaluate`` (parse, score and
serialise, as the API does): a warm-up, then short rounds (15 by default). A round times every
engine twice, in order and back (A B B A: a load that rises or falls during the round weighs on
each alike), garbage collected before each loop, untimed. Loops are timed in CPU time
(``time.process_time``): evaluations per second of one core, which on an idle machine equals
the wall-clock figure and on a busy shared one leaves out the time other processes hold the core.

The ratio to the baseline is taken round by round, each round's two engines having run under
the same load, and the median round's is reported, with the middle half and the whole range of
the rounds' ratios. Each engine's evaluations/s is its median round. (Until 2026-12-01 the ratio was
that of two medians over 9 longer loops; on the shared machine it moved from 0.94 to 1.31 from
one run to the next. ``ratio_of_medians`` in the JSON is still that figure.)

The current engine is measured twice: as ``evaluate`` runs by default, with SPEC 6.3's break-even
values (``sensitivity``), and with ``with_sensitivity=False``. The table shows both, their ratio
(what the sensitivity costs: the issue allows at most 3×) and the default's ratio to 2.2.0.

A measurement, not a test: it exits 0 whatever the ratio, and prints "<current version> slower
than <baseline version> on <input>" (e.g. "3.0.0 slower than 2.2.0 on typical") when the current
engine (with sensitivity) is slower, and "sensitivity costs more than
3×" when it does. An engine that refuses an input (or fails on it) has
its errors printed and that input measured for the other engine only.

The figures are also written to var/bench/engine.json (``--output`` to change it).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import inspect
import io
import json
import platform
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ENGINE_DIR = "engine"
# Where the engine lived before it became a top-level package: older baselines are found there.
ENGINE_DIRS = (ENGINE_DIR, "apps/scoring/engine")
BASELINE_VERSION = "2.2.0"
BASELINE_PACKAGE = "engine_v2_2_0"
DEFAULT_OUTPUT = ROOT / "var" / "bench" / "engine.json"
VERSION_RE = re.compile(r"""^ENGINE_VERSION\s*=\s*["']([^"']+)["']""", re.MULTILINE)
# An absolute import of the engine from inside it (at either of its homes).
ENGINE_IMPORT_RE = re.compile(r"^(\s*(?:from|import)\s+)(?:apps\.scoring\.)?engine\b", re.MULTILINE)
# An import of the project from inside the engine: the extracted copy could not resolve it.
PROJECT_IMPORT_RE = re.compile(r"^\s*(?:from|import)\s+(apps|config|django)\b", re.MULTILINE)

BILLING = ("gpu_hour", "machine_hour", "contract")
# The current engine without SPEC 6.3's sensitivity, measured beside it; what that may cost.
PLAIN = "current_without_sensitivity"
MAX_SENSITIVITY_COST = 3.0
KINDS = ("compute", "managed", "distributed")


# ---------------------------------------------------------------------------------------------
# Inputs


def _sites(count: int) -> list[dict[str, Any]]:
    return [
        {
            "code": f"site-{i:02d}",
            "datacenter": f"dc-{i // 2}",  # pairs share a datacenter
            "city": f"city-{i // 4}",  # fours share a city
            "hub": f"hub-{i // 8}",
            "queue_hours": float((i * 7) % 13),
        }
        for i in range(count)
    ]


def _links(sites: list[dict[str, Any]]) -> list[dict[str, Any]]:
    links = []
    for i, a in enumerate(sites):
        for b in sites[i + 1 :]:
            links.append(
                {
                    "from": a["code"],
                    "to": b["code"],
                    "bandwidth_gbps": 10.0 + (i % 4) * 10,
                    "rtt_ms": 5.0 + i,
                    "price_per_gb": 0.01 * (1 + i % 3),
                    "reservable": i % 2 == 0,
                    "reserved": i % 4 == 0,
                }
            )
    return links


def _offers(count: int, sites: list[dict[str, Any]]) -> list[dict[str, Any]]:
    offers = []
    for i in range(count):
        basis = BILLING[i % 3]
        offer: dict[str, Any] = {
            "id": f"offer-{i}",
            "kind": KINDS[i % 3],
            "site": sites[i % len(sites)]["code"],
            "gpu_mem_gb": (24, 40, 80)[i % 3],
            "gpus_per_machine": (4, 8)[i % 2],
            "max_machines": 16,
            "billing_basis": basis,
            "price": (2.4, 18.0, 11000.0)[i % 3] * (1 + i / 100),
            "scheduling_fee_pct": (0, 5, 8)[i % 3],
            "parallelism": ["data", "tensor", "pipeline"][: 1 + i % 3],
            "relative_speed": (1.0, 1.2, 0.9)[i % 3],
        }
        if basis == "contract":
            offer["contract_hours"] = 720
            offer["expected_utilization"] = 0.7
        offers.append(offer)
    return offers


def _benchmarks(count: int, offers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kinds = ("single", "multi", "network_probe", "pilot_migration")
    records = []
    for i in range(count):
        kind = kinds[i % 4]
        e2e = 6.0 + i % 5
        records.append(
            {
                "kind": kind,
                "offer": offers[i % len(offers)]["id"],
                "nodes": 1 if kind == "single" else 2,
                "gpus_per_node": 8,
                "e2e_hours": e2e,
                "compute_hours": e2e * 0.8,
                "peak_gpu_mem_gb": 60.0 if kind == "single" else None,
                "failure_reruns": i % 3,
                "hours_lost_per_rerun": 0.5,
                "migration_effort_hours": 12.0 if kind == "pilot_migration" else None,
                "tier": "same_city" if kind == "pilot_migration" else None,
                "succeeded": kind == "pilot_migration",
            }
        )
    return records


def build_input(n_offers: int, n_sites: int, n_benchmarks: int) -> dict[str, Any]:
    """An input both engines accept and read alike: 1.1.0's fields only, plus task.gpus (2.0
    requires it); workload `training` (`fine_tuning` changed meaning in 2.0) and the validated
    tiers spelled out (the web input always carries them; the default changed in 2.0)."""
    sites = _sites(n_sites)
    offers = _offers(n_offers, sites)
    return {
        "task": {
            "name": "bench",
            "workload": "training",
            "cadence": "recurring",
            "runs_per_quarter": 3,
            "params_b": 13,
            "precision": "bf16",
            "gpus": 16,
            "parallelism": ["data", "tensor"],
            "coupling": "loose",
            "input_gb": 1200,
            "result_gb": 60,
            "compress_ratio": 0.6,
            "compute_hours": 20,
            "resumable": True,
            "resume_verified": True,
            "interruption_cost_hours": 2,
            "latency_budget_hours": {"transfer": 4, "queue": 12, "compute": None},
            "delay_cost_per_hour": 3,
            "env_simple": True,
            "image_packaged": True,
            "offsite_allowed": True,
            "team": {
                "has_machines": True,
                "has_scheduler": True,
                "pain": "slow",
                "validated_tiers": ["same_site", "same_datacenter"],
            },
            "home_site": sites[0]["code"],
            "data_site": sites[1 % n_sites]["code"],
            "result_site": sites[0]["code"],
        },
        "sites": sites,
        "links": _links(sites),
        "offers": offers,
        "benchmarks": _benchmarks(n_benchmarks, offers),
        "checklists": {o["id"]: {f"q{q}": "answered" for q in range(1, 7)} for o in offers},
    }


CASES: dict[str, tuple[int, int, int]] = {
    # name: (offers, sites, benchmark records)
    "typical": (5, 4, 10),
    "large": (50, 20, 10),
    "xl": (100, 20, 20),
}


# ---------------------------------------------------------------------------------------------
# The two engines


class BaselineUnavailable(Exception):
    pass


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), *args], capture_output=True, check=False, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BaselineUnavailable(f"git {args[0]}: {exc}") from exc
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise BaselineUnavailable(f"git {' '.join(args)}: {message[-1] if message else '?'}")
    return done.stdout.decode()


def engine_dir_at(rev: str) -> str | None:
    """The engine's folder at `rev` (it moved from apps/scoring/engine to engine), or None."""
    for folder in ENGINE_DIRS:
        try:
            _git("cat-file", "-e", f"{rev}:{folder}/schema.py")
        except BaselineUnavailable:
            continue
        return folder
    return None


def schema_version(rev: str) -> str | None:
    folder = engine_dir_at(rev)
    if folder is None:
        return None  # no engine at that commit
    match = VERSION_RE.search(_git("show", f"{rev}:{folder}/schema.py"))
    return match.group(1) if match else None


def find_baseline_commit(version: str = BASELINE_VERSION) -> str:
    """The newest commit changing the engine whose schema.py says ENGINE_VERSION = version."""
    for commit in _git("rev-list", "HEAD", "--", *ENGINE_DIRS).split():
        if schema_version(commit) == version:
            return commit
    raise BaselineUnavailable(f"no commit in HEAD's history has ENGINE_VERSION = {version!r}")


def extract_engine(commit: str, dest: Path, package: str) -> Path:
    """Write the engine tree of `commit` to dest/package, importable as `package`."""
    engine_dir = engine_dir_at(commit)
    if engine_dir is None:
        raise BaselineUnavailable(f"no engine at {commit[:10]}")
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", commit, engine_dir],
            capture_output=True,
            check=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise BaselineUnavailable(f"git archive {commit}: {exc}") from exc
    target = dest / package
    prefix = engine_dir + "/"
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.startswith(prefix):
                continue
            relative = Path(member.name[len(prefix) :])
            if ".." in relative.parts or "__pycache__" in relative.parts:
                continue
            source = tar.extractfile(member)
            assert source is not None
            content = source.read()
            if relative.suffix == ".py":
                text = content.decode()
                # The engine imports its own modules relatively; should a module name its
                # package absolutely, point it at the extracted copy. Anything else of the
                # project cannot be imported standalone.
                text = ENGINE_IMPORT_RE.sub(rf"\g<1>{package}", text)
                if PROJECT_IMPORT_RE.search(text):
                    raise BaselineUnavailable(
                        f"{engine_dir}/{relative} at {commit[:10]} imports the project or "
                        "Django; it cannot be imported standalone"
                    )
                content = text.encode()
            path = target / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
    if not (target / "__init__.py").is_file():
        raise BaselineUnavailable(f"{engine_dir}/__init__.py missing at {commit[:10]}")
    return target


def load_baseline(tmp: Path, rev: str | None) -> tuple[ModuleType, str]:
    commit = _git("rev-parse", "--verify", f"{rev}^{{commit}}").strip() if rev else None
    commit = commit or find_baseline_commit()
    extract_engine(commit, tmp, BASELINE_PACKAGE)
    sys.path.insert(0, str(tmp))
    try:
        module = importlib.import_module(BASELINE_PACKAGE)
    finally:
        sys.path.remove(str(tmp))
    return module, commit


# ---------------------------------------------------------------------------------------------
# Measuring


def _loop(evaluate: Callable[[Any], Any], data: dict[str, Any], n: int) -> float:
    """CPU seconds of n evaluations: the engine is single-threaded, and CPU time leaves out the
    time other processes of a busy machine hold the core (wall time would count it). The
    previous loop's garbage is collected first, untimed, so no loop pays for another's."""
    gc.collect()
    start = time.process_time()
    for _ in range(n):
        evaluate(data)
    return time.process_time() - start


def _calibrate(evaluate: Callable[[Any], Any], data: dict[str, Any], loop_seconds: float) -> int:
    """Warm up for about a loop's time; return how many evaluations fill one timed loop."""
    n, elapsed = 1, _loop(evaluate, data, 1)
    while elapsed < max(loop_seconds / 2, 0.02):
        n *= 2
        elapsed = _loop(evaluate, data, n)
    return max(1, round(n * loop_seconds / elapsed))


def measure(
    engines: dict[str, Callable[[Any], Any]],
    data: dict[str, Any],
    seconds: float,
    rounds: int,
) -> dict[str, dict[str, Any]]:
    """Evaluations/s of each engine in `rounds` short rounds. A round times every engine twice,
    in order and then in reverse (A B B A), so that a load which rises or falls during the round
    weighs on each engine alike; an engine's rate in the round is its two loops together. The
    figures are the median round; `round_per_second` keeps every round, in order, so that ratios
    can be taken round by round (see `round_ratios`)."""
    loop_seconds = seconds / (2 * rounds)
    sizes = {name: _calibrate(fn, data, loop_seconds) for name, fn in engines.items()}
    rates: dict[str, list[float]] = {name: [] for name in engines}
    order = list(engines)
    for _ in range(rounds):
        spent = dict.fromkeys(engines, 0.0)
        for name in (*order, *reversed(order)):
            spent[name] += _loop(engines[name], data, sizes[name])
        for name in engines:
            rates[name].append(2 * sizes[name] / spent[name])
    results: dict[str, dict[str, Any]] = {}
    for name, values in rates.items():
        median = statistics.median(values)
        results[name] = {
            "per_second": round(median, 1),
            "ms_each": round(1000 / median, 4),
            "min_per_second": round(min(values), 1),
            "max_per_second": round(max(values), 1),
            "rounds": rounds,
            "evaluations_per_loop": sizes[name],
            "round_per_second": [round(v, 1) for v in values],
        }
    return results


def round_ratios(now: dict[str, Any], then: dict[str, Any]) -> list[float]:
    """Round by round, one engine's rate over another's: both were timed within the same round
    (A B B A), so a load that lasts longer than a round cancels out of each ratio."""
    pairs = zip(now["round_per_second"], then["round_per_second"], strict=True)
    return [a / b for a, b in pairs]


def with_sensitivity_switch(module: ModuleType) -> bool:
    """Whether the engine's evaluate takes with_sensitivity (2.1 and later)."""
    try:
        return "with_sensitivity" in inspect.signature(module.evaluate).parameters
    except (TypeError, ValueError):
        return False


def _without_sensitivity(evaluate: Callable[..., Any]) -> Callable[[Any], Any]:
    def run(data: Any) -> Any:
        return evaluate(data, with_sensitivity=False)

    return run


def refusal(module: ModuleType, data: dict[str, Any]) -> list[str] | None:
    """None when `module` evaluates `data`; else lines saying why not."""
    error_class = getattr(module, "EngineInputError", None)
    try:
        module.evaluate(data)
    except Exception as exc:
        if error_class is not None and isinstance(exc, error_class):
            errors = getattr(exc, "errors", None) or [{"field": "", "message": str(exc)}]
            return [f"{e.get('field') or '<input>'}: {e.get('message')}" for e in errors]
        frames = traceback.extract_tb(exc.__traceback__)[-3:]
        return [
            f"crashed: {''.join(traceback.format_exception_only(exc)).strip()}",
            *(f"  at {Path(f.filename).name}:{f.lineno} in {f.name}" for f in frames),
        ]
    return None


# ---------------------------------------------------------------------------------------------


def run(args: argparse.Namespace, tmp: Path, say: Callable[[str], None]) -> dict[str, Any]:
    current: ModuleType | None = None
    current_error = None
    try:
        current = importlib.import_module("engine")
    except Exception as exc:  # the engine being rewritten may not import at all
        current_error = "".join(traceback.format_exception_only(exc)).strip()
        say(f"current engine does not import: {current_error}")
    baseline: ModuleType | None = None
    baseline_commit = None
    baseline_error = None
    try:
        baseline, baseline_commit = load_baseline(tmp, args.baseline)
    except Exception as exc:  # no git, shallow clone without 2.2.0, extraction failure …
        baseline_error = "".join(traceback.format_exception_only(exc)).strip()
        say(f"{BASELINE_VERSION} engine unavailable: {baseline_error}")

    cur_version = getattr(current, "ENGINE_VERSION", None)
    base_version = getattr(baseline, "ENGINE_VERSION", None)
    results: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "engine_version": cur_version,
        "current": {"engine_version": cur_version, "source": "working tree", "error": None},
        "baseline": {
            "engine_version": base_version,
            "commit": baseline_commit,
            "error": baseline_error,
        },
        "seconds_per_engine_per_input": args.seconds,
        "rounds": args.rounds,
        "slower": [],
        "sensitivity_too_dear": [],
    }
    if current_error:
        results["current"]["error"] = current_error
    if base_version is not None and base_version != BASELINE_VERSION:
        say(f"note: the baseline engine says {base_version}, not {BASELINE_VERSION}")

    for name, (n_offers, n_sites, n_benchmarks) in CASES.items():
        data = build_input(n_offers, n_sites, n_benchmarks)
        case: dict[str, Any] = {
            "offers": len(data["offers"]),
            "sites": len(data["sites"]),
            "links": len(data["links"]),
            "benchmarks": len(data["benchmarks"]),
            "per_second": None,
            "baseline_per_second": None,
            "ratio": None,
        }
        engines: dict[str, Callable[[Any], Any]] = {}
        for role, module in (("current", current), ("baseline", baseline)):
            if module is None:
                continue
            refused = refusal(module, data)
            version = getattr(module, "ENGINE_VERSION", "?")
            if refused is None:
                engines[role] = module.evaluate
                if role == "current" and with_sensitivity_switch(module):
                    engines[PLAIN] = _without_sensitivity(module.evaluate)
                continue
            case[f"{role}_error"] = refused
            say(f"engine {version} ({role}) refuses or fails on the {name} input:")
            for line in refused[:20]:
                say(f"    {line}")
            if len(refused) > 20:
                say(f"    … and {len(refused) - 20} more")
        if engines:
            figures = measure(engines, data, args.seconds, args.rounds)
            case.update({f"{role}_figures": f for role, f in figures.items()})
            if "current" in figures:
                case["per_second"] = figures["current"]["per_second"]
                case["ms_each"] = figures["current"]["ms_each"]
            if "baseline" in figures:
                case["baseline_per_second"] = figures["baseline"]["per_second"]
            if PLAIN in figures and "current" in figures:
                case["without_sensitivity_per_second"] = figures[PLAIN]["per_second"]
                # How many evaluations without sensitivity one evaluation with it costs.
                cost = round_ratios(figures[PLAIN], figures["current"])
                case["sensitivity_cost"] = round(statistics.median(cost), 3)
                if case["sensitivity_cost"] > MAX_SENSITIVITY_COST:
                    results["sensitivity_too_dear"].append(name)
            if "current" in figures and "baseline" in figures:
                ratios = sorted(round_ratios(figures["current"], figures["baseline"]))
                # The median round's ratio: each round timed both engines under the same load.
                case["ratio"] = round(statistics.median(ratios), 3)
                quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
                case["ratio_quartiles"] = [round(quartiles[0], 3), round(quartiles[2], 3)]
                case["ratio_range"] = [round(ratios[0], 3), round(ratios[-1], 3)]
                # The two medians' ratio, for comparison with earlier runs of this script.
                case["ratio_of_medians"] = round(
                    case["per_second"] / case["baseline_per_second"], 3
                )
                if case["ratio"] < 1.0:
                    results["slower"].append(name)
        results[name] = case
    return results


def slower_lines(results: dict[str, Any]) -> list[str]:
    lines = [
        f"sensitivity costs more than {MAX_SENSITIVITY_COST:g}× on {name}: "
        f"{results[name]['sensitivity_cost']:.3f}×"
        for name in results.get("sensitivity_too_dear", [])
    ]
    cur = results["current"]["engine_version"] or "current"
    base = results["baseline"]["engine_version"] or BASELINE_VERSION
    for name in results["slower"]:
        r = results[name]
        lines.append(
            f"{cur} slower than {base} on {name}: {r['ratio']:.3f}× "
            f"({r['per_second']:.1f} vs {r['baseline_per_second']:.1f} evaluations/s"
            + (
                "; some rounds were not slower, so this may be noise)"
                if r["ratio_range"][1] >= 1.0
                else ")"
            )
        )
    return lines


def print_table(results: dict[str, Any], say: Callable[[str], None]) -> None:
    cur = results["current"]["engine_version"] or "current"
    base = results["baseline"]["engine_version"] or BASELINE_VERSION
    commit = results["baseline"]["commit"]
    say(
        f"scoring engine {cur} (working tree) vs {base} (git {commit[:10] if commit else '-'})"
        f" on Python {results['python']}; evaluations/s, median of {results['rounds']} rounds"
    )
    header = (
        f"  {'input':8s}{'offers':>7s}{'sites':>6s}{'links':>6s}{'records':>8s}"
        f"{cur + ' now':>12s}{'no sens.':>10s}{'cost':>7s}{base + ' git':>12s}{'ratio':>8s}"
        "   round ratios: middle half (all)"
    )
    say(header)

    def cell(value: float | None, width: int, fmt: str) -> str:
        return f"{value:>{width}{fmt}}" if value is not None else f"{'error':>{width}s}"

    for name in CASES:
        r = results[name]
        spread = (
            f"{r['ratio_quartiles'][0]:.2f}–{r['ratio_quartiles'][1]:.2f} "
            f"({r['ratio_range'][0]:.2f}–{r['ratio_range'][1]:.2f})"
            if r.get("ratio_quartiles")
            else ""
        )
        say(
            f"  {name:8s}{r['offers']:>7d}{r['sites']:>6d}{r['links']:>6d}{r['benchmarks']:>8d}"
            f"{cell(r['per_second'], 12, '.1f')}"
            f"{cell(r.get('without_sensitivity_per_second'), 10, '.1f')}"
            f"{cell(r.get('sensitivity_cost'), 7, '.2f')}"
            f"{cell(r['baseline_per_second'], 12, '.1f')}"
            f"{cell(r['ratio'], 8, '.3f')}   {spread}"
        )
    for line in slower_lines(results):
        say(line)
    say(
        f"now = with sensitivity (the default); no sens. = with_sensitivity=False; cost = no sens."
        f" / now (at most {MAX_SENSITIVITY_COST:g}); ratio = now / {base} in the median round"
        " (1.000 or more: not slower); evaluations per CPU second"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object, last")
    parser.add_argument(
        "--seconds", type=float, default=1.5, help="timed seconds per engine per input"
    )
    parser.add_argument(
        "--rounds",
        "--repeats",
        type=int,
        default=15,
        help="rounds per input; each times every engine twice (A B B A)",
    )
    parser.add_argument(
        "--baseline", metavar="REV", help="commit of the engine to compare with (default: 2.2.0)"
    )
    parser.add_argument(
        "--output", type=Path, default=DEFAULT_OUTPUT, help=f"JSON file (default {DEFAULT_OUTPUT})"
    )
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds and --seconds must be positive")

    def say(line: str) -> None:
        # With --json, stdout carries only the JSON line (bench/run parses the last line).
        print(line, file=sys.stderr if args.json else sys.stdout, flush=True)

    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        results = run(args, Path(tmp), say)
    try:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(results, indent=2) + "\n")
    except OSError as exc:
        say(f"could not write {args.output}: {exc}")
    if args.json:
        for line in slower_lines(results):
            say(line)
        print(json.dumps(results), flush=True)
    else:
        print_table(results, say)
        print(f"results in {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
