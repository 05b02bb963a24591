import os
from datetime import UTC, datetime
import pytest
from django.urls import reverse
from apps.scoring import services
from tests.factories import PASSWORD
from tests.scoring.helpers import make_world, approve
from tests.e2e.test_comparison import browser_page  # noqa

pytestmark = pytest.mark.django_db(transaction=True)

def test_shots(live_server, browser_page, team, owner, reviewer):
    page = browser_page
    w = make_world(team, owner)
    from apps.catalog.models import NetworkLink
    s1 = services.snapshot_compute(review_id=w.review.pk)
    NetworkLink.objects.filter(from_site=w.data, to_site=w.far).update(price_per_gb=0.5)
    s2 = services.snapshot_compute(review_id=w.review.pk)
    w2 = make_world(team, owner, tag="b")
    s3 = services.snapshot_compute(review_id=w2.review.pk)
    approve(w2.review, reviewer, s3, datetime(2026, 2, 1, tzinfo=UTC))
    services.quarterly_refresh(team=team)
    page.goto(f"{live_server.url}{reverse('accounts:login')}")
    page.fill("input[name=username]", owner.username)
    page.fill("input[name=password]", PASSWORD)
    page.click(".auth-card button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login" not in url)
    for name, url in [("review", reverse('reviews:detail', args=[w.review.pk])),
                      ("snapshot", reverse('scoring:snapshot_detail', args=[s2.pk])),
                      ("history", reverse('scoring:history')),
                      ("compare", reverse('scoring:compare') + f"?a={s1.pk}&b={s2.pk}"),
                      ("quarterly", reverse('scoring:quarterly'))]:
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"{live_server.url}{url}")
            page.wait_for_timeout(1500)
            page.screenshot(path=f"/tmp/scoring-shot-{name}-{width}.png", full_page=True)
            if width == 390:
                wide = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
                  .filter(e => e.getBoundingClientRect().right > 392 && !e.closest('.table-wrap'))
                  .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")
                print(name, wide)
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(f"{live_server.url}{reverse('scoring:snapshot_detail', args=[s2.pk])}")
    page.wait_for_timeout(1500)
    for i, card in enumerate(page.locator(".chart-card").all()):
        card.screenshot(path=f"/tmp/scoring-card-{i}.png")
    page.locator(".comparison").first.screenshot(path="/tmp/scoring-table-390.png")
    # Chinese
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}{reverse('reviews:detail', args=[w.review.pk])}")
    page.click("button[lang=zh-hans]")
    page.wait_for_timeout(1500)
    page.screenshot(path="/tmp/scoring-shot-review-zh.png", full_page=True)
