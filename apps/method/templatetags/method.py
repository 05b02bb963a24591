"""Links from a rule id on any page to its entry in the method guide.

`{{ rule|method_url }}` is the entry's URL ("" when the guide has no entry); `{% rule_link rule %}`
is the link itself: the rule id as text, the rule's name as title and accessible name. A message
key ("C.block") links to its rule's entry.
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from apps.method.entries import entry_for

register = template.Library()


@register.filter
def method_url(rule_id) -> str:
    entry = entry_for(rule_id)
    return reverse("method:entry", args=[entry.id]) if entry is not None else ""


@register.simple_tag
def rule_link(rule_id, css_class: str = "rule-link"):
    """The rule id linked to its entry; the plain id when the guide does not know it."""
    entry = entry_for(rule_id)
    if entry is None:
        return "" if rule_id is None else rule_id
    name = _("Rule %(rule)s in the method guide: %(title)s") % {
        "rule": rule_id,
        "title": entry.title,
    }
    return format_html(
        '<a class="{}" href="{}" title="{}" aria-label="{}" data-method-rule="{}">{}</a>',
        css_class,
        reverse("method:entry", args=[entry.id]),
        name,
        name,
        entry.id,
        rule_id,
    )
