"""Method guide entries: platform (see apps/method/entries/__init__.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .model import Entry, Passage

ENTRIES: tuple[Entry, ...] = (
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
        checks=_(
            "Whether the team can run the distributed layer the plan needs, and what running "
            "it itself costs."
        ),
        formula=_(
            "Platform distributed or both and nobody can maintain a scheduler → delivery "
            "managed: someone else runs the scheduler. Version 3.1: when the team hosts the "
            "layer itself, every distributed candidate's total adds the upkeep: "
            "%(scheduler_ops_hours_per_month)s engineer hours a month × "
            "%(engineer_hour_cost)s an hour ÷ runs a month (a one-off job carries one month), "
            "and R1e states it with the difference to the cheapest managed candidate."
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
            ),            Passage(
                "a_layers",
                "调度器的运维成本可能高于算力本身",
                "The scheduler's upkeep may cost more than the compute itself.",
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
)
