"""SPEC 7.5 (engine 3.1): streamed input runs beside compute (seed B §4 "可分批传"). Every figure
worked by hand."""

from __future__ import annotations

from engine import EngineInputError, evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    findings_of,
    make_input,
    offer,
    option_of,
    task,
)

SITES = [
    {"code": "home", "datacenter": "dc-h", "city": "shanghai", "queue_hours": 0},
    {"code": "data", "datacenter": "dc-d", "city": "beijing", "queue_hours": 0},
    # 10 TB of room: a 36 TB input cannot be staged there, so a repeated scan streams.
    {"code": "far", "datacenter": "dc-f", "city": "guiyang", "queue_hours": 0, "storage_tb": 10},
]
# 40 Gbit/s, no jitter buffer: 1 GB takes 8 ÷ (40 × 3600) h; 0.001 a GB.
LINKS = [
    {"from": "data", "to": "far", "bandwidth_gbps": 40, "price_per_gb": 0.001, "buffer": 0,
     "reservable": True, "reserved": True},
    {"from": "home", "to": "far", "bandwidth_gbps": 40, "price_per_gb": 0.001, "buffer": 0,
     "reservable": True, "reserved": True},
    {"from": "data", "to": "home", "bandwidth_gbps": 40, "price_per_gb": 0.001, "buffer": 0,
     "reservable": True, "reserved": True},
]  # fmt: skip


def scan_input(**overrides):
    """The issue's case: 36,000 GB read 13 times (36 TB a pass) from `data`, computed at `far`
    in 125 h, so the job needs 36,000 × 13 × 8 ÷ (125 × 3600) = 8.32 Gbit/s of the 40."""
    t = task(
        workload="data_processing",
        params_b=None,
        data_site="data",
        input_gb=36000,
        access_pattern="repeated_full_scan",
        data_passes=13,
        image_gb=0,
        result_gb=0,
        compute_hours=125,
        resume_verified=True,
        env_aligned=True,
    )
    t.update(overrides)
    return make_input(
        t, offers=[offer("F", "far")], sites=SITES, links=LINKS, checklists=answered("F")
    )


class StreamedScanTests:
    def test_the_26_hours_2_2_added_hide_behind_compute(self):
        """Input leg: 36,000 × 13 = 468,000 GB × 8 ÷ (40 × 3600) = 26.0 h. 2.2 added them before
        compute: total 26 + 0 queue + 125 = 151 h. 3.1: max(0, 26 − 125) = 0 h of transfer
        segment, total 0 + 0 + 125 = 125 h; the leg keeps its 26 h and its cost
        468,000 × 0.001 = 468."""
        out = evaluate(scan_input())
        far = option_of(out, "F")
        assert far["input_mode"] == "streamed"
        assert far["input_overlapped"] is True
        assert far["legs"][0]["hours"] == approx(26.0)
        assert far["transfer_hours"] == 0.0
        assert far["total_hours"] == approx(125.0)
        assert far["transfer_cost"] == approx(468.0)
        # compute 8 GPUs × 125 h × 2.0 = 2,000; total 2,000 + 468 = 2,468 (unchanged by 7.5)
        assert far["total_cost"] == approx(2468.0)

    def test_what_outlasts_compute_still_waits(self):
        """Compute 20 h at far: the 26 h leg outlasts it by 26 − 20 = 6 h: the transfer segment
        is 6 h and the total 6 + 20 = 26 h (2.2: 26 + 20 = 46 h)."""
        far = option_of(evaluate(scan_input(compute_hours=20)), "F")
        assert far["transfer_hours"] == approx(6.0)
        assert far["total_hours"] == approx(26.0)

    def test_a_transfer_budget_reads_the_overlapped_segment(self):
        """A 1 h transfer budget: 2.2's 26 h missed it (M3); 3.1's 0 h meets it."""
        out = evaluate(scan_input(latency_budget_hours={"transfer": 1}))
        assert option_of(out, "F")["within_budget"] is True
        assert not findings_of(out, "M3")

    def test_readiness_applies_to_the_overlapped_leg(self):
        """The link is in use for the whole compute segment: unreserved, H2 still blocks."""
        data = scan_input()
        data["links"][0]["reserved"] = False
        out = evaluate(data)
        [h2] = findings_of(out, "H2")
        assert h2["data"]["missing"] == ["channel_reserved"]
        assert out["readiness"]["channel_reserved"] is False

    def test_a_staged_scan_ships_in_bulk(self):
        """100 TB of room: staged once, 36,000 GB in 2.0 h before compute, whatever
        input_delivery says (SPEC 7.10)."""
        data = scan_input(input_delivery="streamed")
        data["sites"][2]["storage_tb"] = 100
        far = option_of(evaluate(data), "F")
        assert far["input_mode"] == "staged"
        assert far["input_overlapped"] is False
        assert far["transfer_hours"] == approx(2.0)  # 36,000 × 8 ÷ 144,000


def plain_input(delivery: str | None, compute_hours: float = 1.5, **overrides):
    """A single pass of 36,000 GB: 36,000 × 8 ÷ (40 × 3600) = 2.0 h on the link."""
    t = task(
        workload="data_processing",
        params_b=None,
        data_site="data",
        input_gb=36000,
        image_gb=0,
        result_gb=0,
        compute_hours=compute_hours,
        **overrides,
    )
    if delivery is not None:
        t["input_delivery"] = delivery
    return make_input(
        t, offers=[offer("F", "far")], sites=SITES, links=LINKS, checklists=answered("F")
    )


class InputDeliveryTests:
    def test_bulk_is_the_default_and_copies_first(self):
        far = option_of(evaluate(plain_input(None)), "F")
        assert far["input_overlapped"] is False
        assert far["transfer_hours"] == approx(2.0)
        assert far["total_hours"] == approx(3.5)  # 2.0 + 0 + 1.5

    def test_streamed_waits_only_for_what_outlasts_compute(self):
        # max(0, 2.0 − 1.5) = 0.5 h; total 0.5 + 1.5 = 2.0 h; cost unchanged: 36 + 8 × 1.5 × 2
        far = option_of(evaluate(plain_input("streamed")), "F")
        assert far["input_overlapped"] is True
        assert far["transfer_hours"] == approx(0.5)
        assert far["total_hours"] == approx(2.0)
        assert far["total_cost"] == approx(36.0 + 24.0)

    def test_streaming_moves_the_choice_when_hours_are_worth_money(self):
        """Against H at home (2.5 a GPU-hour, its input 2.0 h over data → home), at 100 an
        hour of delay: bulk F = 24 + 36 + 100 × 3.5 = 410 vs H = 30 + 36 + 100 × 3.5 = 416:
        F. Both streamed: F 60 + 200 = 260 vs H 66 + 200 = 266: still F, each 150 lower."""
        for delivery, f_objective, h_objective in (("bulk", 410.0, 416.0),
                                                   ("streamed", 260.0, 266.0)):  # fmt: skip
            data = plain_input(delivery, delay_cost_per_hour=100)
            data["offers"].append(offer("H", "home", price=2.5))
            data["checklists"] = answered("F", "H")
            out = evaluate(data)
            assert option_of(out, "F")["objective"] == approx(f_objective)
            assert option_of(out, "H")["objective"] == approx(h_objective)
            assert out["chosen"]["offer"] == "F"

    def test_a_staged_plan_ships_in_bulk(self):
        """processed_gb 3,600: the staged plan ships 3,600 × 8 ÷ 144,000 = 0.2 h in bulk."""
        data = plain_input("streamed", processed_gb=3600)
        far = option_of(evaluate(data), "F")
        assert far["plan"] == "staged"
        assert far["input_overlapped"] is False
        assert far["transfer_hours"] == approx(0.2)

    def test_a_bad_input_delivery_is_named(self):
        try:
            evaluate(plain_input("trickle"))
        except EngineInputError as refused:
            assert [e["field"] for e in refused.errors] == ["task.input_delivery"]
        else:  # pragma: no cover
            raise AssertionError("task.input_delivery: trickle was accepted")


class OverlapFlipTests:
    def test_a_bandwidth_flip_is_solved_past_the_overlap_bend(self):
        """SPEC 7.8 across 7.5's bend. F at far (8 × 1.5 h × 2.0 = 24) streams 36,000 GB over
        data → far at 80 Gbit/s: 36,000 × 8 ÷ (80 × 3600) = 1.0 h, hidden behind 1.5 h of
        compute. D at the data (8 × 1.5 × 3.0 = 36) moves nothing. At 10 an hour: F 24 + 15 =
        39, D 36 + 15 = 51. Here the bandwidth moves nothing (the leg is hidden); below the bend
        F pays 10 an hour of what the leg outlasts compute: the 12 between them buys 1.2 h, so
        the leg may take 1.5 + 1.2 = 2.7 h: 288,000 ÷ (2.7 × 3600) = 29.6296296 Gbit/s."""
        data = plain_input("streamed", delay_cost_per_hour=10)
        data["links"] = [
            {"from": "data", "to": "far", "bandwidth_gbps": 80, "price_per_gb": 0, "buffer": 0,
             "reservable": True, "reserved": True},
        ]  # fmt: skip
        data["offers"].append(offer("D", "data", price=3.0))
        data["checklists"] = answered("F", "D")
        out = evaluate(data)
        assert out["chosen"]["offer"] == "F"
        assert option_of(out, "F")["objective"] == approx(39.0)
        assert option_of(out, "D")["objective"] == approx(51.0)
        [flip] = [f for f in out["sensitivity"] if f["input"] == "links[0].bandwidth_gbps"]
        assert flip["flips_at"] == approx(29.6296296)
        assert flip["to"]["offer"] == "D"
        # Told (third nearest) with the link it names, solved past the bend as it is.
        assert flip["rank"] == 3
        assert flip["message"] == (
            "If the data–far link's bandwidth drops below 29.63 Gbit/s (now 80), the choice "
            "flips to: move compute to the data at data (D)."
        )
        assert flip["message_zh"].startswith("若 data–far 链路带宽降到 29.63 Gbit/s 以下")
        # Just above it F still wins; just below, D.
        for bandwidth, chosen in ((29.7, "F"), (29.5, "D")):
            data["links"][0]["bandwidth_gbps"] = bandwidth
            assert evaluate(data)["chosen"]["offer"] == chosen
