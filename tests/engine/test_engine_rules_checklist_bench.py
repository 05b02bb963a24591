"""One test per rule id of SPEC 3 (as corrected by SPEC 6.1) that fires, and one where it does not:
the checklist gate (C) and the benchmark verdict (B).

Every expected figure is a literal worked out by hand in the comment beside it.
"""

from __future__ import annotations

from engine import (
    evaluate,
)

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    findings_of,
    make_input,
    multi,
    offer,
    rules,
    single,
    task,
)


class TestChecklistGate:
    def test_C_two_unanswered_blocks_the_candidate(self):
        answers = {"q1": "answered", "q2": "answered", "q3": "answered", "q4": "answered"}
        out = evaluate(make_input(checklists={"local": answers}))
        # q5 and q6 are missing → 2 unanswered → not ready to sign
        assert out["checklists"]["local"]["unanswered"] == 2
        assert out["checklists"]["local"]["ready_to_sign"] is False
        [f] = findings_of(out, "C")
        assert (f["severity"], f["offer"]) == ("block", "local")
        assert f["data"]["questions"] == ["q5", "q6"]
        assert out["signoff"]["local"] == {"blocked": True, "rules": ["C"]}

    def test_C_one_unanswered_warns(self):
        answers = {q: "answered" for q in ("q1", "q2", "q3", "q4", "q5")}
        answers["q6"] = "unanswered"
        out = evaluate(make_input(checklists={"local": answers}))
        assert out["checklists"]["local"] == {
            "unanswered": 1,
            "ready_to_sign": True,
            "unanswered_questions": ["q6"],
        }
        assert findings_of(out, "C")[0]["severity"] == "warn"
        assert out["signoff"]["local"]["blocked"] is False

    def test_C_does_not_fire_when_all_answered(self):
        out = evaluate(make_input(offers=[offer("a"), offer("b")], checklists=answered("a", "b")))
        assert "C" not in rules(out)
        assert out["checklists"]["a"] == {
            "unanswered": 0,
            "ready_to_sign": True,
            "unanswered_questions": [],
        }

    def test_C_a_candidate_without_answers_is_six_unanswered_and_blocks(self):
        # SPEC 6.1: no checklist answers = all six unanswered (6 ≥ 2 → block), in the API too
        out = evaluate(make_input(offers=[offer("a"), offer("b")], checklists=answered("a")))
        assert out["checklists"]["b"] == {
            "unanswered": 6,
            "ready_to_sign": False,
            "unanswered_questions": ["q1", "q2", "q3", "q4", "q5", "q6"],
        }
        [f] = findings_of(out, "C")
        assert (f["severity"], f["offer"], f["data"]["unanswered"]) == ("block", "b", 6)
        assert out["signoff"]["a"] == {"blocked": False, "rules": []}
        assert out["signoff"]["b"] == {"blocked": True, "rules": ["C"]}


class TestBenchmarkVerdict:
    def test_B1_negative_gain_warns(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(12)]))
        # speedup 10 / 12 = 0.833333; GPUs 16 vs 8 → efficiency 0.833333 / 2 = 0.416667
        assert out["benchmark"]["speedup"] == 0.833333
        assert out["benchmark"]["scaling_efficiency"] == 0.416667
        assert out["benchmark"]["net_gain_positive"] is False
        assert findings_of(out, "B1")[0]["severity"] == "warn"

    def test_B1_does_not_fire_with_a_speedup(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(5, compute_hours=3.75)]))
        # speedup 2.0, efficiency 2 / 2 = 1.0, non-compute share 1 − 3.75 / 5 = 0.25
        assert out["benchmark"]["speedup"] == 2.0
        assert out["benchmark"]["scaling_efficiency"] == 1.0
        assert out["benchmark"]["non_compute_share"] == 0.25
        assert out["benchmark"]["hours_saved"] == 5.0
        assert "B1" not in rules(out)

    def test_B_non_compute_share_uses_comm_hours_when_recorded(self):
        out = evaluate(make_input(benchmarks=[single(10), multi(5, comm_hours=1.2)]))
        assert out["benchmark"]["non_compute_share"] == 0.24  # 1.2 / 5

    def test_B_pair_names_the_compared_records(self):
        bench = [single(10, id=11), single(8, id="s2"), multi(5, id="m1")]
        out = evaluate(make_input(benchmarks=bench))
        # the fastest single (8 h, 2nd record) against the only multi (3rd record)
        assert out["benchmark"]["single_benchmark"] == "s2"
        assert out["benchmark"]["multi_benchmark"] == "m1"
        assert (out["benchmark"]["single_index"], out["benchmark"]["multi_index"]) == (1, 2)
        assert out["benchmark"]["speedup"] == 1.6  # 8 / 5

    def test_B_nulls_without_a_pair(self):
        out = evaluate(make_input(benchmarks=[single(10)]))
        assert out["benchmark"]["speedup"] is None
        assert out["benchmark"]["net_gain_positive"] is None

    def test_B2_one_rerun_eats_the_gain(self):
        # saved 10 − 6 = 4 h; rerun loss 2 × 2 = 4 h ≥ 4 → warn
        bench = [single(10), multi(6, failure_reruns=2, hours_lost_per_rerun=2)]
        [f] = findings_of(evaluate(make_input(benchmarks=bench)), "B2")
        assert f["data"] == {"rerun_loss_hours": 4.0, "hours_saved": 4.0}

    def test_B2_does_not_fire_when_the_gain_survives(self):
        # rerun loss 1 × 2 = 2 h < 4 h saved
        bench = [single(10), multi(6, failure_reruns=1, hours_lost_per_rerun=2)]
        assert "B2" not in rules(evaluate(make_input(benchmarks=bench)))

    def test_B3_retrofit_costs_more_than_a_year(self):
        # saved 4 h per run × 1 run per quarter × 4 = 16 h < 20 h of effort
        bench = [single(10), multi(6, migration_effort_hours=20)]
        t = task(cadence="recurring", runs_per_quarter=1)
        [f] = findings_of(evaluate(make_input(t, benchmarks=bench)), "B3")
        assert f["data"] == {
            "migration_effort_hours": 20.0,
            "runs_per_year": 4.0,
            "yearly_hours_saved": 16.0,
        }

    def test_B3_does_not_fire_when_a_year_pays_for_it(self):
        # 4 h × 2 runs per quarter × 4 = 32 h ≥ 20 h
        bench = [single(10), multi(6, migration_effort_hours=20)]
        t = task(cadence="recurring", runs_per_quarter=2)
        assert "B3" not in rules(evaluate(make_input(t, benchmarks=bench)))

    def test_B3_counts_one_run_for_a_one_off_job(self):
        # one-off: 4 h × 1 run = 4 h < 5 h of effort
        bench = [single(10), multi(6), {"kind": "pilot_migration", "migration_effort_hours": 5}]
        out = evaluate(make_input(task(cadence="one_off", runs_per_quarter=3), benchmarks=bench))
        assert findings_of(out, "B3")[0]["data"]["runs_per_year"] == 1.0
