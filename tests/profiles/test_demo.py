from __future__ import annotations

import pytest
from django.utils import translation

from apps.accounts.demo import load_accounts
from apps.accounts.models import Team
from apps.catalog import demo as catalog_demo
from apps.catalog.models import NetworkLink, Offer, Site
from apps.profiles import demo as profiles_demo
from apps.profiles.models import TaskProfile
from apps.scoring.inputs import evaluate_profile

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Messages are asserted in English, whatever an earlier test left active."""
    with translation.override("en"):
        yield


def load() -> None:
    """The catalog and profile parts of load_demo, in its order (the rest is other apps')."""
    ctx = load_accounts()
    catalog_demo.load(ctx)
    profiles_demo.load(ctx)
    assert {"bj-a", "gz-a"} <= set(ctx.objects["sites"])
    assert {"h100-bj-a", "l40s-gz-a"} <= set(ctx.objects["offers"])
    assert "cleaning-5tb" in ctx.objects["profiles"]


@pytest.fixture
def demo():
    load()
    return Team.objects.get(slug="aurora")


def evaluation(team, name_part):
    profile = TaskProfile.objects.get(team=team, name__icontains=name_part)
    data, output, errors = evaluate_profile(profile)
    assert errors == []
    return data, output


class CatalogDemoTests:
    def test_it_is_idempotent(self, demo):
        counts = [
            Site.objects.count(),
            NetworkLink.objects.count(),
            Offer.objects.count(),
            TaskProfile.objects.count(),
        ]
        load()
        assert counts == [
            Site.objects.count(),
            NetworkLink.objects.count(),
            Offer.objects.count(),
            TaskProfile.objects.count(),
        ]

    def test_the_first_team_has_the_world_the_issue_asks_for(self, demo):
        sites = Site.objects.filter(team=demo)
        assert sites.count() >= 4
        assert sites.values("city").distinct().count() >= 3
        assert sites.values("hub").distinct().count() >= 2
        offers = Offer.objects.filter(team=demo)
        gpu_models = set(offers.values_list("gpu_model", flat=True))
        assert {"H100 SXM 80GB", "A100 SXM 80GB", "H200 141GB", "L40S 48GB"} <= gpu_models
        assert set(offers.values_list("billing_basis", flat=True)) == {
            "gpu_hour",
            "machine_hour",
            "contract",
        }
        assert set(offers.values_list("kind", flat=True)) == {"compute", "distributed", "managed"}
        links = NetworkLink.objects.filter(team=demo)
        assert links.filter(reservable=True).exists()
        assert links.filter(from_site__code="bj-a", to_site__code="gz-a").exists()
        assert links.filter(from_site__code="gz-a", to_site__code="bj-a").exists()
        assert TaskProfile.objects.filter(team=demo).count() == 9  # six v1 stories and three of method 2.0

    def test_the_second_team_has_its_own_smaller_set_in_cny(self, demo):
        team2 = Team.objects.get(slug="borealis")
        assert team2.currency == "CNY"
        assert Site.objects.filter(team=team2).count() == 2
        assert Offer.objects.filter(team=team2, site__team=team2).count() == 2
        assert TaskProfile.objects.filter(team=team2).count() == 2


class ProfileDemoTests:
    def test_the_7b_inference_fits_one_gpu(self, demo):
        _, out = evaluation(demo, "7B batch")
        assert out["sizing"]["estimated_gpu_mem_gb"] == pytest.approx(16.8)
        assert all(row["fits_single_gpu"] for row in out["sizing"]["offers"])
        assert out["platform"] == "compute_platform"

    def test_the_70b_training_needs_several_machines_everywhere(self, demo):
        _, out = evaluation(demo, "70B full training")
        assert out["sizing"]["estimated_gpu_mem_gb"] == pytest.approx(1344)
        assert all(row["machines_needed"] > 1 for row in out["sizing"]["offers"])
        assert out["platform_rule"] == "R1b"

    def test_the_tensor_parallel_training_stays_whole_in_one_pool(self, demo):
        """SPEC 6.1: tight coupling limits spreading (X3 is information, not an exclusion);
        this job stays home because its portability gate fails (G1: home domain only)."""
        _, out = evaluation(demo, "tensor parallel")
        assert "X3" not in out["cross_domain"]["exclusions"]
        assert out["cross_domain"]["spread_tier"] == "same_site"
        severities = {f["rule"]: f["severity"] for f in out["findings"]}
        assert severities["X3"] == "info" and "K1" in severities and "G1" in severities
        assert out["chosen"]["kind"] == "wait_local"
        assert {o["reason"] for o in out["options"] if not o["feasible"]} <= {
            "not_eligible",
            "no_shared_parallelism",
        }

    def test_the_cleaning_job_moves_compute_to_its_data(self, demo):
        data, out = evaluation(demo, "Clickstream cleaning")
        assert data["task"]["data_site"] == "gz-a" and data["task"]["home_site"] == "bj-a"
        assert out["chosen"]["kind"] == "move_compute" and out["chosen"]["site"] == "gz-a"
        assert {"D1", "M1"} <= {f["rule"] for f in out["findings"]}

    def test_the_compliance_job_does_not_move_its_data(self, demo):
        _, out = evaluation(demo, "Medical imaging")
        assert "X4" in out["cross_domain"]["exclusions"]
        assert out["chosen"]["kind"] == "wait_local"

    def test_the_online_service_stays_local(self, demo):
        _, out = evaluation(demo, "online")
        assert "X1" in out["cross_domain"]["exclusions"]
        assert out["chosen"]["kind"] == "wait_local"


class MethodTwoDemoTests:
    """The demo shows the SPEC 6.1 corrections a real team meets first."""

    def test_the_compliance_job_with_data_away_from_home_runs_next_to_its_data(self, demo):
        _, out = evaluation(demo, "Genomics")
        assert out["chosen"] == {
            "kind": "move_compute",
            "site": "gz-a",
            "offer": out["chosen"]["offer"],
        }
        home = [o for o in out["options"] if o["site"] == "bj-a"]
        assert home and all("compliance_site" in o["reasons"] for o in home)

    def test_the_sharded_full_fine_tune_needs_only_a_compute_platform(self, demo):
        _, out = evaluation(demo, "Mistral-7B")
        # 7 B params × 16 bytes × 1.2 = 134.4 GB: two 72 GB-usable GPUs, one 8-GPU machine.
        assert out["sizing"]["estimated_gpu_mem_gb"] == 134.4
        assert out["platform"] == "compute_platform"

    def test_the_long_run_without_resume_warns_r7_and_small_pools_are_too_small(self, demo):
        _, out = evaluation(demo, "continued pre-training")
        assert "R7" in {f["rule"] for f in out["findings"]}
        assert any(o["reason"] == "pool_too_small" for o in out["options"])
