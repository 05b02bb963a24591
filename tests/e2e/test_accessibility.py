"""Accessibility of every main page, in English and in Chinese: axe-core finds no violation.

axe-core's own script (tests/e2e/vendor/, vendored from the npm registry with its licence; the app
never serves it) is injected into each page in Chromium and run with its default rules: WCAG 2.x
A and AA (contrast, names and labels, link distinction…) and the best practices (one main
landmark, labelled navigation, heading order, content inside landmarks). Pages with charts are
checked once the charts are drawn. The demo data fills every page the way a user sees it.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.pages import AXE, LANGUAGES, main_pages, open_page, sign_in, use_language

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
    def test_axe_finds_no_violation_on_any_main_page(self, live_server, demo_world, browser):
        """Every rule on every page, the profile page's heading order included (it had its own
        walk to the profile page before, test_profile_page_headings_in_order)."""
        pages = main_pages()
        base = live_server.url
        problems: list[str] = []
        checked = 0
        for language in LANGUAGES:
            # bypass_csp: axe's script is added as an inline <script>, which the app's policy
            # refuses (test_csp.py checks the policy, in a context of its own).
            context = browser.new_context(locale="en-US", bypass_csp=True)
            try:
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
                    found = [v for v in axe_violations(page) if (label, v["id"]) not in ELSEWHERE]
                    problems += readable(f"{label} [{language}]", found)
                    checked += 1
            finally:
                context.close()
        assert "profile" in {label for label, _, _ in pages}
        assert checked == 2 * len(pages)
        assert not problems, "axe-core violations:\n" + "\n".join(problems)

    def test_axe_sees_a_violation_when_there_is_one(self, live_server, browser):
        """The check can fail: a page given an unlabelled input and pale text is refused."""
        context = browser.new_context(bypass_csp=True)
        try:
            page = context.new_page()
            page.goto(live_server.url + reverse("accounts:login"))
            page.evaluate(
                "() => { const i = document.createElement('input'); i.type = 'text';"
                " document.querySelector('main').appendChild(i);"
                " document.querySelector('h1').style.color = '#ddd'; }"
            )
            found = {v["id"] for v in axe_violations(page)}
        finally:
            context.close()
        assert {"label", "color-contrast"} <= found, found
