"""On a phone (390 × 844 CSS pixels, a touch screen), in English and in Chinese: no main page
scrolls sideways, the sticky header is one row of at most 64 px, and its menu button opens and
closes the navigation as a disclosure.

Wide tables scroll inside their own box (.table-wrap), which the keyboard can then reach.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.pages import LANGUAGES, main_pages, open_page, sign_in, use_language

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
    def test_no_main_page_scrolls_sideways(self, live_server, demo_world, browser):
        pages = main_pages()
        base = live_server.url
        wide: list[str] = []
        tall: list[str] = []
        checked = 0
        for language in LANGUAGES:
            context = phone_context(browser, base, language)
            try:
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
            finally:
                context.close()
        assert checked == 2 * (len(pages) + 1)
        assert not wide, "pages wider than the phone:\n" + "\n".join(wide)
        assert not tall, "headers taller than one row:\n" + "\n".join(tall)

    @pytest.mark.parametrize("language", LANGUAGES)
    def test_menu_button_opens_and_closes_the_navigation(
        self, live_server, demo_world, browser, language
    ):
        base = live_server.url
        context = phone_context(browser, base, language)
        try:
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
        finally:
            context.close()

    def test_desktop_keeps_the_navigation_in_the_header(self, live_server, demo_world, browser):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            page = context.new_page()
            sign_in(page, live_server.url)
            assert page.locator("header nav.mainnav").is_visible()
            assert not page.locator("header [data-menu-toggle]").is_visible()
        finally:
            context.close()
