"""The plan-against-actual section of the review page, with its own reads: the review view
includes it by one tag and hands it nothing but the review (the page of an approved review takes
it from the cache with its other parts, apps/reviews/views/approved_page.py)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from apps.accounts.access import membership_for
from apps.accounts.models import Role
from apps.reviews.models import ReviewState

from .. import selectors

register = template.Library()
TEMPLATE = "actuals/_plan_vs_actual.html"


def plan_vs_actual_html(review, *, can_write: bool) -> SafeString:
    """Approved: the plan against each recorded run. Otherwise: a placeholder that fetches the
    over-plan notice (`actuals:notice`) after the page, which so pays no query for it."""
    out = {"review": review, "currency": review.team.currency, "approved": False}
    if review.state == ReviewState.APPROVED:
        out.update(selectors.plan_vs_actual(review))
        out["approved"] = True
        out["can_write"] = can_write
        out["create_url"] = reverse("actuals:create") + f"?review={review.pk}"
    return mark_safe(render_to_string(TEMPLATE, out))  # noqa: S308 - our own escaped template


@register.simple_tag(takes_context=True)
def plan_vs_actual(context, review) -> SafeString:
    request = context.get("request")
    membership = membership_for(request, review.team_id) if request is not None else None
    can_write = bool(membership and membership.role in (Role.MEMBER, Role.OWNER))
    return plan_vs_actual_html(review, can_write=can_write)
