"""Tap targets on a phone (390 × 844 CSS pixels, issue 39): every link, button and form control of
the main pages, in English and in Chinese, is at least 24 × 24 px (WCAG 2.2, 2.5.8), so a thumb
hits the rule-id chip, the history's "pick" box or a parallelism box it means.

A link inside a sentence is exempt, as WCAG exempts it (its height is the line's); a control the
page hides (closed menus and details, visually hidden skip links) is not measured until shown.
"""

from __future__ import annotations

import pytest

from tests.e2e.pages import LANGUAGES, main_pages, open_page, sign_in
from tests.e2e.test_phone import phone_context

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

MIN_PX = 24

# The targets smaller than `min` on the page: "tag.class 'text' w×h", at most 8.
SMALL_TARGETS = """(min) => {
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  const name = el => el.tagName.toLowerCase()
    + (typeof el.className === 'string' && el.className.trim()
       ? '.' + el.className.trim().split(/\\s+/).join('.') : '')
    + (el.type && el.tagName !== 'A' ? '[' + el.type + ']' : '')
    + " '" + (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 24) + "'";
  const inSentence = el => {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const parent = el.parentElement;
    if (!parent) return false;
    // Text of the parent outside any link: a word there makes the link part of a sentence.
    let outside = '';
    for (const node of parent.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) outside += node.textContent;
      else if (node.nodeType === Node.ELEMENT_NODE && !node.matches('a, button')) outside += node.textContent;
    }
    return /\\p{L}{2,}/u.test(outside);
  };
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || box.right <= 0 || box.bottom <= 0) continue;
    if (inSentence(el)) continue;
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      out.push(name(el) + ' ' + Math.round(box.width) + '×' + Math.round(box.height));
    }
  }
  return [...new Set(out)].slice(0, 8);
}"""


class TapTargetTests:
    def test_every_target_of_the_main_pages_is_at_least_24_px(
        self, live_server, demo_world, browser
    ):
        pages = main_pages()
        base = live_server.url
        small: list[str] = []
        checked = 0
        for language in LANGUAGES:
            context = phone_context(browser, base, language)
            try:
                page = context.new_page()
                page.set_default_timeout(20_000)
                sign_in(page, base)
                for label, path, ready in pages:
                    open_page(page, base, path, ready)
                    found = page.evaluate(SMALL_TARGETS, MIN_PX)
                    if found:
                        small.append(f"{label} [{language}]: {'; '.join(found)}")
                    checked += 1
            finally:
                context.close()
        assert checked == 2 * len(pages)
        assert not small, "targets under 24 × 24 px:\n" + "\n".join(small)
