"""The browser for the end-to-end tests: Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os

import pytest

from tests.factories import PASSWORD
from tests.services import need_browser

# Headless, and quiet on the network: this machine reaches no host but its own.
LAUNCH_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]


@pytest.fixture(scope="package")
def browser():
    """One Chromium for the end-to-end tests of a run (of an xdist worker: tests/conftest.py sends
    them to one or two), each test in its own fresh context. Package-scoped, not session-scoped:
    Playwright's sync API keeps an event loop running in this thread while it is started, which
    the tests outside tests/e2e (async_to_sync in tests/api) must not see."""
    chromium = need_browser()
    # Playwright's sync API runs an event loop in this thread; the ORM calls in the tests are
    # plain synchronous calls between browser steps.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium_browser = p.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
        try:
            yield chromium_browser
        finally:
            chromium_browser.close()


@pytest.fixture
def browser_page(browser):
    """A fresh page (English, downloads allowed) in its own context, closed afterwards."""
    context = browser.new_context(accept_downloads=True, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        yield page
    finally:
        context.close()


def log_in(page, base: str, username: str, password: str = PASSWORD, timeout=None) -> None:
    """Sign in through the login form and wait until the app lets the browser in."""
    from django.urls import reverse

    page.goto(base + reverse("accounts:login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click(".auth-card button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login" not in url, timeout=timeout)


def reveal_charts(page, scope: str = "") -> int:
    """Scroll to every chart in `scope` as a reader would, and wait until each is drawn.

    static/js/app.js draws a chart (and fetches plotly.js at all) only when it nears the screen;
    this is the reader scrolling down the page. Returns the number of charts drawn.
    """
    charts = page.locator(f"{scope} [data-plotly]".strip())
    count = charts.count()
    for i in range(count):
        charts.nth(i).scroll_into_view_if_needed()
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length >= n",
        arg=[f"{scope} .chart--drawn .main-svg".strip(), count],
    )
    return count
