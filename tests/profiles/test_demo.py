from __future__ import annotations

import pytest
from django.utils import translation

from apps.accounts.demo import load_accounts
from apps.accounts.models import Team
from apps.benchmarks import demo as benchmarks_demo
from apps.catalog import demo as catalog_demo
from apps.catalog.models import NetworkLink, Offer, Site
from apps.profiles import demo as profiles_demo
from apps.profiles.engine_input import evaluate_profile
from apps.profiles.models import TaskProfile
from apps.reviews.models import AuditEvent

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Messages are asserted in English, whatever an earlier test left active."""
    with translation.override("en"):
        yield


def load():
    """The catalog and profile parts of load_demo, in its order (the rest is other apps')."""
    ctx = load_accounts()
    catalog_demo.load(ctx)
    profiles_demo.load(ctx)
    assert {"bj-a", "gz-a"} <= set(ctx.objects["sites"])
    assert {"h100-bj-a", "l40s-gz-a"} <= set(ctx.objects["offers"])
    assert "cleaning-5tb" in ctx.objects["profiles"]
    return ctx


@pytest.fixture(scope="session")
def catalog_demo_rows(django_db_setup, django_db_blocker):
    """The catalog and profile parts, loaded once per run (tests/demo_world.py)."""
    from django.db import connection

    from tests.demo_world import build_rows

    with django_db_blocker.unblock():
        return build_rows(connection, load)


@pytest.fixture
def demo(request, catalog_demo_rows):
    from tests.demo_world import restore_rows

    restore_rows(request, catalog_demo_rows)
    return Team.objects.get(slug="aurora")


def evaluation(team, name_part, **kwargs):
    profile = TaskProfile.objects.get(team=team, name__icontains=name_part)
    data, output, errors = evaluate_profile(profile, **kwargs)
    assert errors == []
    return data, output


def offer_id(team, key: str) -> str:
    """The engine's id of a demo offer, by its key in apps.catalog.demo."""
    spec = next(o for o in catalog_demo.AURORA_OFFERS if o["key"] == key)
    return str(Offer.objects.get(team=team, name=spec["name"]).pk)


def findings(out, rule: str) -> list[dict]:
    return [f for f in out["findings"] if f["rule"] == rule]


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
        # Six v1 stories, eight of method 2.0, one profile imported from v1, one of engine 2.1
        # (lora-8b-spot), one of 2.2 (tokens-14b-staged), two of 3.0 (finetune-70b-8gpus,
        # scans-stay-gz) and three of 3.1 (pretrain-70b-tight-32, docs-7b-streamed,
        # eval-sweep-deadline).
        assert TaskProfile.objects.filter(team=demo).count() == 22

    def test_the_second_team_has_its_own_smaller_set_in_cny(self, demo):
        team2 = Team.objects.get(slug="borealis")
        assert team2.currency == "CNY"
        assert Site.objects.filter(team=team2).count() == 2
        # Two offers, and the annual A800 package already paid (SPEC 7.6).
        assert Offer.objects.filter(team=team2, site__team=team2).count() == 3
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
        # SPEC 7.1 (engine 3.0): 40B training needs 40 × 16 × 1.2 = 768 GB; on 80 GB GPUs (72
        # usable) ⌈10.67⌉ = 11 GPUs, more than the 8 planned: too_few_gpus on those offers
        reasons = {o["reason"] for o in out["options"] if not o["feasible"]}
        assert reasons <= {"not_eligible", "no_shared_parallelism", "too_few_gpus"}
        needed = {row["offer"]: row["gpus_needed"] for row in out["sizing"]["offers"]}
        # (an offer that cannot split keeps its own reason, no_shared_parallelism)
        for o in out["options"]:
            short = {"too_few_gpus", "no_shared_parallelism"} & set(o["reasons"])
            assert bool(short) == (needed[o["offer"]] > 8), o["offer"]
        assert "too_few_gpus" in reasons

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

    def test_a_measured_cross_machine_gain_makes_the_weekly_retraining_distributed(self, demo):
        """R6 reads the benchmark records of apps.benchmarks.demo."""
        benchmarks_demo.load(load())  # idempotent: the context with its objects
        _, out = evaluation(demo, "Text-embedding")
        # 1.3 × 16 × 1.2 = 24.96 GB: one GPU, so it fits one machine.
        assert out["sizing"]["estimated_gpu_mem_gb"] == pytest.approx(24.96)
        # Same H100 offer: 20 h ÷ 6.25 h = 3.2 on 32 ÷ 8 = 4 times the GPUs: 3.2 ÷ 4 = 0.8 ≥ 0.7;
        # rerun loss 1 × 0.5 h < 20 − 6.25 = 13.75 h saved, so no B2.
        assert out["benchmark"]["offer"] == offer_id(demo, "h100-bj-a")
        assert out["benchmark"]["speedup"] == pytest.approx(3.2)
        assert out["benchmark"]["scaling_efficiency"] == pytest.approx(0.8)
        assert not findings(out, "B2")
        assert (out["platform"], out["platform_rule"]) == ("distributed_platform", "R6")
        assert out["delivery"] == "self_hosted"  # the team maintains its own Ray layer

    def test_k2_names_the_pools_that_together_hold_160_gpus(self, demo):
        _, out = evaluation(demo, "Synthetic instruction data")
        # 160 GPUs > 128 (H100), 64 (A100), 48 (Ray), 40 (L40S), 32 (H200): nothing fits whole.
        assert {o["reason"] for o in out["options"]} == {"pool_too_small"}
        assert out["chosen"] is None and findings(out, "P2")
        (k2,) = findings(out, "K2")
        assert k2["severity"] == "info"
        h100, a100, ray, l40s = (
            offer_id(demo, key) for key in ("h100-bj-a", "a100-bj-b", "sched-bj-a", "l40s-gz-a")
        )
        # Fewest pools first, largest first: 128 + 64 = 192, 128 + 48 = 176, 128 + 40 = 168.
        assert k2["data"]["sets"] == [[h100, a100], [h100, ray], [h100, l40s]]
        assert k2["data"]["tier"] == "cross_hub"  # coupling none: any tier
        assert "8× H100 SXM 80GB on demand + 8× A100 80GB machine" in k2["message"]

    def test_nobody_to_maintain_the_scheduler_buys_it_managed_and_blocks_self_hosting(self, demo):
        _, out = evaluation(demo, "Whisper-large-v3")
        # Machines and a scheduler, jobs slow: R4, both layers; nobody maintains the scheduler.
        assert (out["platform"], out["platform_rule"]) == ("both", "R4")
        assert out["delivery"] == "managed"
        assert [f["severity"] for f in findings(out, "R1e")] == ["info"]
        blocks = [f for f in findings(out, "J4") if f["severity"] == "block"]
        # Only the self-hosted Ray offer (kind distributed); the managed L40S platform is fine.
        assert [f["offer"] for f in blocks] == [offer_id(demo, "sched-bj-a")]

    def test_repeated_full_scans_are_staged_once_next_to_the_compute(self, demo):
        _, out = evaluation(demo, "ViT-L")
        chosen = next(o for o in out["options"] if o["offer"] == out["chosen"]["offer"])
        # Beijing A has 800 TB for the 30 TB input: one copy, not ten passes.
        assert (chosen["site"], chosen["input_mode"]) == ("bj-a", "staged")
        (leg,) = [leg for leg in chosen["legs"] if leg["what"] == "input"]
        assert leg["gb"] == 30000
        # 30,000 GB × 0.05 USD over gz-a → bj-a; streaming would pay it ten times.
        assert chosen["transfer_cost"] == pytest.approx(1500)
        (d2,) = findings(out, "D2")
        assert d2["key"] == "D2.staged"
        assert "stage the data next to the compute once (30,000 GB at bj-a)" in d2["message"]

    def test_m3_names_the_dearer_option_that_meets_the_queue_budget(self, demo):
        _, out = evaluation(demo, "Fraud model")
        # Least objective: H100 at bj-a (queue 6 + 0.25 boot = 6.25 h, over the 1 h budget).
        assert out["chosen"]["offer"] == offer_id(demo, "h100-bj-a")
        (m3,) = findings(out, "M3")
        assert m3["key"] == "M3.alternative"
        assert m3["data"]["segment"] == "queue" and m3["data"]["hours"] == pytest.approx(6.25)
        # Only the L40S platform starts within the hour (0.5 + 0.1 boot = 0.6 h). Its total:
        # 8 × 12 ÷ 0.45 h × 2.62 = 558.93, + 5 % fee 27.95, + transfers 200 × 0.02 + 10 × 0.02
        # + 2 × 0.05 = 4.30 → 591.18; the H100 costs 8 × 12 × 2.99 = 287.04: +304.14.
        assert m3["data"]["offer"] == offer_id(demo, "l40s-gz-a")
        assert m3["data"]["extra_cost"] == pytest.approx(591.18 - 287.04, abs=0.01)
        assert not findings(out, "P1")  # one feasible option meets every budget

    def test_the_imported_v1_profile_without_gpus_is_blocked_by_p3(self, demo):
        profile = TaskProfile.objects.get(team=demo, name__icontains="imported from v1")
        assert profile.gpus is None and profile.compute_hours == 2
        _, out = evaluation(demo, "imported from v1")
        (p3,) = findings(out, "P3")
        assert p3["severity"] == "block"
        assert p3["message"].startswith("No planned GPU count")

    def test_the_lora_job_has_a_preset_shape_and_the_spot_h100_wins_against_on_demand(self, demo):
        """SPEC 6.3 on lora-8b-spot (apps.profiles.demo.method21)."""
        profile = TaskProfile.objects.get(team=demo, name__startswith="Llama-3-8B LoRA")
        assert (profile.hidden_size, profile.layers, profile.heads, profile.kv_heads) == (
            4096, 32, 32, 8,
        )  # fmt: skip
        _, out = evaluation(demo, "Llama-3-8B LoRA")
        # Adapter tuning at bf16: weights 8.03 × 2 = 16.06 GB, optimizer 8.03 × 0.16 = 1.2848,
        # checkpointed activations 32 × 2 × 4096 × 4 × 4096 B = 4.294967 GB, overhead 0.2 × the
        # sum 21.639767 = 4.327953: 25.967721 GB, one GPU.
        assert out["sizing"]["breakdown"] == {
            "weights": 16.06, "gradients": 0.0, "optimizer": 1.2848,
            "activations": 4.294967, "kv_cache": 0.0, "overhead": 4.327953,
        }  # fmt: skip
        # 6 h on 8 GPUs = 48 GPU-hours; in the 8 h budget at speed 1.0: 48 / 8 = 6 GPUs.
        budget = {row["offer"]: row["gpus_for_budget"] for row in out["sizing"]["offers"]}
        assert budget[offer_id(demo, "h100-bj-a")] == budget[offer_id(demo, "h100-spot-sh-a")] == 6
        on_demand = Offer.objects.get(pk=offer_id(demo, "h100-bj-a"))
        spot = Offer.objects.get(pk=offer_id(demo, "h100-spot-sh-a"))
        _, out = evaluation(demo, "Llama-3-8B LoRA", offers=[on_demand, spot])
        assert out["chosen"]["offer"] == str(spot.pk)
        bill = {row["offer"]: row for row in out["bill"]}
        # Spot: 8 GPUs × 6 h × 2.49 = 119.52; 1.5 preemptions a day × 6 h / 24 = 0.375 expected,
        # each losing half the 0.5 h checkpoint interval at 8 × 2.49 = 19.92 an hour: 1.8675.
        assert bill[str(spot.pk)]["compute_cost"] == pytest.approx(119.52)
        assert bill[str(spot.pk)]["preemption_cost"] == pytest.approx(1.8675)
        # On demand at home: 8 × 6 × 2.99 = 143.52 and the 60 GB input from Shanghai at 0.02.
        assert bill[str(on_demand.pk)]["compute_cost"] == pytest.approx(143.52)
        assert bill[str(on_demand.pk)]["transfer_cost"] == pytest.approx(1.2)
        assert bill[str(on_demand.pk)]["preemption_cost"] == 0

    def test_aurora_prices_an_engineer_hour_and_the_bill_spreads_migration_over_runs(
        self, demo_world
    ):
        # The price is set by the whole demo, through the settings service (audited).
        demo = Team.objects.get(slug="aurora")
        assert demo.thresholds["engineer_hour_cost"] == 100
        assert AuditEvent.objects.filter(
            team=demo, action="team.threshold_set", target="engineer_hour_cost"
        ).count() == 1
        assert Team.objects.get(slug="borealis").thresholds.get("engineer_hour_cost") is None
        l40s = Offer.objects.get(pk=offer_id(demo, "l40s-gz-a"))
        _, out = evaluation(
            demo, "Whisper-large-v3", offers=[l40s], migration_effort={l40s.pk: 24.0}
        )
        (row,) = out["bill"]
        # 24 h × 100 USD ÷ (3 runs a quarter × 4) = 200 USD per run.
        assert row["migration_effort_hours"] == 24
        assert row["migration_cost"] == pytest.approx(200)
        # One-off: the whole effort on its one run, 24 h × 100 = 2,400 USD.
        _, out = evaluation(
            demo, "Synthetic instruction data", offers=[l40s], migration_effort={l40s.pk: 24.0}
        )
        assert out["bill"][0]["migration_cost"] == pytest.approx(2400)


class EngineThreeDemoTests:
    """Each new rule of engine 3.0 (SPEC 7.1-7.3) fires at least once in the demo."""

    def test_a_70b_fine_tune_on_8_gpus_is_blocked_by_a2_with_its_fix(self, demo):
        data, out = evaluation(demo, "Llama-2-70B full fine-tune")
        # SPEC 7.3's restart hours reach the engine as the profile states them.
        assert data["task"]["restart_hours"] == 0.25
        # One replica: 70 × 16 × 1.2 = 1,344 GB. Sharded over 80 GB cards (72 usable):
        # 1,344 / 72 = 18.7 → 19 GPUs; over the 141 GB H200s (126.9 usable): 10.6 → 11.
        assert out["sizing"]["estimated_gpu_mem_gb"] == 1344.0
        needed = {row["offer"]: row["gpus_needed"] for row in out["sizing"]["offers"]}
        h100, h200 = offer_id(demo, "h100-bj-a"), offer_id(demo, "h200-sh-a")
        assert (needed[h100], needed[h200]) == (19, 11)
        reasons = {o["offer"]: o["reasons"] for o in out["options"]}
        assert reasons[h100] == ["too_few_gpus"] and reasons[h200] == ["too_few_gpus"]
        # SPEC 7.1 A2: nothing is feasible; the least GPUs among the offers refused only for
        # too few is the H200's 11, beyond one machine: ⌈11 / 8⌉ × 8 = 16 to plan.
        assert out["chosen"] is None
        (a2,) = findings(out, "A2")
        assert a2["severity"] == "block"
        assert a2["data"] == {"planned": 8, "gpus": 11, "offer": h200, "fix_gpus": 16}
        assert findings(out, "P2")

    def test_every_new_rule_of_engine_3_fires_somewhere_in_the_demo(self, demo_world):
        # The whole demo (load_demo: benchmark records and team settings included).
        rules: set[str] = set()
        reasons: set[str] = set()
        rerun_costs: list[float] = []
        x4_with_g1: list[str] = []
        for profile in TaskProfile.objects.all():
            _, out = evaluate_profile(profile)[:2]
            rules |= {f["rule"] for f in out["findings"]}
            reasons |= {r for o in out["options"] for r in o["reasons"]}
            rerun_costs += [o["rerun_cost"] for o in out["options"] if o["rerun_cost"] > 0]
            fired = {f["rule"] for f in out["findings"]}
            if {"X4", "G1"} <= fired and not out["cross_domain"]["home_domain_only"]:
                x4_with_g1.append(profile.name)
        # SPEC 7.1 (A2, too_few_gpus) and 7.3 (preempted_before_done).
        assert "A2" in rules
        assert {"too_few_gpus", "preempted_before_done"} <= reasons
        # SPEC 7.2 rerun_cost, from an offer's records that hold enough GPU-hours.
        assert rerun_costs
        # SPEC 7.8 X4 with G1: G1 fails only on offsite_allowed, X4's allowed sites decide.
        assert x4_with_g1

    def test_a_rerun_cost_is_priced_from_the_offers_records(self, demo_world):
        demo = Team.objects.get(slug="aurora")
        _, out = evaluation(demo, "70B full training, data parallel")
        h100 = offer_id(demo, "h100-bj-a")
        option = next(o for o in out["options"] if o["offer"] == h100)
        # The H100's records of this task: 1 × 8 GPUs × 480 h + 4 × 8 × 140 h = 3,840 + 4,480
        # = 8,320 GPU-hours (≥ the 1,000 of failure_evidence_gpu_hours) with 1 + 2 = 3 reruns:
        # rate 3 ÷ 8,320 a GPU-hour. This run: 32 GPUs × 200 h → 3 × 6,400 ÷ 8,320 = 2.3077
        # expected failures, each losing half the 1 h checkpoint interval (resumable, no restart
        # hours) at 32 × 2.99 = 95.68 an hour: 2.3077 × 0.5 × 95.68 = 110.40.
        assert option["rerun_cost"] == pytest.approx(3 / 8320 * 32 * 200 * 0.5 * 32 * 2.99)
        assert option["rerun_cost"] == pytest.approx(110.4)
        bill = next(b for b in out["bill"] if b["offer"] == h100)
        assert bill["rerun_cost"] == option["rerun_cost"]

    def test_compliance_data_runs_at_its_allowed_site_when_only_offsite_fails(self, demo_world):
        demo = Team.objects.get(slug="aurora")
        data, out = evaluation(demo, "Clinical scan segmentation")
        assert data["task"]["offsite_allowed"] is False
        assert data["task"]["compliance_restricted"] is True
        fired = {f["rule"] for f in out["findings"]}
        assert {"G1", "X4"} <= fired and "P2" not in fired
        # 2.2: G1 kept the job in Beijing's datacenter, where X4 forbids moving the scans: no
        # feasible placement. 3.0: the allowed sites (blank → the data's Guangzhou datacenter)
        # limit the options instead, so the job runs next to its data.
        assert out["cross_domain"]["home_domain_only"] is False
        assert out["chosen"]["kind"] == "move_compute"
        assert out["chosen"]["site"] == "gz-a"



class EngineThreeOneDemoTests:
    """SPEC 7.6 and 7.7 in the demo (apps.profiles.demo.method31_money; the paid package in apps.catalog.demo)."""

    def test_the_eval_sweep_shows_deadline_plans_m3_naming_the_cheapest_and_p4(self, demo):
        _, out = evaluation(demo, "Release-candidate eval sweep")
        h100, spot, h200, a100_ray = (
            offer_id(demo, key) for key in ("h100-bj-a", "h100-spot-sh-a", "h200-sh-a", "sched-bj-a")
        )
        # 8 GPUs × 48 h = 384 GPU-hours; within 12 h: 384 ÷ 12 = 32 GPUs at perfect scaling,
        # beyond one machine at 0.8: ⌈32 ÷ 0.8⌉ = 40 GPUs, 384 ÷ (40 × 0.8) = 12 h, and
        # 40 × 12 × 2.99 = 1,435.20 on the H100 pool.
        plans = {p["offer"]: p for p in out["deadline_plans"]}
        assert (plans[h100]["gpus"], plans[h100]["compute_hours"]) == (40, 12.0)
        assert plans[h100]["total_cost"] == pytest.approx(1435.2)
        assert plans[h100]["extrapolated"] is True
        assert plans[spot]["reason"] == "preemptible"  # spot hours are not its to promise
        # SPEC 7.6: one-off on the H200 quarterly contract pays the whole package, 52,000 USD
        # for its one machine (2.2 charged a pro-rated share).
        assert next(o for o in out["options"] if o["offer"] == h200)["compute_cost"] == 52000.0
        # The spot H100 is chosen (least objective at 12 USD an hour of waiting) and costs more
        # than the 950 USD budget; the own A100 pool is within it.
        assert out["chosen"]["offer"] == spot
        (p4,) = findings(out, "P4")
        assert p4["data"]["offer"] == a100_ray and p4["data"]["cost_budget"] == 950
        (m3,) = findings(out, "M3")
        assert m3["key"] == "M3.deadline" and m3["data"]["plan_offer"] == h100
        assert "8× H100 SXM 80GB on demand" in m3["message"]
        assert [f["key"] for f in findings(out, "P1")] == ["P1.cost"]

    def test_the_paid_a800_package_costs_the_log_cleaning_nothing_new(self, demo):
        team2 = Team.objects.get(slug="borealis")
        _, out = evaluation(team2, "Log cleaning, 2 TB at Ulanqab")
        package = Offer.objects.get(team=team2, name="8× A800 80GB annual package (paid)")
        option = next(o for o in out["options"] if o["offer"] == str(package.pk))
        # 4 h ÷ 0.6 = 6.667 h on one 8-GPU machine = 53.33 GPU-hours, within the 8,760 × 8 =
        # 70,080 the paid package holds: compute 0 (2.2: 53.33 × 420,000 ÷ (8,760 × 8 × 0.7) =
        # 53.33 × 8.5616 = 456.62 CNY, as if it were new).
        assert option["compute_cost"] == 0.0 and option["effective_price"] == 0.0
        assert out["chosen"]["offer"] == str(package.pk)  # next to the data, and already paid
        (paid,) = [f for f in findings(out, "T") if f["key"] == "T.paid"]
        assert paid["data"]["paid_gpu_hours"] == pytest.approx(8 * 4 / 0.6)
        assert "already paid" in paid["message"]
