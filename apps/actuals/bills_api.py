"""POST /api/v1/bills: a pipeline drops a provider bill in, as the bill page and `import_bill`
do. The body is the bill itself (a CSV file, `Content-Type: text/csv`, at most 2 MB); a team
token (`Authorization: Bearer …`) or a signed-in member's session with CSRF; reviewers read.
`?dry_run=true` reads and checks it, writing nothing; `?team=N` picks the team of a signed-in
user in several teams (tokens ignore it).

The answer is the import's summary: the format detected, lines read, lines matched per review,
lines left unassigned, totals per currency, warnings and row errors (line and column, at most
100). 200 when it was saved (or would be, on a dry run); 422 with the same summary when any line
is wrong, and then nothing is saved.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from ninja import Query, Router, Schema, Status

from apps.accounts.fields import MAX_PK
from apps.web.api_auth import session_auth, token_auth
from apps.web.ingest import ErrorsOut, TooLargeOut, errors, writer_team

from .bills import bill_import, summary

router = Router(tags=["actuals"], auth=[token_auth, session_auth])


class ReviewLines(Schema):
    review: int
    lines: int
    compute_cost: float
    transfer_cost: float


class RowErrorOut(Schema):
    line: int
    column: str
    message: str


class BillSummaryOut(Schema):
    format: str
    cost: str
    tag_key: str
    lines_read: int
    matched: list[ReviewLines]
    unassigned: int
    shown_apart: int
    totals: dict[str, float]
    warnings: list[str]
    errors: list[RowErrorOut]
    more_errors: int
    saved: bool
    dry_run: bool


@router.post(
    "",
    response={
        200: BillSummaryOut, 403: ErrorsOut, 413: TooLargeOut, 422: BillSummaryOut | ErrorsOut,
    },
    summary="Import a provider bill (FOCUS, AWS CUR 2.0 or legacy CUR) into actual costs",
    description=__doc__,
)
def bill_post(
    request,
    dry_run: bool = Query(False),
    team: int | None = Query(None, ge=1, le=MAX_PK),
):
    found, refused = writer_team(
        request, team, _("Reviewers read actual costs; members import bills.")
    )
    if refused is not None:
        return refused
    try:
        content = request.body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return Status(422, errors("", _("The bill is not UTF-8 text.")))
    if not content.strip():
        return Status(422, errors("", _("The body is empty: send the bill's CSV as the body.")))
    result = bill_import(team=found, content=content, created_by=request.auth.user,
                         dry_run=dry_run)
    answer = summary(result, dry_run=dry_run)
    return Status(422 if answer["errors"] else 200, answer)
