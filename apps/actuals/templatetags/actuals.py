"""The plan-against-actual section of the review page, with its own reads: the review view
includes it by one tag and hands it nothing but the review (the approved page is cached, this
section is not, so new actuals show at once)."""

from __future__ import annotations

from django import template
from django.urls import reverse

from apps.accounts.access import membership_for
from apps.accounts.models import Role
from apps.reviews.models import ReviewState

from .. import selectors

register = template.Library()


@register.inclusion_tag("actuals/_plan_vs_actual.html", takes_context=True)
def plan_vs_actual(context, review) -> dict:
    """Approved: the plan against each recorded run. Otherwise: a placeholder that fetches the
    over-plan notice (`actuals:notice`) after the page, which so pays no query for it."""
    out = {"review": review, "currency": review.team.currency, "approved": False}
    if review.state == ReviewState.APPROVED:
        request = context.get("request")
        membership = membership_for(request, review.team_id) if request is not None else None
        out.update(selectors.plan_vs_actual(review))
        out["approved"] = True
        out["can_write"] = bool(membership and membership.role in (Role.MEMBER, Role.OWNER))
        out["create_url"] = reverse("actuals:create") + f"?review={review.pk}"
    return out
