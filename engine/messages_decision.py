"""Finding messages of the decision rules: A sizing, R platform, J misjudgements, C checklist gate,
B benchmark verdicts (English and Simplified Chinese; rendered by ``messages.py``)."""

from __future__ import annotations

DECISION_MESSAGES: dict[str, dict[str, str]] = {
    # A. Sizing
    "A.estimate": {
        "en": "Estimated GPU memory for one replica: {mem_gb} GB ({params_b}B parameters, "
        "{workload}, {precision}); fits on {fit_count} of {offer_count} offers.",
        "zh_Hans": "单副本显存估算:{mem_gb} GB({params_b}B 参数,{workload},{precision});"
        "{offer_count} 个报价中有 {fit_count} 个装得下。",
    },
    "A.measured": {
        "en": "Measured peak GPU memory {mem_gb} GB overrides the estimate; fits on "
        "{fit_count} of {offer_count} offers.",
        "zh_Hans": "实测峰值显存 {mem_gb} GB 取代估算;{offer_count} 个报价中有 {fit_count} 个"
        "装得下。",
    },
    "A.none": {
        "en": "No memory figure (no parameter count or measured peak): memory limits no offer.",
        "zh_Hans": "没有显存数据(无参数量也无实测峰值):显存不限制任何报价。",
    },
    "A2": {
        "en": "{planned} planned GPUs cannot hold one replica: it needs {gpus} on {offer}. "
        "Plan at least {gpus} GPUs ({fix_gpus} in whole machines).",
        "zh_Hans": "计划的 {planned} 张卡装不下一个副本:在 {offer} 上需要 {gpus} 张。"
        "请至少计划 {gpus} 张卡(按整机为 {fix_gpus} 张)。",
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
    # SPEC 7.11: the team hosts the layer itself; what that costs in engineer time.
    "R1e.self_hosted": {
        "en": "The team runs the distributed layer itself: self-hosting costs {ops_cost} a run "
        "in engineer time ({hours} h a month × {engineer_hour_cost} an hour ÷ {runs_a_month} "
        "runs a month), counted in the totals of the distributed candidates.",
        "zh_Hans": "团队自己维护分布式这一层:自建每次运行要花 {ops_cost} 的工程师时间(每月 "
        "{hours} 小时 × 每小时 {engineer_hour_cost} ÷ 每月 {runs_a_month} 次),已计入分布式"
        "候选的总账。",
    },
    "R1e.self_hosted.managed_dearer": {
        "en": "The team runs the distributed layer itself: self-hosting costs {ops_cost} a run "
        "in engineer time ({hours} h a month × {engineer_hour_cost} an hour ÷ {runs_a_month} "
        "runs a month). Even so, self-hosted on {offer} totals {total} a run, {difference} "
        "less than the cheapest managed candidate, {managed_offer} ({managed_total}).",
        "zh_Hans": "团队自己维护分布式这一层:自建每次运行要花 {ops_cost} 的工程师时间(每月 "
        "{hours} 小时 × 每小时 {engineer_hour_cost} ÷ 每月 {runs_a_month} 次)。算上它,在 "
        "{offer} 上自建每次总计 {total},仍比最便宜的托管候选 {managed_offer}({managed_total}"
        ")少 {difference}。",
    },
    "R1e.self_hosted.managed_cheaper": {
        "en": "The team runs the distributed layer itself: self-hosting costs {ops_cost} a run "
        "in engineer time ({hours} h a month × {engineer_hour_cost} an hour ÷ {runs_a_month} "
        "runs a month). Self-hosted on {offer} totals {total} a run; the cheapest managed "
        "candidate, {managed_offer}, totals {managed_total}: {difference} less a run.",
        "zh_Hans": "团队自己维护分布式这一层:自建每次运行要花 {ops_cost} 的工程师时间(每月 "
        "{hours} 小时 × 每小时 {engineer_hour_cost} ÷ 每月 {runs_a_month} 次)。在 {offer} "
        "上自建每次总计 {total};最便宜的托管候选 {managed_offer} 总计 {managed_total},每次"
        "少 {difference}。",
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
}
