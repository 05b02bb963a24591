"""django-allauth adapters: sign-up only through an invitation, every email through the outbox.

- Public sign-up is closed: `is_open_for_signup` is true only while a valid invitation link's
  token is in the session (the accept view puts it there), or, for single sign-on, when the
  identity provider vouches for an address that has a pending invitation.
- The invited address is verified by the invitation itself (the link reached it).
- The client's address is apps.accounts.client_ip's, for allauth's rate limits and sessions list.
- allauth renders its emails (its own templates, in the request's language); the adapter queues
  the rendered message in the outbox instead of sending it in the request. The key is derived from
  the message and a ten-minute window, so a retried request does not send the same email twice.
"""

from __future__ import annotations

import hashlib
import time

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.contrib.sites.shortcuts import get_current_site
from django.core.exceptions import PermissionDenied
from django.db import transaction

from .client_ip import client_ip
from .invitations import (
    SESSION_INVITATION_KEY,
    invitation_accept,
    invitation_for_token,
    invitation_problem,
    open_invitations_for_email,
)
from .outbox import email_queue_rendered

DEDUPE_WINDOW_SECONDS = 600


def session_invitation(request):
    """The invitation whose link this browser followed, while it can still be accepted."""
    if request is None or not hasattr(request, "session"):
        return None
    invitation = invitation_for_token(request.session.get(SESSION_INVITATION_KEY))
    return invitation if invitation_problem(invitation) is None else None


def _asking_user_id(request) -> int | None:
    """The account this browser is signed in as, or is in the middle of signing in as."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user.pk
    from allauth.account.stages import EmailVerificationStage, LoginStageController

    stage = LoginStageController.enter(request, EmailVerificationStage.key)
    pending = getattr(getattr(stage, "login", None), "user", None)
    return getattr(pending, "pk", None)


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request) -> str:
        """allauth's rate limits and sessions list count the client apps.accounts.client_ip
        names (the one TRUSTED_PROXY_COUNT setting), as django-axes does."""
        address = client_ip(request)
        if not address:
            raise PermissionDenied("Unable to determine the client's address")
        return address

    def is_open_for_signup(self, request) -> bool:
        return session_invitation(request) is not None

    def confirm_email(self, request, email_address) -> bool:
        """A confirmation link verifies an address only for the account that asked for it: the
        one signed in, or the one signing in (allauth's pending login). Anyone else who opens
        it, signed in or not, verifies nothing (issue 34: a squatter's confirmation mail reached
        the invitee, whose click verified the squatter's claim)."""
        if _asking_user_id(request) != email_address.user_id:
            from django.contrib import messages
            from django.utils.translation import gettext as _

            messages.error(request, _(
                "This confirmation link belongs to another account: sign in as the account that "
                "asked for it, then open the link again."
            ))
            return False
        return super().confirm_email(request, email_address)

    def is_email_verified(self, request, email: str) -> bool:
        invitation = session_invitation(request)
        if invitation is not None and invitation.email.lower() == (email or "").lower():
            return True
        return super().is_email_verified(request, email)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        request = allauth_context.request
        ctx = {"email": email, "current_site": get_current_site(request), **context}
        message = self.render_mail(template_prefix, email, ctx)
        html = next(
            (body for body, kind in getattr(message, "alternatives", []) if kind == "text/html"),
            "",
        )
        digest = hashlib.sha256(
            "\n".join([template_prefix, email, message.subject, message.body]).encode()
        ).hexdigest()[:40]
        window = int(time.time() // DEDUPE_WINDOW_SECONDS)
        email_queue_rendered(
            key=f"allauth-{digest}-{window}",
            to=email,
            subject=message.subject,
            text=message.body,
            html=html,
        )


def _provider_email(sociallogin) -> str:
    """The address the identity provider vouches for (verified), or ''."""
    for address in sociallogin.email_addresses:
        if address.verified and address.email:
            return address.email.strip().lower()
    return ""


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request, sociallogin) -> bool:
        email = _provider_email(sociallogin)
        if not email:
            return False
        invitation = session_invitation(request)
        if invitation is not None and invitation.email.lower() == email:
            return True
        return open_invitations_for_email(email).exists()

    def save_user(self, request, sociallogin, form=None):
        """Create the account and join every team that invited its address, in one transaction."""
        with transaction.atomic():
            user = super().save_user(request, sociallogin, form)
            email = _provider_email(sociallogin)
            for invitation in open_invitations_for_email(email):
                invitation_accept(invitation_id=invitation.pk, user=user)
        request.session.pop(SESSION_INVITATION_KEY, None)
        return user
