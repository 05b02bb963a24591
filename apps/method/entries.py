"""The method guide's entries, as data: one per rule id, gate, exclusion, indicator and rollout
tier the engine can name, and the glossary of the method's words.

Each entry says what it checks, its formula (team thresholds as `%(key)s`, filled in by
`formula_for`), the seed passages it follows (quoted in Chinese exactly as the seed articles
have them, with an English rendering) and how to fix what it flags. Rule ids and message keys
come from apps.scoring.engine (findings.RULE_ORDER, messages.MESSAGES); tests/method checks
that every id the engine can emit has an entry here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.teams import thresholds as team_thresholds


@dataclass(frozen=True)
class Article:
    title_zh: str  # as the seed has it
    title: Promise
    filename: str  # in the seeds folder the method was written from


@dataclass(frozen=True)
class Section:
    article: str  # key of ARTICLES
    heading_zh: str  # the section's heading, exactly as in the seed
    heading_en: str  # an English rendering


@dataclass(frozen=True)
class Passage:
    section: str  # key of SECTIONS
    quote_zh: str  # exact text of the seed
    english: str  # an English rendering (not a translation catalog entry: it is English in
    # both interfaces, beside the Chinese original)


@dataclass(frozen=True)
class Entry:
    id: str  # a rule id as findings carry it ("R1a", "G4"), or a tier code ("cross_hub")
    group: str  # key of GROUPS
    severity: str  # the strongest severity its findings carry: "block", "warn", "info" or ""
    title: Promise
    checks: Promise
    formula: Promise  # with the team thresholds it reads as %(key)s
    fix: Promise
    passages: tuple[Passage, ...] = ()
    note: Promise | None = None  # where the rule comes from when not (only) from a seed

    @property
    def thresholds(self) -> tuple[str, ...]:
        """The threshold keys the formula names, in order of first use."""
        keys: list[str] = []
        for key in _PLACEHOLDER.findall(str(self.formula)):
            if key not in keys:
                keys.append(key)
        return tuple(keys)


@dataclass(frozen=True)
class Term:
    id: str
    term: Promise
    meaning: Promise


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")

ARTICLES = {
    "platforms": Article(
        "算力平台与分布式计算平台",
        _("Compute platform and distributed computing platform"),
        "compute-vs-distributed-platform.zh.txt",
    ),
    "scheduling": Article(
        "算网融合调度适合哪些业务?训练与数据密集任务适配思路",
        _("Which businesses suit converged compute-network scheduling"),
        "compute-network-scheduling.zh.txt",
    ),
}

SECTIONS = {
    "a_layers": Section(
        "platforms",
        "先分清两件事:一个是卖资源,一个是管干活",
        "First tell two things apart: one sells resources, the other runs the work",
    ),
    "a_shapes": Section(
        "platforms",
        "按任务形态对号入座,别一上来就上分布式",
        "Match the task to its shape; don't start with distributed",
    ),
    "a_checklist": Section(
        "platforms",
        "选型核对清单:六个问题问完再签字",
        "Selection checklist: six questions to ask before signing",
    ),
    "a_misjudge": Section(
        "platforms",
        "几个常见的误判,以及什么情况下结论不成立",
        "Common misjudgements, and when the conclusion does not hold",
    ),
    "a_verify": Section(
        "platforms",
        "动手验证:用小任务先量一遍再决定",
        "Verify by hand: measure a small task first, then decide",
    ),
    "a_faq": Section("platforms", "常见问题", "Frequently asked questions"),
    "b1": Section(
        "scheduling",
        "一、融合调度的决策逻辑变了什么",
        "§1 What converged scheduling changes in the decision",
    ),
    "b2": Section(
        "scheduling",
        "二、任务适配的三个条件",
        "§2 The three conditions a task must meet",
    ),
    "b3": Section("scheduling", "三、训练任务怎么适配", "§3 How training tasks fit"),
    "b4": Section("scheduling", "四、数据密集型任务怎么适配", "§4 How data-intensive tasks fit"),
    "b5": Section(
        "scheduling",
        "五、不适合跨域的几类业务",
        "§5 Kinds of business unfit to cross domains",
    ),
    "b6": Section("scheduling", "六、几个可量化的判断指标", "§6 A few quantifiable indicators"),
    "b7": Section("scheduling", "七、分级落地路径", "§7 Rolling out level by level"),
}

GROUPS = {
    "sizing": _("Sizing"),
    "platform": _("Which platform"),
    "misjudgements": _("The four misjudgements"),
    "checklist": _("Checklist"),
    "benchmarks": _("Benchmarks"),
    "eligibility": _("Eligibility and gates"),
    "placement": _("Placement"),
    "indicators": _("Indicators"),
    "rollout": _("Rollout"),
    "bill": _("Total bill"),
    "signoff": _("Sign-off"),
}

ENTRIES: tuple[Entry, ...] = (
    Entry(
        "A",
        "sizing",
        "info",
        title=_("Sizing: the memory of one replica"),
        checks=_(
            "How much GPU memory one copy of the model needs, and on which offers it fits one "
            "GPU and one machine."
        ),
        formula=_(
            "Usable memory per GPU = GPU memory × headroom %(headroom)s. Replica memory = the "
            "measured peak, else the estimate: training and full fine-tuning parameters "
            "(billions) × 16 GB × 1.2; adapter tuning parameters × (bytes per parameter + "
            "0.16) × 1.2; inference parameters × bytes per parameter × 1.2; plus activations "
            "or KV cache when the model's shape is given. GPUs needed = ⌈replica ÷ usable "
            "memory⌉. Near capacity: within %(near_capacity_band)s of one machine's usable "
            "memory. Deadline sizing counts a scaling efficiency of "
            "%(multi_machine_efficiency)s beyond one machine when no pair is measured."
        ),
        fix=_(
            "Enter the parameter count and precision, or better a measured peak from a "
            "single-machine benchmark. If nothing fits, choose offers with more memory per "
            "GPU, or a strategy that splits the model (tensor, pipeline, sharded)."
        ),
        passages=(
            Passage(
                "a_checklist",
                "任务规模先算单次任务的显存和数据量,看能不能塞进一台机器",
                (
                    "Task scale: first work out one run's GPU memory and data volume, and see "
                    "whether it fits into one machine."
                ),
            ),
        ),
    ),
    Entry(
        "R0",
        "platform",
        "info",
        title=_("One machine measured enough"),
        checks=_(
            "Whether the measured multi-machine run was no faster than the single-machine run "
            "of the same offer."
        ),
        formula=_(
            "On the reported like-for-like pair (the fastest single and multi run of one "
            "offer): multi-machine end-to-end hours ≥ single-machine end-to-end hours → "
            "compute platform."
        ),
        fix=_(
            "Nothing to fix: stay on one machine and save the scheduling layer. Re-measure if "
            "the split or the network changes."
        ),
        passages=(
            Passage(
                "a_verify",
                "要么单机确实够用,省下的是调度这一层的人力",
                (
                    "Either one machine really is enough, and what you save is the manpower of "
                    "the scheduling layer."
                ),
            ),
        ),
    ),
    Entry(
        "R1a",
        "platform",
        "block",
        title=_("Must be split, but cannot be"),
        checks=_(
            "Whether the model fits somewhere at all: one GPU, or split over GPUs with a "
            "strategy both the task and the offer support."
        ),
        formula=_(
            "R1a.split: on no offer does one replica fit one GPU or split over GPUs with a "
            "strategy (tensor, pipeline, sharded) that the task and the offer both support. "
            "R1a: no offer fits one machine and no offer supports any of the task's strategies "
            "(or there are no offers) → not feasible: block."
        ),
        fix=_(
            "Add an offer with larger GPUs or more GPUs per machine, or record a splitting "
            "strategy that the task's framework and an offer both support (Parallelism on the "
            "profile and the offer)."
        ),
        passages=(
            Passage(
                "a_shapes",
                (
                    "装不下但能切分的任务:数据并行、张量并行、流水线并行这类训练或大批量批处理,"
                    "才需要分布式计算平台,前提是框架本身支持你要用的切分方式"
                ),
                (
                    "Tasks that do not fit but can be split (data, tensor or pipeline parallel "
                    "training or large batch work) are the ones that need a distributed "
                    "computing platform, provided the framework itself supports the split you "
                    "want to use."
                ),
            ),
        ),
    ),
    Entry(
        "R1b",
        "platform",
        "info",
        title=_("Run once, rent compute"),
        checks=_(
            "A job that fits no machine but runs only once, with nobody to maintain a "
            "scheduler."
        ),
        formula=_(
            "No offer fits one machine, the task runs once (one-off), and nobody can maintain "
            "a scheduler → compute platform."
        ),
        fix=_("Rent capacity on demand; do not build a scheduler for a job you will throw away."),
        passages=(
            Passage(
                "a_shapes",
                (
                    "跑一次就扔的临时任务:优先按量租算力平台,别顺手自建分布式调度,调度器本身的"
                    "维护成本常常比算力费更贵"
                ),
                (
                    "Temporary jobs run once and thrown away: rent a compute platform on "
                    "demand first; don't build your own distributed scheduler on the side, "
                    "maintaining the scheduler often costs more than the compute."
                ),
            ),
        ),
    ),
    Entry(
        "R1c",
        "platform",
        "info",
        title=_("No machines, and the task needs several"),
        checks=_("A job that fits no single machine when the team has no machines of its own."),
        formula=_(
            "No offer fits one machine and the team has no machines → both layers: compute and "
            "distributed."
        ),
        fix=_(
            "Buy capacity (a compute platform) and the scheduling layer on top of it, or a "
            "managed offer that sells both."
        ),
        passages=(
            Passage(
                "a_layers",
                "手上没机器,先要能跑起来",
                "No machines in hand: first you must be able to run at all (→ compute platform).",
            ),
            Passage(
                "a_faq",
                "两者是叠加关系不是替代关系",
                "The two stack; one does not replace the other.",
            ),
        ),
    ),
    Entry(
        "R1d",
        "platform",
        "info",
        title=_("Machines in hand, the task does not fit one"),
        checks=_("A job that fits no single machine when the team has machines."),
        formula=_("No offer fits one machine, otherwise → distributed computing platform."),
        fix=_(
            "Plan the split, the cross-machine network and resume before buying the "
            "distributed layer."
        ),
        passages=(
            Passage(
                "a_layers",
                "机器有了,任务一台装不下",
                (
                    "Machines in hand, the task does not fit one (→ distributed computing "
                    "platform: split, cross-machine communication, resume)."
                ),
            ),
        ),
    ),
    Entry(
        "R6",
        "platform",
        "info",
        title=_("A clear measured gain across machines"),
        checks=_("Whether a recurring job that fits one machine measurably gains from several."),
        formula=_(
            "Fits one machine; the reported pair has speedup > 1 and scaling efficiency "
            "(speedup ÷ GPU ratio) ≥ %(scaling_efficiency_min)s; reruns do not eat the gain "
            "(B2 silent); the task is recurring → distributed platform (both layers without "
            "machines)."
        ),
        fix=_("Fix the job template and the fault-tolerance strategy together, and reuse them."),
        passages=(
            Passage(
                "a_verify",
                "要么跨机收益明确,那就把作业模板和容错策略一起固化下来",
                (
                    "Or the cross-machine gain is clear, and then fix the job template and the "
                    "fault-tolerance strategy together."
                ),
            ),
        ),
    ),
    Entry(
        "R2",
        "platform",
        "info",
        title=_("In between: take a single-machine baseline first"),
        checks=_(
            "A job near the edge of one machine, or planned on more GPUs than one machine "
            "without a measurement."
        ),
        formula=_(
            "Fits one machine and either every fitting offer is within %(near_capacity_band)s "
            "of its usable memory with no measured peak (R2), or no pair is measured and the "
            "planned GPUs exceed one machine of every fitting offer (R2.gpus) → run a baseline "
            "first."
        ),
        fix=_(
            "Run the task once on one machine and record a single benchmark (end-to-end hours, "
            "peak memory); then a multi-machine run on the same offer."
        ),
        passages=(
            Passage(
                "a_shapes",
                "介于两者之间的任务:先按单机跑一遍拿基线,有了真实耗时再判断跨机的收益是否为正",
                (
                    "Tasks in between: first run once on one machine for a baseline; with real "
                    "timings, judge whether the cross-machine gain is positive."
                ),
            ),
        ),
    ),
    Entry(
        "R3",
        "platform",
        "info",
        title=_("Queueing means a missing scheduling layer"),
        checks=_("A job that fits one machine but keeps waiting in queues."),
        formula=_(
            "Fits one machine and the team's pain is queueing → distributed platform if "
            "someone can maintain a scheduler (R3.distributed), else compute platform "
            "(R3.compute, with J4)."
        ),
        fix=_(
            "Add a scheduling layer if the team can run one; otherwise buy capacity that does "
            "not queue."
        ),
        passages=(
            Passage(
                "a_misjudge",
                "如果你已经在为排队和多机同步反复加班,那问题多半不在算力平台,而在缺一层调度",
                (
                    "If you already work overtime again and again over queueing and "
                    "multi-machine sync, the problem is most likely not the compute platform "
                    "but a missing scheduling layer."
                ),
            ),
        ),
    ),
    Entry(
        "R4",
        "platform",
        "info",
        title=_("Machines and scheduling in place, just slow"),
        checks=_("A team with machines and a scheduler whose job is slow."),
        formula=_(
            "Fits one machine, the team has machines and a scheduler, and the pain is slowness "
            "→ look at both layers."
        ),
        fix=_(
            "Measure the network overhead first (a network probe), then decide between more "
            "GPUs and a different split."
        ),
        passages=(
            Passage(
                "a_layers",
                "先量网络开销,再决定是加卡还是改切分",
                (
                    "Measure network overhead first, then decide between more GPUs and a "
                    "different split."
                ),
            ),
        ),
    ),
    Entry(
        "R5",
        "platform",
        "info",
        title=_("Fits one machine: a compute platform is enough"),
        checks=_("The default for a job that fits one machine."),
        formula=_("None of R0–R4, R6 applies → compute platform."),
        fix=_(
            "Nothing to fix: a distributed layer would only add communication and debugging "
            "cost."
        ),
        passages=(
            Passage(
                "a_shapes",
                (
                    "单机装得下的任务:单卡或单机多卡能跑完的推理、微调、数据处理,只需要算力平台"
                    ",上分布式只会多出通信和调试成本"
                ),
                (
                    "Tasks that fit one machine (inference, fine-tuning, data processing that "
                    "one GPU or one multi-GPU machine can finish) need only a compute "
                    "platform; a distributed layer only adds communication and debugging cost."
                ),
            ),
        ),
    ),
    Entry(
        "R7",
        "platform",
        "warn",
        title=_("A long multi-machine run that cannot resume"),
        checks=_(
            "Whether a job that spans machines and runs long can resume after a node failure."
        ),
        formula=_(
            "The chosen option spans more than one machine, compute hours ≥ %(long_run_hours)s "
            "and the task cannot resume → warning; a compute platform becomes both layers."
        ),
        fix=_(
            "Make the job resumable (checkpoints) and mark it so on the profile, or choose a "
            "distributed layer that gives resume or partial retry."
        ),
        passages=(
            Passage(
                "a_checklist",
                (
                    "容错要求任务跑十几个小时要不要断点续跑,节点挂了是整单重跑还是局部重试。答"
                    "案决定了你是否真的需要分布式平台"
                ),
                (
                    "Fault tolerance: does a job of a dozen-odd hours need to resume from a "
                    "checkpoint; when a node dies, is the whole job rerun or only a part "
                    "retried? The answer decides whether you really need a distributed "
                    "platform."
                ),
            ),
        ),
    ),
    Entry(
        "R1e",
        "platform",
        "info",
        title=_("Nobody can maintain a scheduler: buy it managed"),
        checks=_("Whether the team can run the distributed layer the plan needs."),
        formula=_(
            "Platform distributed or both and nobody can maintain a scheduler → delivery "
            "managed: someone else runs the scheduler."
        ),
        fix=_(
            "Choose a managed offer, or train someone to maintain the scheduler and mark it on "
            "the profile."
        ),
        passages=(
            Passage(
                "a_misjudge",
                "团队没有能维护调度器的工程能力,那么分布式这条路当下就不该走",
                (
                    "If the team lacks the engineering ability to maintain a scheduler, the "
                    "distributed road should not be taken for now."
                ),
            ),
        ),
    ),
    Entry(
        "R-mod",
        "platform",
        "info",
        title=_("Recurring: make the job a standard part"),
        checks=_("A recurring job on a distributed platform."),
        formula=_(
            "Platform distributed or both and the task is recurring → fix the job template and "
            "reuse it."
        ),
        fix=_("Write the job template once and reuse it on every run."),
        passages=(
            Passage(
                "a_shapes",
                "长期固定节奏的任务:把分布式平台当成内部标准件,作业模板固化下来,重复利用率才划得来",
                (
                    "Jobs on a fixed long-term rhythm: treat the distributed platform as an "
                    "internal standard part and fix the job templates; only then does reuse "
                    "pay."
                ),
            ),
        ),
    ),
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
    Entry(
        "X",
        "eligibility",
        "",
        title=_("Cross-domain eligibility"),
        checks=_(
            "Whether the task may leave its home domain at all, and how far it may be spread "
            "across pools."
        ),
        formula=_(
            "Eligible = no exclusion (X1, X2, X4, X5) and gates G1–G3 pass. Otherwise every "
            "option but waiting locally stays in the home datacenter. Spread tier (read by "
            "K2): tight coupling → same site; loose → same city, or cross hub when compute "
            "hours ≥ %(loose_cross_hub_hours)s and the task can resume."
        ),
        fix=_(
            "Read the exclusion or gate that applies, below, and fix its field on the task "
            "profile if it is wrong."
        ),
        passages=(
            Passage(
                "b2",
                "三条全过,才进入成本比较",
                "Only when all three pass does cost comparison begin.",
            ),
            Passage(
                "b2",
                "有一条不过,就老老实实留在本地或同域",
                "If one fails, stay honestly local or in the same domain.",
            ),
            Passage(
                "b5",
                "把这几类写进调度的排除规则很有必要",
                "Writing these kinds into the scheduler's exclusion rules is necessary.",
            ),
        ),
    ),
    Entry(
        "X1",
        "eligibility",
        "warn",
        title=_("Exclusion: low-latency online service"),
        checks=_("Whether users interact with the service live."),
        formula=_(
            "Low-latency online (or workload online service) → every option but waiting "
            "locally must stay in the home datacenter (reason: not eligible)."
        ),
        fix=_(
            "Deploy nearby and plan capacity; if the profile is wrong, clear Low-latency "
            "online."
        ),
        passages=(
            Passage(
                "b5",
                "第一类是低延迟在线服务:用户在交互,每一跳都加时延,体验直接受损,这类服务就近部署",
                (
                    "First, low-latency online services: users are interacting, every hop adds "
                    "latency and hurts the experience; deploy them nearby."
                ),
            ),
            Passage(
                "b2",
                "有一条不过,就老老实实留在本地或同域",
                "If one fails, stay honestly local or in the same domain.",
            ),
        ),
    ),
    Entry(
        "X2",
        "eligibility",
        "warn",
        title=_("Exclusion: stateful service"),
        checks=_("Whether sessions, caches or intermediate state live locally."),
        formula=_("Stateful → home datacenter only, as X1."),
        fix=_("Make the service stateless first, then clear Stateful on the profile."),
        passages=(
            Passage(
                "b5",
                (
                    "第二类是状态重的服务:会话、缓存、中间状态沉淀在本地,搬走等于重来,除非做成"
                    "无状态改造,否则不迁"
                ),
                (
                    "Second, heavily stateful services: sessions, caches and intermediate "
                    "state settle locally; moving means starting over; unless made stateless, "
                    "do not move them."
                ),
            ),
        ),
    ),
    Entry(
        "X3",
        "eligibility",
        "info",
        title=_("Tightly coupled: one pool, never spread"),
        checks=_("Whether the job communicates so often that it must run whole in one pool."),
        formula=_(
            "Coupling tight → the job runs whole in one pool and is never spread across pools "
            "(information; placement is not limited)."
        ),
        fix=_("Reserve one pool with a fast interconnect that holds the whole job (see K1)."),
        passages=(
            Passage(
                "b3",
                (
                    "第二类是紧耦合的大规模训练:张量并行、高频通信,跨域基本不可行,这类任务应当"
                    "整体放在一个高速互联的池子里"
                ),
                (
                    "Second, tightly coupled large-scale training: tensor parallel, "
                    "high-frequency communication; running it across domains is basically "
                    "infeasible; place it whole in one pool with a high-speed interconnect."
                ),
            ),
        ),
    ),
    Entry(
        "X4",
        "eligibility",
        "warn",
        title=_("Exclusion: compliance restricted"),
        checks=_("Whether rules fix where the data may be processed."),
        formula=_(
            "Compliance restricted → only options at an allowed site (the listed sites, or "
            "else the data site's datacenter) whose input leg stays between allowed sites; "
            "with results restricted, the results leg too. Waiting locally is held to this as "
            "well."
        ),
        fix=_("List the allowed sites on the profile, and add a candidate at one of them."),
        passages=(
            Passage(
                "b5",
                (
                    "第四类是数据合规受限的业务:处理地被约定、数据不能出域,这类不是技术问题,边"
                    "界由制度划定"
                ),
                (
                    "Fourth, compliance-restricted business: the place of processing is agreed "
                    "and the data may not leave its domain; not a technical question, the "
                    "boundary is drawn by rules."
                ),
            ),
        ),
    ),
    Entry(
        "X5",
        "eligibility",
        "warn",
        title=_("Exclusion: strict consistency"),
        checks=_("Whether several steps must stay strictly in sync."),
        formula=_("Strict consistency → home datacenter only, as X1."),
        fix=_("Keep it local; if the profile is wrong, clear Strict consistency."),
        passages=(
            Passage(
                "b5",
                "第五类是要求严格一致的业务:多个环节要求严格同步,跨域链路的抖动会放大成业务风险",
                (
                    "Fifth, businesses that need strict consistency: several steps must stay "
                    "strictly in sync; jitter on cross-domain links is amplified into business "
                    "risk."
                ),
            ),
        ),
    ),
    Entry(
        "G1",
        "eligibility",
        "warn",
        title=_("Gate: portability"),
        checks=_("Whether the task can run in another environment."),
        formula=_(
            "Passes when the environment is simple AND the image is packaged AND running "
            "off-site is allowed; otherwise home datacenter only."
        ),
        fix=_(
            "Package the image with its dependencies, check the licence allows off-site runs, "
            "then tick the three fields on the profile."
        ),
        passages=(
            Passage(
                "b2",
                (
                    "第一条是可迁移性:任务能否在另一个环境里跑起来,环境依赖是否简单,镜像与依赖"
                    "能否打包带走,许可与合规是否允许在异地执行"
                ),
                (
                    "First, portability: can the task run in another environment; are its "
                    "dependencies simple; can the image and dependencies be packed and taken "
                    "along; do licences and compliance allow running elsewhere."
                ),
            ),
            Passage(
                "b2",
                "有一条不过,就老老实实留在本地或同域",
                "If one fails, stay honestly local or in the same domain.",
            ),
        ),
    ),
    Entry(
        "G2",
        "eligibility",
        "warn",
        title=_("Gate: latency tolerance"),
        checks=_("Whether the task can wait for transfers at all."),
        formula=_("Fails when the transfer latency budget is 0 hours; then home datacenter only."),
        fix=_(
            "If the task can wait, set a transfer budget above 0 (or leave it blank for no "
            "limit)."
        ),
        passages=(
            Passage(
                "b2",
                (
                    "第二条是时延容忍度:任务对中间环节的等待敏不敏感。批处理可以容忍小时级的传"
                    "输等待,在线服务不能"
                ),
                (
                    "Second, latency tolerance: is the task sensitive to waiting in the steps "
                    "between? Batch work tolerates hour-scale transfer waits; online services "
                    "do not."
                ),
            ),
        ),
    ),
    Entry(
        "G3",
        "eligibility",
        "warn",
        title=_("Gate: interruption cost"),
        checks=_("Whether an interruption would lose too much work."),
        formula=_(
            "Fails when the task cannot resume and one interruption loses more than "
            "%(interruption_cost_hours)s hours; then home datacenter only."
        ),
        fix=_(
            "Make the task resumable (checkpoints) and mark it so, or lower the work lost by "
            "one interruption."
        ),
        passages=(
            Passage(
                "b2",
                "第三条是中断成本:任务中断后能否续跑、重来一次的代价多大",
                (
                    "Third, interruption cost: can the task resume after an interruption, and "
                    "what does starting over cost."
                ),
            ),
        ),
    ),
    Entry(
        "G4",
        "eligibility",
        "warn",
        title=_("Preemptible capacity for a task that cannot resume"),
        checks=_(
            "Whether a preemptible (spot) candidate would restart the task from the beginning "
            "at each preemption."
        ),
        formula=_(
            "Per preemptible candidate, when the task cannot resume → warning. Preemption cost "
            "= preemptions per day × compute hours ÷ 24 × hours lost (the task's interruption "
            "cost if it cannot resume, else half the checkpoint interval) × billed GPUs × "
            "effective price; it joins the total."
        ),
        fix=_("Make the task resumable with frequent checkpoints, or choose on-demand capacity."),
        passages=(
            Passage(
                "b2",
                "第三条是中断成本:任务中断后能否续跑、重来一次的代价多大",
                (
                    "Third, interruption cost: can the task resume after an interruption, and "
                    "what does starting over cost."
                ),
            ),
        ),
        note=_("A later addition to the method (version 2); the nearest seed passage is quoted."),
    ),
    Entry(
        "P",
        "placement",
        "",
        title=_("Placement: three options, one objective"),
        checks=_(
            "Where to run: wait locally, move compute to the data, or move the data; each "
            "offer gives one option, and the feasible option with the least objective is "
            "chosen."
        ),
        formula=_(
            "Objective = total cost + delay cost per hour × total hours. Total cost = billed "
            "GPUs × compute hours × effective GPU-hour price × (1 + scheduling fee) + transfer "
            "cost + preemption cost. Leg hours = GB × 8 ÷ (bandwidth in Gbit/s × 3600) × (1 + "
            "buffer); the buffer when a link has none: same site %(buffer_same_site)s, same "
            "datacenter %(buffer_same_datacenter)s, same city %(buffer_same_city)s, cross hub "
            "%(buffer_cross_hub)s."
        ),
        fix=_(
            "Record the links, bandwidths and prices between the sites, the queues, and the "
            "value of an hour of waiting, so that every option can be costed."
        ),
        passages=(
            Passage(
                "b1",
                (
                    "决策时通常比较三种方案的总开销:任务迁移(传输加计算加等待)、数据迁移、以及"
                    "就近等待,取三者里划算的那个"
                ),
                (
                    "One compares the total cost of three plans: moving the task (transfer + "
                    "compute + waiting), moving the data, and waiting nearby, and takes the "
                    "one that pays."
                ),
            ),
            Passage(
                "b2",
                "安排排期时要留缓冲",
                "Leave a buffer when scheduling.",
            ),
        ),
    ),
    Entry(
        "D1",
        "placement",
        "info",
        title=_("Data-intensive: move compute to the data"),
        checks=_("Whether the results are much smaller than the input."),
        formula=_(
            "Data-intensive workload (data processing, batch inference, rendering, scientific "
            "batch) and result GB < input GB ÷ 10 → move compute to the data and ship the "
            "results."
        ),
        fix=_("Add a candidate at the data site."),
        passages=(
            Passage(
                "b4",
                (
                    "原始数据几个 TB,处理完的结果几十 "
                    "GB,把计算搬到数据旁边、只传回结果,比把数据搬过来划算得多"
                ),
                (
                    "Raw data of several TB, processed results of a few dozen GB: moving "
                    "compute next to the data and shipping back only the results is far "
                    "cheaper than moving the data."
                ),
            ),
        ),
    ),
    Entry(
        "D2",
        "placement",
        "info",
        title=_("Repeated full scans: stage the input, or it moves again and again"),
        checks=_(
            "Whether a task that reads its whole input several times can keep a copy where it "
            "runs."
        ),
        formula=_(
            "Repeated full scan: the input is staged once where the site has room (storage TB "
            "× 1000 ≥ input GB), else streamed once per pass. D2.staged names the staged "
            "option, D2.no_room says no site has room, D2 says no option moves the input."
        ),
        fix=_("Record the free storage of the sites, or plan storage next to the compute."),
        passages=(
            Passage(
                "b4",
                (
                    "需要频繁随机访问整份数据的任务——比如要反复全量扫描的训练——搬计算就占不到便"
                    "宜,传输会反复发生"
                ),
                (
                    "Tasks that must access the whole data set again and again, such as "
                    "training that scans it in full repeatedly: moving compute gains nothing, "
                    "transfers recur."
                ),
            ),
            Passage(
                "b4",
                "所以融合调度里存储与算力常常要一起规划,不是两件事",
                (
                    "So storage and compute often have to be planned together; they are not "
                    "two separate things."
                ),
            ),
        ),
    ),
    Entry(
        "K1",
        "placement",
        "info",
        title=_("Tightly coupled: lock one pool ahead"),
        checks=_("A tightly coupled job of any workload."),
        formula=_("Coupling tight → keep the job whole in one pool and reserve that pool ahead."),
        fix=_("Reserve the pool before the run instead of moving the job while it runs."),
        passages=(
            Passage(
                "b3",
                "融合调度对它的作用是提前锁定资源,而不是运行中搬来搬去",
                (
                    "What converged scheduling does for them is lock the resources ahead, not "
                    "move them around while they run."
                ),
            ),
        ),
    ),
    Entry(
        "K2",
        "placement",
        "info",
        title=_("No pool is big enough: pools that together would be"),
        checks=_("When every pool is too small, which sets of pools could hold the job together."),
        formula=_(
            "Every option is refused because its pool is too small and the job is not tightly "
            "coupled → names up to 3 sets of 2–4 pools, pairwise within the spread tier (see "
            "X), whose capacity together holds the job."
        ),
        fix=_(
            "Lower the planned GPUs, raise an offer's machine limit, or plan the spread over "
            "the named pools."
        ),
        passages=(
            Passage(
                "b3",
                (
                    "稳妥的边界是:单机内的多卡放同域,跨机的部分尽量同机房或同城,跨枢纽只适合容"
                    "忍度高的长周期任务"
                ),
                (
                    "The safe boundary: the GPUs within one machine in the same domain, the "
                    "cross-machine part in the same datacenter or city where possible, "
                    "cross-hub only for tolerant long-running jobs."
                ),
            ),
        ),
    ),
    Entry(
        "P1",
        "placement",
        "warn",
        title=_("No option meets every budget"),
        checks=_(
            "Whether any feasible option keeps transfer, queue and compute within their "
            "budgets."
        ),
        formula=_(
            "Feasible options exist but none is within every latency budget → warning; the "
            "option with the least objective is still chosen."
        ),
        fix=_(
            "Adjust the segment that is over (see M3): a faster link, a shorter queue, more "
            "GPUs, or a wider budget."
        ),
        passages=(
            Passage(
                "b6",
                "哪一段超了预算就调整哪一段的方案",
                "Whichever segment goes over budget, adjust that segment's plan.",
            ),
        ),
    ),
    Entry(
        "P2",
        "placement",
        "block",
        title=_("No feasible option"),
        checks=_("Whether at least one option can run the task."),
        formula=_("No feasible option (or no offer) → nothing is chosen: block."),
        fix=_(
            "Read each option's reason in the comparison table and fix it: add a candidate, a "
            "link, an allowed site, or a bigger pool."
        ),
        passages=(
            Passage(
                "b1",
                (
                    "决策时通常比较三种方案的总开销:任务迁移(传输加计算加等待)、数据迁移、以及"
                    "就近等待,取三者里划算的那个"
                ),
                (
                    "One compares the total cost of three plans: moving the task (transfer + "
                    "compute + waiting), moving the data, and waiting nearby, and takes the "
                    "one that pays."
                ),
            ),
        ),
    ),
    Entry(
        "P3",
        "placement",
        "block",
        title=_("No planned GPU count"),
        checks=_("Whether the task says on how many GPUs its compute hours were measured."),
        formula=_(
            "The task has no planned GPU count → block: compute hours mean nothing without it, "
            "and whole machines cannot be billed."
        ),
        fix=_("Enter the GPU count on the task profile."),
        note=_("A later addition to the method (version 2), not taken from the seed articles."),
    ),
    Entry(
        "F",
        "placement",
        "",
        title=_("What flips the decision"),
        checks=_("How far each input the choice depends on may move before another option wins."),
        formula=_(
            "For each input (delay cost per hour, compress ratio, the home site's queue, each "
            "used link's bandwidth and price per GB, the two offers' prices): the value x = x₀ "
            "− gap ÷ closing rate at which another feasible option's objective drops below the "
            "chosen one's. The three nearest are told in words."
        ),
        fix=_(
            "Check the nearest break-even values: if an input is uncertain near them, measure "
            "it before signing."
        ),
        note=_("A later addition to the method (version 2), not taken from the seed articles."),
    ),
    Entry(
        "M1",
        "indicators",
        "info",
        title=_("Indicator: data/compute ratio"),
        checks=_("How much data moves per hour of compute."),
        formula=_(
            "Data/compute ratio = input GB × compress ratio ÷ compute hours; ≥ "
            "%(data_compute_high)s GB/h → move compute toward the data (M1.high); < "
            "%(data_compute_low)s GB/h → a light task that can be scheduled freely (M1.low)."
        ),
        fix=_("With a high ratio, add a candidate next to the data; compress the input."),
        passages=(
            Passage(
                "b6",
                (
                    "第一个指标是数据计算比:需要传输的数据量除以任务的计算时长,比值越高越该把计"
                    "算往数据边搬,比值低则任务轻便、可自由调度"
                ),
                (
                    "The first indicator is the data/compute ratio: data to move ÷ compute "
                    "time; the higher, the more compute should move to the data; low means a "
                    "light task that can be scheduled freely."
                ),
            ),
        ),
    ),
    Entry(
        "M2",
        "indicators",
        "warn",
        title=_("Indicator: interruption cost against the benefit"),
        checks=_("Whether one interruption would cost more than moving the job gains."),
        formula=_(
            "Interruption cost = hours lost by one interruption × hourly burn of the chosen "
            "option; scheduling benefit = objective of the best wait-local option − objective "
            "of the chosen option. Cost > benefit (and the chosen option does not wait "
            "locally) → warning."
        ),
        fix=_("Lock quota protection for the run, make it resumable, or wait locally."),
        passages=(
            Passage(
                "b6",
                (
                    "第二个指标是中断成本:任务中断重来一次的损失,折算成时长或费用,与调度带来的"
                    "收益比较,中断成本高于收益的,配额上要锁保护"
                ),
                (
                    "The second is interruption cost: the loss of restarting once, in hours or "
                    "money, compared with the benefit scheduling brings; where it is higher, "
                    "lock quota protection."
                ),
            ),
        ),
    ),
    Entry(
        "M3",
        "indicators",
        "warn",
        title=_("Indicator: latency budget by segment"),
        checks=_(
            "Which segment of the chosen option (transfer, queue, compute) is over its budget."
        ),
        formula=_(
            "Each segment of the chosen option over its budget → warning; M3.alternative names "
            "the cheapest option that meets every budget and what it costs more."
        ),
        fix=_("Adjust that segment's plan, or take the named alternative."),
        passages=(
            Passage(
                "b6",
                (
                    "第三个指标是时延预算:业务能容忍的各环节等待上限,拆到传输、排队、计算三段,"
                    "哪一段超了预算就调整哪一段的方案"
                ),
                (
                    "The third is the latency budget: the longest wait each step can tolerate, "
                    "split into transfer, queue and compute; whichever segment goes over "
                    "budget, adjust that segment's plan."
                ),
            ),
        ),
    ),
    Entry(
        "M4",
        "indicators",
        "warn",
        title=_("Indicator: network cost share"),
        checks=_("How much of the chosen option's cost goes to transfers."),
        formula=_(
            "Network cost share = transfer cost ÷ total cost of the chosen option; above "
            "%(network_cost_share)s → rethink the plan."
        ),
        fix=_("Compress the data, move compute instead, or find resources nearer the data."),
        passages=(
            Passage(
                "b6",
                (
                    "第四个指标是网络成本占比:传输费用占总开销的比例,超过两成通常意味着方案该重"
                    "想——要么压缩数据、要么改搬计算、要么就近找资源"
                ),
                (
                    "The fourth is the network cost share: transfer cost as a share of the "
                    "total; above a fifth usually means the plan should be rethought: compress "
                    "the data, move compute instead, or find resources nearby."
                ),
            ),
        ),
    ),
    Entry(
        "H1",
        "rollout",
        "warn",
        title=_("Rollout: a tier not validated yet"),
        checks=_("Whether the team has validated the tier the chosen option runs on."),
        formula=_(
            "The chosen option's tier is not among the team's validated tiers → warning: pilot "
            "first. H1.pilots_ready: two or more successful pilots on that tier already exist, "
            "so an owner can mark it validated."
        ),
        fix=_(
            "Record pilot migrations on the tier; once two succeed, an owner marks the tier "
            "validated in the team settings."
        ),
        passages=(
            Passage(
                "b7",
                "第三级是跨枢纽:距离远、带宽贵,只放经过前两级验证、且成本比较明确划算的任务",
                (
                    "The third level is cross-hub: far, with dear bandwidth; admit only tasks "
                    "validated on the first two levels whose costs clearly pay."
                ),
            ),
            Passage(
                "b7",
                "每一级都先试点再扩面",
                "At every level, pilot first, then widen.",
            ),
        ),
    ),
    Entry(
        "H2",
        "rollout",
        "block",
        title=_("Not ready to dispatch"),
        checks=_(
            "Whether a plan that moves data has its channel reserved, resume verified and "
            "environments aligned."
        ),
        formula=_(
            "The chosen option moves something and not all three hold: every link it uses "
            "reserved, resume verified, environments aligned → block."
        ),
        fix=_(
            "Reserve the channels of the plan's links on the review (Edit → Reserved "
            "channels), and mark resume verified and environments aligned on the profile once "
            "they are."
        ),
        passages=(
            Passage(
                "b1",
                (
                    "建议在调度方案里给每个跨域任务标注它的配套状态:通道是否预留、续跑是否验证"
                    "、环境是否对齐,三项齐了才允许派发"
                ),
                (
                    "Mark each cross-domain task in the scheduling plan with its supporting "
                    "state (channel reserved, resume verified, environments aligned); dispatch "
                    "only when all three are in place."
                ),
            ),
        ),
    ),
    Entry(
        "same_site",
        "rollout",
        "",
        title=_("Tier: same site"),
        checks=_("Both ends in one site (resource pool): where every team starts."),
        formula=_("Always validated. Transfer buffer when a link has none: %(buffer_same_site)s."),
        fix=_("Nothing to validate."),
        passages=(
            Passage(
                "b7",
                "融合调度的落地建议按距离分级推进",
                "Roll converged scheduling out level by level, by distance.",
            ),
        ),
    ),
    Entry(
        "same_datacenter",
        "rollout",
        "",
        title=_("Tier: same datacenter"),
        checks=_("Different sites in one datacenter (one domain)."),
        formula=_(
            "Validated after two successful pilots. Transfer buffer when a link has none: "
            "%(buffer_same_datacenter)s."
        ),
        fix=_(
            "Pilot two or three tasks within the building; then an owner marks the tier "
            "validated."
        ),
        passages=(
            Passage(
                "b7",
                "第一级是同机房:调度只在楼内做,网络条件好,风险小,用来验证调度逻辑与任务可迁移性",
                (
                    "The first level is the same datacenter: scheduling only within the "
                    "building, good network, small risk; used to validate the scheduling logic "
                    "and the tasks' portability."
                ),
            ),
            Passage(
                "b7",
                "每一级都先试点再扩面",
                "At every level, pilot first, then widen.",
            ),
        ),
    ),
    Entry(
        "same_city",
        "rollout",
        "",
        title=_("Tier: same city"),
        checks=_("Sites in different datacenters of one city."),
        formula=_(
            "Validated on top of the same datacenter, after two successful pilots. Transfer "
            "buffer when a link has none: %(buffer_same_city)s."
        ),
        fix=_("Pilot the whole chain: data channel, image distribution, collecting results."),
        passages=(
            Passage(
                "b7",
                (
                    "第二级是同城:时延低、带宽好,可以承接真正的跨域任务,验证数据通道、镜像分发"
                    "、结果回收的完整链路"
                ),
                (
                    "The second level is the same city: low latency, good bandwidth; it can "
                    "take real cross-domain tasks and validates the full chain of data "
                    "channel, image distribution and result collection."
                ),
            ),
            Passage(
                "b7",
                "每一级都先试点再扩面",
                "At every level, pilot first, then widen.",
            ),
        ),
    ),
    Entry(
        "cross_hub",
        "rollout",
        "",
        title=_("Tier: cross hub"),
        checks=_("Sites in different cities (hubs)."),
        formula=_(
            "Validated on top of the same city, after two successful pilots. Transfer buffer "
            "when a link has none: %(buffer_cross_hub)s."
        ),
        fix=_("Admit only tasks validated on the first two tiers whose cost clearly pays."),
        passages=(
            Passage(
                "b7",
                "第三级是跨枢纽:距离远、带宽贵,只放经过前两级验证、且成本比较明确划算的任务",
                (
                    "The third level is cross-hub: far, with dear bandwidth; admit only tasks "
                    "validated on the first two levels whose costs clearly pay."
                ),
            ),
            Passage(
                "b7",
                "每一级都先试点再扩面",
                "At every level, pilot first, then widen.",
            ),
        ),
    ),
    Entry(
        "T",
        "bill",
        "info",
        title=_("Total bill"),
        checks=_("Each candidate's whole cost, not its unit price."),
        formula=_(
            "Total = compute + scheduling fee + transfer + preemption + rerun loss (failure "
            "reruns × hours lost × hourly burn) + migration (effort hours × "
            "%(engineer_hour_cost)s per engineer hour ÷ runs). T names the feasible candidate "
            "with the lowest total."
        ),
        fix=_(
            "Answer Q5 (migration cost) with hours and set the engineer-hour cost in the team "
            "settings, so the migration line is priced."
        ),
        passages=(
            Passage(
                "a_misjudge",
                "调度开销、数据搬运、失败重跑带来的损耗,都要算进总成本里",
                "Scheduling overhead, data movement and rerun losses all belong in the total cost.",
            ),
            Passage(
                "a_checklist",
                "改造成本经常被低估,要单独列一行",
                "Retrofit cost is often underestimated: give it its own line.",
            ),
        ),
    ),
    Entry(
        "S",
        "signoff",
        "block",
        title=_("Sign-off"),
        checks=_("Whether a reviewer may approve a candidate now."),
        formula=_(
            "Approval is refused while a block finding concerns the candidate or the whole "
            "review, when the author approves their own review, when this reviewer has already "
            "decided, or when the snapshot is not the latest."
        ),
        fix=_(
            "Fix each block finding (its entry says how), recompute, and ask another member to "
            "approve the latest snapshot."
        ),
        passages=(
            Passage(
                "a_checklist",
                "先把答案写出来,再回到报价单上做比较",
                "Write the answers down first, then go back to the quotes and compare.",
            ),
        ),
        note=_("A later addition to the method (version 2); the nearest seed passage is quoted."),
    ),
)

GLOSSARY: tuple[Term, ...] = (
    Term(
        "compute-platform",
        _("Compute platform"),
        _(
            "Sells resources: GPUs, storage and network as machines, containers or interfaces, "
            "bought by the hour or by contract. It answers “where does the compute come from”."
        ),
    ),
    Term(
        "distributed-platform",
        _("Distributed computing platform"),
        _(
            "Sells the ability to split one job over several machines and merge the results: a "
            "scheduler, a runtime and job descriptions. It produces no compute itself."
        ),
    ),
    Term(
        "both-layers",
        _("Both layers"),
        _(
            "A distributed layer stacked on a compute platform; the two stack, one does not "
            "replace the other."
        ),
    ),
    Term(
        "managed",
        _("Managed delivery"),
        _(
            "The distributed layer is run by the provider, for a team that cannot maintain a "
            "scheduler."
        ),
    ),
    Term(
        "site",
        _("Site (resource pool)"),
        _("A place with capacity, a queue and storage; every offer runs at one site."),
    ),
    Term(
        "domain",
        _("Domain"),
        _(
            "A datacenter. A site without a datacenter is a domain of its own. “Stay in the "
            "same domain” means every option stays in the home site's datacenter."
        ),
    ),
    Term(
        "tier",
        _("Tier"),
        _(
            "How far apart two sites are: same site, same datacenter, same city, cross hub. It "
            "sets the transfer buffer and the rollout order."
        ),
    ),
    Term(
        "wait-local",
        _("Wait locally"),
        _("Run at the home site, queue included."),
    ),
    Term(
        "move-compute",
        _("Move compute to the data"),
        _("Run at the data site and ship only the results."),
    ),
    Term(
        "move-data",
        _("Move the data"),
        _("Run at a third site: the input, the image and the results all travel."),
    ),
    Term(
        "objective",
        _("Objective"),
        _(
            "Total cost + the value of an hour of waiting × total hours; the feasible option "
            "with the least objective is chosen."
        ),
    ),
    Term(
        "effective-price",
        _("Effective GPU-hour price"),
        _(
            "A price on any billing basis brought to one GPU-hour: per machine-hour ÷ GPUs per "
            "machine; per contract ÷ (hours × GPUs × expected utilisation)."
        ),
    ),
    Term(
        "billed-gpus",
        _("Billed GPUs"),
        _(
            "The GPUs paid for: whole machines on machine-hour and contract bases, even when "
            "the plan uses fewer."
        ),
    ),
    Term(
        "staged",
        _("Staged input"),
        _("A repeatedly scanned input copied once to storage at the site that runs the job."),
    ),
    Term(
        "streamed",
        _("Streamed input"),
        _(
            "An input read over the network on every pass, because the site has no room to "
            "stage it."
        ),
    ),
    Term(
        "sharded",
        _("Sharded"),
        _(
            "Data parallelism that also splits the model's weights, gradients and optimizer "
            "state over the GPUs (FSDP, ZeRO-3), so a model that fits no single GPU can still "
            "fit one machine."
        ),
    ),
    Term(
        "coupling",
        _("Coupling"),
        _(
            "How often the parts of a job talk: none, loose, or tight (tensor parallel, "
            "high-frequency communication)."
        ),
    ),
    Term(
        "pair",
        _("Like-for-like pair"),
        _(
            "The fastest single-machine and the fastest multi-machine run of one task on the "
            "same offer. Speedup = single ÷ multi end-to-end hours; scaling efficiency = "
            "speedup ÷ GPU ratio."
        ),
    ),
    Term(
        "readiness",
        _("Readiness (dispatch ready)"),
        _(
            "Channel reserved, resume verified, environments aligned: all three before a plan "
            "that moves data may be dispatched."
        ),
    ),
    Term(
        "latency-budget",
        _("Latency budget"),
        _(
            "The longest wait the task tolerates, split into transfer, queue and compute; "
            "blank means no limit."
        ),
    ),
    Term(
        "preemptible",
        _("Preemptible capacity"),
        _(
            "Spot capacity the provider may take back; each preemption loses work, priced on "
            "its own line."
        ),
    ),
    Term(
        "severity",
        _("Block, warning, information"),
        _(
            "A block finding stops approval until fixed; a warning needs a reason to go on; "
            "information explains the decision."
        ),
    ),
)

ENTRY_BY_ID = {entry.id: entry for entry in ENTRIES}


def entry_for(rule_id: str) -> Entry | None:
    """The entry of a rule id or of a message key ("C.block", "R1a.split" → C, R1a)."""
    if not rule_id:
        return None
    rule_id = str(rule_id)
    return ENTRY_BY_ID.get(rule_id) or ENTRY_BY_ID.get(rule_id.split(".", 1)[0])


def formula_for(entry: Entry, values: dict[str, float]) -> str:
    """The entry's formula in the current language with the given threshold values filled in."""
    text = str(entry.formula)
    if not entry.thresholds:
        return text
    return text % {key: team_thresholds.show(values[key]) for key in entry.thresholds}
