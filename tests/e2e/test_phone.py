"""On a phone (390 × 844 CSS pixels, a touch screen), in English and in Chinese: no main page
scrolls sideways, the sticky header is one row of at most 64 px, and its menu button opens and
closes the navigation as a disclosure.

Wide tables scroll inside their own box (.table-wrap), which the keyboard can then reach.
"""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.e2e.conftest import LAUNCH_ARGS
from tests.e2e.pages import LANGUAGES, main_pages, open_page, sign_in, use_language
from tests.services import need_browser

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
HEADER_MAX = 64  # px: one row (issue 16); the old header took 29 % of 844 px, about 245 px

# What overflows the phone's width on the right and is not inside a scrolling box: the outermost
# such elements, to say where a failure comes from (a phone widens its layout to fit them).
WIDEST = """(limit) => {
  const name = el => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className.trim()
    ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const clipped = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.querySelectorAll('main *, header *')) {
    const right = el.getBoundingClientRect().right;
    if (right <= limit + 1 || clipped(el)) continue;
    const parent = el.parentElement;
    if (parent && parent.getBoundingClientRect().right > limit + 1) continue;
    out.push(name(el) + ' in ' + (parent ? name(parent) : '?') + ' → ' + Math.round(right) + 'px');
  }
  return out.slice(0, 6);
}"""


def phone_context(browser, base: str, language: str):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-US"
    )
    use_language(context, base, language)
    return context


class PhoneLayoutTests:
    def test_no_main_page_scrolls_sideways(self, live_server):
        chromium = need_browser()
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        from playwright.sync_api import sync_playwright

        call_command("load_demo", verbosity=0)
        pages = main_pages()
        base = live_server.url
        wide: list[str] = []
        tall: list[str] = []
        checked = 0
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            try:
                for language in LANGUAGES:
                    context = phone_context(browser, base, language)
                    page = context.new_page()
                    page.set_default_timeout(20_000)
                    for label, path, ready in [("login", reverse("accounts:login"), None), *pages]:
                        if label == "dashboard":
                            sign_in(page, base)
                        open_page(page, base, path, ready)
                        width = page.evaluate("document.documentElement.scrollWidth")
                        if width > PHONE["width"]:
                            wide.append(
                                f"{label} [{language}]: {width}px wide; "
                                f"{', '.join(page.evaluate(WIDEST, PHONE['width']))}"
                            )
                        header = page.locator("header.topbar").bounding_box()
                        if header["height"] > HEADER_MAX:
                            tall.append(f"{label} [{language}]: header {header['height']}px")
                        checked += 1
                    context.close()
            finally:
                browser.close()
        assert checked == 2 * (len(pages) + 1)
        assert not wide, "pages wider than the phone:\n" + "\n".join(wide)
        assert not tall, "headers taller than one row:\n" + "\n".join(tall)

    @pytest.mark.parametrize("language", LANGUAGES)
    def test_menu_button_opens_and_closes_the_navigation(self, live_server, language):
        chromium = need_browser()
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        from playwright.sync_api import sync_playwright

        call_command("load_demo", verbosity=0)
        base = live_server.url
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            try:
                context = phone_context(browser, base, language)
                page = context.new_page()
                page.goto(base + reverse("accounts:login"))
                sign_in(page, base)
                page.goto(base + reverse("reviews:list"))
                button = page.locator("header [data-menu-toggle]")
                nav = page.locator("header nav.mainnav")
                assert button.is_visible() and not nav.is_visible()
                assert button.get_attribute("aria-expanded") == "false"
                menu_id = button.get_attribute("aria-controls")
                assert page.locator(f"#{menu_id}").count() == 1
                name = "Menu" if language == "en" else "菜单"
                assert name in button.inner_text()

                button.click()
                assert button.get_attribute("aria-expanded") == "true"
                assert nav.is_visible()
                # The open menu lies over the page inside the phone's width.
                box = page.locator(f"#{menu_id}").bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
                # The language switch is in the menu too.
                assert page.locator("header .lang-switch").is_visible()

                page.keyboard.press("Escape")
                assert button.get_attribute("aria-expanded") == "false"
                assert not nav.is_visible()
                assert page.evaluate("document.activeElement.hasAttribute('data-menu-toggle')")

                # Opened again, a link in it leads to its page.
                button.click()
                nav.get_by_role("link", name="Approvals" if language == "en" else "审批").click()
                page.wait_for_url("**" + reverse("reviews:approvals"))
                assert (
                    page.locator("header [data-menu-toggle]").get_attribute("aria-expanded")
                    == "false"
                )
                context.close()
            finally:
                browser.close()

    def test_desktop_keeps_the_navigation_in_the_header(self, live_server):
        chromium = need_browser()
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        from playwright.sync_api import sync_playwright

        call_command("load_demo", verbosity=0)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                sign_in(page, live_server.url)
                assert page.locator("header nav.mainnav").is_visible()
                assert not page.locator("header [data-menu-toggle]").is_visible()
            finally:
                browser.close()
