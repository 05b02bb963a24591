"""Fixtures of the web tests."""

from __future__ import annotations

import pytest

from apps.web import htmx


@pytest.fixture
def drawn(monkeypatch):
    """The names of the fragments and rows drawn (rendered), in order: both are rendered through
    apps/web/htmx.render_fragment."""
    names = []
    render = htmx.render_fragment

    def counting(request, page, fragment, context):
        names.append(fragment)
        return render(request, page, fragment, context)

    monkeypatch.setattr(htmx, "render_fragment", counting)
    return names


@pytest.fixture
def seen_after(client, drawn):
    """`seen_after(user, url, row, **changes)`: the page at `url` as `user` sees it once `row`,
    viewed before, is saved with `changes`; `drawn` then holds only what that last view drew."""

    def view(user, url: str, row, **changes) -> str:
        client.force_login(user)
        client.get(url)
        for name, value in changes.items():
            setattr(row, name, value)
        row.save()
        drawn.clear()
        return client.get(url).content.decode()

    return view
