"""Method guide entries: the four indicators (see apps/method/entries/__init__.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .model import Entry, Passage

ENTRIES: tuple[Entry, ...] = (
    Entry(
        "M1",
        "indicators",
        "info",
        title=_("Indicator: data/compute ratio"),
        checks=_("How much data moves per hour of compute."),
        formula=_(
            "Data/compute ratio = input GB × compress ratio ÷ compute hours; ≥ "
            "%(data_compute_high)s GB/h → move compute toward the data (M1.high); < "
            "%(data_compute_low)s GB/h → a light task that can be scheduled freely (M1.low), or, "
            "when the task is not eligible to move, one that runs where the cross-domain gates "
            "allow (M1.low.stays)."
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
            "the cheapest option that meets every budget and what it costs more. When the "
            "compute segment is over, each offer that misses it gets a deadline plan: "
            "the GPUs that meet it, in whole machines, with the scheduling fee and rerun cost "
            "worked out again at that size, its total and its extra cost against the chosen "
            "option, marked extrapolated beyond the measured multi-machine run; spot offers get "
            "none (their hours are not theirs to promise). M3.deadline names the cheapest plan."
        ),
        fix=_(
            "Adjust that segment's plan, take the named alternative, or plan the GPUs of the "
            "named deadline plan on its offer."
        ),
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
)
