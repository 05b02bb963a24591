"""One record posted to the API, the one way (/api/v1/benchmarks, /api/v1/actuals): the team the
token or the signed-in member writes to, members and owners write and reviewers read, the
idempotency key from the body or the Idempotency-Key header, and the answers: 201 created, 200 a
retry, 409 the key with other values, 422 naming every bad field, 403 a reviewer.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from ninja import Schema, Status

from apps.accounts.models import Membership, Role

from ..body import capped
from .records import IdempotencyConflict
from .values import FieldErrors


def errors(field: str, message: str) -> dict:
    return {"errors": [{"field": field, "message": message}]}


def writer_team(request, team_id: int | None, refusal: str):
    """(team, None) for a caller who may write records to the team; (None, Status) otherwise:
    422 naming `team` for a team it cannot write to, 403 `refusal` for a reviewer's session."""
    principal = request.auth
    team = principal.team_for_write(team_id)
    if team is None:
        return None, Status(422, errors("team", _("Not a team this token or user can write to.")))
    if principal.token is None:
        role = (
            Membership.objects.filter(user=principal.user, team=team)
            .values_list("role", flat=True).first()
        )
        if role not in (Role.MEMBER, Role.OWNER):
            return None, Status(403, errors("", refusal))
    return team, None


def post_record(
    request, payload: Schema, header_key: str | None, *, create: Callable, out: Callable,
    refusal: str,
) -> Status:
    """`create(team=, data=, created_by=)` → (record, created) with the body's values; the
    answer with `out(record)`."""
    team, refused = writer_team(request, payload.team, refusal)
    if refused is not None:
        return refused
    data = payload.model_dump(exclude_unset=True)
    data.pop("team", None)
    if not data.get("idempotency_key") and header_key:
        data["idempotency_key"] = header_key
    try:
        record, created = create(team=team, data=data, created_by=request.auth.user)
    except FieldErrors as exc:
        return Status(422, {"errors": capped(exc.as_list())})
    except IdempotencyConflict as exc:
        return Status(409, {**errors("idempotency_key", exc.message), "record": out(exc.record)})
    return Status(201 if created else 200, out(record))
