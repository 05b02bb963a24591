"""The plan-against-actual section of the review page, with its own reads: the review view
includes it by one tag and hands it nothing but the review (the approved page's body is cached
once for good; this section is cached under the team's generation, so new actuals show at
once)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from apps.accounts.access import membership_for
from apps.accounts.models import Role
from apps.accounts.pagecache import cached_fragment
from apps.reviews.models import ReviewState

from .. import selectors

register = template.Library()
TEMPLATE = "actuals/_plan_vs_actual.html"


def _section(review, can_write: bool) -> dict:
    out = {"review": review, "currency": review.team.currency, "approved": False}
    if review.state == ReviewState.APPROVED:
        out.update(selectors.plan_vs_actual(review))
        out["approved"] = True
        out["can_write"] = can_write
        out["create_url"] = reverse("actuals:create") + f"?review={review.pk}"
    return out


@register.simple_tag(takes_context=True)
def plan_vs_actual(context, review) -> str:
    """Approved: the plan against each recorded run, cached until the team's data changes (a new
    actual bumps its generation) per review and whether the viewer may record one. Otherwise: a
    placeholder that fetches the over-plan notice (`actuals:notice`) after the page, which so
    pays no query for it."""
    request = context.get("request")
    membership = membership_for(request, review.team_id) if request is not None else None
    can_write = bool(membership and membership.role in (Role.MEMBER, Role.OWNER))

    def render() -> str:
        return render_to_string(TEMPLATE, _section(review, can_write))

    if review.state != ReviewState.APPROVED:
        return render()
    html = cached_fragment(
        "plan-vs-actual", team_ids=[review.team_id], parts=(review.pk, can_write), render=render
    )
    return mark_safe(html)  # noqa: S308 - our own rendered, escaped template
