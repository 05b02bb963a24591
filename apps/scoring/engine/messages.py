"""Message templates of every finding, in English and Simplified Chinese.

Templates use ``str.format`` fields named after the finding's ``data`` keys. Numbers are shown
rounded for reading; the exact figures stay in ``data``. Values of the keys in ``_TERM_KEYS`` are
domain codes and are shown as words of the message's language.
"""

from __future__ import annotations

from string import Formatter
from typing import Any

MESSAGES: dict[str, dict[str, str]] = {
    # A. Sizing
    "A.estimate": {
        "en": "Estimated GPU memory for one replica: {mem_gb} GB ({params_b}B parameters, "
        "{workload}, {precision}); fits one machine on {fit_count} of {offer_count} offers.",
        "zh_Hans": "单副本显存估算:{mem_gb} GB({params_b}B 参数,{workload},{precision});"
        "{offer_count} 个报价中有 {fit_count} 个单机装得下。",
    },
    "A.measured": {
        "en": "Measured peak GPU memory {mem_gb} GB overrides the estimate; fits one machine on "
        "{fit_count} of {offer_count} offers.",
        "zh_Hans": "实测峰值显存 {mem_gb} GB 取代估算;{offer_count} 个报价中有 {fit_count} 个"
        "单机装得下。",
    },
    "A.none": {
        "en": "No memory figure (no parameter count or measured peak): memory limits no offer.",
        "zh_Hans": "没有显存数据(无参数量也无实测峰值):显存不限制任何报价。",
    },
    # R. Which platform
    "R0": {
        "en": "Multi-machine is not faster end to end ({multi_e2e} h vs {single_e2e} h on one "
        "machine): use a compute platform and stay on one machine.",
        "zh_Hans": "多机端到端不比单机快(多机 {multi_e2e} 小时,单机 {single_e2e} 小时):"
        "选算力平台,留在单机上跑。",
    },
    "R1a": {
        "en": "No offer fits the task on one machine and it cannot be split (task strategies: "
        "{parallelism}; no offer supports them): not feasible.",
        "zh_Hans": "没有报价能单机装下该任务,也无法切分(任务支持的并行方式:{parallelism},"
        "没有报价支持):不可行。",
    },
    "R1a.split": {
        "en": "One replica does not fit one GPU and no strategy that splits the model "
        "(tensor, pipeline, sharded) is supported by both the task ({parallelism}) and "
        "an offer: plain data parallelism copies the whole model onto every GPU, so "
        "more machines do not help. Not feasible.",
        "zh_Hans": "单个副本一张卡装不下,而任务({parallelism})和报价没有共同支持的模"
        "型切分方式(张量并行、流水线并行、分片):纯数据并行会把整个模型复制到每张卡上,"
        "加机器也没用。不可行。",
    },
    "R1b": {
        "en": "No offer fits one machine: rent multi-node capacity on demand or a managed offer; "
        "do not build a scheduler for a one-off job.",
        "zh_Hans": "单机装不下:按量租多机算力或选托管方案;跑一次就扔的任务,别顺手自建分布式调度。",
    },
    "R1c": {
        "en": "No offer fits one machine and the team has no machines: both layers are needed, "
        "a compute platform and a distributed platform.",
        "zh_Hans": "单机装不下,手上也没有机器:两层都要,算力平台加分布式计算平台。",
    },
    "R1d": {
        "en": "The team has machines but the task does not fit one: a distributed computing "
        "platform is what is missing.",
        "zh_Hans": "机器有了,任务一台装不下:需要分布式计算平台。",
    },
    "R2": {
        "en": "The task only just fits on every fitting offer (within {band_pct}% of machine "
        "memory) and no peak is measured: run a single-machine baseline first.",
        "zh_Hans": "在所有装得下的报价上都接近显存上限(余量不足 {band_pct}%),且没有实测峰值:"
        "先按单机跑一遍拿基线。",
    },
    "R2.gpus": {
        "en": "The plan uses {gpus} GPUs, more than one machine of every fitting offer, and "
        "no single-vs-multi pair is recorded: run a single-machine baseline first, "
        "then measure the cross-machine gain.",
        "zh_Hans": "计划用 {gpus} 张卡,超过了每个装得下的报价的一台机器,且没有单机与多机的"
        "实测对照:先按单机跑一遍拿基线,再量跨机收益。",
    },
    "R3.distributed": {
        "en": "Jobs keep queueing: a scheduling layer is missing and the team can maintain one: "
        "distributed computing platform.",
        "zh_Hans": "反复排队,问题多半不在算力而在缺一层调度;团队能维护调度器:选分布式计算平台。",
    },
    "R3.compute": {
        "en": "Jobs keep queueing: a scheduling layer is missing, but nobody can maintain one: "
        "stay on a compute platform (see J4).",
        "zh_Hans": "反复排队说明缺一层调度,但团队没人能维护调度器:先用算力平台(见 J4)。",
    },
    "R4": {
        "en": "Machines and a scheduler are in place but jobs are slow: look at both layers; "
        "measure network overhead first, then choose between more GPUs and a different split.",
        "zh_Hans": "机器和调度都有,就是跑得慢:两边都要看,先量网络开销,再决定是加卡还是改切分。",
    },
    "R5": {
        "en": "The task fits one machine: a compute platform is enough; a distributed layer "
        "would only add communication and debugging cost.",
        "zh_Hans": "单机装得下:只需要算力平台,上分布式只会多出通信和调试成本。",
    },
    "R6": {
        "en": "The cross-machine gain is clear on {offer}: speedup {speedup} at scaling "
        "efficiency {scaling_efficiency} (at least {limit}), and reruns do not eat it: "
        "make the distributed job a standard part.",
        "zh_Hans": "在 {offer} 上跨机收益明确:加速比 {speedup},扩展效率 {sc"
        "aling_efficiency}(不低于 {limit}),重跑也吃不掉:把分"
        "布式作业做成标准件。",
    },
    "R7": {
        "en": "A multi-machine run of {compute_hours} h (at least {limit} h) that cannot "
        "resume: one node failure reruns the whole job. Resume or partial retry is "
        "what the distributed layer must give you.",
        "zh_Hans": "多机连续跑 {compute_hours} 小时(不少于 {limit} 小时)且不能续跑:一个节点"
        "出故障就要整体重跑。分布式层必须提供断点续跑或局部重试。",
    },
    "R1e": {
        "en": "Nobody on the team can maintain a scheduler: buy the distributed layer as a "
        "managed offer; do not self-host it.",
        "zh_Hans": "团队没人能维护调度器:分布式这一层买托管的,不要自建。",
    },
    "R-mod": {
        "en": "Recurring job: template it and make it a standard part of the platform.",
        "zh_Hans": "长期固定节奏的任务:把作业模板固化下来,当成内部标准件。",
    },
    # J. The four misjudgements
    "J1": {
        "en": "A distributed platform produces no compute: the team has no machines and no "
        "compute or managed offer is among the candidates.",
        "zh_Hans": "误判一:分布式平台本身不产出算力;手上没有机器,候选里也没有算力或托管报价。",
    },
    "J2": {
        "en": "No measured single-vs-multi pair: multi-machine can be slower than one machine; "
        "run both before committing to a distributed setup.",
        "zh_Hans": "误判二:没有单机与多机的实测对照,多机不一定比单机快;先各跑一遍再定。",
    },
    "J3": {
        "en": "Cheapest by unit price ({unit_offer}, {unit_price}/GPU-hour) is not cheapest by "
        "total bill ({total_offer}, total {total}): compare total bills, not unit prices.",
        "zh_Hans": "误判三:单价最低的是 {unit_offer}(每卡时 {unit_price}),总账最低的却是 "
        "{total_offer}(总计 {total}):别只比单价,要比总账。",
    },
    "J4": {
        "en": "This plan needs a scheduler but nobody on the team can maintain one: using is "
        "not maintaining.",
        "zh_Hans": "误判四:方案需要调度器,但团队没人能维护;会用不等于能维护。",
    },
    "J4.self_hosted": {
        "en": "Candidate {offer} is a self-hosted distributed platform, but nobody on the "
        "team can maintain a scheduler: choose a managed offer instead.",
        "zh_Hans": "候选 {offer} 是需要自己运维的分布式平台,但团队没人能维护调度器:改选托管方案。",
    },
    # C. Checklist gate
    "C.block": {
        "en": "Candidate {offer}: {unanswered} of 6 checklist questions unanswered "
        "({questions}): not ready to sign.",
        "zh_Hans": "候选 {offer}:六个问题有 {unanswered} 个答不上来({questions}),"
        "还没到签字的时候。",
    },
    "C.warn": {
        "en": "Candidate {offer}: one checklist question unanswered ({questions}).",
        "zh_Hans": "候选 {offer}:有一个问题还没答({questions})。",
    },
    # B. Benchmark verdicts
    "B1": {
        "en": "Cross-machine gain is negative: {multi_e2e} h on several machines vs "
        "{single_e2e} h on one (speedup {speedup}).",
        "zh_Hans": "跨机收益为负:多机 {multi_e2e} 小时,单机 {single_e2e} 小时(加速比 {speedup})。",
    },
    "B2": {
        "en": "One rerun eats the gain: expected rerun loss {rerun_loss_hours} h ≥ "
        "{hours_saved} h saved per run.",
        "zh_Hans": "重跑一次就吃掉收益:预计重跑损失 {rerun_loss_hours} 小时 ≥ 每次节省的 "
        "{hours_saved} 小时。",
    },
    "B3": {
        "en": "Retrofit costs more than a year of gains: {migration_effort_hours} h of migration "
        "effort > {yearly_hours_saved} h saved over {runs_per_year} runs.",
        "zh_Hans": "改造成本超过一年的收益:迁移改造 {migration_effort_hours} 小时 > "
        "{runs_per_year} 次运行共节省的 {yearly_hours_saved} 小时。",
    },
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
    "D2.no_room": {
        "en": "Repeated full scans ({data_passes} passes) and no candidate site has room to "
        "stage the input: moving compute does not pay; plan storage together with "
        "compute.",
        "zh_Hans": "需要反复全量扫描({data_passes} 遍),且没有候选站点放得下输入数据:搬计算"
        "占不到便宜;存储要与算力一起规划。",
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
    # P. Placement
    "P1": {
        "en": "No feasible option meets every latency budget ({options} feasible options): "
        "the cheapest overall is chosen; see M3 for the segments over budget.",
        "zh_Hans": "没有哪个可行方案能满足全部时延预算({options} 个可行方案):按总代价选了最"
        "划算的;超预算的段见 M3。",
    },
    "P2": {
        "en": "No feasible placement: none of the {options} options passes capacity, "
        "parallelism, compliance, eligibility and link checks.",
        "zh_Hans": "没有可行的放置方案:{options} 个方案都没通过容量、并行方式、合规、跨域资"
        "格或链路检查。",
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
    # F. What flips the decision (SPEC 6.3 sensitivity): the nearest break-even values.
    "F.delay_cost.above": {
        "en": "If an hour of waiting is worth more than {value} (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若每小时等待的代价高于 {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.delay_cost.below": {
        "en": "If an hour of waiting is worth less than {value} (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若每小时等待的代价低于 {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.compress_ratio.above": {
        "en": "If the data compresses to more than {value} of its size (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若数据压缩后大于原来的 {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.compress_ratio.below": {
        "en": "If the data compresses to less than {value} of its size (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若数据压缩后小于原来的 {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.queue.above": {
        "en": "If the {subject} queue rises above {value} h (now {current} h)"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 的排队时间升到 {value} 小时以上(现为 {current} 小时)"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.queue.below": {
        "en": "If the {subject} queue drops below {value} h (now {current} h)"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 的排队时间降到 {value} 小时以下(现为 {current} 小时)"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.bandwidth.above": {
        "en": "If the {subject} link's bandwidth rises above {value} Gbit/s (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 链路带宽升到 {value} Gbit/s 以上(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.bandwidth.below": {
        "en": "If the {subject} link's bandwidth drops below {value} Gbit/s (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 链路带宽降到 {value} Gbit/s 以下(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.price_per_gb.above": {
        "en": "If transfer over {subject} costs more than {value} per GB (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 链路的传输单价高于每 GB {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.price_per_gb.below": {
        "en": "If transfer over {subject} costs less than {value} per GB (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 链路的传输单价低于每 GB {value}(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.price.above": {
        "en": "If the price of {subject} rises above {value} (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 的价格升到 {value} 以上(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    "F.price.below": {
        "en": "If the price of {subject} drops below {value} (now {current})"
        ", the choice flips to: {kind} at {site} ({offer}).",
        "zh_Hans": "若 {subject} 的价格降到 {value} 以下(现为 {current})"
        ",选择会变为:{kind},站点 {site}({offer})。",
    },
    # S. Sign-off refusals
    "S.block_finding": {
        "en": "A blocking finding stands ({rule}): {finding}",
        "zh_Hans": "存在阻断项({rule}):{finding}",
    },
    "S.self_approval": {
        "en": "The author of a review cannot sign it off.",
        "zh_Hans": "评审的作者不能给自己签字。",
    },
    "S.already_decided": {
        "en": "This reviewer has already decided on this review.",
        "zh_Hans": "该评审人已经对本评审做过决定。",
    },
    "S.stale_snapshot": {
        "en": "The inputs changed after this snapshot was computed: sign off on the latest one.",
        "zh_Hans": "该快照计算后输入已变更:请在最新快照上签字。",
    },
}

_TERMS: dict[str, dict[str, str]] = {
    "en": {
        "wait_local": "wait locally",
        "move_compute": "move compute to the data",
        "move_data": "move the data",
        "same_site": "same-site",
        "same_datacenter": "same-datacenter",
        "same_city": "same-city",
        "cross_hub": "cross-hub",
        "fine_tuning": "full fine-tuning",
        "adapter_tuning": "adapter tuning (LoRA)",
        "batch_inference": "batch inference",
        "data_processing": "data processing",
        "scientific_batch": "scientific batch",
        "online_service": "online service",
        "env_simple": "simple environment",
        "image_packaged": "packaged image",
        "offsite_allowed": "off-site execution allowed",
        "channel_reserved": "channel reserved",
        "resume_verified": "resume verified",
        "env_aligned": "environments aligned",
        "q1": "Q1 task scale",
        "q2": "Q2 split and network",
        "q3": "Q3 fault tolerance",
        "q4": "Q4 billing basis",
        "q5": "Q5 migration cost",
        "q6": "Q6 exit path",
    },
    "zh_Hans": {
        "transfer": "传输",
        "queue": "排队",
        "compute": "计算",
        "wait_local": "就近等待",
        "move_compute": "把计算搬到数据旁边",
        "move_data": "数据迁移",
        "same_site": "同站点",
        "same_datacenter": "同机房",
        "same_city": "同城",
        "cross_hub": "跨枢纽",
        "training": "训练",
        "fine_tuning": "全参数微调",
        "adapter_tuning": "适配器微调(LoRA)",
        "inference": "推理",
        "batch_inference": "批量推理",
        "data_processing": "数据处理",
        "rendering": "渲染",
        "scientific_batch": "科学计算批处理",
        "online_service": "在线服务",
        "data": "数据并行",
        "tensor": "张量并行",
        "pipeline": "流水线并行",
        "sharded": "分片数据并行",
        "env_simple": "环境依赖简单",
        "image_packaged": "镜像已打包",
        "offsite_allowed": "允许异地执行",
        "channel_reserved": "通道预留",
        "resume_verified": "续跑验证",
        "env_aligned": "环境对齐",
        "q1": "Q1 任务规模",
        "q2": "Q2 切分方式",
        "q3": "Q3 容错要求",
        "q4": "Q4 计费口径",
        "q5": "Q5 迁移成本",
        "q6": "Q6 退出路径",
    },
}
# Data keys whose values are domain codes, shown as words.
_TERM_KEYS = frozenset(
    {"workload", "segment", "kind", "tier", "missing", "questions", "parallelism"}
)
_LIST_SEP = {"en": ", ", "zh_Hans": "、"}
_NONE = {"en": "none", "zh_Hans": "无"}


def show_number(value: float) -> str:
    """Short human form: at most three decimals, trailing zeros dropped."""
    if type(value) is int:
        return str(value)
    if value != value:  # NaN never reaches here, but never print it either
        return "?"
    if value.is_integer() and -1e15 < value < 1e15:
        return str(int(value))  # the commonest figure (8 GPUs, 12 h): no rounding to undo
    if value and abs(value) < 0.01:
        return f"{value:.2g}"
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _show(value: Any, lang: str, term: bool) -> str:
    kind = type(value)
    if kind is str:
        return _TERMS[lang].get(value, value) if term else value
    if kind is float or kind is int:
        return show_number(value)
    if value is None:
        return "—"
    if kind is bool:
        return "true" if value else "false"
    if kind is list or kind is tuple:
        if not value:
            return _NONE[lang]
        return _LIST_SEP[lang].join(_show(v, lang, term) for v in value)
    return str(value)


def _fields(template: dict[str, str]) -> tuple[str, ...]:
    """The data keys a message's two templates show, in first-use order."""
    names: list[str] = []
    for text in template.values():
        for _, field, _, _ in Formatter().parse(text):
            if field is not None and field not in names:
                names.append(field)
    return tuple(names)


# Worked out once: rendering shows only the data a template uses (data carries exact extras).
_FIELDS = {key: _fields(template) for key, template in MESSAGES.items()}


def _pieces(text: str) -> tuple[tuple[str, str | None], ...]:
    """A template as (literal text, field or None) pairs: joined faster than str.format parses
    it again on every message (no template uses a format spec or a conversion)."""
    return tuple((literal, field) for literal, field, _, _ in Formatter().parse(text))


_PIECES = {
    key: (_pieces(template["en"]), _pieces(template["zh_Hans"]))
    for key, template in MESSAGES.items()
}


def _fill(pieces: tuple[tuple[str, str | None], ...], shown: dict[str, str]) -> str:
    parts: list[str] = []
    for literal, field in pieces:
        parts.append(literal)
        if field is not None:
            parts.append(shown[field])
    return "".join(parts)


def render(key: str, data: dict[str, Any]) -> tuple[str, str]:
    """Both languages of one message; a template field missing from data raises KeyError."""
    template = MESSAGES[key]
    fields = _FIELDS[key]
    if not fields:
        return template["en"], template["zh_Hans"]
    shown_en: dict[str, str] = {}
    shown_zh: dict[str, str] = {}
    for k in fields:
        v = data[k]
        kind = type(v)
        if kind is str and k not in _TERM_KEYS:
            shown_en[k] = shown_zh[k] = v  # an offer's name, a site code: shown as given
        elif k in _TERM_KEYS or kind is list or kind is tuple:
            term = k in _TERM_KEYS
            shown_en[k] = _show(v, "en", term)
            shown_zh[k] = _show(v, "zh_Hans", term)
        elif kind is float or kind is int:
            shown_en[k] = shown_zh[k] = show_number(v)
        else:
            shown_en[k] = shown_zh[k] = _show(v, "en", False)
    en, zh = _PIECES[key]
    return _fill(en, shown_en), _fill(zh, shown_zh)


def render_shown(key: str, shown_en: dict[str, str], shown_zh: dict[str, str]) -> tuple[str, str]:
    """Both languages of one message from values already shown as text (for callers that show
    the same option in several messages: sensitivity.tell)."""
    en, zh = _PIECES[key]
    return _fill(en, shown_en), _fill(zh, shown_zh)


def term(code: str, lang: str) -> str:
    """A domain code as a word of the language ("wait_local" → "wait locally", "就近等待")."""
    return _TERMS[lang].get(code, code)
