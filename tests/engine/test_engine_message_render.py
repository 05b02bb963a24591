"""Rendering of finding messages in both languages (SPEC 3, preamble): how each kind of value is
shown (numbers rounded for reading, domain codes as words of the language, lists, blanks,
booleans) and the full text of messages of each shape, English and Chinese.
"""

from __future__ import annotations

import math

import pytest

from engine import messages
from engine.messages import (
    MESSAGES,
    _fields,
    _filler,
    _fillers,
    _show,
    render,
    render_shown,
    show_number,
    term,
)

from .engine_fixtures import _eager_celery_and_clean_cache  # noqa: F401 - no Django


class TestShowNumber:
    @pytest.mark.parametrize(
        ("value", "shown"),
        [
            (8, "8"),  # an int as it is
            (-3, "-3"),
            (12.0, "12"),  # a whole float without ".0"
            (-2.0, "-2"),
            (0.0, "0"),
            (-0.0, "0"),
            (2.5, "2.5"),
            (1.23456, "1.235"),  # three decimals at most
            (1.2, "1.2"),  # trailing zeros dropped
            (0.123, "0.123"),  # under 1 but not small: still three decimals
            (0.01, "0.01"),  # the small-value bound: shown with decimals
            (0.0099, "0.0099"),  # under 0.01: two significant digits
            (0.001234, "0.0012"),
            (-0.005, "-0.005"),
            (1e15, "1,000,000,000,000,000"),  # thousands grouped by "," in both languages
            (123456.0004, "123,456"),
            (8686.2, "8,686.2"),  # issue 39: "total 8,686.2" beside "8,686.20 USD"
            (1234, "1,234"),
            (-1234.5678, "-1,234.568"),
            (999.9996, "1,000"),  # rounds up across the group boundary
            # Below a thousand the plain formats are taken (nothing to group); at the bounds
            # and past them the grouped ones.
            (999.0, "999"),
            (-999.0, "-999"),
            (1000.0, "1,000"),
            (-1000.0, "-1,000"),
            (1000.5, "1,000.5"),
            (-1000.5, "-1,000.5"),
            (999.9994, "999.999"),
            (999.9995, "1,000"),  # the float 999.9995 lies just above the half: it rounds up
            (-999.9995, "-1,000"),
            (-999.5, "-999.5"),
        ],
    )
    def test_numbers(self, value, shown):
        assert show_number(value) == shown

    def test_nan_is_never_printed(self):
        assert show_number(math.nan) == "?"


class TestShowValue:
    def test_text_and_codes(self):
        assert _show("same_city", "en", False) == "same_city"  # not a term: as given
        assert _show("same_city", "en", True) == "same-city"
        assert _show("same_city", "zh_Hans", True) == "同城"
        assert _show("transfer", "en", True) == "transfer"  # no English word: the code
        assert _show("transfer", "zh_Hans", True) == "传输"
        assert _show("unknown_code", "zh_Hans", True) == "unknown_code"

    def test_numbers_blanks_and_booleans(self):
        assert _show(2.5, "en", False) == "2.5"
        assert _show(1.23456, "en", False) == "1.235"  # rounded as show_number rounds
        assert _show(3, "zh_Hans", True) == "3"
        assert _show(None, "en", False) == "—"
        assert _show(True, "en", False) == "true"
        assert _show(False, "zh_Hans", False) == "false"
        assert _show({"a": 1}, "en", False) == "{'a': 1}"

    def test_lists(self):
        assert _show([], "en", False) == "none"
        assert _show((), "zh_Hans", True) == "无"
        assert _show(["a", "b"], "en", False) == "a, b"
        assert _show(["q1", "q6"], "en", True) == "Q1 task scale, Q6 exit path"
        assert _show(("q1", "q6"), "zh_Hans", True) == "Q1 任务规模、Q6 退出路径"
        assert _show([1.5, 2], "zh_Hans", False) == "1.5、2"

    def test_term(self):
        assert term("move_data", "en") == "move the data"
        assert term("move_data", "zh_Hans") == "数据迁移"
        assert term("nothing", "en") == "nothing"


class TestTemplates:
    def test_fields_in_first_use_order_once_each(self):
        template = {"en": "{b} and {a} then {b}", "zh_Hans": "{c}{a}"}
        assert _fields(template) == ("b", "a", "c")
        assert _fields({"en": "none", "zh_Hans": "无"}) == ()

    def test_a_filler_joins_literals_and_shown_values(self):
        assert _filler("x {a} y {b}")({"a": "1", "b": "2"}) == "x 1 y 2"
        assert _filler("{a}!")({"a": "A"}) == "A!"
        assert _filler("{a}{a}")({"a": "A"}) == "AA"
        assert _filler("plain")({"a": "A"}) == "plain"
        assert _filler("{{a}} {a}")({"a": "1"}) == "{a} 1"  # escaped braces stay literal
        assert _filler("")({}) == ""
        with pytest.raises(KeyError):
            _filler("x {a}")({"b": "1"})

    def test_every_template_fills_as_str_format_would(self, monkeypatch):
        # From an empty memo: each message's fillers are written here, on first use.
        monkeypatch.setattr(messages, "_FILLERS", {})
        for key, template in MESSAGES.items():
            shown = {field: f"<{i}>" for i, field in enumerate(_fields(template))}
            en, zh = _fillers(key)
            assert en(shown) == template["en"].format_map(shown), key
            assert zh(shown) == template["zh_Hans"].format_map(shown), key
        assert set(messages._FILLERS) == set(MESSAGES)

    def test_a_message_is_written_once(self, monkeypatch):
        monkeypatch.setattr(messages, "_FILLERS", {})
        first = _fillers("F.price.below")
        assert _fillers("F.price.below") is first  # kept, not written again
        assert list(messages._FILLERS) == ["F.price.below"]  # only what was rendered
        shown = {"subject": "s", "value": "1", "current": "2", "kind": "k", "site": "a",
                 "offer": "o"}  # fmt: skip
        assert render_shown("F.price.below", shown, shown) == (first[0](shown), first[1](shown))


class TestRender:
    def test_a_message_without_fields(self):
        assert render("R5", {"ignored": 1}) == (
            "The task fits one machine: a compute platform is enough; a distributed layer would "
            "only add communication and debugging cost.",
            "单机装得下:只需要算力平台,上分布式只会多出通信和调试成本。",
        )

    def test_numbers_terms_and_lists(self):
        en, zh = render("K2", {"gpus": 24, "tier": "same_city", "pools": ["A + B", "C + D"]})
        assert en == (
            "No single candidate pool holds the 24 GPUs; pools within same-city that together "
            "would: A + B, C + D. The engine does not cost spread plans: price one as its own "
            "offer."
        )
        assert zh == (
            "没有哪个候选池子单独装得下 24 张卡;在同城范围内合起来装得下的池子组合:A + B、C + D。"
            "引擎不计算拆分方案的成本:请把它作为单独的报价录入。"
        )

    def test_a_tuple_is_a_list_in_each_language(self):
        en, zh = render("K2", {"gpus": 16, "tier": "cross_hub", "pools": ("A + B", "C + D")})
        assert "within cross-hub that together would: A + B, C + D." in en
        assert "在跨枢纽范围内合起来装得下的池子组合:A + B、C + D。" in zh

    def test_names_terms_and_counts(self):
        data = {"offer": "H100 (#4)", "unanswered": 2, "questions": ["q2", "q5"]}
        assert render("C.block", data) == (
            "Candidate H100 (#4): 2 of 6 checklist questions unanswered (Q2 split and network, "
            "Q5 migration cost): not ready to sign.",
            "候选 H100 (#4):六个问题有 2 个答不上来(Q2 切分方式、Q5 迁移成本),还没到签字的时候。",
        )

    def test_a_segment_and_rounded_hours(self):
        data = {"segment": "transfer", "hours": 2.34567, "budget": 2}
        assert render("M3", data) == (
            "The transfer segment of the chosen option takes 2.346 h, over its budget of 2 h: "
            "adjust that segment.",
            "所选方案的传输段需 2.346 小时,超过预算 2 小时:调整这一段的方案。",
        )

    def test_a_blank_and_a_boolean_are_shown_alike_in_both_languages(self):
        en, zh = render("M3", {"segment": "queue", "hours": None, "budget": True})
        assert en == (
            "The queue segment of the chosen option takes — h, over its budget of true h: "
            "adjust that segment."
        )
        assert zh == "所选方案的排队段需 — 小时,超过预算 true 小时:调整这一段的方案。"

    def test_an_empty_list_of_missing_items(self):
        assert render("G1", {"missing": []}) == (
            "Portability gate not passed (missing: none): only options in the home datacenter "
            "are feasible.",
            "可迁移性未通过(缺:无):只能留在本地或同域(本机房)。",
        )

    def test_a_workload_as_a_word_and_a_precision_as_given(self):
        data = {
            "mem_gb": 150.5,
            "params_b": 7,
            "workload": "fine_tuning",
            "precision": "bf16",
            "fit_count": 1,
            "offer_count": 3,
        }
        assert render("A.estimate", data) == (
            "Estimated GPU memory for one replica: 150.5 GB (7B parameters, full fine-tuning, "
            "bf16); fits on 1 of 3 offers.",
            "单副本显存估算:150.5 GB(7B 参数,全参数微调,bf16);3 个报价中有 1 个装得下。",
        )

    def test_a_missing_field_is_an_error(self):
        with pytest.raises(KeyError):
            render("H1", {})

    def test_render_shown_fills_text_already_shown(self):
        assert render_shown("H1", {"tier": "X"}, {"tier": "Y"}) == (
            "The chosen option runs on tier X, which the team has not validated yet: pilot first.",
            "所选方案落在团队尚未验证的层级(Y):先试点再扩面。",
        )


def test_every_message_renders_in_both_languages_with_every_field():
    # Each template's fields filled with a marker: both texts come out whole, no field left.
    for key, template in MESSAGES.items():
        assert set(template) == {"en", "zh_Hans"}, key
        data = {name: f"<{name}>" for name in _fields(template)}
        en, zh = render(key, data)
        for name in _fields(template):
            assert f"<{name}>" in en + zh, (key, name)
        assert "{" not in en and "{" not in zh, key
