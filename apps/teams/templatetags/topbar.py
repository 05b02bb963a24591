"""The page header, drawn once per viewer and state rather than once per request.

base.html's header (the navigation with its active section, the bell and approvals counts, the
team switch, the language buttons, the account link) was about half the CPU of a cached page:
some twenty resolver lookups, thirty translations and eight URL reversals per request.
`{% topbar %}…{% endtopbar %}` renders it once per key in each process and keeps the markup.
The two parts that change with every request, the CSRF token and the path to come back to, are
drawn as placeholders and put in on every request.

The key (apps/web/header.header_key) holds everything the header shows: anything new drawn in
the header must be added to it, or it will be shown from another request's markup.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from apps.web.header import header_key

register = template.Library()

# Unguessable per process: a team named like a placeholder must not receive the token.
_TOKEN = f"csrf{secrets.token_hex(12)}"
_NEXT = f"next{secrets.token_hex(12)}"
_SIZE = 2048  # viewers × states kept per process; the oldest is dropped first

_lock = threading.Lock()
_markup: OrderedDict[tuple, str] = OrderedDict()


class TopbarNode(template.Node):
    def __init__(self, nodelist: template.NodeList):
        self.nodelist = nodelist

    def render(self, context) -> SafeString:
        request = context.get("request")
        token = context.get("csrf_token")
        if request is None or token is None or str(token) == "NOTPROVIDED":
            # No request or no token (an error page): drawn as it is, nothing kept.
            with context.push(topbar_next=request.get_full_path() if request else ""):
                return self.nodelist.render(context)
        key = header_key(context)
        with _lock:
            html = _markup.get(key)
            if html is not None:
                _markup.move_to_end(key)
        if html is None:
            with context.push(csrf_token=_TOKEN, topbar_next=_NEXT):
                html = self.nodelist.render(context)
            with _lock:
                _markup[key] = html
                if len(_markup) > _SIZE:
                    _markup.popitem(last=False)
        html = html.replace(_TOKEN, escape(str(token)))
        return mark_safe(html.replace(_NEXT, escape(request.get_full_path())))  # noqa: S308


@register.tag
def topbar(parser, token) -> TopbarNode:
    """`{% topbar %}…{% endtopbar %}`: the header markup, kept per viewer and state."""
    nodelist = parser.parse(("endtopbar",))
    parser.delete_first_token()
    return TopbarNode(nodelist)
