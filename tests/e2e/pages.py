"""The main pages of the product on the demo data (apps/teams/demo.py), for the page-wide browser
checks: accessibility (test_accessibility.py) and the phone layout (test_phone.py).

Each page is (label, path, what to wait for). CHARTS means the page draws Plotly charts: the checks
scroll to them so that the drawn charts are checked too, not only their placeholders.
"""

from __future__ import annotations

from pathlib import Path

from django.urls import reverse

CHARTS = "charts"
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1.min.js"
LANGUAGES = ("en", "zh-hans")
DEMO_PASSWORD = "demo-pass-123"  # apps/accounts/demo.py


def main_pages() -> list[tuple[str, str, str | None]]:
    """Every main page a signed-in owner of Team Aurora reaches, after `load_demo`."""
    from apps.accounts.models import Team
    from apps.benchmarks.models import BenchmarkRecord
    from apps.catalog.models import Offer
    from apps.reviews.models import Review
    from apps.reviews.snapshots.models import EvaluationSnapshot

    team = Team.objects.get(name="Team Aurora")
    draft = Review.objects.get(team=team, title="Nightly 7B evaluation: H100 or A100 pool")
    submitted = Review.objects.get(team=team, title="Nightly 7B evaluation on H100: sign-off")
    signed = Review.objects.get(team=team, title="Q3 nightly evaluation capacity (signed)")
    snapshots = list(EvaluationSnapshot.objects.filter(review=signed).order_by("pk")[:2])
    if len(snapshots) < 2:  # two snapshots of any of the team's reviews to compare
        snapshots = list(EvaluationSnapshot.objects.filter(review__team=team).order_by("pk")[:2])
    record = BenchmarkRecord.objects.filter(team=team).order_by("pk").first()
    offer = Offer.objects.filter(team=team).order_by("pk").first()
    task = draft.task
    compare = reverse("scoring:compare") + f"?a={snapshots[0].pk}&b={snapshots[1].pk}"
    return [
        ("dashboard", reverse("home"), None),
        ("profiles", reverse("profiles:list"), None),
        ("profile", reverse("profiles:detail", args=[task.pk]), None),
        ("profile form", reverse("profiles:edit", args=[task.pk]), "#profile-panel"),
        ("new profile", reverse("profiles:create"), None),
        ("sizing", reverse("profiles:sizing"), None),
        ("reviews", reverse("reviews:list"), None),
        ("review (draft)", reverse("reviews:detail", args=[draft.pk]), CHARTS),
        ("review (submitted)", reverse("reviews:detail", args=[submitted.pk]), CHARTS),
        ("review (approved)", reverse("reviews:detail", args=[signed.pk]), CHARTS),
        ("new review", reverse("reviews:create"), None),
        ("candidates", reverse("reviews:candidates", args=[draft.pk]), None),
        ("checklist", reverse("checklists:review", args=[draft.pk]), None),
        ("approvals", reverse("reviews:approvals"), None),
        ("decision record", reverse("scoring:review_record", args=[signed.pk]), CHARTS),
        ("benchmarks", reverse("benchmarks:list"), None),
        ("benchmark", reverse("benchmarks:detail", args=[record.pk]), None),
        ("new benchmark", reverse("benchmarks:create"), None),
        ("benchmark import", reverse("benchmarks:import"), None),
        ("task comparison", reverse("benchmarks:task", args=[task.pk]), CHARTS),
        ("history", reverse("scoring:history"), None),
        ("snapshot", reverse("scoring:snapshot_detail", args=[snapshots[-1].pk]), CHARTS),
        ("compare", compare, None),
        ("quarterly", reverse("scoring:quarterly"), CHARTS),
        ("catalog", reverse("catalog:index"), None),
        ("sites", reverse("catalog:site_list"), None),
        ("links", reverse("catalog:link_list"), None),
        ("offers", reverse("catalog:offer_list"), None),
        ("offer", reverse("catalog:offer_detail", args=[offer.pk]), None),
        ("settings", reverse("teams:settings"), None),
        ("calibration", reverse("teams:calibration"), None),
        ("method", reverse("method:index"), None),
        ("method entry", reverse("method:entry", args=["G1"]), None),
        ("notifications", reverse("notifications:inbox"), None),
        ("notification preferences", reverse("notifications:preferences"), None),
        ("not found", "/no-such-page/", None),
    ]


def use_language(context, base: str, language: str) -> None:
    """The language Django picks for every request of this browser context (its cookie)."""
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])


def sign_in(page, base: str, username: str = "alice") -> None:
    page.goto(base + reverse("accounts:login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click(".auth-card button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login" not in url)


def open_page(page, base: str, path: str, ready: str | None) -> int:
    """Open a page and wait until it is whole (charts scrolled to and drawn). Returns the status."""
    response = page.goto(base + path)
    if ready == CHARTS:
        charts = page.locator("[data-plotly]")
        count = charts.count()
        for i in range(count):
            charts.nth(i).scroll_into_view_if_needed()
        page.wait_for_function(
            "n => document.querySelectorAll('.chart--drawn .main-svg').length >= n", arg=count
        )
        page.evaluate("window.scrollTo(0, 0)")
    elif ready:
        page.wait_for_selector(ready, state="attached")
    page.wait_for_load_state("load")
    return response.status if response is not None else 0
