"""Every main page under the Content-Security-Policy, in Chromium: no violation, no console error.

The policy (config/settings.py, django-csp) is active in every environment, so the live server of
the tests sends it. A listener for `securitypolicyviolation` is installed by the browser before any
page script runs (an init script is not subject to the page's CSP); Chromium also reports each
refused script, style or connection on the console. Pages with htmx behaviour (the profile form's
live panel) and Plotly charts (task comparison, review evaluation, snapshot, quarterly) are
exercised, not just loaded.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.accounts.models import Team
from apps.benchmarks.models import BenchmarkRecord
from apps.profiles.models import TaskProfile
from apps.reviews.models import Review
from apps.reviews.snapshots.models import EvaluationSnapshot
from tests.e2e.conftest import log_in, reveal_charts

pytestmark = pytest.mark.django_db(transaction=True)

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' @' + e.lineNumber);
});
"""
# What an XSS would try: an inline script and an image from elsewhere (both must be refused).
INJECT = """
const script = document.createElement('script');
script.textContent = 'window.__injected = true;';
document.body.appendChild(script);
const img = document.createElement('img');
img.src = 'https://tracker.example.com/pixel.png';
document.body.appendChild(img);
"""
CHARTS = ".chart .main-svg"
TIMEOUT = 20_000  # ms


def demo_pages() -> list[tuple[str, str, str | None]]:
    """(label, url, selector to wait for) of each main page, on the demo data of Team Aurora."""
    team = Team.objects.get(name="Team Aurora")
    benchmarked = (
        BenchmarkRecord.objects.filter(team=team, kind__in=["single", "multi"])
        .values_list("task_id", flat=True)
        .order_by("task_id")
    )
    task = TaskProfile.objects.get(pk=max(set(benchmarked), key=list(benchmarked).count))
    submitted = Review.objects.filter(team=team, state="submitted").first()
    draft = Review.objects.filter(team=team, state="draft").first()
    snapshot = EvaluationSnapshot.objects.filter(review=submitted).latest("pk")
    return [
        ("dashboard", reverse("home"), None),
        ("profiles", reverse("profiles:list"), None),
        ("profile", reverse("profiles:detail", args=[task.pk]), None),
        ("profile form", reverse("profiles:edit", args=[task.pk]), "#profile-panel"),
        ("sizing", reverse("profiles:sizing"), None),
        ("catalog", reverse("catalog:index"), None),
        ("offers", reverse("catalog:offer_list"), None),
        ("benchmarks", reverse("benchmarks:list"), None),
        ("task comparison", reverse("benchmarks:task", args=[task.pk]), CHARTS),
        ("tokens", reverse("benchmarks:tokens"), None),
        ("reviews", reverse("reviews:list"), None),
        ("review", reverse("reviews:detail", args=[submitted.pk]), CHARTS),
        ("checklist", reverse("checklists:review", args=[draft.pk]), None),
        ("approvals", reverse("reviews:approvals"), None),
        ("history", reverse("scoring:history"), None),
        ("snapshot", reverse("scoring:snapshot_detail", args=[snapshot.pk]), CHARTS),
        ("quarterly", reverse("scoring:quarterly"), None),
        ("team settings", reverse("teams:settings"), None),
        ("calibration", reverse("teams:calibration"), None),
        ("API reference", reverse("api:openapi-view"), "#swagger-ui .info"),
    ]


class ContentSecurityPolicyInBrowserTests:
    def test_main_pages_raise_no_violation(self, live_server, demo_world, browser):
        pages = demo_pages()
        problems: list[str] = []
        console: list[str] = []
        missing_header: list[str] = []
        current = {"label": "login"}

        def on_console(message) -> None:
            if message.type in ("error", "warning") or "Content Security Policy" in message.text:
                console.append(f"{current['label']}: [{message.type}] {message.text}")

        checked = {"count": 0}

        def on_response(response) -> None:
            kind = response.request.resource_type
            if kind in ("document", "xhr", "fetch") and response.url.startswith(live_server.url):
                checked["count"] += 1
                if "content-security-policy" not in response.headers:
                    missing_header.append(f"{kind} {response.url}")

        context = browser.new_context(locale="en-US", accept_downloads=True)
        context.add_init_script(LISTEN)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.on("console", on_console)
        page.on("response", on_response)
        try:
            log_in(page, live_server.url, "alice", password="demo-pass-123")
            for label, url, ready in pages:
                current["label"] = label
                response = page.goto(live_server.url + url)
                assert response is not None and response.status == 200, (label, url)
                if ready == CHARTS:
                    assert reveal_charts(page) >= 1, label
                elif ready:
                    page.wait_for_selector(ready, state="attached")
                if label == "task comparison":
                    # Plotly's "download as PNG" draws the SVG into an image (data: URL).
                    page.hover(".chart .main-svg")
                    with page.expect_download() as download:
                        page.locator(".chart").first.locator(
                            ".modebar-btn[data-title='Download plot as a PNG'],"
                            ".modebar-btn[data-title='Download plot as a png']"
                        ).first.click()
                    assert download.value.suggested_filename.endswith(".png")
                if label == "profile form":
                    # The live panel: an htmx request on input, swapped in under the policy.
                    with page.expect_response(lambda r: "/profiles/panel/" in r.url):
                        page.fill("input[name=compute_hours]", "37")
                        page.locator("input[name=compute_hours]").dispatch_event("change")
                page.wait_for_load_state("load")
                problems += [f"{label}: {v}" for v in page.evaluate("window.__csp")]
            # The control: what the policy forbids is refused and reported by the listener.
            current["label"] = "control"
            page.goto(live_server.url + reverse("home"))
            page.evaluate(INJECT)
            page.wait_for_function("window.__csp.length >= 2")
            control = page.evaluate("window.__csp")
            refused_script = page.evaluate("window.__injected === undefined")
        finally:
            context.close()

        assert not problems, "CSP violations:\n" + "\n".join(problems)
        assert refused_script, "an inline script ran"
        assert {v.split()[0] for v in control} >= {"script-src-elem", "img-src"}, control
        assert [c for c in console if c.startswith("control:")], "the console shows no refusal"
        console = [c for c in console if not c.startswith("control:")]
        assert not console, "console errors:\n" + "\n".join(console)
        assert checked["count"] > len(pages)
        assert not missing_header, "responses without the policy:\n" + "\n".join(missing_header)
