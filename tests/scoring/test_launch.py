"""A snapshot's chosen plan as a SkyPilot task YAML (issue 40), validated by SkyPilot's own task
and resources schemas (skypilot 0.14.1, vendored in tests/data/skypilot) and checked value by
value against the plan: accelerators, machines, spot, region."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema_rs
import pytest
import yaml
from django.urls import reverse

from apps.catalog.models import Offer
from apps.reviews.snapshots.charts import chosen_option
from apps.reviews.snapshots.services import snapshot_compute
from apps.scoring.launch import NotLaunchable, skypilot_task, skypilot_yaml

SCHEMAS = Path(__file__).resolve().parent.parent / "data" / "skypilot"
TASK = jsonschema_rs.validator_for(json.loads((SCHEMAS / "task_schema-0.14.1.json").read_text()))
RESOURCES = jsonschema_rs.validator_for(
    json.loads((SCHEMAS / "resources_schema-0.14.1.json").read_text())
)

pytestmark = pytest.mark.django_db


def launchable(world, **offer_fields) -> Offer:
    """Every offer of the world on Lambda in us-east-1, as a catalog import would leave it."""
    fields = {"provider": "Lambda", "region": "us-east-1", "instance_type": "gpu_8x_h100_sxm5",
              "gpu_model": "H100", **offer_fields}  # fmt: skip
    Offer.objects.filter(pk__in=[world.local.pk, world.near_data.pk, world.remote.pk]).update(
        **fields
    )
    return Offer.objects.get(pk=world.local.pk)


def assert_valid(task: dict) -> None:
    errors = [e.message for e in TASK.iter_errors(task)]
    errors += [e.message for e in RESOURCES.iter_errors(task["resources"])]
    assert errors == []


def test_the_task_is_skypilots_and_says_what_the_plan_says(world, snapshot):
    launchable(world)
    snapshot = snapshot_compute(review_id=world.review.pk)
    task = yaml.safe_load(skypilot_yaml(snapshot))
    assert_valid(task)
    option = chosen_option(snapshot.output)
    frozen = next(o for o in snapshot.input["offers"] if o["id"] == str(option["offer"]))
    per_machine = frozen["gpus_per_machine"]
    # The task plans 8 GPUs on machines of 8: one machine.
    assert task["num_nodes"] == math.ceil(option["gpus"] / per_machine) == 1
    assert task["resources"]["accelerators"] == f"H100:{per_machine}"
    assert task["resources"]["infra"] == "lambda/us-east-1"
    assert task["resources"]["instance_type"] == "gpu_8x_h100_sxm5"
    assert task["resources"]["use_spot"] is False
    assert task["name"] == f"review-{world.review.pk}"
    assert "REPLACE" in task["file_mounts"]["/data"] and "REPLACE" in task["run"]


def test_machines_follow_the_billed_gpus_and_spot_the_offer(team, owner):
    from tests.scoring.helpers import make_world

    world = make_world(team, owner, gpus=20)
    launchable(world, preemptible=True, preemptions_per_day=0.1)
    snapshot = snapshot_compute(review_id=world.review.pk)
    task = skypilot_task(snapshot)
    assert_valid(task)
    option = chosen_option(snapshot.output)
    # 20 GPUs planned on machines of 8: ⌈20 ÷ 8⌉ = 3 machines (SPEC 7.10).
    assert option["gpus"] == 20 and task["num_nodes"] == 3
    assert task["resources"]["use_spot"] is True


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"provider": "Acme Colo"}, "Acme Colo is not a cloud SkyPilot launches on."),
        ({"region": "", "instance_type": ""}, None),
    ],
)
def test_a_provider_skypilot_does_not_know_is_refused_by_name(world, change, message):
    launchable(world, **change)
    snapshot = snapshot_compute(review_id=world.review.pk)
    if message is None:  # no region or type: the cloud alone, still a valid task
        task = skypilot_task(snapshot)
        assert_valid(task)
        assert task["resources"]["infra"] == "lambda" and "instance_type" not in task["resources"]
        return
    with pytest.raises(NotLaunchable, match=message):
        skypilot_task(snapshot)


def test_the_page_download_and_the_api_answer_for_the_team_only(
    client, world, owner, outsider
):
    launchable(world)
    snapshot = snapshot_compute(review_id=world.review.pk)
    url = reverse("scoring:snapshot_skypilot", args=[snapshot.pk])
    client.force_login(owner)
    page = client.get(url)
    assert page.status_code == 200 and page["Content-Type"].startswith("application/yaml")
    assert "attachment" in page["Content-Disposition"]
    assert_valid(yaml.safe_load(page.content))
    api = client.get(f"/api/v1/snapshots/{snapshot.pk}/skypilot")
    assert api.status_code == 200 and yaml.safe_load(api.content) == yaml.safe_load(page.content)
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert client.get(f"/api/v1/snapshots/{snapshot.pk}/skypilot").status_code == 404


def test_a_plan_that_cannot_be_launched_says_why(client, world, owner):
    launchable(world, provider="Acme Colo")
    snapshot = snapshot_compute(review_id=world.review.pk)
    client.force_login(owner)
    page = client.get(reverse("scoring:snapshot_skypilot", args=[snapshot.pk]), follow=True)
    assert page.redirect_chain[-1][0] == reverse("scoring:snapshot_detail", args=[snapshot.pk])
    assert "Acme Colo is not a cloud SkyPilot launches on." in page.content.decode()
    api = client.get(f"/api/v1/snapshots/{snapshot.pk}/skypilot")
    assert api.status_code == 422
    assert api.json()["errors"][0]["field"] == "snapshot_id"
