"""SPEC 6.4 in a real browser: from the task profile, record a preprocessing run, fill the
profile's staged plan from it in one click (htmx, in place), then change rounds_per_refresh on
the form and watch the live panel's transfer per run follow. Worked by hand: 5,000 GB raw,
200 GB processed → 200 GB per run for 1 run, 50 GB per run for 4 (−99 %)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.benchmarks.models import BenchmarkRecord
from tests.e2e.conftest import log_in
from tests.factories import make_link, make_offer, make_profile, make_site

pytestmark = pytest.mark.django_db(transaction=True)


def test_record_fill_and_watch_the_panel(live_server, browser_page, team, member):
    from playwright.sync_api import expect

    home = make_site(team, "bj-a")
    far = make_site(team, "ulq", city="Ulanqab", hub="west")
    make_offer(team, home, name="8x H100")
    make_link(team, far, home, bandwidth_gbps=1, rtt_ms=30, price_per_gb=0.05)
    profile = make_profile(
        team, home, name="Tokenized logs", data_site=far, input_gb=5000, parallelism=["data"]
    )
    page = browser_page
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security" in m.text else 0)
    base = live_server.url
    log_in(page, base, "member")

    # 1. No run yet: the profile links to recording one, for this task at its data site.
    page.goto(base + reverse("profiles:detail", args=[profile.pk]))
    card = page.locator("#preprocess-fill")
    expect(card).to_contain_text("No preprocessing run of this task is recorded")
    card.get_by_role("link", name="Record a preprocessing run").click()
    expect(page.locator("#id_site")).to_have_value(str(far.pk))
    page.fill("#id_preprocess_hours", "6")
    page.fill("#id_input_gb", "5000")
    page.fill("#id_output_gb", "200")
    page.fill("#id_preprocess_cost_per_hour", "12.5")
    page.get_by_role("button", name="Save record").click()
    record = BenchmarkRecord.objects.get(kind="preprocess")
    page.wait_for_url(f"**/benchmarks/{record.pk}/")
    expect(page.locator("h1")).to_contain_text("Preprocessing run")
    assert (record.task_id, record.site_id, record.output_gb) == (profile.pk, far.pk, 200)

    # 2. One click fills the staged plan; the card answers in place.
    page.goto(base + reverse("profiles:detail", args=[profile.pk]))
    expect(card.locator("[data-field=processed_gb]")).to_have_text("—")
    page.evaluate("window.__notReloaded = true")
    card.get_by_role("button", name="Fill the profile from this run").click()
    expect(card).to_contain_text(f"Filled from preprocessing run #{record.pk}.")
    expect(card).to_contain_text("The profile carries these figures.")
    expect(card.locator("[data-field=processed_gb]")).to_have_text("200")
    expect(card.locator("[data-field=preprocess_hours]")).to_have_text("6")
    expect(card.locator("[data-field=preprocess_cost_per_hour]")).to_have_text("12.50")
    assert page.evaluate("window.__notReloaded === true")  # swapped in place, no reload
    expect(page.locator("#section-staged")).to_contain_text("200")  # out of band, same answer
    profile.refresh_from_db()
    assert (profile.processed_gb, profile.preprocess_hours) == (200, 6)
    assert profile.preprocess_cost_per_hour == 12.5

    # 3. The live panel shows what rounds_per_refresh does, as the form changes.
    page.goto(base + reverse("profiles:edit", args=[profile.pk]))
    staged = page.locator("#profile-panel #panel-staged")
    expect(staged).to_contain_text(
        "Processed version of 200 GB, shipped once for 1 run(s) = 200 GB per run, "
        "against 5,000 GB raw."
    )
    expect(staged).to_contain_text("96 % less per run")
    page.fill("#id_rounds_per_refresh", "4")
    page.locator("#id_rounds_per_refresh").dispatch_event("change")
    expect(staged).to_contain_text("shipped once for 4 run(s) = 50 GB per run")
    expect(staged).to_contain_text("99 % less per run")
    profile.refresh_from_db()
    assert profile.rounds_per_refresh == 1  # the panel never saves
    assert violations == []


@pytest.mark.browser
def test_axe_finds_no_violation_on_the_staged_plan_pages(live_server, demo_world, browser):
    """The demo's staged task in both languages: its profile page with the fill card, its form
    with the panel's staged section, the preprocessing form, record and task comparison."""
    from apps.profiles.models import TaskProfile
    from tests.e2e.pages import LANGUAGES, open_page, sign_in, use_language
    from tests.e2e.test_accessibility import axe_violations, readable

    task = TaskProfile.objects.get(name__startswith="14B domain model")
    record = BenchmarkRecord.objects.get(idempotency_key="demo-preprocess-tokens-gz-a")
    pages = [
        ("profile", reverse("profiles:detail", args=[task.pk]), "#preprocess-fill"),
        ("profile form", reverse("profiles:edit", args=[task.pk]), "#panel-staged"),
        ("new preprocessing run", reverse("benchmarks:create") + "?kind=preprocess", None),
        ("preprocessing run", reverse("benchmarks:detail", args=[record.pk]), None),
        ("task runs", reverse("benchmarks:task", args=[task.pk]), "#preprocess-runs"),
    ]
    base, problems = live_server.url, []
    for language in LANGUAGES:
        context = browser.new_context(locale="en-US", bypass_csp=True)
        try:
            use_language(context, base, language)
            page = context.new_page()
            page.set_default_timeout(20_000)
            sign_in(page, base)
            for label, path, ready in pages:
                assert open_page(page, base, path, ready) == 200, label
                problems += readable(f"{label} [{language}]", axe_violations(page))
        finally:
            context.close()
    assert not problems, "axe-core violations:\n" + "\n".join(problems)
