"""The shapes of the method guide: seed articles and their sections, passages, entries,
glossary terms, and the groups of the index."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


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
