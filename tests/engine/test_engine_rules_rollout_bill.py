"""One test per rule id of SPEC 3 (as corrected by SPEC 6.1) that fires, and one where it does not:
rollout (H), the total bill (T), sign-off (S) and the engine's own contracts.

Every expected figure is a literal worked out by hand in the comment beside it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine import (
    MESSAGES,
    evaluate,
    signoff_check,
    tier_between,
)
from engine.schema import Site

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    answered,
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    single,
    three_way_input,
)


class TestRollout:
    def test_H1_unvalidated_tier_pilots_first(self):
        out = evaluate(three_way_input())  # chosen M is same_city; new teams: same_site only
        [f] = findings_of(out, "H1")
        assert (f["key"], f["data"]["tier"]) == ("H1", "same_city")

    def test_H1_notes_when_two_pilots_succeeded(self):
        pilots = [{"kind": "pilot_migration", "tier": "same_city", "succeeded": True}] * 2
        data = three_way_input()
        data["benchmarks"] = pilots
        [f] = findings_of(evaluate(data), "H1")
        assert f["key"] == "H1.pilots_ready" and f["data"]["successful_pilots"] == 2

    def test_H1_counts_only_successful_pilots_on_the_chosen_tier(self):
        """Two runs that are not both a pilot, on M's tier and a success count nothing: a failed
        pilot on same_city, a successful pilot on same_datacenter, a successful single run on
        same_city. With one real pilot the count is 1 (< 2): still "pilot first"."""
        data = three_way_input()
        data["benchmarks"] = [
            {"kind": "pilot_migration", "tier": "same_city", "succeeded": False},
            {"kind": "pilot_migration", "tier": "same_datacenter", "succeeded": True},
            {"kind": "pilot_migration", "tier": "same_city", "succeeded": True},
        ]
        [f] = findings_of(evaluate(data), "H1")
        assert (f["key"], f["data"]["successful_pilots"]) == ("H1", 1)

    def test_H1_does_not_fire_on_a_validated_tier(self):
        team = {"has_machines": True, "validated_tiers": ["same_datacenter", "same_city"]}
        assert "H1" not in rules(evaluate(three_way_input(team=team)))

    def test_H2_moving_plan_without_readiness_blocks(self):
        data = three_way_input(resume_verified=True)
        data["checklists"] = answered("L", "M", "D")
        out = evaluate(data)
        [f] = findings_of(out, "H2")
        assert (f["severity"], f["offer"]) == ("block", None)
        assert f["data"]["missing"] == ["channel_reserved", "env_aligned"]
        assert out["readiness"]["dispatch_ready"] is False
        assert out["signoff"]["L"]["rules"] == ["H2"]

    def test_H2_does_not_fire_when_dispatch_ready(self):
        data = three_way_input(resume_verified=True, env_aligned=True)
        data["links"][0].update(reservable=True, reserved=True)  # data–home carries M's legs
        out = evaluate(data)
        assert out["readiness"] == {
            "channel_reserved": True,
            "resume_verified": True,
            "env_aligned": True,
            "dispatch_ready": True,
        }
        assert "H2" not in rules(out)

    def test_H2_does_not_fire_when_nothing_moves(self):
        out = evaluate(make_input())
        assert out["readiness"]["dispatch_ready"] is True
        assert "H2" not in rules(out)


class TestTotalBill:
    def test_T_bill_with_rerun_cost(self):
        data = three_way_input()
        data["benchmarks"] = [single(12, offer_id="L", failure_reruns=2, hours_lost_per_rerun=1.5)]
        # SPEC 7.2: the record holds 1 × 8 GPUs × 12 h = 96 GPU-hours; counted from 96
        data["thresholds"] = {"failure_evidence_gpu_hours": 96}
        out = evaluate(data)
        row = out["bill"][0]
        # rate 2 failures ÷ 96 GPU-hours; expected failures 2/96 × 8 billed GPUs × 10 h = 5/3;
        # the task resumes: 1 h checkpoint interval ÷ 2 + 0 restart = 0.5 h lost each; burn
        # 8 × 2.0 = 16 → rerun cost 5/3 × 0.5 × 16 = 13.333333 (2.2 summed the records'
        # 2 × 1.5 h × 16 = 48 whatever the run); total 160 + 0 + 5 + 13.333333 = 178.333333
        assert row == {
            "offer": "L",
            "feasible": True,
            "unit_price": 2.0,
            "compute_cost": 160.0,
            "scheduling_cost": 0.0,
            "transfer_cost": 5.0,
            "rerun_cost": 13.333333,
            "migration_effort_hours": None,  # no Q5 effort, no pilot record
            "migration_cost": 0.0,  # engineer_hour_cost defaults to 0: not priced
            "preemption_cost": 0.0,  # SPEC 6.3: on-demand capacity is not preempted
            "preprocess_cost": 0.0,  # SPEC 6.4: no staged plan (no processed version)
            "scheduler_ops_cost": 0.0,  # SPEC 7.11: no self-hosted distributed layer
            "total": 178.333333,
            "rank_unit": 1,
            "rank_total": 2,
        }
        assert option_of(out, "L")["total_cost"] == row["total"]  # SPEC 7.2: one figure
        [f] = findings_of(out, "T")
        assert f["data"] == {"offer": "M", "total": 88.3, "unit_price": 2.0}

    def test_T_does_not_fire_without_any_known_total(self):
        data = three_way_input()
        data["links"] = []
        out = evaluate(data)
        # every option needs a link that is gone: no total is known, nothing to compare
        assert [row["total"] for row in out["bill"]] == [None, None, None]
        assert [row["rank_total"] for row in out["bill"]] == [None, None, None]
        assert "T" not in rules(out)


class TestSignoff:
    def test_S_blocked_by_the_candidate_checklist_only(self):
        out = evaluate(
            make_input(
                offers=[offer("a"), offer("b")],
                checklists={"a": {"q1": "answered"}, **answered("b")},
            )
        )
        blocked = signoff_check(
            out,
            offer_id="a",
            author_id=1,
            reviewer_id=2,
            previous_decider_ids=[],
            snapshot_is_latest=True,
        )
        assert blocked["allowed"] is False
        assert [(r["code"], r["data"]["rule"]) for r in blocked["reasons"]] == [
            ("block_finding", "C")
        ]
        allowed = signoff_check(
            out,
            offer_id="b",
            author_id=1,
            reviewer_id=2,
            previous_decider_ids=[],
            snapshot_is_latest=True,
        )
        assert allowed == {"allowed": True, "reasons": []}

    def test_S_author_repeat_and_stale_snapshot_are_refused(self):
        out = evaluate(make_input(checklists=answered("local")))
        result = signoff_check(
            out,
            offer_id="local",
            author_id=7,
            reviewer_id=7,
            previous_decider_ids=["7"],
            snapshot_is_latest=False,
        )
        assert [r["code"] for r in result["reasons"]] == [
            "self_approval",
            "already_decided",
            "stale_snapshot",
        ]
        assert all(r["rule"] == "S" and r["message_zh"] for r in result["reasons"])

    def test_S_reasons_carry_their_rule_data_and_both_languages(self):
        """Every reason in full: the finding's own text in each language, the block findings of
        this candidate and of the whole review only (not a warning, not another candidate's)."""
        output = {
            "findings": [
                {
                    "rule": "C",
                    "severity": "block",
                    "offer": "a",
                    "message": "Two questions open.",
                    "message_zh": "两个问题未答。",
                },
                {
                    "rule": "P2",
                    "severity": "block",
                    "offer": None,
                    "message": "No feasible placement.",
                    "message_zh": "没有可行方案。",
                },
                {
                    "rule": "M1",
                    "severity": "warn",
                    "offer": "a",
                    "message": "Data-heavy.",
                    "message_zh": "数据偏重。",
                },
                {
                    "rule": "C",
                    "severity": "block",
                    "offer": "b",
                    "message": "Other candidate.",
                    "message_zh": "别的候选。",
                },
            ]
        }
        result = signoff_check(
            output,
            offer_id="a",
            author_id=1,
            reviewer_id=2,
            previous_decider_ids=[3],
            snapshot_is_latest=True,
        )
        assert result == {
            "allowed": False,
            "reasons": [
                {
                    "rule": "S",
                    "code": "block_finding",
                    "message": "A blocking finding stands (C): Two questions open.",
                    "message_zh": "存在阻断项(C):两个问题未答。",
                    "data": {"rule": "C", "finding": "Two questions open.", "offer": "a"},
                },
                {
                    "rule": "S",
                    "code": "block_finding",
                    "message": "A blocking finding stands (P2): No feasible placement.",
                    "message_zh": "存在阻断项(P2):没有可行方案。",
                    "data": {"rule": "P2", "finding": "No feasible placement.", "offer": None},
                },
            ],
        }

    def test_S_an_output_without_findings_blocks_nothing(self):
        result = signoff_check(
            {},
            offer_id="a",
            author_id=1,
            reviewer_id=2,
            previous_decider_ids=[],
            snapshot_is_latest=True,
        )
        assert result == {"allowed": True, "reasons": []}

    def test_S_a_finding_without_chinese_reads_its_english_in_the_chinese_line(self):
        output = {
            "findings": [
                {"rule": "C", "severity": "block", "offer": None, "message": "Open questions."}
            ]
        }
        [reason] = signoff_check(
            output,
            offer_id="a",
            author_id=1,
            reviewer_id=2,
            previous_decider_ids=[],
            snapshot_is_latest=True,
        )["reasons"]
        assert reason["message_zh"] == "存在阻断项(C):Open questions."

    def test_S_refusals_of_the_person_and_the_snapshot_in_full(self):
        result = signoff_check(
            {"findings": []},
            offer_id="a",
            author_id=7,
            reviewer_id="7",
            previous_decider_ids=[7],
            snapshot_is_latest=False,
        )
        assert result["reasons"] == [
            {
                "rule": "S",
                "code": "self_approval",
                "message": "The author of a review cannot sign it off.",
                "message_zh": "评审的作者不能给自己签字。",
                "data": {"reviewer": "7"},
            },
            {
                "rule": "S",
                "code": "already_decided",
                "message": "This reviewer has already decided on this review.",
                "message_zh": "该评审人已经对本评审做过决定。",
                "data": {"reviewer": "7"},
            },
            {
                "rule": "S",
                "code": "stale_snapshot",
                "message": "The inputs changed after this snapshot was computed: sign off on "
                "the latest one.",
                "message_zh": "该快照计算后输入已变更:请在最新快照上签字。",
                "data": {},
            },
        ]


def test_tier_between_accepts_dicts_and_sites():
    a = {"code": "a", "datacenter": "dc1", "city": "bj"}
    assert tier_between(a, a) == "same_site"
    assert tier_between(a, {"code": "b", "datacenter": "dc1", "city": "bj"}) == "same_datacenter"
    assert tier_between(a, Site(code="c", datacenter="dc2", city="bj")) == "same_city"
    assert tier_between(Site(code="d"), Site(code="e")) == "cross_hub"  # blanks never match


def test_every_finding_key_has_both_languages():
    for key, templates in MESSAGES.items():
        assert set(templates) == {"en", "zh_Hans"}, key


def test_engine_imports_no_django():
    # A fresh interpreter: importing the engine must not pull Django in.
    code = "import sys, engine; sys.exit('django' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0
