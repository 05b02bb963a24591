"""GET /api/v1/snapshots/{id}/skypilot: a snapshot's chosen plan as a SkyPilot task YAML
(apps/scoring/launch.py), for a pipeline that launches what was approved.

A team token reads its team's snapshots, a signed-in member those of their teams; another team's
snapshot is a 404, as a missing one. A plan that cannot be launched (nothing chosen, an offer
deleted, a provider that is not a SkyPilot cloud) answers 422 saying why.
"""

from __future__ import annotations

from django.http import HttpResponse
from ninja import Router, Status

from apps.reviews.snapshots.models import EvaluationSnapshot
from apps.scoring import launch
from apps.web.api_auth import session_auth, token_auth
from apps.web.body import ErrorsOut

router = Router(tags=["launch"], auth=[token_auth, session_auth])


@router.get(
    "/{int:snapshot_id}/skypilot",
    response={200: None, 404: ErrorsOut, 422: ErrorsOut},
    summary="The chosen plan as a SkyPilot task YAML",
)
def snapshot_skypilot(request, snapshot_id: int):
    snapshot = (
        EvaluationSnapshot.objects.filter(team_id__in=request.auth.team_ids, pk=snapshot_id)
        .select_related("team")
        .first()
    )
    if snapshot is None:
        return Status(404, {"errors": [{"field": "snapshot_id", "message": "No such snapshot."}]})
    try:
        text = launch.skypilot_yaml(snapshot)
    except launch.NotLaunchable as exc:
        return Status(422, {"errors": [{"field": "snapshot_id", "message": exc.message}]})
    return HttpResponse(text, content_type="application/yaml; charset=utf-8")
