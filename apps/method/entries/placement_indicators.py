"""Method guide entries: placement (see apps/method/entries/__init__.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .model import Entry, Passage

ENTRIES: tuple[Entry, ...] = (
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
            "%(buffer_cross_hub)s. Version 3.1: an input read while the job computes (input "
            "delivery streamed, or a repeated full scan streamed for want of room) runs beside "
            "compute: the transfer segment counts only max(0, its hours − compute hours); its "
            "cost is unchanged and its link must still be reserved."
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
            ),            Passage(
                "b4",
                "批量推理:拿一批文本或图片去远端跑推理,输入输出都比训练小,可分批传",
                (
                    "Batch inference: take a batch of texts or images to run inference "
                    "remotely; input and output are smaller than in training and can be sent "
                    "in batches."
                ),
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
            "Repeated full scan: the input is staged once where the site has room (storage TB × "
            "1000 ≥ input GB), else streamed once per pass. D2.staged names the chosen option's "
            "site where it stages the input, D2.at_data says the chosen option runs at the data "
            "(no recurring transfers), D2.streamed says the chosen site has no room, D2.no_room "
            "says no site has room, D2 says no option moves the input."
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
        "D3",
        "placement",
        "info",
        title=_("Staged plan: preprocess next to the data, ship the product"),
        checks=_(
            "Whether shipping the preprocessed version (features, shards, tokens) instead of the "
            "raw data makes an option away from the data cheaper, counting the preprocessing."
        ),
        formula=_(
            "Away from the data, with a processed size given: the staged plan ships processed GB "
            "× compress ratio once, its GB and cost shared by the rounds that reuse it; it adds "
            "the preprocessing hours (counted with the transfer for the latency budget) and "
            "hours × cost per hour ÷ rounds. The option keeps the plan of lower objective. D3 "
            "tells what the chosen staged plan ships per run against the raw input (−X %); "
            "D3.larger warns when the processed version is not smaller than the raw input."
        ),
        fix=_(
            "Record the processed size, the preprocessing hours and cost and how many runs reuse "
            "one processed version on the task profile (a preprocess benchmark record can fill "
            "them)."
        ),
        passages=(
            Passage(
                "b3",
                "把预处理放到离数据近的地方跑,把成品特征传到训练地,传输的是浓缩后的结果而不是原始数据",
                (
                    "Run preprocessing close to the data and send the finished features to the "
                    "training site: what travels is the condensed result, not the raw data."
                ),
            ),
            Passage(
                "b3",
                "原始数据不挪窝,每轮实验只在训练地取用处理好的版本,传输量能压下大半",
                (
                    "The raw data stays put; each round of experiments only uses the processed "
                    "version at the training site, and the volume transferred drops by more "
                    "than half."
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
        "K3",
        "placement",
        "warn",
        title=_("Tightly coupled over several machines: a fast fabric"),
        checks=_(
            "Whether the machines a tightly coupled job spans are joined by InfiniBand or RoCE."
        ),
        formula=_(
            "Coupling tight and the plan spans more than one machine of the offer (⌈GPUs ÷ "
            "GPUs per machine⌉ > 1): on Ethernet the option is refused (no fast "
            "interconnect); with the interconnect unknown it stays feasible and K3 warns when "
            "it is chosen. A multi-machine run measured on the offer with a scaling efficiency "
            "of at least %(scaling_efficiency_min)s proves the fabric up to its node count."
        ),
        fix=_(
            "Record the offer's interconnect, choose a pool joined by InfiniBand or RoCE, or "
            "measure a multi-machine run of this size on the pool."
        ),
        passages=(
            Passage(
                "b3",
                "这类任务应当整体放在一个高速互联的池子里",
                "Such jobs belong whole in one pool with a high-speed interconnect.",
            ),
            Passage(
                "a_checklist",
                "跨机通信走什么网络。带宽不够时多机更慢",
                (
                    "What network cross-machine traffic uses: with too little bandwidth, "
                    "several machines are slower."
                ),
            ),
        ),
        note=_(
            "A later addition to the method (version 3.1); the nearest seed passages are quoted."
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
            "option with the least objective is still chosen. With a cost budget per run, "
            "an option counts only when it meets every time budget and the cost budget "
            "together (P1.cost)."
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
        "P4",
        "placement",
        "warn",
        title=_("Over the cost budget"),
        checks=_(
            "Whether the chosen option's whole bill for one run stays within the task profile's "
            "cost budget per run."
        ),
        formula=_(
            "Chosen option's total cost > cost budget → warning. P4 names the feasible "
            "option of least objective within the budget, its total and the hours it adds; "
            "P4.none when no feasible option is within it. Every option says whether it is "
            "within the cost budget."
        ),
        fix=_(
            "Take the named option and accept its hours, shrink the job, or raise the budget. "
            "The budget is read against the whole bill, not the unit price."
        ),
        passages=(
            Passage(
                "a_misjudge",
                "误判三:只比单价不比总账。调度开销、数据搬运、失败重跑带来的损耗,都要算进总成本里",
                (
                    "Misjudgement three: comparing unit prices, not the total bill. Scheduling "
                    "overhead, data movement and rerun losses all belong in the total cost."
                ),
            ),
        ),
        note=_(
            "A later addition to the method (version 3.1): the seeds weigh the total bill; a "
            "money budget per run is how teams state the limit they hold it to."
        ),
    ),
    Entry(
        "F",
        "placement",
        "",
        title=_("What flips the decision"),
        checks=_("How far each input the choice depends on may move before another option wins."),
        formula=_(
            "For each input (delay cost per hour, compress ratio, the home site's queue, each "
            "used link's bandwidth and price per GB, the two offers' prices): the value x = x₀ − "
            "gap ÷ closing rate at which another feasible option's objective drops below the "
            "chosen one's. An option with a raw and a staged plan counts the lower of the two at "
            "every value, so a flip stays exact when an option switches plan. The three nearest "
            "are told in words."
        ),
        fix=_(
            "Check the nearest break-even values: if an input is uncertain near them, measure "
            "it before signing."
        ),
        note=_("A later addition to the method (version 2), not taken from the seed articles."),
    ),
)
