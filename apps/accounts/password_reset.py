"""Password reset with one answer time (issue 34: a reset for a known address answered measurably
slower, so the timing told who has an account).

In the request both cases do the same work: allauth's form looks the address up, then one task is
queued after commit. The worker makes the token, renders the mail (the reset link, or allauth's
"no account with this address" mail) and puts it in the outbox, whichever case it is.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from allauth.account.forms import ResetPasswordForm as AllauthResetPasswordForm
from allauth.account.forms import default_token_generator
from allauth.account.internal.flows.password_reset import request_password_reset
from allauth.account.internal.userkit import filter_users_by_email
from allauth.core import context as allauth_context
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.http import HttpRequest
from django.utils import translation


class ResetPasswordForm(AllauthResetPasswordForm):
    def save(self, request, **kwargs) -> str:
        from .tasks import password_reset_mail_task

        email = self.cleaned_data["email"]
        base_url = request.build_absolute_uri("/")
        language = translation.get_language() or "en"
        transaction.on_commit(
            lambda: password_reset_mail_task.delay(email=email, base_url=base_url,
                                                   language=language)
        )
        return email


class _SiteRequest(HttpRequest):
    """A request on the site's own address (the one the person asked from), for the links."""

    def __init__(self, base_url: str) -> None:
        super().__init__()
        parts = urlsplit(base_url)
        self._scheme = parts.scheme or "http"
        self.method, self.path, self.path_info = "GET", "/", "/"
        self.META = {"HTTP_HOST": parts.netloc, "SERVER_NAME": parts.hostname or "",
                     "SERVER_PORT": str(parts.port or (443 if self._scheme == "https" else 80))}

    def _get_scheme(self) -> str:
        return self._scheme


def password_reset_mail(*, email: str, base_url: str, language: str) -> None:
    """What allauth does in the request, done in the worker: the reset mail for each account of
    the address, or the mail saying there is none. Links are built on the site's own address."""
    request = _SiteRequest(base_url)
    request.user = AnonymousUser()
    request.session = {}
    with translation.override(language), allauth_context.request_context(request):
        users = filter_users_by_email(email, is_active=True, prefer_verified=True, for_login=True)
        request_password_reset(request, email, users, default_token_generator)
