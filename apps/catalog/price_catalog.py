"""Reading a provider's price catalog: SkyPilot's catalog CSV (`vms.csv`, schema v7/v8:
`InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice`,
with `AvailabilityZone` and `Arch` in some files), the de-facto multi-cloud one, and the same shape
from any provider.

One catalog row is one machine type in one region (or zone): `Price` per instance-hour, so each
GPU machine type becomes one offer billed per machine-hour, `AcceleratorCount` GPUs per machine.
What is read here is only the file; `services.offers_import_catalog` writes the offers.

- CPU-only rows (no accelerator, or a count of 0) are skipped and counted; a fraction of a GPU
  (a shared slice) is skipped with a warning: it is not a machine this method prices.
- A file naming several regions needs one chosen (`region`); rows of one machine type in one
  region (one per zone) must agree on the on-demand price; the spot price taken is the highest
  of its zones (a plan should not count on the cheapest zone having room).
- GPU memory per GPU comes from `GpuInfo` (`MemoryInfo.SizeInMiB`, taken as GiB, the way GPU
  memory is sold: 81920 MiB = an 80 GB H100). Public catalogs get it wrong (one lists the host's
  200 GiB for an H100): for a GPU model whose memory is known, a figure that is none of its sizes
  is replaced by its smallest size, with a warning, so a plan never counts on memory the GPU
  does not have.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from apps.web.ingest import CsvShape, RowError, parse_csv

# A catalog lists every machine type in every region: more rows than a team's own upload, within
# the same 2 MB as every CSV (apps/web/ingest; a larger catalog is cut to its region first).
MAX_CATALOG_ROWS = 20_000

# Column names as the CSV reader gives them (lower case).
CATALOG_SHAPE = CsvShape(
    columns=(
        "instancetype", "acceleratorname", "acceleratorcount", "vcpus", "memorygib", "price",
        "region", "availabilityzone", "gpuinfo", "spotprice", "arch",
    ),
    required=("instancetype", "acceleratorname", "acceleratorcount", "price", "region", "gpuinfo"),
    max_rows=MAX_CATALOG_ROWS,
    other_columns="pass",
)  # fmt: skip

# GPU memory sizes (GB as sold) of the models catalogs list; the smallest is the safe default.
KNOWN_GPU_MEMORY_GB: dict[str, tuple[float, ...]] = {
    "T4": (16,), "V100": (16, 32), "A10": (24,), "A10G": (24,), "L4": (24,), "A6000": (48,),
    "RTXA6000": (48,), "L40": (48,), "L40S": (48,), "A100": (40, 80), "A100-80GB": (80,),
    "H100": (80, 94), "H100-MEGA": (80,), "H200": (141,), "GH200": (96, 144), "B200": (180, 192),
    "MI300X": (192,),
}  # fmt: skip
_MIB_PER_GIB = 1024


@dataclass
class CatalogOffer:
    """One GPU machine type of the catalog in the chosen region."""

    name: str
    gpu_model: str
    gpus_per_machine: int
    gpu_mem_gb: float
    price: float
    spot_price: float | None
    lines: list[int]


@dataclass
class CatalogRead:
    offers: list[CatalogOffer] = field(default_factory=list)
    regions: list[str] = field(default_factory=list)
    skipped_cpu_rows: int = 0
    warnings: list[str] = field(default_factory=list)
    # Line number -> errors (line 1: the file as a whole).
    errors: dict[int, list[RowError]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


def _number(text: str, column: str, errors: list[RowError], *, blank_ok: bool = False):
    text = (text or "").strip()
    if not text and blank_ok:
        return None
    try:
        value = float(text)
    except ValueError:
        errors.append(RowError(column, _("Not a number: %(value)r.") % {"value": text[:40]}))
        return None
    if not math.isfinite(value) or value < 0 or value > 1e12:
        errors.append(RowError(column, _("Out of range (0 to 10¹²): %(value)s.") % {"value": text}))
        return None
    return value


def _gpu_memory(gpu_info: str, errors: list[RowError]) -> float | None:
    """Per-GPU memory in GB from GpuInfo (a Python-literal dict in SkyPilot's files)."""
    try:
        info = ast.literal_eval(gpu_info.strip()) if gpu_info.strip() else None
        size_mib = info["Gpus"][0]["MemoryInfo"]["SizeInMiB"]
    except (ValueError, SyntaxError, TypeError, KeyError, IndexError, MemoryError):
        errors.append(RowError("GpuInfo", _("No GPU memory in it (Gpus[0].MemoryInfo.SizeInMiB).")))
        return None
    if isinstance(size_mib, bool) or not isinstance(size_mib, int | float) or size_mib <= 0:
        errors.append(RowError("GpuInfo", _("SizeInMiB must be a number above 0.")))
        return None
    return round(size_mib / _MIB_PER_GIB, 2)


def _known_memory(model: str, stated: float, warnings: list[str], name: str) -> float:
    sizes = KNOWN_GPU_MEMORY_GB.get(re.sub(r"\s+", "", model).upper())
    if sizes is None or stated in sizes:
        return stated
    warnings.append(
        _(
            "%(name)s: the catalog says %(stated)s GB per %(model)s GPU, which no %(model)s has; "
            "%(safe)s GB (its smallest size) is used: check it on the offer."
        )
        % {"name": name, "stated": f"{stated:g}", "model": model, "safe": f"{sizes[0]:g}"}
    )
    return float(sizes[0])


def _gpu_row(values: dict[str, str], line: int, read: CatalogRead) -> CatalogOffer | None:
    """The row as an offer, or None (skipped or wrong: read says which)."""
    model = values.get("acceleratorname", "").strip()
    errors: list[RowError] = []
    count = _number(values.get("acceleratorcount", ""), "AcceleratorCount", errors, blank_ok=True)
    if not errors and (not model or not count):
        read.skipped_cpu_rows += 1
        return None
    name = values.get("instancetype", "").strip()
    if not name:
        errors.append(RowError("InstanceType", _("Required.")))
    if count is not None and count != int(count):
        read.warnings.append(
            _("%(name)s (line %(line)d): %(count)s GPU is a shared slice, skipped.")
            % {"name": name, "line": line, "count": f"{count:g}"}
        )
        return None
    price = _number(values.get("price", ""), "Price", errors)
    spot = _number(values.get("spotprice", ""), "SpotPrice", errors, blank_ok=True)
    memory = _gpu_memory(values.get("gpuinfo", ""), errors)
    if errors:
        read.errors[line] = errors
        return None
    return CatalogOffer(
        name=name, gpu_model=model, gpus_per_machine=int(count),
        gpu_mem_gb=_known_memory(model, memory, read.warnings, name), price=price,
        spot_price=spot, lines=[line],
    )  # fmt: skip


def _merge(kept: CatalogOffer, row: CatalogOffer, read: CatalogRead) -> None:
    """One machine type listed once per zone: one price, the highest spot price."""
    if row.price != kept.price or row.gpus_per_machine != kept.gpus_per_machine:
        read.errors.setdefault(row.lines[0], []).append(
            RowError(
                "Price",
                _("%(name)s is listed on line %(first)d with another price or GPU count.")
                % {"name": row.name, "first": kept.lines[0]},
            )
        )
        return
    if row.spot_price is not None:
        kept.spot_price = max(kept.spot_price or 0.0, row.spot_price)
    kept.lines.append(row.lines[0])


def read_catalog(content: str, *, region: str | None = None) -> CatalogRead:
    """The GPU machine types of `content` in `region` (needed when the file names several)."""
    parsed = parse_csv(content, CATALOG_SHAPE)
    read = CatalogRead(errors=dict(parsed.errors_by_line))
    if read.errors:
        return read
    by_name: dict[str, CatalogOffer] = {}
    regions: set[str] = set()
    for row in parsed.rows:
        row_region = row.values.get("region", "").strip()
        offer = _gpu_row(row.values, row.line, read)
        if offer is None:
            continue
        regions.add(row_region)
        if region is not None and row_region != region:
            continue
        if offer.name in by_name:
            _merge(by_name[offer.name], offer, read)
        else:
            by_name[offer.name] = offer
    read.regions = sorted(regions)
    if region is None and len(regions) > 1:
        listed = ", ".join(read.regions[:10]) + (" …" if len(regions) > 10 else "")
        read.errors.setdefault(1, []).append(
            RowError(
                "Region",
                _("The catalog lists %(count)d regions (%(regions)s): choose one.")
                % {"count": len(regions), "regions": listed},
            )
        )
    elif region is not None and region not in regions:
        read.errors.setdefault(1, []).append(
            RowError("Region", _("No GPU machine in region %(region)r.") % {"region": region})
        )
    read.offers = sorted(by_name.values(), key=lambda offer: offer.name)
    return read
