"""Each new rule of engine 3.1 (SPEC 7.4, 7.5, 7.11) fires in the demo, on the demo world with
Team Aurora's settings (engineer hour 100, scheduler upkeep 32 h a month). Worked by hand."""

from __future__ import annotations

import pytest

from apps.accounts.models import Team
from tests.profiles.test_demo import evaluation, findings, offer_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def aurora(demo_world):
    return Team.objects.get(slug="aurora")


class EngineThreeOneDemoTests:
    def test_the_tight_weekly_job_refuses_ethernet_and_prices_its_own_scheduler(self, aurora):
        data, out = evaluation(aurora, "70B tight pre-training on 32 GPUs")
        assert data["thresholds"]["scheduler_ops_hours_per_month"] == 32.0
        assert data["task"]["coupling"] == "tight" and data["task"]["gpus"] == 32
        options = {o["offer"]: o for o in out["options"]}
        a100, own = offer_id(aurora, "a100-bj-b"), offer_id(aurora, "sched-bj-a")
        h200 = offer_id(aurora, "h200-sh-a")
        # SPEC 7.4: 32 GPUs ÷ 8 = 4 machines of the Ethernet A100s: refused.
        assert options[a100]["reasons"] == ["no_fast_interconnect"]
        # R1d: 1,344 GB holds on no one machine, the team has machines and can run a scheduler.
        assert (out["platform"], out["delivery"]) == ("distributed_platform", "self_hosted")
        # SPEC 7.11: 32 h a month × 100 ÷ (12 ÷ 3 = 4 runs a month) = 800 a run. The own pool:
        # 32 GPUs × (60 h ÷ 0.6 = 100 h) × 1.2 = 3,840, fee 10 % = 384, + 800 = 5,024; the
        # H200 contract 5,486.452055 and the H100s 32 × 60 × 2.99 = 5,740.8 stay dearer.
        mine = options[own]
        assert mine["scheduler_ops_cost"] == 800.0
        assert (mine["compute_cost"], mine["scheduling_cost"]) == (3840.0, 384.0)
        assert mine["total_cost"] == 5024.0
        assert options[h200]["scheduler_ops_cost"] == 0.0
        assert out["chosen"]["offer"] == own
        (r1e,) = findings(out, "R1e")
        assert r1e["key"] == "R1e.self_hosted"  # the managed L40S cannot split the model
        assert r1e["data"]["ops_cost"] == 800.0
        # SPEC 7.4 K3: the own pool's interconnect is not recorded.
        (k3,) = findings(out, "K3")
        assert k3["data"] == {"offer": own, "machines": 4, "gpus": 32}

    def test_the_streamed_documents_hide_their_link_time_behind_compute(self, aurora):
        data, out = evaluation(aurora, "document scoring, input streamed")
        assert data["task"]["input_delivery"] == "streamed"
        h100 = next(o for o in out["options"] if o["offer"] == offer_id(aurora, "h100-bj-a"))
        # gz-a → bj-a at 5 Gbit/s, cross hub (buffer 0.3): 6,000 × 8 ÷ (5 × 3600) × 1.3 =
        # 3.466667 h, under 4 h of compute: no transfer segment (2.2: 3.466667 h), total
        # 0 + 6.25 h queue and boot + 4 h = 10.25 h (2.2: 13.716667 h); cost unchanged:
        # 6,000 × 0.05 = 300.
        assert h100["input_overlapped"] is True
        assert h100["legs"][0]["hours"] == 3.466667
        assert h100["transfer_hours"] == 0.0
        assert h100["total_hours"] == 10.25
        assert h100["transfer_cost"] == 300.0
