"""A comment is plain text: drawn escaped, with its web addresses as links and its @mentions of
the team's members marked. Nothing the author typed is ever HTML.

- A link is an `http://` or `https://` address (no other scheme: no `javascript:`), up to the next
  space or angle bracket, less the punctuation that ends a sentence; it opens with
  `rel="noopener nofollow"`, so the page it opens cannot reach back into this one and it earns
  no search rank from being here.
- A mention is `@` and a username of the thread's team, not preceded by a letter, digit or `@`
  (an email address mentions no one); matched whatever the case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

URL = r"https?://[^\s<>\"'`]+"
MENTION = r"(?<![\w@.+-])@([\w.+-]+)"
TOKEN = re.compile(rf"(?P<url>{URL})|{MENTION.replace('([', '(?P<name>[')}", re.IGNORECASE)
TRAILING = ".,;:!?'\")]}"
EXCERPT_CHARS = 140


def _trim_url(url: str) -> tuple[str, str]:
    """The address and what follows it in the sentence (a closing parenthesis the address did not
    open, a full stop)."""
    end = len(url)
    while end and url[end - 1] in TRAILING:
        if url[end - 1] == ")" and url[:end].count("(") >= url[:end].count(")"):
            break
        end -= 1
    return url[:end], url[end:]


def _trim_name(name: str) -> tuple[str, str]:
    end = len(name)
    while end and name[end - 1] in ".-+":
        end -= 1
    return name[:end], name[end:]


def mentioned_names(text: str) -> list[str]:
    """The names after an @, in order, each once (lower case)."""
    names: list[str] = []
    for match in TOKEN.finditer(text):
        if match.group("name"):
            name = _trim_name(match.group("name"))[0].lower()
            if name and name not in names:
                names.append(name)
    return names


def render(text: str, usernames: Iterable[str]) -> SafeString:
    """The comment as HTML: escaped, links and mentions of `usernames` marked."""
    members = {name.lower(): name for name in usernames}
    parts: list[str] = []
    last = 0
    for match in TOKEN.finditer(text):
        parts.append(escape(text[last : match.start()]))
        last = match.end()
        if match.group("url"):
            url, rest = _trim_url(match.group("url"))
            parts.append(
                f'<a href="{escape(url)}" rel="noopener nofollow" class="comment__link">'
                f"{escape(url)}</a>{escape(rest)}"
            )
            continue
        name, rest = _trim_name(match.group("name"))
        if name.lower() in members:
            parts.append(f'<span class="mention">@{escape(name)}</span>{escape(rest)}')
        else:
            parts.append(escape(match.group(0)))
    parts.append(escape(text[last:]))
    return mark_safe("".join(parts))  # noqa: S308 - every piece of the text is escaped above


def excerpt(text: str) -> str:
    """One line of the comment for a notification."""
    line = " ".join(text.split())
    return line if len(line) <= EXCERPT_CHARS else line[: EXCERPT_CHARS - 1] + "…"
