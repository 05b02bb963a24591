"""A snapshot's chosen plan as a SkyPilot task YAML (issue 40): something a team can run with
`sky launch task.yaml` instead of a page to copy from.

What the plan fixes goes in as the snapshot holds it (what was reviewed, and for an approved review
signed): the machines (`num_nodes`, the machines the option uses: ⌈GPUs ÷ GPUs per machine⌉,
SPEC 7.10), GPUs per machine and spot or on demand (`use_spot`). Where the machine is
bought comes from the offer as it is now: its provider as SkyPilot's cloud, its region and
instance type (a catalog import fills them), its GPU model as the accelerator. What the review
does not know is left for the team to fill, marked REPLACE: the command, and the input at the
data site as a file mount.

An offer whose provider is not one of SkyPilot's clouds cannot be launched this way, and says so.
"""

from __future__ import annotations

import math
import re

import yaml
from django.utils.translation import gettext as _

from apps.catalog.models import Offer
from apps.reviews.snapshots.charts import chosen_option
from apps.reviews.snapshots.models import EvaluationSnapshot

# SkyPilot 0.14's clouds (sky/utils/schemas.py, the `infra` pattern), and what teams call them.
SKYPILOT_CLOUDS = {
    "aws", "azure", "gcp", "ibm", "lambda", "scp", "oci", "runpod", "vast", "vsphere", "cudo",
    "fluidstack", "paperspace", "primeintellect", "do", "nebius", "hyperbolic", "seeweb",
    "shadeform", "yotta", "mithril", "verda",
}  # fmt: skip
PROVIDER_NAMES = {
    "amazon": "aws", "amazon web services": "aws", "google": "gcp", "google cloud": "gcp",
    "microsoft azure": "azure", "lambda labs": "lambda", "lambda cloud": "lambda",
    "digitalocean": "do", "digital ocean": "do", "oracle": "oci", "oracle cloud": "oci",
}  # fmt: skip
REPLACE = "REPLACE"


class NotLaunchable(Exception):
    """The plan cannot be written as a SkyPilot task; `message` says why, in the user's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def skypilot_cloud(provider: str) -> str | None:
    name = re.sub(r"\s+", " ", provider.strip().lower())
    name = PROVIDER_NAMES.get(name, name)
    return name if name in SKYPILOT_CLOUDS else None


def _input_offer(snapshot: EvaluationSnapshot, offer_id: str) -> dict:
    for offer in (snapshot.input or {}).get("offers", []):
        if str(offer.get("id")) == offer_id:
            return offer
    raise NotLaunchable(_("The chosen offer is not in the snapshot's input."))


def skypilot_task(snapshot: EvaluationSnapshot) -> dict:
    """The task as a dict in SkyPilot's YAML shape; NotLaunchable when it cannot be."""
    option = chosen_option(snapshot.output or {})
    if option is None:
        raise NotLaunchable(_("This snapshot chose no option: there is no plan to launch."))
    offer_id = str(option["offer"])
    frozen = _input_offer(snapshot, offer_id)
    offer = Offer.objects.for_team(snapshot.team).filter(pk=int(offer_id)).first()
    if offer is None:
        raise NotLaunchable(_("The chosen offer has been deleted from the catalog."))
    cloud = skypilot_cloud(offer.provider)
    if cloud is None:
        raise NotLaunchable(
            _("%(provider)s is not a cloud SkyPilot launches on.") % {"provider": offer.provider}
        )
    per_machine = int(frozen.get("gpus_per_machine") or offer.gpus_per_machine)
    gpus = option.get("gpus") or option.get("billed_gpus") or per_machine
    accelerator = re.sub(r"\s+", "-", offer.gpu_model.strip())
    resources = {
        "infra": f"{cloud}/{offer.region}" if offer.region else cloud,
        "accelerators": f"{accelerator}:{per_machine}",
        "use_spot": bool(option.get("preemptible", frozen.get("preemptible", False))),
    }
    if offer.instance_type:
        resources["instance_type"] = offer.instance_type
    data_site = ((snapshot.input or {}).get("task") or {}).get("data_site") or "data"
    return {
        "name": f"review-{snapshot.review_id}",
        "num_nodes": max(1, math.ceil(gpus / per_machine)),
        "resources": resources,
        "file_mounts": {"/data": f"{REPLACE}: the input at site {data_site} (bucket or path)"},
        "run": f"# {REPLACE}: the job's command\n",
    }


def skypilot_yaml(snapshot: EvaluationSnapshot) -> str:
    task = skypilot_task(snapshot)
    header = (
        f"# Review #{snapshot.review_id}, snapshot {snapshot.pk} (engine {snapshot.engine_version})"
        f": the chosen plan as a SkyPilot task.\n"
        f"# Fill in what is marked {REPLACE}, then: sky launch -c review-{snapshot.review_id} "
        "task.yaml\n"
    )
    return header + yaml.safe_dump(task, sort_keys=False, allow_unicode=True)
