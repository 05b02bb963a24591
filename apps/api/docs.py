"""The API reference page (Swagger UI) served from the app itself, under the site's CSP.

django-ninja renders Swagger UI from a CDN unless "ninja" is an installed app; the project keeps
its apps list short and serves no third-party script from elsewhere, so Swagger UI 5.31.0 (the copy
bundled with django-ninja 1.7.1) is vendored under apps/api/static/api/ and started by a small
script that reads its settings from JSON in the page (no inline script).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from ninja.openapi.docs import DocsBase

SETTINGS = {
    "layout": "BaseLayout",
    "deepLinking": True,
    # No badge from validator.swagger.io: nothing is sent to, or loaded from, another site.
    "validatorUrl": None,
}


class VendoredSwagger(DocsBase):
    def render_page(self, request: HttpRequest, api, **kwargs: Any) -> HttpResponse:
        settings = {**SETTINGS, "url": self.get_openapi_url(api, kwargs)}
        return render(request, "api/swagger.html", {"api": api, "swagger_settings": settings})
