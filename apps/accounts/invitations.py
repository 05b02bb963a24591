"""Invitations: an owner invites an email address to the team with a role; the link in the email
works once, until it expires; accepting creates the account (sign-up) or joins an existing one.

Only a SHA-256 of the link's token is stored. Accepting is one transaction: the invitation row is
locked, checked (open, not expired, the right address), the membership made (never a second one)
and the address marked verified, since the link reached it.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .models import Invitation, Membership, Role, Team
from .outbox import email_queue

INVITATION_LIFETIME = timedelta(days=7)
SESSION_INVITATION_KEY = "invitation_token"


class InvitationError(Exception):
    """Why an invitation cannot be accepted: expired, used, revoked, wrong_email, not_found."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_for_token(token: str | None) -> Invitation | None:
    if not token or len(token) > 100:
        return None
    return Invitation.objects.select_related("team").filter(token_hash=token_hash(token)).first()


def invitation_problem(invitation: Invitation | None, now=None) -> str | None:
    """Why the link cannot be used any more (None: it can)."""
    if invitation is None:
        return "not_found"
    if invitation.accepted_at is not None:
        return "used"
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.is_expired(now):
        return "expired"
    return None


def email_matches(user, email: str) -> bool:
    """The signed-in user owns `email`: their account email or one of their verified addresses."""
    from allauth.account.models import EmailAddress

    if (user.email or "").strip().lower() == email.lower():
        return True
    return EmailAddress.objects.filter(user=user, email__iexact=email, verified=True).exists()


def drop_unverified_claims(email: str, keep_user=None) -> int:
    """The invitation's address wins: other accounts' unverified claims on it (an address row
    never confirmed, or an account email no verified row backs) are dropped, so nobody can hold
    an invitee's address to block their sign-up. Returns how many claims were dropped."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    keep = getattr(keep_user, "pk", None)
    rows = EmailAddress.objects.filter(email__iexact=email, verified=False).exclude(user_id=keep)
    dropped, _ = rows.delete()
    verified_owners = EmailAddress.objects.filter(email__iexact=email, verified=True).values(
        "user_id"
    )
    dropped += (
        get_user_model().objects.filter(email__iexact=email)
        .exclude(pk=keep).exclude(pk__in=verified_owners).update(email="")
    )
    return dropped


def accept_path(token: str) -> str:
    return reverse("accounts:invitation_accept", args=[token])


def _already_pending() -> str:
    return _("This address has a pending invitation: revoke it to send another.")


def invitation_create(
    *, team: Team, email: str, role: str, invited_by, base_url: str, language: str | None = None,
    invited_name: str = "", send: bool = True,
) -> tuple[Invitation, str]:
    """Invite `email` to `team` as `role` and queue the email; returns the invitation and token.
    `send=False` (a username no account has) keeps the row and sends nothing: its link exists
    nowhere, so it can never be accepted."""
    email = (email or "").strip().lower()
    try:
        validate_email(email)
    except ValidationError as exc:
        raise ValidationError({"email": _("Enter a valid email address.")}) from exc
    if role not in Role.values:
        raise ValidationError({"role": _("Choose one of the roles.")})
    if Membership.objects.filter(team=team, user__email__iexact=email).exists():
        raise ValidationError({"email": _("This address belongs to a member of the team already.")})
    now = timezone.now()
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        same = Q(email__iexact=email)
        if invited_name:
            same |= Q(invited_name__iexact=invited_name)
        earlier = (
            Invitation.objects.select_for_update()
            .filter(same, team=team, accepted_at=None, revoked_at=None)
            .first()
        )
        if earlier is not None and not earlier.is_expired(now):
            raise ValidationError({"email": _already_pending()})
        if earlier is not None:  # expired: it gives way to the new one
            Invitation.objects.filter(pk=earlier.pk).update(revoked_at=now)
        invitation = Invitation(
            team=team,
            email=email,
            invited_name=invited_name,
            role=role,
            invited_by=invited_by,
            token_hash=token_hash(token),
            expires_at=now + INVITATION_LIFETIME,
        )
        invitation.full_clean(validate_constraints=False)
        try:
            with transaction.atomic():
                invitation.save()
        except IntegrityError as exc:  # another owner invited the address at the same moment
            raise ValidationError({"email": _already_pending()}) from exc
        if send:
            _invitation_send(invitation, base_url.rstrip("/") + accept_path(token), language)
    return invitation, token


def _account_address(user) -> str:
    """Where an account is reached: its primary verified address, else its account email."""
    from allauth.account.models import EmailAddress

    address = (
        EmailAddress.objects.filter(user=user, verified=True).order_by("-primary", "pk").first()
    )
    return address.email if address is not None else (user.email or "")


def invitation_for_person(
    *, team: Team, username_or_email: str, role: str, invited_by, base_url: str,
    language: str | None = None,
) -> Invitation:
    """An owner adds someone: always an invitation, which the person accepts (nothing changes
    until then), and the same outcome whether or not the name has an account. An address is
    invited as such. A username with an account is invited at that account's address, shown to
    the team as the username; a username without one gets a row that nothing is sent for (its
    address is in the reserved .invalid domain and its link exists nowhere)."""
    from django.contrib.auth import get_user_model

    text = (username_or_email or "").strip()
    if not text:
        raise ValidationError({"email": _("Enter a username or an email address.")})
    common = {"team": team, "role": role, "invited_by": invited_by, "base_url": base_url,
              "language": language}
    if "@" in text:
        return invitation_create(email=text, **common)[0]
    user = get_user_model().objects.filter(username__iexact=text).first()
    if user is not None and Membership.objects.filter(team=team, user=user).exists():
        raise ValidationError({"email": _("%(user)s is already a member of the team.") % {
            "user": user.get_username()}})
    address = _account_address(user) if user is not None else ""
    if address:
        return invitation_create(email=address, invited_name=text[:150], **common)[0]
    nowhere = f"{secrets.token_hex(8)}@unknown.invalid"
    return invitation_create(email=nowhere, invited_name=text[:150], send=False, **common)[0]


def _invitation_send(invitation: Invitation, url: str, language: str | None) -> None:
    inviter = invitation.invited_by
    language = language or translation.get_language() or "en"
    with translation.override(language):
        role_label = str(Role(invitation.role).label).lower()
    email_queue(
        key=f"invitation-{invitation.pk}",
        to=invitation.email,
        template="invitation",
        context={
            "inviter_name": (inviter.get_full_name() or inviter.username) if inviter else "",
            "team_name": invitation.team.name,
            "role_label": role_label,
            "accept_url": url,
            "expires_at": invitation.expires_at,
        },
        language=language,
    )


def invitation_revoke(*, invitation: Invitation) -> bool:
    """Revoke an open invitation; False when it was accepted or revoked already."""
    return bool(
        Invitation.objects.filter(pk=invitation.pk, accepted_at=None, revoked_at=None).update(
            revoked_at=timezone.now()
        )
    )


def invitation_accept(*, invitation_id: int, user) -> tuple[Membership, bool]:
    """Join the invitation's team as its role. Returns (membership, created); created is False
    when the user was a member already (the invitation is used up, the membership unchanged)."""
    from allauth.account.models import EmailAddress

    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
        problem = invitation_problem(invitation)
        if problem:
            raise InvitationError(problem)
        if not email_matches(user, invitation.email):
            raise InvitationError("wrong_email")
        drop_unverified_claims(invitation.email, keep_user=user)
        membership, created = Membership.objects.get_or_create(
            user=user, team_id=invitation.team_id, defaults={"role": invitation.role}
        )
        invitation.accepted_at = timezone.now()
        invitation.accepted_by = user
        invitation.save(update_fields=["accepted_at", "accepted_by"])
        # The link reached this address: it is verified.
        address = EmailAddress.objects.filter(user=user, email__iexact=invitation.email).first()
        if address is None:
            EmailAddress.objects.create(
                user=user,
                email=invitation.email,
                verified=True,
                primary=not EmailAddress.objects.filter(user=user, primary=True).exists(),
            )
        elif not address.verified:
            EmailAddress.objects.filter(pk=address.pk).update(verified=True)
    return membership, created


def open_invitations_for_email(email: str):
    """Pending, unexpired invitations to `email` (single sign-on creates the account for them)."""
    return Invitation.objects.filter(
        email__iexact=(email or "").strip(),
        accepted_at=None,
        revoked_at=None,
        expires_at__gt=timezone.now(),
    ).select_related("team")


def pending_for_team(team: Team):
    return (
        Invitation.objects.for_team(team)
        .filter(accepted_at=None, revoked_at=None)
        .select_related("invited_by")
    )
