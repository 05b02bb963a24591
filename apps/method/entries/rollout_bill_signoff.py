"""Method guide entries: rollout, bill, signoff (see apps/method/entries/__init__.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .model import Entry, Passage

ENTRIES: tuple[Entry, ...] = (
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
            "Total = compute + scheduling fee + transfer + preprocessing + preemption + "
            "migration (effort hours × %(engineer_hour_cost)s per engineer hour ÷ runs) + rerun "
            "cost (failures per GPU-hour × billed GPUs × compute hours × hours lost a failure × "
            "hourly burn). The rate is the offer's own records' once they hold "
            "%(failure_evidence_gpu_hours)s GPU-hours, else the fleet's "
            "%(failure_rate_per_gpu_hour)s. The chosen option is decided on this same total; "
            "T names the feasible candidate with the lowest total. A contract package: a "
            "one-off job pays the whole package, price × machines, and its unit price "
            "is what it really pays per GPU-hour; a recurring job pays its share pro-rated by "
            "the expected utilization; a package already paid (contract paid) costs nothing for "
            "the GPU-hours that fit it, only what they displace (T.paid), and hours beyond it "
            "are billed pro-rated."
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
            Passage(
                "a_shapes",
                "跑一次就扔的临时任务:优先按量租算力平台",
                "A temporary job run once and thrown away: rent a compute platform on demand "
                "first.",
            ),
            Passage(
                "a_checklist",
                "计费口径算力按卡时、按整机还是按合同包段",
                "Billing basis: is compute billed per GPU-hour, per machine, or per contract "
                "package?",
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
