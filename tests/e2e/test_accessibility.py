"""Accessibility of every main page, in English and in Chinese: axe-core finds no violation.

axe-core's own script (tests/e2e/vendor/, vendored from the npm registry with its licence; the app
never serves it) is injected into each page in Chromium and run with its default rules: WCAG 2.x
A and AA (contrast, names and labels, link distinction…) and the best practices (one main
landmark, labelled navigation, heading order, content inside landmarks). Pages with charts are
checked once the charts are drawn. The demo data fills every page the way a user sees it.
"""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.e2e.conftest import LAUNCH_ARGS
from tests.e2e.pages import AXE, LANGUAGES, main_pages, open_page, sign_in, use_language
from tests.services import need_browser

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary || ''})),
  }));
}"""


# Violations left to another change: (page label, axe rule) → where it comes from. None now:
# the profile page's cross-domain headings follow its h2 (templates/profiles/_cross_domain.html).
ELSEWHERE: dict[tuple[str, str], str] = {}


def axe_violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE)


def readable(where: str, violations: list[dict]) -> list[str]:
    """One line per violation and up to three of its elements, each with axe's reason."""
    lines = []
    for v in violations:
        lines.append(
            f"{where}: {v['id']} ({v['impact']}) {v['help']} — {len(v['nodes'])} element(s)"
        )
        for node in v["nodes"][:3]:
            reason = " ".join(node["summary"].split())[:300]
            lines.append(f"    {node['target']}: {reason}")
    return lines


class AccessibilityTests:
    def test_axe_finds_no_violation_on_any_main_page(self, live_server):
        chromium = need_browser()
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        from playwright.sync_api import sync_playwright

        call_command("load_demo", verbosity=0)
        pages = main_pages()
        base = live_server.url
        problems: list[str] = []
        checked = 0
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            try:
                for language in LANGUAGES:
                    # bypass_csp: axe's script is added as an inline <script>, which the app's
                    # policy refuses (test_csp.py checks the policy, with its own browser).
                    context = browser.new_context(locale="en-US", bypass_csp=True)
                    use_language(context, base, language)
                    page = context.new_page()
                    page.set_default_timeout(20_000)
                    page.goto(base + reverse("accounts:login"))
                    assert page.get_attribute("html", "lang") == language
                    problems += readable(f"login [{language}]", axe_violations(page))
                    sign_in(page, base)
                    for label, path, ready in pages:
                        status = open_page(page, base, path, ready)
                        assert status == (404 if label == "not found" else 200), (label, status)
                        found = [
                            v for v in axe_violations(page) if (label, v["id"]) not in ELSEWHERE
                        ]
                        problems += readable(f"{label} [{language}]", found)
                        checked += 1
                    context.close()
            finally:
                browser.close()
        assert checked == 2 * len(pages)
        assert not problems, "axe-core violations:\n" + "\n".join(problems)

    def test_axe_sees_a_violation_when_there_is_one(self, live_server):
        """The check can fail: a page given an unlabelled input and pale text is refused."""
        chromium = need_browser()
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            try:
                page = browser.new_page(bypass_csp=True)
                page.goto(live_server.url + reverse("accounts:login"))
                page.evaluate(
                    "() => { const i = document.createElement('input'); i.type = 'text';"
                    " document.querySelector('main').appendChild(i);"
                    " document.querySelector('h1').style.color = '#ddd'; }"
                )
                found = {v["id"] for v in axe_violations(page)}
            finally:
                browser.close()
        assert {"label", "color-contrast"} <= found, found

    def test_profile_page_headings_in_order(self, live_server):
        chromium = need_browser()
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        from playwright.sync_api import sync_playwright

        call_command("load_demo", verbosity=0)
        label, path, ready = next(p for p in main_pages() if p[0] == "profile")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            try:
                page = browser.new_page(bypass_csp=True)
                sign_in(page, live_server.url)
                open_page(page, live_server.url, path, ready)
                found = [v for v in axe_violations(page) if v["id"] == "heading-order"]
            finally:
                browser.close()
        assert not found, "\n".join(readable(label, found))
