"""Charts load plotly.js only when one nears the screen, in the reader's language (issue 16).

A page without charts never fetches plotly.js; a page with charts fetches the partial bundle
once, when the reader reaches a chart; in Chinese, Plotly's own words (the toolbar) are Chinese.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.conftest import log_in, reveal_charts
from tests.factories import (
    make_benchmark,
    make_membership,
    make_offer,
    make_profile,
    make_site,
    make_team,
    make_user,
)

pytestmark = pytest.mark.django_db(transaction=True)
BUNDLE = "plotly-basic-4.1.1.min.js"
LOCALE = "plotly-locale-zh-cn-3.7.0.js"


def world():
    team = make_team("Team Aurora", "aurora")
    alice = make_membership(make_user("alice"), team, "owner").user
    site = make_site(team, "bj-a")
    offer = make_offer(team, site)
    task = make_profile(team, site, name="Nightly eval")
    make_benchmark(team, task, offer, kind="single", nodes=1, e2e_hours=10, compute_hours=9)
    make_benchmark(team, task, offer, kind="multi", nodes=2, e2e_hours=6, compute_hours=5)
    return alice, task


def fetched(page) -> list[str]:
    return page.evaluate(
        "() => performance.getEntriesByType('resource').map(e => e.name)"
    )


class LazyChartTests:
    def test_a_page_without_charts_never_fetches_plotly(self, live_server, browser_page):
        page = browser_page
        alice, _task = world()
        log_in(page, live_server.url, alice.username)
        page.goto(live_server.url + reverse("profiles:list"))
        page.wait_for_load_state("networkidle")
        assert not [url for url in fetched(page) if BUNDLE in url]

    def test_the_chart_is_drawn_with_the_partial_bundle_once_reached(
        self, live_server, browser_page
    ):
        page = browser_page
        alice, task = world()
        log_in(page, live_server.url, alice.username)
        page.set_viewport_size({"width": 1280, "height": 300})  # the chart starts off screen
        page.goto(live_server.url + reverse("benchmarks:task", args=[task.pk]))
        page.wait_for_load_state("networkidle")
        assert page.locator(".chart--drawn").count() == 0
        assert not [url for url in fetched(page) if BUNDLE in url]

        assert reveal_charts(page) == 1
        assert len([url for url in fetched(page) if BUNDLE in url]) == 1
        assert not [url for url in fetched(page) if LOCALE in url]

    def test_in_chinese_plotly_speaks_chinese(self, live_server, browser_page):
        page = browser_page
        alice, task = world()
        page.context.add_cookies(
            [{"name": "django_language", "value": "zh-hans", "url": live_server.url}]
        )
        log_in(page, live_server.url, alice.username)
        page.goto(live_server.url + reverse("benchmarks:task", args=[task.pk]))
        reveal_charts(page)
        assert len([url for url in fetched(page) if LOCALE in url]) == 1
        page.hover(".chart .main-svg")
        titles = page.eval_on_selector_all(
            ".chart .modebar-btn", "els => els.map(e => e.getAttribute('data-title'))"
        )
        assert "自动缩放" in titles or "重置轴" in titles or "下载图表为PNG格式" in titles, titles


class ChartLabelsAreTextTests:
    def test_html_in_an_offer_name_shows_literally_and_makes_no_link(
        self, live_server, browser_page
    ):
        """Issue 17 hole 5: an offer name reached Plotly labels as HTML (a clickable link)."""
        page = browser_page
        team = make_team("Team Aurora", "aurora")
        alice = make_membership(make_user("alice"), team, "owner").user
        site = make_site(team, "bj-a")
        evil = '<a href="https://evil.example/">click me</a>'
        offer = make_offer(team, site, name=evil)
        task = make_profile(team, site, name="Nightly eval")
        make_benchmark(team, task, offer, kind="single", nodes=1, e2e_hours=10, compute_hours=9)
        make_benchmark(team, task, offer, kind="multi", nodes=2, e2e_hours=6, compute_hours=5)
        log_in(page, live_server.url, alice.username)
        page.goto(live_server.url + reverse("benchmarks:task", args=[task.pk]))
        reveal_charts(page)
        assert page.locator(".chart svg a").count() == 0
        legend = " ".join(page.locator(".chart .legendtext").all_text_contents())
        assert "<a href=" in legend and "click me</a>" in legend
