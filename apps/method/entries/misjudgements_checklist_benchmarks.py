"""Method guide entries: misjudgements, checklist, benchmarks (see the package's __init__)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .model import Entry, Passage

ENTRIES: tuple[Entry, ...] = (
    Entry(
        "J1",
        "misjudgements",
        "warn",
        title=_("Misjudgement one: buying scheduling is not having GPUs"),
        checks=_("Whether a plan that needs a distributed layer also has somewhere to run."),
        formula=_(
            "Platform distributed or both, the team has no machines, and no candidate is a "
            "compute or managed offer → warning."
        ),
        fix=_("Add a compute or managed offer as a candidate."),
        passages=(
            Passage(
                "a_misjudge",
                (
                    "误判一:把分布式平台当成更高级的算力平台,以为买了调度就等于有卡。实际它本身"
                    "不产出算力,你还是得有地方跑"
                ),
                (
                    "Misjudgement one: taking a distributed platform for a superior compute "
                    "platform, as if buying scheduling meant having GPUs. It produces no "
                    "compute; you still need somewhere to run."
                ),
            ),
        ),
    ),
    Entry(
        "J2",
        "misjudgements",
        "warn",
        title=_("Misjudgement two: several machines are not always faster"),
        checks=_("Whether a distributed plan rests on a measurement."),
        formula=_(
            "Platform distributed or both and no like-for-like pair (a single and a multi run "
            "on the same offer) is recorded → warning."
        ),
        fix=_(
            "Record a single-machine and a multi-machine benchmark of the same task on the "
            "same offer."
        ),
        passages=(
            Passage(
                "a_misjudge",
                (
                    "误判二:认为多机一定比单机快。通信占比高的任务在多机上会更慢,切分不当的时候"
                    "尤其明显"
                ),
                (
                    "Misjudgement two: believing several machines are always faster than one. "
                    "Tasks with a high communication share are slower on several machines, "
                    "above all when badly split."
                ),
            ),
        ),
    ),
    Entry(
        "J3",
        "misjudgements",
        "warn",
        title=_("Misjudgement three: unit price is not the total bill"),
        checks=_("Whether the cheapest unit price is also the cheapest total."),
        formula=_(
            "Among at least two feasible candidates with a known total, none of the lowest "
            "unit price has the lowest total → warning."
        ),
        fix=_("Compare totals, not unit prices: the comparison table marks both cells."),
        passages=(
            Passage(
                "a_misjudge",
                "误判三:只比单价不比总账。调度开销、数据搬运、失败重跑带来的损耗,都要算进总成本里",
                (
                    "Misjudgement three: comparing unit prices, not the total bill. Scheduling "
                    "overhead, data movement and rerun losses all belong in the total."
                ),
            ),
        ),
    ),
    Entry(
        "J4",
        "misjudgements",
        "block",
        title=_("Misjudgement four: using is not maintaining"),
        checks=_("Whether someone on the team can maintain the scheduler the plan needs."),
        formula=_(
            "Nobody can maintain a scheduler and the plan needs one (distributed or both, or "
            "R3's fallback) → warning. With managed delivery, each candidate of kind "
            "distributed is blocked (J4.self_hosted)."
        ),
        fix=_(
            "Replace a self-hosted distributed candidate with a managed one, or mark on the "
            "profile that someone can maintain a scheduler."
        ),
        passages=(
            Passage(
                "a_misjudge",
                (
                    "误判四:把「团队会用」当成「团队能维护」。会提交作业和会排障是两件事,排障能"
                    "力才是长期成本"
                ),
                (
                    "Misjudgement four: taking ‘the team can use it’ for ‘the team can "
                    "maintain it’. Submitting jobs and troubleshooting are two things; "
                    "troubleshooting is the long-term cost."
                ),
            ),
        ),
    ),
    Entry(
        "C",
        "checklist",
        "block",
        title=_("Checklist gate: six questions before signing"),
        checks=_("How many of the six checklist questions each candidate leaves unanswered."),
        formula=_(
            "Per candidate, unanswered among Q1–Q6 (no answers at all = 6 unanswered): 2 or "
            "more → block; exactly 1 → warning."
        ),
        fix=_(
            "Open the review's checklist and answer the open questions (task scale, split and "
            "network, fault tolerance, billing basis, migration cost, exit path)."
        ),
        passages=(
            Passage(
                "a_checklist",
                "这六个问题里,只要有两个以上答不上来,就说明选型还没到签字的时候",
                (
                    "If two or more of these six questions cannot be answered, the selection "
                    "is not ready to sign."
                ),
            ),
        ),
    ),
    Entry(
        "B1",
        "benchmarks",
        "warn",
        title=_("No net gain across machines"),
        checks=_("Whether the multi-machine run is faster end to end, not just in compute."),
        formula=_(
            "Reported pair: speedup = single-machine end-to-end hours ÷ multi-machine "
            "end-to-end hours; speedup ≤ 1 → warning."
        ),
        fix=_("Stay on one machine, or fix the split or the network and measure again."),
        passages=(
            Passage(
                "a_verify",
                "跨机收益是否为正,而不是只看计算段",
                "Is the cross-machine gain positive, not just in the compute segment.",
            ),
        ),
    ),
    Entry(
        "B2",
        "benchmarks",
        "warn",
        title=_("Reruns eat the gain"),
        checks=_("Whether failure reruns of the multi-machine run cost more than it saves."),
        formula=_(
            "Gain positive and the multi run's failure reruns × hours lost per rerun ≥ hours "
            "saved (single e2e − multi e2e) → warning."
        ),
        fix=_("Make the job resumable or more robust, then measure again."),
        passages=(
            Passage(
                "a_verify",
                "重跑一次就吃掉多少收益,值不值得",
                "How much of the gain one rerun eats, and whether it is worth it.",
            ),
        ),
    ),
    Entry(
        "B3",
        "benchmarks",
        "warn",
        title=_("Migration costs more than the gain"),
        checks=_("Whether retrofitting the job costs more hours than the gain brings in a year."),
        formula=_(
            "Gain positive and the largest migration effort on a benchmark record > hours "
            "saved × runs per year (runs per quarter × 4, or 1 for a one-off) → warning."
        ),
        fix=_(
            "Keep the current platform, or cut the retrofit (launch, dependencies, data paths) "
            "and record the new effort."
        ),
        passages=(
            Passage(
                "a_verify",
                "改造工时是否已经超过预期收益",
                "Do the retrofit hours already exceed the expected gain.",
            ),
        ),
    ),
)
