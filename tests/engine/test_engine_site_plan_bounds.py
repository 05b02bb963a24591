"""SPEC 6.1 / 6.4 site plans at their bounds: when repeated full scans are staged or streamed
(no input, one GB, room exactly or just short), which legs exist (a fraction of a GB moves; a
leg without a link is shown and the legs after it still are), the compressed staged input, and
restricted results moving between exactly the allowed sites.

Fixture world (engine_fixtures): home and data in one city, far elsewhere; data → home 10 Gbit/s
at 0.01 per GB (same_city buffer 0.1), home → far 5 Gbit/s at 0.03, data → far 20 Gbit/s at 0.02.
Every expected figure is worked out by hand in the comment beside it.
"""

from __future__ import annotations

from typing import Any

from engine import evaluate

from .engine_fixtures import (
    SITES,
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    make_input,
    offer,
    option_of,
    task,
)


def _scan(input_gb: float, storage_tb: float | None = None) -> dict[str, Any]:
    # L at home reads input from data, 3 passes, no image, no results.
    sites = [dict(s) for s in SITES]
    sites[0]["storage_tb"] = storage_tb
    t = task(data_site="data", input_gb=input_gb, image_gb=0, access_pattern="repeated_full_scan",
             data_passes=3)  # fmt: skip
    return option_of(evaluate(make_input(t, sites=sites, offers=[offer("L")])), "L")


class TestInputMode:
    def test_no_input_has_no_mode(self):
        assert (_scan(0)["input_mode"], _scan(0)["legs"]) == (None, [])

    def test_one_gb_is_staged(self):
        local = _scan(1)
        # 1 GB once: 1 × 8 / (10 × 3600) × 1.1 = 0.000244 h; 1 × 0.01 = 0.01
        assert local["input_mode"] == "staged"
        assert [(leg["gb"], leg["cost"]) for leg in local["legs"]] == [(1.0, 0.01)]

    def test_room_is_storage_tb_times_1000_gb(self):
        assert _scan(500, 0.5)["input_mode"] == "staged"  # 0.5 × 1000 = 500 ≥ 500
        local = _scan(500.25, 0.5)  # 500 < 500.25
        assert local["input_mode"] == "streamed"
        # 500.25 × 3 passes = 1500.75 GB × 0.01 = 15.0075
        assert [(leg["gb"], leg["cost"]) for leg in local["legs"]] == [(1500.75, approx(15.0075))]


class TestLegs:
    def test_a_fraction_of_a_gb_still_moves(self):
        t = task(data_site="home", result_site="data", image_gb=0, result_gb=0.5)
        local = option_of(evaluate(make_input(t, offers=[offer("L")])), "L")
        # results 0.5 GB home → data over the data–home link (links serve both ways):
        # 0.5 × 0.01 = 0.005
        assert [(leg["what"], leg["from"], leg["to"], leg["gb"]) for leg in local["legs"]] == [
            ("results", "home", "data", 0.5)
        ]
        assert local["legs"][0]["cost"] == approx(0.005)

    def test_a_leg_without_a_link_is_shown_and_the_next_legs_too(self):
        # No link data → far: the input leg has no hours or cost; the image leg home → far
        # (5 Gbit/s, 0.03 per GB) is still worked out: 10 GB × 0.03 = 0.3.
        links = [{"from": "home", "to": "far", "bandwidth_gbps": 5, "price_per_gb": 0.03}]
        t = task(data_site="data", input_gb=100, image_gb=10, processed_gb=40, rounds_per_refresh=4,
                 preprocess_hours=1)  # fmt: skip
        out = evaluate(make_input(t, links=links, offers=[offer("F", "far")]))
        far = option_of(out, "F")
        assert far["reason"] == "no_link"
        legs = [
            (leg["what"], leg["from"], leg["to"], leg["gb"], leg["cost"]) for leg in far["legs"]
        ]
        # raw plan kept (neither can be costed): the input's 100 GB at share 1
        assert legs == [("input", "data", "far", 100.0, None), ("image", "home", "far", 10.0, 0.3)]

    def test_a_staged_input_leg_is_processed_times_compress_over_rounds(self):
        # processed 400 GB × 0.5 compressed = 200 GB shipped for 4 rounds → 50 GB a run at
        # 0.02 = 1.0; raw: 1000 × 0.5 = 500 GB × 0.02 = 10
        t = task(data_site="data", input_gb=1000, compress_ratio=0.5, image_gb=0, processed_gb=400,
                 rounds_per_refresh=4, gpus=8)  # fmt: skip
        out = evaluate(make_input(t, offers=[offer("F", "far")], checklists=answered("F")))
        far = option_of(out, "F")
        assert far["plan"] == "staged"
        [leg] = far["legs"]
        assert (leg["what"], leg["gb"], leg["cost"]) == ("input", 50.0, approx(1.0))


class TestRestrictedResults:
    def test_results_between_exactly_the_allowed_sites_are_fine(self):
        # Allowed: data and home. M at data ships results data → home: both ends allowed.
        t = task(data_site="data", result_site="home", input_gb=100, result_gb=5, image_gb=0,
                 compliance_restricted=True, results_restricted=True,
                 allowed_sites=["data", "home"])  # fmt: skip
        out = evaluate(make_input(t, offers=[offer("M", "data")], checklists=answered("M")))
        m = option_of(out, "M")
        assert (m["feasible"], m["reasons"]) == (True, [])
        assert [(leg["what"], leg["from"], leg["to"]) for leg in m["legs"]] == [
            ("results", "data", "home")
        ]
