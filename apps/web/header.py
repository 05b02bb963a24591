"""What the page header shows, as a key: the header is kept per key in each process
(apps/teams/templatetags/topbar.py), and so is the whole page of an approved review, whose
header is part of it (apps/decisions/signed_page.py).

The key holds everything the header shows: the language, the section the request is in, the
counts, the viewer, their memberships (team, name, role) and current team. Anything new drawn in
the header must be added here, or it will be shown from another request's markup. `context` is a
template context or the dict of the context processors' output for the request.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import get_urlconf
from django.utils.translation import get_language


def _value(context, name: str):
    value = context.get(name)
    return value() if callable(value) else value


def header_key(context) -> tuple:
    request = context["request"]
    user = context.get("user")
    match = getattr(request, "resolver_match", None)
    team = context.get("current_team")
    membership = context.get("current_membership")
    return (
        get_language(),
        get_urlconf() or settings.ROOT_URLCONF,
        match.namespace if match else None,
        match.url_name if match else None,
        request.path.startswith("/profiles/"),  # base.html marks Profiles by its path
        getattr(user, "pk", None),
        user.get_username() if user is not None and user.is_authenticated else None,
        tuple((m.team_id, m.team.name, m.role) for m in context.get("user_memberships") or ()),
        (team.pk, team.name) if team is not None else None,
        membership.role if membership is not None else None,
        _value(context, "approvals_waiting"),
        _value(context, "notifications_unread"),
        bool(context.get("oob")),
    )
