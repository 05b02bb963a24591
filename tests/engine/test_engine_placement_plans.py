"""SPEC 6.4 raw or staged, per offer: the tie keeps the raw plan, and every site's raw and staged
plans are its own (the per-evaluation memo of site plans never hands one site another's plan).

The world is test_engine_v22_staged's: 5,000 GB raw at `data`; F at far (1.0 per GPU-hour),
8 GPUs × 10 h = 80; preprocessing 2 h × 5 = 10; data → far 0.02 per GB; no delay cost, so the
objective is the total cost. Every expected figure is worked out by hand beside it.
"""

from __future__ import annotations

from engine import evaluate

from .engine_fixtures import (
    LINKS,
    SITES,
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    approx,
    make_input,
    offer,
    option_of,
    staged_task,
)


class TestRawOrStagedTie:
    def test_a_tie_keeps_the_raw_plan(self):
        # raw: 5000 × 0.02 = 100 + 80 = 180; staged: 4500 × 0.02 = 90 + 80 + 10 = 180: a tie
        out = evaluate(
            make_input(staged_task(processed_gb=4500), offers=[offer("F", "far", price=1.0)])
        )
        far = option_of(out, "F")
        assert (far["plan"], far["transfer_gb"]) == ("raw", 5000.0)
        assert far["total_cost"] == approx(180.0)

    def test_just_cheaper_staged_wins(self):
        # staged: 4499 × 0.02 = 89.98 + 80 + 10 = 179.98 < 180
        out = evaluate(
            make_input(staged_task(processed_gb=4499), offers=[offer("F", "far", price=1.0)])
        )
        far = option_of(out, "F")
        assert (far["plan"], far["transfer_gb"]) == ("staged", 4499.0)
        assert far["total_cost"] == approx(179.98)


class TestEachSiteItsOwnPlans:
    def test_a_site_code_that_extends_another_does_not_share_its_plans(self):
        # Site codes are free text: "far" + "\x00staged" is a valid code of its own. G sits
        # there, linked from data at 0.05 per GB. G: raw 5000 × 0.05 = 250 + 80 = 330, staged
        # 200 × 0.05 = 10 + 80 + 10 = 100 → staged. F at far: staged 200 × 0.02 = 4 + 80 + 10 =
        # 94 < raw 180 → staged. Whatever the offer order.
        odd = "far\x00staged"
        sites = [*SITES, {"code": odd, "datacenter": "dc-x", "city": "chengdu", "hub": "west"}]
        links = [*LINKS, {"from": "data", "to": odd, "bandwidth_gbps": 20, "price_per_gb": 0.05}]
        f, g = offer("F", "far", price=1.0), offer("G", odd, price=1.0)
        for offers in ([f, g], [g, f]):
            data = make_input(
                staged_task(),
                offers=offers,
                sites=sites,
                links=links,
                checklists=answered("F", "G"),
            )
            out = evaluate(data)
            far, other = option_of(out, "F"), option_of(out, "G")
            assert (far["plan"], far["total_cost"]) == ("staged", approx(94.0))
            assert [(leg["to"], leg["gb"]) for leg in far["legs"]] == [("far", 200.0)]
            assert (other["plan"], other["total_cost"]) == ("staged", approx(100.0))
            assert [(leg["to"], leg["gb"]) for leg in other["legs"]] == [(odd, 200.0)]
