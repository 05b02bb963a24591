"""Every threshold comparison of the engine exactly at, just below and just above its limit, the
tie-breaks between equal options, and a choice the objective decides (SPEC 6.1, M, G, X3).

Expected values are worked by hand in the comments; the inputs are chosen so that the figures
are exact in binary floating point (no 0.1 × 3 near a limit).
"""

from __future__ import annotations

import pytest

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    task,
)

# Queues of 0 everywhere unless a test sets one; far is on another hub than home.
SITES = [
    {"code": "home", "datacenter": "dc-h", "city": "a", "hub": "east", "queue_hours": 0},
    {"code": "data", "datacenter": "dc-d", "city": "a", "hub": "east", "queue_hours": 0},
    {"code": "far", "datacenter": "dc-f", "city": "b", "hub": "west", "queue_hours": 0},
]


def quiet_task(**overrides):
    """Nothing to move (no leg at all), 8 GPUs × 10 h: each option costs 80 × its price."""
    t = task(workload="data_processing", params_b=None, input_gb=0, image_gb=0, result_gb=0)
    t.update(overrides)
    return t


# ---------------------------------------------------------------------------------------------
# M1: data/compute ratio = input_gb × compress_ratio / compute_hours; high when ≥ 100, low when
# below 10 (the defaults).


@pytest.mark.parametrize(
    ("input_gb", "expected"),
    [
        (1000, "M1.high"),  # 1000 / 10 = 100: exactly at the high limit counts (≥)
        (999, None),  # 99.9
        (1001, "M1.high"),  # 100.1
        (100, None),  # 10: exactly at the low limit is not low (<)
        (99, "M1.low"),  # 9.9
        (101, None),  # 10.1
    ],
)
def test_M1_ratio_at_below_and_above_each_limit(input_gb, expected):
    out = evaluate(make_input(quiet_task(input_gb=input_gb, data_site="home"), sites=SITES,
                              links=[], offers=[offer("L")]))
    assert out["metrics"]["data_compute_ratio"] == pytest.approx(input_gb / 10)
    keys = [f["data"]["limit"] for f in findings_of(out, "M1")]
    want = {None: [], "M1.high": [100.0], "M1.low": [10.0]}[expected]
    assert keys == want


def test_M1_counts_the_compressed_input():
    # 2000 GB × 0.5 = 1000 GB over 10 h = 100: high; without compression it would be 200.
    out = evaluate(make_input(quiet_task(input_gb=2000, compress_ratio=0.5, data_site="home"),
                              sites=SITES, links=[], offers=[offer("L")]))
    assert out["metrics"]["data_compute_ratio"] == pytest.approx(100.0)


# ---------------------------------------------------------------------------------------------
# M4: network cost share = transfer cost / total cost of the chosen option; warn above 0.20.


def m4_run(input_gb: float):
    # One option, D at far: the input leg data→far costs input_gb × 0.5; compute
    # 8 GPUs × 10 h × 1.25 = 100.
    t = quiet_task(input_gb=input_gb, data_site="data")
    links = [{"from": "data", "to": "far", "bandwidth_gbps": 100, "price_per_gb": 0.5,
              "buffer": 0}]
    return evaluate(make_input(t, offers=[offer("D", "far", price=1.25)], sites=SITES,
                               links=links))


@pytest.mark.parametrize(
    ("input_gb", "share", "warns"),
    [
        (50, 0.2, False),  # 25 / (100 + 25) = 0.2 exactly: not above the limit
        (49, 24.5 / 124.5, False),  # 0.1968
        (51, 25.5 / 125.5, True),  # 0.2032
    ],
)
def test_M4_share_at_below_and_above_the_limit(input_gb, share, warns):
    out = m4_run(input_gb)
    assert option_of(out, "D")["transfer_cost"] == pytest.approx(input_gb * 0.5)
    assert out["metrics"]["network_cost_share"] == pytest.approx(share, abs=1e-6)  # 6 decimals
    assert ("M4" in rules(out)) is warns


def test_M4_share_names_the_share_and_the_limit_in_percent():
    (m4,) = findings_of(m4_run(51), "M4")
    assert m4["data"]["share_pct"] == pytest.approx(25.5 / 125.5 * 100, abs=1e-6)  # 20.32 %
    assert m4["data"]["limit_pct"] == pytest.approx(20.0)


def test_M4_is_null_when_the_chosen_option_costs_nothing():
    out = evaluate(make_input(quiet_task(), offers=[offer("L", price=0)], sites=SITES, links=[]))
    assert out["metrics"]["network_cost_share"] is None
    assert "M4" not in rules(out)


# ---------------------------------------------------------------------------------------------
# M2: warn when the chosen option's interruption cost is above its scheduling benefit (the best
# wait_local objective minus the chosen one's), never when wait_local is chosen.


def m2_run(interruption_cost_hours: float):
    # home queues 10 h; delay costs 2 per hour. L (home): 80 × 2.0 = 160 + 2 × (10 + 10) = 200.
    # D (far): 160 + 2 × 10 = 180: chosen; benefit 200 − 180 = 20.
    # Interruption cost = hours × hourly burn (8 GPUs × 2.0 = 16).
    sites = [dict(s) for s in SITES]
    sites[0]["queue_hours"] = 10
    t = quiet_task(delay_cost_per_hour=2, interruption_cost_hours=interruption_cost_hours)
    return evaluate(make_input(t, offers=[offer("L"), offer("D", "far")], sites=sites, links=[]))


@pytest.mark.parametrize(
    ("hours", "cost", "warns"),
    [
        (1.25, 20.0, False),  # 1.25 × 16 = 20 = the benefit: not above it
        (1.125, 18.0, False),  # below
        (1.375, 22.0, True),  # above
    ],
)
def test_M2_interruption_at_below_and_above_the_benefit(hours, cost, warns):
    out = m2_run(hours)
    assert out["chosen"]["offer"] == "D"
    assert out["metrics"]["scheduling_benefit"] == pytest.approx(20.0)
    assert out["metrics"]["interruption_cost"] == pytest.approx(cost)
    assert ("M2" in rules(out)) is warns


def test_M2_never_when_waiting_locally_is_chosen():
    # No queue at home: L and D cost the same, and the kind order puts wait_local first.
    t = quiet_task(delay_cost_per_hour=2, interruption_cost_hours=5)
    out = evaluate(make_input(t, offers=[offer("L"), offer("D", "far")], sites=SITES, links=[]))
    assert out["chosen"]["kind"] == "wait_local"
    assert out["metrics"]["interruption_cost"] == pytest.approx(80.0)  # 5 × 16
    assert out["metrics"]["scheduling_benefit"] == pytest.approx(0.0)
    assert "M2" not in rules(out)


# ---------------------------------------------------------------------------------------------
# Budgets (SPEC P / M3): a segment is over when its hours are above its budget.


@pytest.mark.parametrize(
    ("segment", "budget", "over"),
    [
        ("compute", 10, False),  # 10 h of compute: exactly the budget
        ("compute", 9.5, True),
        ("compute", 10.5, False),
        ("queue", 4, False),  # far queues 4 h
        ("queue", 3.5, True),
        ("queue", 4.5, False),
        ("transfer", 1, False),  # 450 GB × 8 / (1 × 3600) = 1.0 h
        ("transfer", 0.5, True),
        ("transfer", 1.5, False),
    ],
)
def test_each_budget_at_below_and_above_the_hours(segment, budget, over):
    sites = [dict(s) for s in SITES]
    sites[2]["queue_hours"] = 4
    links = [{"from": "data", "to": "far", "bandwidth_gbps": 1, "price_per_gb": 0, "buffer": 0}]
    t = quiet_task(input_gb=450, data_site="data",
                   latency_budget_hours={"transfer": None, "queue": None, "compute": None})
    t["latency_budget_hours"][segment] = budget
    out = evaluate(make_input(t, offers=[offer("D", "far")], sites=sites, links=links))
    d = option_of(out, "D")
    assert d["within_budget"] is (not over)
    assert out["metrics"]["over_budget"] == ([segment] if over else [])
    assert ("P1" in rules(out)) is over  # the only option: none meets every budget


def test_M3_names_the_cheapest_option_within_budget_and_what_it_costs_more():
    # L at home queues 10 h (over a 5 h queue budget) but is cheapest overall with delay 0...
    # L: 80 × 2.0 = 160; D at far: 80 × 2.5 = 200 (queue 0, within budget); D2 at far:
    # 80 × 3.0 = 240. Chosen L (least objective); cheapest within budget D: 200 − 160 = 40 more.
    sites = [dict(s) for s in SITES]
    sites[0]["queue_hours"] = 10
    t = quiet_task(latency_budget_hours={"transfer": None, "queue": 5, "compute": None})
    offers = [offer("L"), offer("D2", "far", price=3.0), offer("D", "far", price=2.5)]
    out = evaluate(make_input(t, offers=offers, sites=sites, links=[]))
    assert out["chosen"]["offer"] == "L"
    (m3,) = findings_of(out, "M3")
    assert (m3["data"]["segment"], m3["data"]["offer"]) == ("queue", "D")
    assert m3["data"]["extra_cost"] == pytest.approx(40.0)


# ---------------------------------------------------------------------------------------------
# G2 / G3: the gates of cross-domain eligibility.


@pytest.mark.parametrize(
    ("hours", "passes"),
    [(1.0, True), (0.5, True), (1.5, False)],  # limit 1.0 h: at or below passes (≤)
)
def test_G3_interruption_gate_at_below_and_above_the_limit(hours, passes):
    out = evaluate(make_input(quiet_task(resumable=False, interruption_cost_hours=hours),
                              sites=SITES, links=[], offers=[offer("L")]))
    assert out["cross_domain"]["gates"]["interruption"] is passes
    assert ("G3" in rules(out)) is (not passes)


def test_G3_a_resumable_task_passes_whatever_an_interruption_costs():
    out = evaluate(make_input(quiet_task(resumable=True, interruption_cost_hours=50),
                              sites=SITES, links=[], offers=[offer("L")]))
    assert out["cross_domain"]["gates"]["interruption"] is True


@pytest.mark.parametrize(("budget", "passes"), [(0, False), (0.25, True), (None, True)])
def test_G2_a_transfer_budget_of_zero_fails_the_latency_gate(budget, passes):
    t = quiet_task(latency_budget_hours={"transfer": budget, "queue": None, "compute": None})
    out = evaluate(make_input(t, sites=SITES, links=[], offers=[offer("L")]))
    assert out["cross_domain"]["gates"]["latency_tolerance"] is passes


# ---------------------------------------------------------------------------------------------
# X3: a loosely coupled job may spread across hubs from loose_cross_hub_hours (24 h) on.


@pytest.mark.parametrize(
    ("hours", "resumable", "tier"),
    [
        (24, True, "cross_hub"),  # exactly at the limit counts (≥)
        (23.5, True, "same_city"),
        (24.5, True, "cross_hub"),
        (24.5, False, "same_city"),  # long but not resumable
    ],
)
def test_loose_coupling_spreads_across_hubs_only_when_long_and_resumable(hours, resumable, tier):
    t = quiet_task(coupling="loose", compute_hours=hours, resumable=resumable)
    out = evaluate(make_input(t, sites=SITES, links=[], offers=[offer("L")]))
    assert out["cross_domain"]["spread_tier"] == tier


# ---------------------------------------------------------------------------------------------
# The choice: least objective = total cost + delay cost per hour × total hours.


@pytest.mark.parametrize(
    ("delay", "chosen"),
    [
        # F: twice as fast, 5 h × 8 GPUs × 5.0 = 200; C: 10 h × 8 × 2.0 = 160.
        (0, "C"),  # objectives 200 and 160: the cheaper
        (10, "F"),  # 200 + 50 = 250 against 160 + 100 = 260: the faster
        (8, "C"),  # 240 = 240: a tie; same kind and site, so the offer id: C before F
        (7.5, "C"),  # 237.5 against 235
        (8.5, "F"),  # 242.5 against 245
    ],
)
def test_when_the_fastest_is_not_the_cheapest_the_objective_decides(delay, chosen):
    offers = [offer("F", price=5.0, relative_speed=2), offer("C", price=2.0)]
    out = evaluate(make_input(quiet_task(delay_cost_per_hour=delay), offers=offers,
                              sites=SITES, links=[]))
    assert option_of(out, "F")["total_cost"] == pytest.approx(200.0)
    assert option_of(out, "F")["total_hours"] == pytest.approx(5.0)
    assert option_of(out, "C")["total_cost"] == pytest.approx(160.0)
    assert out["chosen"]["offer"] == chosen


# ---------------------------------------------------------------------------------------------
# Tie-breaks (SPEC P): equal objectives go to the kind order (wait_local, move_compute,
# move_data), then the site code, then the offer id.

TIE_SITES = [
    *SITES,
    {"code": "far2", "datacenter": "dc-g", "city": "d", "hub": "west", "queue_hours": 0},
]


def test_a_tie_goes_to_the_site_code_before_the_offer_id():
    # Two move_data options of equal objective (80 × 2.0 = 160): site far < far2 decides,
    # although the offer at far2 has the smaller id ("a" < "z").
    offers = [offer("a", "far2"), offer("z", "far")]
    out = evaluate(make_input(quiet_task(), offers=offers, sites=TIE_SITES, links=[]))
    assert option_of(out, "a")["objective"] == option_of(out, "z")["objective"]
    assert out["chosen"] == {"kind": "move_data", "site": "far", "offer": "z"}


def test_a_tie_goes_to_the_kind_order_before_the_site_code():
    # wait_local at home against move_compute at data ("data" < "home"): the kind decides.
    offers = [offer("m", "data"), offer("l", "home")]
    t = quiet_task(data_site="data")
    out = evaluate(make_input(t, offers=offers, sites=TIE_SITES, links=[]))
    assert out["chosen"] == {"kind": "wait_local", "site": "home", "offer": "l"}


def test_a_tie_at_one_site_goes_to_the_offer_id():
    offers = [offer("b"), offer("a")]
    out = evaluate(make_input(quiet_task(), offers=offers, sites=SITES, links=[]))
    assert out["chosen"]["offer"] == "a"


def test_the_cheapest_within_budget_breaks_a_cost_tie_by_objective_then_site():
    # Chosen L is over its queue budget (home queues 10 h). Within budget: A at far2 and B at far
    # both cost 80 × 2.5 = 200 with the same hours (objective 200): site far first, so B.
    sites = [dict(s) for s in TIE_SITES]
    sites[0]["queue_hours"] = 10
    t = quiet_task(latency_budget_hours={"transfer": None, "queue": 5, "compute": None})
    offers = [offer("L"), offer("A", "far2", price=2.5), offer("B", "far", price=2.5)]
    out = evaluate(make_input(t, offers=offers, sites=sites, links=[]))
    assert out["chosen"]["offer"] == "L"
    (m3,) = findings_of(out, "M3")
    assert (m3["data"]["site"], m3["data"]["offer"]) == ("far", "B")


# ---------------------------------------------------------------------------------------------
# What the findings carry (mutation testing found these unread).


def test_M1_low_is_info_and_a_ratio_exists_below_one_compute_hour():
    # 2 GB over 0.5 h = 4 GB per hour: low (below 10), an info finding.
    out = evaluate(make_input(quiet_task(input_gb=2, compute_hours=0.5, data_site="home"),
                              sites=SITES, links=[], offers=[offer("L")]))
    assert out["metrics"]["data_compute_ratio"] == pytest.approx(4.0)
    (m1,) = findings_of(out, "M1")
    assert (m1["severity"], m1["data"]["ratio"], m1["data"]["limit"]) == ("info", 4.0, 10.0)


def test_M4_is_a_warning_naming_the_share_and_the_limit():
    (m4,) = findings_of(m4_run(51), "M4")
    assert m4["severity"] == "warn"
    assert m4["data"]["share"] == pytest.approx(25.5 / 125.5, abs=1e-6)
    assert m4["data"]["limit"] == pytest.approx(0.2)


@pytest.mark.parametrize(
    ("segment", "hours"),
    [("transfer", 1.0), ("queue", 4.0), ("compute", 10.0)],  # as worked in the budget test
)
def test_M3_names_the_hours_of_the_segment_over_budget(segment, hours):
    sites = [dict(s) for s in SITES]
    sites[2]["queue_hours"] = 4
    links = [{"from": "data", "to": "far", "bandwidth_gbps": 1, "price_per_gb": 0, "buffer": 0}]
    t = quiet_task(input_gb=450, data_site="data",
                   latency_budget_hours={"transfer": None, "queue": None, "compute": None})
    t["latency_budget_hours"][segment] = 0.25
    out = evaluate(make_input(t, offers=[offer("D", "far")], sites=sites, links=links))
    (m3,) = findings_of(out, "M3")
    assert (m3["data"]["segment"], m3["data"]["hours"], m3["data"]["budget"]) == (
        segment, pytest.approx(hours), 0.25
    )


def test_M3_extra_cost_over_a_free_chosen_option():
    # L at home is free (price 0) but queues 10 h over a 5 h budget; D at far costs
    # 80 × 2.5 = 200 and meets it: 200 − 0 = 200 more.
    sites = [dict(s) for s in SITES]
    sites[0]["queue_hours"] = 10
    t = quiet_task(latency_budget_hours={"transfer": None, "queue": 5, "compute": None})
    out = evaluate(make_input(t, offers=[offer("L", price=0), offer("D", "far", price=2.5)],
                              sites=sites, links=[]))
    assert out["chosen"]["offer"] == "L"
    (m3,) = findings_of(out, "M3")
    assert m3["data"]["extra_cost"] == pytest.approx(200.0)


def test_widest_tier_is_the_farthest_apart():
    from engine.network import widest_tier

    assert widest_tier(["same_site", "cross_hub", "same_city"]) == "cross_hub"
    assert widest_tier(["same_datacenter", "same_site"]) == "same_datacenter"


class EffectivePriceTests:
    """SPEC P: one GPU-hour's price whatever the billing basis, and the refusals the web side
    shows (it calls this before the engine validates anything)."""

    def test_each_basis(self):
        from engine import effective_gpu_hour_price as price

        assert price("gpu_hour", 2.5, 8) == 2.5
        assert price("machine_hour", 16, 8) == 2.0  # 16 / 8 GPUs
        assert price("contract", 10000, 8, 500, 0.5) == 5.0  # 10000 / (500 × 8 × 0.5)

    def test_refusals_name_what_is_wrong(self):
        from engine import effective_gpu_hour_price as price

        with pytest.raises(ValueError, match="^gpus_per_machine must be at least 1$"):
            price("gpu_hour", 1, 0)
        needs = "^a contract price needs contract_hours and expected_utilization$"
        with pytest.raises(ValueError, match=needs):
            price("contract", 100, 8, 500, None)  # hours given, no utilization
        with pytest.raises(ValueError, match=needs):
            price("contract", 100, 8, None, 0.5)
        with pytest.raises(ValueError, match="^unknown billing basis 'spot'$"):
            price("spot", 1, 8)
