"""Method guide entries: eligibility (see apps/method/entries/__init__.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .model import Entry, Passage

ENTRIES: tuple[Entry, ...] = (
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
            "Per preemptible candidate, when the task cannot resume → warning. Preemptions "
            "come at λ = preemptions per day × machines ÷ 24 an hour over the T compute "
            "hours. A task that cannot resume restarts from zero each time, so it expects "
            "(e^(λT) − 1) ÷ λ hours (renewal theory) and is refused when λT > 2 "
            "(preempted_before_done); a resumable one loses λT × (half the checkpoint interval "
            "+ restart hours). The lost hours count in the total hours and, × billed GPUs × "
            "effective price, in the total cost."
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
)
