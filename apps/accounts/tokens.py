"""Team API tokens: created and revoked by owners, stored as a SHA-256 hash, shown once."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone

from .models import ApiToken, Team

TOKEN_PREFIX = "csr_"


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


@transaction.atomic
def api_token_create(*, team: Team, name: str, created_by=None) -> tuple[ApiToken, str]:
    """Create a token; returns the row and the raw token, which is never stored or shown again."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(
        team=team, name=name.strip()[:80] or "token", prefix=raw[:12], key_hash=_hash(raw),
        created_by=created_by,
    )
    token.full_clean()
    token.save()
    return token, raw


def api_token_revoke(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def api_token_authenticate(raw: str) -> ApiToken | None:
    """The live token matching `raw`, or None. Touches last_used_at at most once a minute."""
    if not raw or not raw.startswith(TOKEN_PREFIX) or len(raw) > 200:
        return None
    token = (
        ApiToken.objects.select_related("team")
        .filter(key_hash=_hash(raw), revoked_at__isnull=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token
