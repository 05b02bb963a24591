"""One number format per language (issue 39, config/formats): money, hours and sizes grouped by
thousands with a decimal point, on the English and the Chinese pages alike, whether a template
uses the project's `money` filter or Django's `floatformat` (with "g")."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from tests.factories import make_benchmark, make_profile, make_site

TEMPLATE = Template(
    '{% load scoring %}{{ v|money }} | {{ v|hours:1 }} | {{ v|floatformat:"-2g" }} | {{ n|money }}'
)


class FigureFormatTests:
    @pytest.mark.parametrize("language", ["en", "zh-hans"])
    def test_filters_agree_in_both_languages(self, language):
        with translation.override(language):
            text = TEMPLATE.render(Context({"v": 8686.2, "n": None}))
        assert text == "8,686.20 | 8,686.2 | 8,686.20 | —"

    def test_it_rounds_rather_than_cuts_and_has_no_negative_zero(self):
        with translation.override("zh-hans"):
            rendered = Template("{% load scoring %}{{ a|money }} {{ b|money }} {{ c|money }}")
            text = rendered.render(Context({"a": 378.449, "b": -0.004, "c": float("inf")}))
        assert text == "378.45 0.00 —"


@pytest.mark.django_db
class PagesTests:
    def test_a_benchmarks_sizes_read_the_same_in_both_languages(self, client, team, owner):
        site = make_site(team, "bj-a")
        make_benchmark(
            team, make_profile(team, site), kind="preprocess", site=site, nodes=1,
            e2e_hours=0, compute_hours=0, preprocess_hours=1234.5, input_gb=378449.0,
            output_gb=12000.5,
        )
        client.force_login(owner)
        for language in ("en", "zh-hans"):
            client.cookies["django_language"] = language
            html = client.get(reverse("benchmarks:list")).content.decode()
            assert all(n in html for n in ("1,234.5", "378,449", "12,000.5")), language
