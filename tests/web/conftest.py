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
