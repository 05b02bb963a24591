"""The top bar's main navigation and its tools (team switch, languages, account), drawn in Python:
the same markup base.html drew with a `{% url %}` and two `{% if %}` per link and a form per tool
(tests/teams/test_main_nav.py and test_topbar_tools.py keep those templates and compare), at a
fraction of their cost on every page."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from apps.web.rows import text

register = template.Library()

_INDENT = "\n        "


def _url(name: str) -> str:
    """`{% url name as var %}`: empty when the name does not resolve."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return ""


def _link(url: str, active: bool, label: str, badge: str = "") -> str:
    """`<a href="{{ url }}" class="…">{% translate label %}…</a>`: `label` already translated."""
    current = ' aria-current="page"' if active else ""
    css = "is-active" if active else ""
    text = conditional_escape(label)
    return f'<a href="{conditional_escape(url)}" class="{css}"{current}>{text}{badge}</a>'


@register.simple_tag(takes_context=True)
def main_nav(context) -> SafeString:
    """The links between `<nav class="mainnav">` and `</nav>`, with their whitespace."""
    # A page drawn without its request (Django's 500 page) has no current section.
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    path = getattr(request, "path", "")
    namespace = getattr(match, "namespace", "") or ""
    url_name = getattr(match, "url_name", "") or ""
    urls = {
        name: _url(name)
        for name in (
            "profiles:list", "reviews:list", "reviews:approvals", "scoring:history",
            "catalog:index", "benchmarks:list", "teams:settings",
        )
    }  # fmt: skip
    badge = ""
    waiting = context.get("approvals_waiting")
    waiting = waiting() if callable(waiting) else waiting
    if waiting:
        title = conditional_escape(gettext("Waiting for your decision"))
        count = text(waiting)  # as {{ approvals_waiting }}: localized, escaped
        badge = f' <span class="badge badge--accent" title="{title}">{count}</span>'
    links = [
        (urls["profiles:list"], path[:10] == "/profiles/", gettext("Profiles"), ""),
        (
            urls["reviews:list"],
            namespace == "reviews" and url_name != "approvals",
            gettext("Reviews"),
            "",
        ),
        (urls["reviews:approvals"], url_name == "approvals", gettext("Approvals"), badge),
        (urls["benchmarks:list"], namespace == "benchmarks", gettext("Benchmarks"), ""),
        (urls["scoring:history"], namespace == "scoring", gettext("History"), ""),
        (urls["catalog:index"], namespace == "catalog", gettext("Catalog"), ""),
    ]
    drawn = [_link(*link) if link[0] else "" for link in links]
    drawn.append(_link(reverse("method:index"), namespace == "method", gettext("Method")))
    settings_url = urls["teams:settings"]
    in_settings = namespace == "accounts" and url_name != "login"
    drawn.append(_link(settings_url, in_settings, gettext("Settings")) if settings_url else "")
    # The template's three lines of `{% url … as … %}` drew nothing but their indentation.
    # Our own markup, every value escaped.
    return mark_safe(_INDENT * 4 + _INDENT.join(drawn) + "\n      ")  # noqa: S308


def _csrf(context) -> str:
    """`{% csrf_token %}`."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{conditional_escape(token)}">'


def _team_switch(context, csrf: str, back: str) -> str:
    """The team switch of a person in several teams, or the name of their one team."""
    user, memberships = context.get("user"), context.get("user_memberships") or []
    team = context.get("current_team")
    if user is not None and user.is_authenticated and len(memberships) > 1:
        options = "".join(
            f'\n            <option value="{m.team_id}" '
            f"{'selected' if team and m.team_id == team.pk else ''}>"
            f"{conditional_escape(m.team.name)} · {conditional_escape(m.get_role_display())}"
            "</option>\n            "
            for m in memberships
        )
        switch = conditional_escape(reverse("accounts:team_switch"))
        return (
            f'\n        <form method="post" action="{switch}" class="inline-form team-switch">'
            f"\n          {csrf}\n"
            f'          <input type="hidden" name="next" value="{back}">\n'
            f'          <label class="visually-hidden" for="team-switch">'
            f"{conditional_escape(gettext('Team'))}</label>\n"
            f'          <select id="team-switch" name="team" data-autosubmit>\n            '
            f"{options}\n          </select>\n"
            f'          <noscript><button type="submit" class="btn btn--small">'
            f"{conditional_escape(gettext('Switch'))}</button></noscript>\n"
            "        </form>\n        "
        )
    if team:
        membership = context.get("current_membership")
        role = membership.get_role_display() if membership is not None else ""
        return (
            f'\n        <span class="team-name" title="{conditional_escape(gettext("Your team"))}">'
            f"{conditional_escape(team.name)} · {conditional_escape(role)}</span>\n        "
        )
    return ""


def _language_buttons(current: str) -> str:
    drawn = []
    for code, _name in settings.LANGUAGES:
        on = code == current
        active, current_attr = ("is-active", 'aria-current="true"') if on else ("", "")
        label = "EN" if code == "en" else "简体中文"
        drawn.append(
            f'\n          <button type="submit" name="language" value="{code}" class="lang-btn '
            f'{active}" lang="{code}" {current_attr}>{label}</button>\n          '
        )
    return "".join(drawn)


def _account(request, user, csrf: str) -> str:
    on_account = getattr(getattr(request, "resolver_match", None), "url_name", None) == "account"
    active, current = (" is-active", ' aria-current="page"') if on_account else ("", "")
    name = conditional_escape(user.get_username())
    account, logout = reverse("accounts:account"), reverse("accounts:logout")
    return (
        f'\n        <a href="{conditional_escape(account)}" class="account-link{active}"{current}'
        f' title="{conditional_escape(gettext("Your account"))}">{name}</a>\n'
        f'        <form method="post" action="{conditional_escape(logout)}" class="inline-form">\n'
        f"          {csrf}\n"
        f'          <button type="submit" class="btn btn--ghost btn--small" title="{name}">'
        f"{conditional_escape(gettext('Sign out'))}</button>\n        </form>\n        "
    )


@register.simple_tag(takes_context=True)
def topbar_tools(context) -> SafeString:
    """The top bar's tools after the bell: the team switch (or the team's name), the language
    buttons, the account link and the sign-out button, as base.html drew them."""
    # Django's 500 page is drawn without the request: its forms go back to no page, as the
    # template's {{ request.get_full_path }} drew them.
    request, user = context.get("request"), context.get("user")
    back = conditional_escape(request.get_full_path()) if request is not None else ""
    csrf = _csrf(context)
    set_language = conditional_escape(reverse("set_language"))
    drawn = (
        _team_switch(context, csrf, back)
        + f'\n        <form method="post" action="{set_language}" class="inline-form lang-switch">'
        f"\n          {csrf}\n"
        f'          <input type="hidden" name="next" value="{back}">\n          \n          '
        f"{_language_buttons(get_language())}\n        </form>\n        "
    )
    if user is not None and user.is_authenticated:
        drawn += _account(request, user, csrf)
    # Our own markup, every value escaped.
    return mark_safe(drawn)  # noqa: S308
