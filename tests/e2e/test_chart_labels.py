"""Readable chart axes (issue 39): on a phone and on a laptop, in English and in Chinese, no two
x-axis tick labels of a drawn chart overlap, and none is cut off by the chart's box (Plotly turns
them when they would meet, apps/web/charts.layout, and makes room for them with automargin)."""

from __future__ import annotations

import pytest

from tests.e2e.pages import CHARTS, LANGUAGES, main_pages, open_page, sign_in, use_language

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}

# The number of x tick labels of the drawn charts, and the overlapping or clipped ones, described.
CROWDED = """() => {
  const out = [];
  let count = 0;
  document.querySelectorAll('.chart--drawn').forEach((chart, c) => {
    const box = chart.getBoundingClientRect();
    const labels = [...chart.querySelectorAll('.xtick text')]
      .map(t => ({ text: t.textContent, r: t.getBoundingClientRect() }))
      .filter(l => l.text && l.r.width > 0);
    count += labels.length;
    for (const l of labels) {
      if (l.r.left < box.left - 1 || l.r.right > box.right + 1 || l.r.bottom > box.bottom + 1) {
        out.push(`chart ${c}: '${l.text}' outside the chart`);
      }
    }
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        const a = labels[i].r, b = labels[j].r;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) out.push(`chart ${c}: '${labels[i].text}' over '${labels[j].text}'`);
      }
    }
  });
  return [count, out.slice(0, 6)];
}"""


class ChartLabelTests:
    def test_x_axis_labels_neither_overlap_nor_leave_the_chart(
        self, live_server, demo_world, browser
    ):
        base = live_server.url
        charted = [(label, path) for label, path, ready in main_pages() if ready == CHARTS]
        crowded: list[str] = []
        checked = labels = 0
        for size, viewport in VIEWPORTS.items():
            for language in LANGUAGES:
                context = browser.new_context(viewport=viewport, locale="en-US")
                use_language(context, base, language)
                try:
                    page = context.new_page()
                    page.set_default_timeout(20_000)
                    sign_in(page, base)
                    for label, path in charted:
                        open_page(page, base, path, CHARTS)
                        count, found = page.evaluate(CROWDED)
                        labels += count
                        if found:
                            crowded.append(f"{label} [{size}, {language}]: {'; '.join(found)}")
                        checked += 1
                finally:
                    context.close()
        assert checked == 4 * len(charted) > 0 and labels > 0
        assert not crowded, "crowded x-axis labels:\n" + "\n".join(crowded)
