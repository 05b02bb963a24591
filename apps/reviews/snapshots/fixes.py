"""The fix of every block finding, offered where the finding is shown (issue 15: every block has
its fix in place). Read from the snapshot's engine output at display time; only an editable
review offers them (an approved or submitted one is not changed from its page).

Each fix is {"kind", "label", ...}:
- "reserve": a button that reserves the channels of the chosen plan's legs (H2 channel_reserved),
  with `pairs` ("from>to" site codes), posted to reviews:reserve_plan with the review version;
- "readiness": checkboxes confirming resume verified / environments aligned (H2), written on the
  task profile under its version (`profile_version`), posted to reviews:confirm_readiness;
- "field": a form setting one task profile field in place (P3 planned GPUs, A2 the planned GPUs
  one replica needs, pre-filled with the engine's `fix_gpus`, R1a parallelism, J4 a maintained
  scheduler), posted to reviews:fix_profile_field with both versions, with `edit_url`
  opening the whole profile form at that field (it returns to the review once saved);
- "questions": the candidate's unanswered questions (C), loaded into the finding by htmx from
  `url` (checklists:open_questions) and saved like on the checklist page; `page_url` opens the
  checklist at the candidate without JavaScript;
- "link": a page that fixes it (`url`): the candidates (R1a, J4) or the excluded options (P2).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.urls import reverse
from django.utils.translation import gettext as _

from apps.reviews.forms import ProfileFieldForm
from apps.reviews.models import Review
from apps.reviews.snapshots.charts import chosen_option


def _profile_field(review: Review, field: str) -> str:
    """The profile's edit form at the field, returning to the review once saved."""
    back = quote(reverse("reviews:detail", args=[review.pk]), safe="/")
    return reverse("profiles:edit", args=[review.task_id]) + f"?next={back}#id_{field}"


def _field(review: Review, field: str, label: str, value: Any = None) -> dict[str, Any]:
    """A form in the finding setting one profile field (P3, A2, R1a, J4), posted to
    reviews:fix_profile_field, showing `value` (else the profile's own); `edit_url` opens the
    whole profile form at the field instead."""
    task = review.task
    form = ProfileFieldForm(
        team=review.team,
        field=field,
        auto_id=f"fix-{field}-%s",
        initial={
            "value": getattr(task, field) if value is None else value,
            "version": review.version,
            "profile_version": task.version,
        },
    )
    return {
        "kind": "field",
        "field": field,
        "form": form,
        "label": label,
        "url": reverse("reviews:fix_profile_field", args=[review.pk]),
        "edit_url": _profile_field(review, field),
    }


def _h2(review: Review, finding: dict, output: dict) -> list[dict[str, Any]]:
    missing = (finding.get("data") or {}).get("missing") or []
    fixes: list[dict[str, Any]] = []
    chosen = chosen_option(output)
    if "channel_reserved" in missing and chosen is not None:
        pairs = []
        for leg in chosen.get("legs", []):
            pair = f"{leg['from']}>{leg['to']}"
            if not leg.get("link_reserved") and pair not in pairs:
                pairs.append(pair)
        if pairs:
            shown = ", ".join(p.replace(">", " → ") for p in pairs)
            fixes.append({
                "kind": "reserve",
                "label": _("Reserve the channels of this plan: %(legs)s") % {"legs": shown},
                "pairs": pairs,
                "url": reverse("reviews:reserve_plan", args=[review.pk]),
            })
    ready = [name for name in ("resume_verified", "env_aligned") if name in missing]
    if ready:
        fixes.append({
            "kind": "readiness",
            "label": _("Confirm on the task profile"),
            "fields": ready,
            "profile_version": review.task.version,
            "url": reverse("reviews:confirm_readiness", args=[review.pk]),
        })
    return fixes


def _fixes(review: Review, finding: dict, output: dict):
    rule = finding.get("rule")
    if rule == "H2":
        return _h2(review, finding, output)
    if rule == "C":
        # The checklist page anchors each candidate's card by its offer too (no query here).
        offer = finding.get("offer")
        page = reverse("checklists:review", args=[review.pk]) + (f"#offer-{offer}" if offer else "")
        if not offer:
            return [{"kind": "link", "url": page,
                     "label": _("Answer the open questions of this candidate")}]
        return [{"kind": "questions", "page_url": page,
                 "url": reverse("checklists:open_questions", args=[review.pk, offer]),
                 "label": _("Answer the open questions of this candidate")}]
    if rule == "P3":
        return [_field(review, "gpus", _("Save the planned GPU count"))]
    if rule == "A2":
        # SPEC 7.1: N GPUs, rounded up to whole machines of the offer beyond one machine.
        gpus = (finding.get("data") or {}).get("fix_gpus")
        label = _("Plan %(gpus)s GPUs") % {"gpus": gpus}
        return [_field(review, "gpus", label, gpus)]
    if rule == "R1a":
        return [
            _field(review, "parallelism", _("Record how the job can be split")),
            {"kind": "link", "url": reverse("reviews:candidates", args=[review.pk]),
             "label": _("Add a candidate with larger GPUs or more GPUs per machine")},
        ]
    if rule == "J4":
        return [
            {"kind": "link", "url": reverse("reviews:candidates", args=[review.pk]),
             "label": _("Replace the self-hosted candidate with a managed one")},
            _field(review, "can_maintain_scheduler", _("Record it on the task profile")),
        ]
    if rule == "P2":
        return [{"kind": "link", "url": "#excluded-options",
                 "label": _("See what excludes each option")}]
    return []


def with_fixes(review: Review, findings: list[dict], output: dict) -> list[dict]:
    """Copies of the findings, each block finding with its `fixes` (an editable review only)."""
    if not review.is_editable or not any(f.get("severity") == "block" for f in findings):
        return findings
    return [
        {**f, "fixes": _fixes(review, f, output)}
        if f.get("severity") == "block" else f
        for f in findings
    ]
