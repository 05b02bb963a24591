"""Finding messages of eligibility and cost: X exclusions, G gates, P placement, M indicators,
H rollout, T total bill (English and Simplified Chinese; rendered by ``messages.py``)."""

from __future__ import annotations

ELIGIBILITY_MESSAGES: dict[str, dict[str, str]] = {
    # X. Exclusions
    "X1": {
        "en": "Low-latency online service: excluded from cross-domain scheduling; deploy "
        "near users, only options in the home datacenter are feasible.",
        "zh_Hans": "低延迟在线服务:排除在跨域之外,就近部署,只能留在本地或同域(本机房)。",
    },
    "X2": {
        "en": "Stateful service: moving it means starting over; only options in the home "
        "datacenter are feasible.",
        "zh_Hans": "状态重的服务:搬走等于重来,只能留在本地或同域(本机房)。",
    },
    "X3": {
        "en": "Tightly coupled job: it must run whole in one high-speed pool; it may run "
        "anywhere the checks allow, but is never spread across pools.",
        "zh_Hans": "紧耦合任务:必须整体放在一个高速互联的池子里;放在哪里由其他检查决定,但不"
        "能拆到多个池子里跑。",
    },
    "X4": {
        "en": "Compliance restricted: the data may be processed only at {allowed_sites}, and "
        "the input may move only between those sites; results may leave.",
        "zh_Hans": "数据合规受限:数据只能在 {allowed_sites} 处理,输入数据只能在这些站点之间"
        "搬运;结果可以带出。",
    },
    "X4.results": {
        "en": "Compliance restricted: the data may be processed only at {allowed_sites}, and "
        "neither the input nor the results may move outside those sites.",
        "zh_Hans": "数据合规受限:数据只能在 {allowed_sites} 处理,输入和结果都不能搬出这些站点。",
    },
    "X5": {
        "en": "Strict consistency required: link jitter turns into business risk; only "
        "options in the home datacenter are feasible.",
        "zh_Hans": "要求严格一致:跨域链路抖动会放大成业务风险,只能留在本地或同域(本机房)。",
    },
    # G. Gates
    "G1": {
        "en": "Portability gate not passed (missing: {missing}): only options in the home "
        "datacenter are feasible.",
        "zh_Hans": "可迁移性未通过(缺:{missing}):只能留在本地或同域(本机房)。",
    },
    "G2": {
        "en": "Latency tolerance gate not passed: the transfer budget is 0 h; only options "
        "in the home datacenter are feasible.",
        "zh_Hans": "时延容忍度未通过:传输预算为 0 小时,只能留在本地或同域(本机房)。",
    },
    "G3": {
        "en": "Interruption gate not passed: not resumable and one interruption loses "
        "{interruption_cost_hours} h (limit {limit} h); only options in the home "
        "datacenter are feasible.",
        "zh_Hans": "中断成本未通过:不能续跑,中断一次损失 {interruption_cost_h"
        "ours} 小时(上限 {limit} 小时),只能留在本地或同域(本机房)。",
    },
    "G4": {
        "en": "Candidate {offer} is preemptible capacity ({preemptions_per_day} expected "
        "preemptions a day) and the task cannot resume: every preemption reruns it from the "
        "start ({interruption_cost_hours} h lost each time).",
        "zh_Hans": "候选 {offer} 是可抢占资源(预计每天被抢占 {preemptions_per_day} 次),而任务"
        "不能续跑:每次被抢占都要从头重跑(每次损失 {interruption_cost_hours} 小时)。",
    },
    "D1": {
        "en": "Data-intensive task with results ({result_gb} GB) under a tenth of its input "
        "({input_gb} GB): move compute to the data, ship results.",
        "zh_Hans": "数据密集任务,结果({result_gb} GB)不到输入({input_gb} GB)的十分之一:"
        "把计算搬到数据旁边,只传回结果。",
    },
    "D2": {
        "en": "Repeated full scans ({data_passes} passes): moving compute does not pay, "
        "transfers recur; plan storage together with compute.",
        "zh_Hans": "需要反复全量扫描({data_passes} 遍):搬计算占不到便宜,传输会反复发生;"
        "存储要与算力一起规划。",
    },
    "D2.staged": {
        "en": "Repeated full scans ({data_passes} passes): transfers recur on every pass; "
        "stage the data next to the compute once ({input_gb} GB at {site}).",
        "zh_Hans": "需要反复全量扫描({data_passes} 遍):每一遍都要传一次;把数据一次性落到算"
        "力旁边({site},{input_gb} GB)。",
    },
    "D2.at_data": {
        "en": "Repeated full scans ({data_passes} passes): the chosen option runs at the data "
        "({site}), which avoids the recurring transfers.",
        "zh_Hans": "需要反复全量扫描({data_passes} 遍):所选方案就在数据所在地({site})运行,"
        "避免了反复传输。",
    },
    "D2.streamed": {
        "en": "Repeated full scans ({data_passes} passes): {site} has no room to stage the input, "
        "so the chosen option reads it over the link on every pass; plan storage together "
        "with compute.",
        "zh_Hans": "需要反复全量扫描({data_passes} 遍):{site} 放不下输入数据,所选方案每一遍"
        "都要经链路读取;存储要与算力一起规划。",
    },
    "D2.no_room": {
        "en": "Repeated full scans ({data_passes} passes) and no candidate site has room to "
        "stage the input: moving compute does not pay; plan storage together with "
        "compute.",
        "zh_Hans": "需要反复全量扫描({data_passes} 遍),且没有候选站点放得下输入数据:搬计算"
        "占不到便宜;存储要与算力一起规划。",
    },
    "D3": {
        "en": "Preprocess next to the data and ship {shipped_gb} GB per run to {site} instead "
        "of {raw_gb} GB (−{saved_pct} %): the processed version serves {rounds} run(s).",
        "zh_Hans": "把预处理放在数据旁边,每次只向 {site} 传 {shipped_gb} GB 成品,而不是 "
        "{raw_gb} GB 原始数据(−{saved_pct} %):一份成品供 {rounds} 轮使用。",
    },
    "D3.larger": {
        "en": "The processed version ({processed_gb} GB) is not smaller than the raw input "
        "({input_gb} GB): shipping it can only cost more; check processed_gb.",
        "zh_Hans": "预处理后的成品({processed_gb} GB)并不比原始输入({input_gb} GB)小:"
        "传成品只会更贵;请核对 processed_gb。",
    },
    "K1": {
        "en": "Tightly coupled job: keep it whole in one high-speed pool and reserve that "
        "pool ahead.",
        "zh_Hans": "紧耦合任务:整体放在一个高速互联的池子里,提前锁定资源。",
    },
    "K2": {
        "en": "No single candidate pool holds the {gpus} GPUs; pools within {tier} that "
        "together would: {pools}. The engine does not cost spread plans: price one as "
        "its own offer.",
        "zh_Hans": "没有哪个候选池子单独装得下 {gpus} 张卡;在{tier}范围内合起来装得下"
        "的池子组合:{pools}。引擎不计算拆分方案的成本:请把它作为单独的报价录入。",
    },
    "K3": {
        "en": "Tightly coupled job on {machines} machines of {offer}, whose interconnect is "
        "not recorded: confirm that the pool's machines are joined by InfiniBand or RoCE "
        "(or measure a multi-machine run of this size on it).",
        "zh_Hans": "紧耦合任务要用 {offer} 的 {machines} 台机器,但没有记录它的跨机网络:请确认"
        "池子里的机器之间走 InfiniBand 或 RoCE(或在它上面实测一次这个规模的多机运行)。",
    },
    # P. Placement
    "P1": {
        "en": "No feasible option meets every latency budget ({options} feasible options): "
        "the cheapest overall is chosen; see M3 for the segments over budget.",
        "zh_Hans": "没有哪个可行方案能满足全部时延预算({options} 个可行方案):按总代价选了最"
        "划算的;超预算的段见 M3。",
    },
    "P1.cost": {
        "en": "No feasible option meets every time budget and the cost budget of "
        "{cost_budget} together ({options} feasible options): the cheapest overall is chosen; "
        "see M3 and P4.",
        "zh_Hans": "没有哪个可行方案能同时满足全部时间预算和 {cost_budget} 的费用预算({options}"
        " 个可行方案):按总代价选了最划算的;见 M3 和 P4。",
    },
    "P2": {
        "en": "No feasible placement: none of the {options} options passes capacity, "
        "parallelism, compliance, eligibility and link checks.",
        "zh_Hans": "没有可行的放置方案:{options} 个方案都没通过容量、并行方式、合规、跨域资"
        "格或链路检查。",
    },
    "P4": {
        "en": "The chosen option costs {total_cost} a run, over the cost budget of "
        "{cost_budget}. Within it: {kind} at {site} ({offer}), total {alternative_cost}, "
        "{extra_hours} h more.",
        "zh_Hans": "所选方案每次运行花费 {total_cost},超出费用预算 {cost_budget}。预算内的方案:"
        "{kind},站点 {site}({offer}),总计 {alternative_cost},多用 {extra_hours} 小时。",
    },
    "P4.none": {
        "en": "The chosen option costs {total_cost} a run, over the cost budget of "
        "{cost_budget}, and no feasible option is within it: raise the budget or shrink the "
        "job.",
        "zh_Hans": "所选方案每次运行花费 {total_cost},超出费用预算 {cost_budget},且没有可行"
        "方案在预算内:提高预算或缩小任务。",
    },
    "P3": {
        "en": "No planned GPU count: compute hours are measured on a GPU count, so costs "
        "cannot be compared. Enter the planned GPUs on the task profile.",
        "zh_Hans": "没有计划卡数:计算时长是在某个卡数上量出来的,没有卡数就没法比较成本。请"
        "在任务画像里填写计划卡数。",
    },
    # M. Indicators
    "M1.high": {
        "en": "Data/compute ratio {ratio} GB/h ≥ {limit}: move compute toward the data.",
        "zh_Hans": "数据计算比 {ratio} GB/小时 ≥ {limit}:把计算往数据边搬。",
    },
    "M1.low": {
        "en": "Data/compute ratio {ratio} GB/h < {limit}: light task, schedule freely.",
        "zh_Hans": "数据计算比 {ratio} GB/小时 < {limit}:任务轻便,可自由调度。",
    },
    "M1.low.stays": {
        "en": "Data/compute ratio {ratio} GB/h < {limit}: a light task, but it is not eligible "
        "to move: it runs where the cross-domain gates allow.",
        "zh_Hans": "数据计算比 {ratio} GB/小时 < {limit}:任务轻便,但不满足跨域条件,只能在跨域"
        "门槛允许的地方运行。",
    },
    "M2": {
        "en": "Interruption cost {interruption_cost} exceeds the scheduling benefit "
        "{scheduling_benefit}: lock quota protection for this task.",
        "zh_Hans": "中断成本 {interruption_cost} 高于调度收益 {scheduling_benefit}:"
        "配额上要为该任务锁保护。",
    },
    "M3": {
        "en": "The {segment} segment of the chosen option takes {hours} h, over its budget of "
        "{budget} h: adjust that segment.",
        "zh_Hans": "所选方案的{segment}段需 {hours} 小时,超过预算 {budget} 小时:调整这一段的方案。",
    },
    "M3.alternative": {
        "en": "The {segment} segment of the chosen option takes {hours} h, over its budget "
        "of {budget} h. To meet every budget: {kind} at {site} ({offer}), "
        "+{extra_cost}.",
        "zh_Hans": "所选方案的{segment}段需 {hours} 小时,超过预算 {budget"
        "} 小时。要满足全部预算:{kind},站点 {site}({offer}),多"
        "花 {extra_cost}。",
    },
    "M3.deadline": {
        "en": "The {segment} segment of the chosen option takes {hours} h, over its budget of "
        "{budget} h. Meet the compute budget on {plan_offer} with {plan_gpus} GPUs: "
        "+{plan_extra_cost}.",
        "zh_Hans": "所选方案的{segment}段需 {hours} 小时,超过预算 {budget} 小时。要按时算完:"
        "在 {plan_offer} 上用 {plan_gpus} 张卡,多花 {plan_extra_cost}。",
    },
    "M3.alternative.deadline": {
        "en": "The {segment} segment of the chosen option takes {hours} h, over its budget "
        "of {budget} h. To meet every budget: {kind} at {site} ({offer}), "
        "+{extra_cost}. Meet the compute budget on {plan_offer} with {plan_gpus} GPUs: "
        "+{plan_extra_cost}.",
        "zh_Hans": "所选方案的{segment}段需 {hours} 小时,超过预算 {budget} 小时。要满足全部预算:"
        "{kind},站点 {site}({offer}),多花 {extra_cost}。要按时算完:在 {plan_offer} 上用 "
        "{plan_gpus} 张卡,多花 {plan_extra_cost}。",
    },
    "M4": {
        "en": "Network cost share {share_pct}% > {limit_pct}%: rethink: compress the data, move "
        "compute, or find nearer resources.",
        "zh_Hans": "网络成本占比 {share_pct}% 超过 {limit_pct}%:方案该重想,要么压缩数据、"
        "要么改搬计算、要么就近找资源。",
    },
    # H. Rollout
    "H1": {
        "en": "The chosen option runs on tier {tier}, which the team has not validated yet: "
        "pilot first.",
        "zh_Hans": "所选方案落在团队尚未验证的层级({tier}):先试点再扩面。",
    },
    "H1.pilots_ready": {
        "en": "The chosen option runs on tier {tier}, not validated yet; {successful_pilots} "
        "successful pilots exist on it, so an owner can mark it validated.",
        "zh_Hans": "所选方案落在尚未验证的层级({tier});该层级已有 {successful_pilots} 次成功试点,"
        "负责人可以把它标记为已验证。",
    },
    "H2": {
        "en": "The chosen option moves data but is not ready to dispatch (missing: {missing}): "
        "approval is blocked.",
        "zh_Hans": "所选方案需要搬运数据,但配套未齐(缺:{missing}):不允许派发,不能批准。",
    },
    # T. Total bill
    "T": {
        "en": "Cheapest total bill: offer {offer}, total {total} (unit price {unit_price} per "
        "GPU-hour).",
        "zh_Hans": "总账最低:报价 {offer},总计 {total}(每卡时单价 {unit_price})。",
    },
    "T.paid": {
        "en": "{offer} is a package already paid: {paid_gpu_hours} GPU-hours of this run are "
        "package hours and cost no new money; it costs only what it displaces (the work those "
        "hours would otherwise do).",
        "zh_Hans": "{offer} 是已付费的包段:本次运行的 {paid_gpu_hours} 卡时用的是包内时长,"
        "不再花新钱;它的代价只是挤掉的其他工作。",
    },
}
