"""Every leg of every option kind worked by hand (SPEC P): input, image and results, with and
without compression, with a link's own buffer and with its tier's default, staged and streamed.

    leg hours = gb × 8 / (bandwidth Gbit/s × 3600) × (1 + buffer)      leg cost = gb × price/GB

The input and results legs carry gb × compress_ratio; the image leg never does. Expected numbers
are worked here, not copied from the engine.
"""

from __future__ import annotations

import pytest

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    offer,
    option_of,
    task,
)

# home and data share a city (default buffer 0.1); far and res are on another hub; queues 0.
SITES = [
    {"code": "home", "datacenter": "dc-h", "city": "a", "hub": "east", "queue_hours": 0},
    {"code": "data", "datacenter": "dc-d", "city": "a", "hub": "east", "queue_hours": 0},
    {"code": "far", "datacenter": "dc-f", "city": "b", "hub": "west", "queue_hours": 0},
    {"code": "res", "datacenter": "dc-r", "city": "c", "hub": "west", "queue_hours": 0},
]
LINKS = [
    # No buffer given: same_city's default 0.1 applies (and the link serves data→home too).
    {"from": "home", "to": "data", "bandwidth_gbps": 1, "price_per_gb": 0.01},
    {"from": "data", "to": "far", "bandwidth_gbps": 1, "price_per_gb": 0.02, "buffer": 0},
    {"from": "home", "to": "far", "bandwidth_gbps": 0.1, "price_per_gb": 0.1, "buffer": 0},
    {"from": "far", "to": "res", "bandwidth_gbps": 0.5, "price_per_gb": 0.2, "buffer": 0},
    {"from": "data", "to": "res", "bandwidth_gbps": 2, "price_per_gb": 0.05, "buffer": 0.5},
    {"from": "home", "to": "res", "bandwidth_gbps": 1, "price_per_gb": 0, "buffer": 0},
]


def run(compress_ratio: float = 0.5, **overrides):
    t = task(
        workload="data_processing",
        params_b=None,
        input_gb=900,
        image_gb=45,
        result_gb=90,
        compress_ratio=compress_ratio,
        data_site="data",
        result_site="res",
    )
    t.update(overrides)
    offers = [offer("L", "home"), offer("M", "data"), offer("D", "far")]
    return evaluate(make_input(t, offers=offers, sites=SITES, links=LINKS))


def legs(option):
    return {leg["what"]: leg for leg in option["legs"]}


def assert_leg(leg, frm, to, gb, hours, cost):
    assert (leg["from"], leg["to"]) == (frm, to)
    assert leg["gb"] == pytest.approx(gb)
    assert leg["hours"] == pytest.approx(hours)
    assert leg["cost"] == pytest.approx(cost)


class MoveDataLegTests:
    """D at far: all three legs cross a hub, each link with buffer 0."""

    def test_with_compression(self):
        d = option_of(run(0.5), "D")
        assert d["kind"] == "move_data"
        got = legs(d)
        assert sorted(got) == ["image", "input", "results"]
        # input: 900 × 0.5 = 450 GB; 450 × 8 / (1 × 3600) = 1.0 h; 450 × 0.02 = 9.0
        assert_leg(got["input"], "data", "far", 450, 1.0, 9.0)
        # image (never compressed): 45 GB; 45 × 8 / (0.1 × 3600) = 1.0 h; 45 × 0.1 = 4.5
        assert_leg(got["image"], "home", "far", 45, 1.0, 4.5)
        # results: 90 × 0.5 = 45 GB; 45 × 8 / (0.5 × 3600) = 0.2 h; 45 × 0.2 = 9.0
        assert_leg(got["results"], "far", "res", 45, 0.2, 9.0)
        # sums: 450 + 45 + 45 = 540 GB; 1.0 + 1.0 + 0.2 = 2.2 h; 9.0 + 4.5 + 9.0 = 22.5
        assert d["transfer_gb"] == pytest.approx(540)
        assert d["transfer_hours"] == pytest.approx(2.2)
        assert d["transfer_cost"] == pytest.approx(22.5)
        # compute 8 GPUs × 10 h × 2.0 = 160; total 160 + 22.5 = 182.5; hours 2.2 + 0 + 10
        assert d["total_cost"] == pytest.approx(182.5)
        assert d["total_hours"] == pytest.approx(12.2)

    def test_without_compression(self):
        got = legs(option_of(run(1.0), "D"))
        # input: 900 GB; 900 × 8 / 3600 = 2.0 h; 900 × 0.02 = 18
        assert_leg(got["input"], "data", "far", 900, 2.0, 18.0)
        # image unchanged: 45 GB, 1.0 h, 4.5
        assert_leg(got["image"], "home", "far", 45, 1.0, 4.5)
        # results: 90 GB; 90 × 8 / (0.5 × 3600) = 0.4 h; 90 × 0.2 = 18
        assert_leg(got["results"], "far", "res", 90, 0.4, 18.0)


class MoveComputeLegTests:
    """M at data: no input leg (the data is there); image over a tier-default buffer."""

    def test_with_compression(self):
        m = option_of(run(0.5), "M")
        assert m["kind"] == "move_compute"
        got = legs(m)
        assert sorted(got) == ["image", "results"]
        # image: 45 GB over home→data (same city, default buffer 0.1):
        # 45 × 8 / (1 × 3600) × 1.1 = 0.1 × 1.1 = 0.11 h; 45 × 0.01 = 0.45
        assert_leg(got["image"], "home", "data", 45, 0.11, 0.45)
        # results: 45 GB; 45 × 8 / (2 × 3600) × (1 + 0.5) = 0.05 × 1.5 = 0.075 h; 45 × 0.05 = 2.25
        assert_leg(got["results"], "data", "res", 45, 0.075, 2.25)
        assert m["transfer_hours"] == pytest.approx(0.185)  # 0.11 + 0.075
        assert m["transfer_cost"] == pytest.approx(2.7)  # 0.45 + 2.25

    def test_without_compression(self):
        got = legs(option_of(run(1.0), "M"))
        assert_leg(got["image"], "home", "data", 45, 0.11, 0.45)
        # results: 90 GB; 90 × 8 / 7200 × 1.5 = 0.15 h; 90 × 0.05 = 4.5
        assert_leg(got["results"], "data", "res", 90, 0.15, 4.5)


class WaitLocalLegTests:
    """L at home: the input comes over the home–data link taken backwards; no image leg."""

    def test_with_compression(self):
        local = option_of(run(0.5), "L")
        assert local["kind"] == "wait_local"
        got = legs(local)
        assert sorted(got) == ["input", "results"]
        # input: 450 GB over data→home (same city, 0.1): 450 × 8 / 3600 × 1.1 = 1.1 h;
        # 450 × 0.01 = 4.5
        assert_leg(got["input"], "data", "home", 450, 1.1, 4.5)
        # results: 45 GB; 45 × 8 / 3600 = 0.1 h; free link: 0
        assert_leg(got["results"], "home", "res", 45, 0.1, 0.0)

    def test_without_compression(self):
        got = legs(option_of(run(1.0), "L"))
        # input: 900 GB; 900 × 8 / 3600 × 1.1 = 2.2 h; 900 × 0.01 = 9.0
        assert_leg(got["input"], "data", "home", 900, 2.2, 9.0)
        assert_leg(got["results"], "home", "res", 90, 0.2, 0.0)  # 90 × 8 / 3600 = 0.2 h


class NoLegTests:
    def test_nothing_to_move_is_no_leg(self):
        out = run(0.5, input_gb=0, image_gb=0, result_gb=0)
        for oid in ("L", "M", "D"):
            option = option_of(out, oid)
            assert option["legs"] == []
            assert option["transfer_hours"] == 0 and option["transfer_cost"] == 0

    def test_a_leg_without_a_link_makes_the_option_infeasible_with_unknown_sums(self):
        links = [link for link in LINKS if (link["from"], link["to"]) != ("far", "res")]
        t = task(workload="data_processing", params_b=None, input_gb=900, image_gb=45,
                 result_gb=90, compress_ratio=0.5, data_site="data", result_site="res")
        out = evaluate(make_input(t, offers=[offer("D", "far")], sites=SITES, links=links))
        d = option_of(out, "D")
        assert d["feasible"] is False and d["reason"] == "no_link"
        results = legs(d)["results"]
        assert results["gb"] == pytest.approx(45)
        assert results["hours"] is None and results["cost"] is None
        assert d["transfer_hours"] is None and d["total_cost"] is None


class StreamedInputTests:
    """SPEC 6.1: repeated full scans stream the input on every pass when the site has no room."""

    def test_streamed_input_moves_once_per_pass(self):
        sites = [dict(s) for s in SITES]
        sites[2]["storage_tb"] = 0.5  # 500 GB < 900 GB as stored: streamed
        t = task(workload="data_processing", params_b=None, input_gb=900, image_gb=0,
                 result_gb=0, compress_ratio=0.5, data_site="data",
                 access_pattern="repeated_full_scan", data_passes=3)
        d = option_of(
            evaluate(make_input(t, offers=[offer("D", "far")], sites=sites, links=LINKS)), "D"
        )
        assert d["input_mode"] == "streamed"
        # 900 × 0.5 × 3 passes = 1350 GB; 1350 × 8 / 3600 = 3.0 h; 1350 × 0.02 = 27
        assert_leg(legs(d)["input"], "data", "far", 1350, 3.0, 27.0)

    @pytest.mark.parametrize(
        ("storage_tb", "mode", "gb"),
        [
            (0.9, "staged", 450),  # exactly 900 GB of room: staged, one pass (900 × 0.5)
            (0.899, "streamed", 1350),  # 899 GB: streamed, 3 passes
            (0.901, "staged", 450),
            (None, "staged", 450),  # no storage figure: assumed to have room
        ],
    )
    def test_room_for_the_input_at_exactly_just_below_and_above(self, storage_tb, mode, gb):
        sites = [dict(s) for s in SITES]
        sites[2]["storage_tb"] = storage_tb
        t = task(workload="data_processing", params_b=None, input_gb=900, image_gb=0,
                 result_gb=0, compress_ratio=0.5, data_site="data",
                 access_pattern="repeated_full_scan", data_passes=3)
        d = option_of(
            evaluate(make_input(t, offers=[offer("D", "far")], sites=sites, links=LINKS)), "D"
        )
        assert d["input_mode"] == mode
        assert legs(d)["input"]["gb"] == pytest.approx(gb)
