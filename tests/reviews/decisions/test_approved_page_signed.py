"""An approved review's page keeps the body's parts drawn from the signed snapshot alone (the
decision at the top, the evaluation with its tables and charts) under the snapshot's exact key
(apps/reviews/views/approved_page.signed): a write of the team redraws the body around them, not
them, and the page is the same as one drawn whole; what changes after the sign-off (the timeline,
the plan against actual, the discussion) shows at the next view."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test.signals import template_rendered
from django.urls import reverse

from apps.reviews.models import Review

pytestmark = pytest.mark.django_db

SIGNED_TEMPLATES = {
    "scoring/_review_evaluation.html",
    "reviews/_decision_summary.html",
    "components/price.html",  # the candidates table
}


@pytest.fixture
def signed(db):
    call_command("load_demo", verbosity=0)
    return Review.objects.filter(team__slug="aurora", state="approved").order_by("id").first()


def _view(client, url, language: str) -> tuple[str, set[str]]:
    """The page's main part (CSRF tokens, masked afresh each view, blanked) and the templates
    drawn for it."""
    drawn: set[str] = set()

    def seen(sender, template, **kwargs):
        drawn.add(template.name)

    template_rendered.connect(seen, dispatch_uid="signed-parts")
    try:
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    finally:
        template_rendered.disconnect(dispatch_uid="signed-parts")
    main = html.split('id="main"')[1]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", main), drawn


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_team_write_redraws_the_body_around_the_signed_parts(client, signed, language):
    from apps.actuals.models import ActualCost
    from apps.reviews.comments.services import comment_post

    bob = get_user_model().objects.get(username="bob")
    client.force_login(bob)
    url = reverse("reviews:detail", args=[signed.pk])
    first, drawn = _view(client, url, language)
    assert SIGNED_TEMPLATES <= drawn  # a first view draws them
    comment_post(review=signed, actor=bob, text="Invoice checked against the plan.")
    ActualCost.objects.bulk_create(
        [ActualCost(team=signed.team, review=signed, period="2026-02-03", compute_cost=777)]
    )
    kept, drawn = _view(client, url, language)
    assert "reviews/_timeline.html" in drawn  # the body is drawn again...
    assert not SIGNED_TEMPLATES & drawn  # ...around the signed parts, kept
    assert "777.00" in kept and "Invoice checked against the plan." in kept

    def posted(html: str) -> int:
        return html.split('id="timeline"')[1].split("</ol>")[0].count('"comment_posted"')

    assert posted(kept) == posted(first) + 1  # the timeline, drawn again, has the comment
    cache.clear()
    whole, drawn = _view(client, url, language)
    assert SIGNED_TEMPLATES <= drawn
    assert kept == whole  # the same page as one drawn whole


def test_the_signed_parts_follow_the_teams_currency(client, signed):
    client.force_login(get_user_model().objects.get(username="bob"))
    url = reverse("reviews:detail", args=[signed.pk])
    before, _ = _view(client, url, "en")
    team = signed.team
    old, team.currency = team.currency, "EUR"
    team.save()
    after, drawn = _view(client, url, "en")
    assert SIGNED_TEMPLATES <= drawn  # another currency: another key
    summary = after.split('id="decision-summary"')[1].split("</section>")[0]
    assert f"</strong> {old}" in before and "</strong> EUR" in summary


def test_the_reserved_channels_are_those_signed(client):
    call_command("load_demo", verbosity=0)
    review = next(
        r
        for r in Review.objects.filter(team__slug="aurora", state="approved").order_by("id")
        if r.reserved_links.count() == 2
    )
    links = list(review.reserved_links.select_related("from_site", "to_site").order_by("id"))
    client.force_login(get_user_model().objects.get(username="bob"))
    url = reverse("reviews:detail", args=[review.pk])
    page, _ = _view(client, url, "en")
    # As the page drew them from the database before: the same line per link, in its order.
    drawn = [
        f'<li>{link.from_site.code} → {link.to_site.code} <span class="muted small">'
        f"{link.bandwidth_gbps} Gbit/s · {link.rtt_ms} ms</span></li>"
        for link in links
    ]
    assert "".join(drawn) in page
    site = links[0].to_site if links[0].to_site.code != "bj-a" else links[0].from_site
    old, site.code = site.code, "renamed-site"
    site.save()  # a write of the team: the body is drawn again, the grid as signed
    page, drawn_now = _view(client, url, "en")
    grid = page.split('id="candidates-h"')[1].split('id="answers"')[0]
    assert "reviews/_timeline.html" in drawn_now and "components/price.html" not in drawn_now
    assert f"→ {old} " in grid or f"{old} →" in grid
    assert "renamed-site" not in grid
