"""Message templates of every finding, in English and Simplified Chinese.

Templates use ``str.format`` fields named after the finding's ``data`` keys. Numbers are shown
rounded for reading; the exact figures stay in ``data``. Values of the keys in ``_TERM_KEYS`` are
domain codes and are shown as words of the message's language.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from string import Formatter
from typing import Any

from .messages_decision import DECISION_MESSAGES
from .messages_eligibility import ELIGIBILITY_MESSAGES
from .messages_followup import FOLLOWUP_MESSAGES

# In SPEC's rule order: A, R, J, C, B, X, G, P, M, H, T, F, S.
MESSAGES: dict[str, dict[str, str]] = {
    **DECISION_MESSAGES,
    **ELIGIBILITY_MESSAGES,
    **FOLLOWUP_MESSAGES,
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
    """Short human form: at most three decimals, trailing zeros dropped, thousands grouped by
    "," in both languages (8,686.2), as the pages' own figures are (config/formats, issue 39)."""
    if type(value) is int:
        return f"{value:,}"
    if value != value:  # NaN never reaches here, but never print it either
        return "?"
    # Below a thousand there is nothing to group: the plain formats (cheaper) give the same text.
    if value.is_integer() and -1e15 < value < 1e15:
        # The commonest figure (8 GPUs, 12 h): no rounding to undo ("%d" shows -0.0 as 0).
        return "%d" % value if -1000.0 < value < 1000.0 else f"{int(value):,}"  # noqa: UP031
    if value and abs(value) < 0.01:
        return f"{value:.2g}"
    # 999.9995 and beyond round to 1,000.
    text = f"{value:.3f}" if -999.9995 < value < 999.9995 else f"{value:,.3f}"
    text = text.rstrip("0").rstrip(".")
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


Filler = Callable[[dict[str, str]], str]


def _filler(text: str) -> Filler:
    """A template as one function of the shown values: an f-string written once from the
    template's parts (no template uses a format spec or a conversion), joined in one step where
    str.format would parse the template again on every message. A missing field raises
    KeyError."""
    shown = ast.Name("shown", ast.Load())
    parts: list[ast.expr] = []
    for literal, field, _, _ in Formatter().parse(text):
        if literal:
            parts.append(ast.Constant(literal))
        if field is not None:
            key = ast.Subscript(shown, ast.Constant(field), ast.Load())
            parts.append(ast.FormattedValue(key, -1))
    arguments = ast.arguments([], [ast.arg("shown")], None, [], [], None, [])
    tree = ast.Expression(ast.Lambda(arguments, ast.JoinedStr(parts)))
    filler: Filler = eval(  # noqa: S307 - built from our own templates
        compile(ast.fix_missing_locations(tree), "<message template>", "eval")
    )
    return filler


# Each message's two fillers, written the first time it is rendered (writing all of them costs
# as much as importing the rest of the engine; an evaluation renders a handful).
_FILLERS: dict[str, tuple[Filler, Filler]] = {}


def _fillers(key: str) -> tuple[Filler, Filler]:
    fillers = _FILLERS.get(key)
    if fillers is None:
        template = MESSAGES[key]
        fillers = _FILLERS[key] = (_filler(template["en"]), _filler(template["zh_Hans"]))
    return fillers


def render(key: str, data: dict[str, Any]) -> tuple[str, str]:
    """Both languages of one message; a template field missing from data raises KeyError."""
    fields = _FIELDS[key]
    if not fields:
        template = MESSAGES[key]
        return template["en"], template["zh_Hans"]
    shown_en: dict[str, str] = {}
    shown_zh: dict[str, str] = {}
    for k in fields:
        v = data[k]
        kind = type(v)
        if kind is float or kind is int:  # the commonest value (a number, the same in both)
            shown_en[k] = shown_zh[k] = show_number(v)
        elif kind is str and k not in _TERM_KEYS:
            shown_en[k] = shown_zh[k] = v  # an offer's name, a site code: shown as given
        elif k in _TERM_KEYS or kind is list or kind is tuple:
            term = k in _TERM_KEYS
            shown_en[k] = _show(v, "en", term)
            shown_zh[k] = _show(v, "zh_Hans", term)
        else:
            shown_en[k] = shown_zh[k] = _show(v, "en", False)
    en, zh = _fillers(key)
    return en(shown_en), zh(shown_zh)


def render_shown(key: str, shown_en: dict[str, str], shown_zh: dict[str, str]) -> tuple[str, str]:
    """Both languages of one message from values already shown as text (for callers that show
    the same option in several messages: sensitivity.tell)."""
    en, zh = _fillers(key)
    return en(shown_en), zh(shown_zh)


def term(code: str, lang: str) -> str:
    """A domain code as a word of the language ("wait_local" → "wait locally", "就近等待")."""
    return _TERMS[lang].get(code, code)
