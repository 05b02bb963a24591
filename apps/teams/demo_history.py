"""Demo history for the calibration page and the dashboards of alice and bob (Team Aurora).

Runs last, after the catalog, profiles, benchmarks, reviews and scoring demos (it reads
ctx.objects["sites"], ["offers"] and ["links"]); `load_demo` calls `load(ctx)` at the end.
If the Shanghai H200 offer or the Beijing–Shanghai link is missing (another demo changed), it
logs a warning and adds nothing.

Seven batch jobs, each moved from Beijing A to the Shanghai H200 contract with the same compute
(26 h at relative speed 1.3 on 8 GPUs ≈ 594 USD); only the data volume differs, so the network
cost share (M4) and the data/compute ratio (M1) climb from job to job. What happened afterwards:

| job | M4 share | M1 GB/h | outcome |
| --- | --- | --- | --- |
| embeddings refresh | 0.05 | 58 | approved, pilot on cross_hub succeeded: good |
| speech transcription (bob) | 0.10 | 123 | approved by alice, ran within the plan: good |
| image dedup | 0.14 | 181 | approved, pilot on cross_hub succeeded: good |
| log analytics rebuild | 0.18 | 246 | approved, ran 1.5 × the planned hours: bad (M3) |
| video features | 0.26 | 396 | approved, pilot failed: bad (M3) |
| satellite tiles | 0.38 | 692 | rejected: bad (M3) |
| clickstream replay | 0.22 | 317 | approved, no outcome recorded yet: unknown |

(M3): the planned transfer exceeds the task's transfer budget. So the team's own history says
transfers started to hurt below the default 0.20 (the page suggests about 0.16) and that
data-heavy starts near 210 GB/h rather than 100. Bob also has a draft with unanswered checklist
questions (a blocking finding on his dashboard).

Idempotent: profiles and reviews are found by (team, name/title) and left alone; benchmark records
carry idempotency keys "demo-cal-…".
"""

from __future__ import annotations

import logging

from django.db import transaction

from apps.accounts.demo import DemoContext
from apps.benchmarks.models import BenchmarkRecord
from apps.profiles.models import TaskProfile
from apps.reviews import services as reviews
from apps.reviews.checklists.models import AnswerStatus, Question
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.models import Review
from apps.reviews.services.signoff import signoff_create
from apps.reviews.services.submission import review_submit
from apps.reviews.snapshots.services import current_snapshot, latest_snapshot, snapshot_compute
from apps.reviews.workflow import ReviewConflict, ReviewRefused
from apps.scoring.services import quarterly_refresh

log = logging.getLogger(__name__)

OFFER = "h200-sh-a"
LINK = "bj-a>sh-a"
COMPUTE_HOURS = 26.0

ANSWERS = {
    "q1": "Batch job on one 8-GPU machine; memory is not the limit.",
    "q2": "Data parallel only; the shards are independent, so no cross-machine traffic.",
    "q3": "Checkpoint per shard; a failed shard is retried alone (resume verified).",
    "q4": "Quarterly contract, compared at 80 % utilisation on the effective GPU-hour price.",
    "q5": "Same image; only the input path changes to the Shanghai bucket.",
    "q6": "Outputs land in our bucket; the contract ends with the quarter.",
}

JOBS = [
    # name, workload, input_gb, result_gb, interruption_cost_hours, transfer budget (h),
    # author, fate
    ("Embeddings refresh, 1.5 TB corpus", "batch_inference", 1500, 50, 0.5, 6.0, "alice",
     "pilot_ok"),
    ("Speech transcription backlog, 3.2 TB", "batch_inference", 3200, 90, 1.0, 6.0, "bob",
     "on_plan"),
    ("Image dedup pass, 4.7 TB", "data_processing", 4700, 120, 0.5, None, "alice", "pilot_ok"),
    ("Log analytics rebuild, 6.4 TB", "data_processing", 6400, 100, 2.0, 1.5, "alice", "slower"),
    ("Video feature extraction, 10 TB", "batch_inference", 10300, 120, 3.0, 2.0, "alice",
     "pilot_failed"),
    ("Satellite tile rendering, 18 TB", "rendering", 18000, 180, 6.0, 4.0, "alice", "rejected"),
    ("Clickstream replay, 8.25 TB", "data_processing", 8250, 110, 1.5, None, "alice",
     "approved"),
]
DRAFT = ("Speech transcription: spring batch", "batch_inference", 2800, 80, 1.0, 6.0, "bob")


def _profile(ctx: DemoContext, sites: dict, name, workload, input_gb, result_gb, interruption,
             budget):
    home = sites["bj-a"]
    fields = {
        "description": "Batch job whose input sits in Beijing A; moved to spare H200 capacity.",
        "workload": workload,
        "cadence": "recurring",
        "runs_per_quarter": 2,
        "params_b": 7.0 if workload == "batch_inference" else None,
        "precision": "bf16",
        "gpus": 8,
        "parallelism": ["data"],
        "coupling": "none",
        "input_gb": float(input_gb),
        "result_gb": float(result_gb),
        "image_gb": 10.0,
        "compute_hours": COMPUTE_HOURS,
        "budget_transfer_hours": budget,
        "resumable": True,
        "resume_verified": True,
        "env_aligned": True,
        "interruption_cost_hours": interruption,
        "env_simple": True,
        "image_packaged": True,
        "offsite_allowed": True,
        "pain": "queueing",
        "data_site": home,
        "home_site": home,
        "result_site": home,
    }
    profile, _ = TaskProfile.objects.get_or_create(team=ctx.team1, name=name, defaults=fields)
    return profile


def _review(ctx: DemoContext, *, task, title: str, author, offer, link) -> Review:
    review = reviews.review_create(
        team=ctx.team1, author=author, task=task, title=title, candidates=[(offer, 1)]
    )
    candidate = review.candidates.get()
    for question in Question.values:
        checklist_answer_save(
            candidate=candidate, question=question, actor=author,
            status=AnswerStatus.ANSWERED, text=ANSWERS[question],
        )
    reviews.review_reserve_links(review=review, actor=author, links=[link])
    return review


def _decide(review: Review, *, reviewer, decision: str, comment: str) -> Review:
    snapshot = review_submit(review=review, actor=review.author)
    # One sign-off decides these reviews, whatever the team's current setting.
    Review.objects.filter(pk=review.pk).update(approvals_required=1)
    review.refresh_from_db()
    signoff_create(
        review=review, reviewer=reviewer, decision=decision, comment=comment,
        snapshot_id=snapshot.pk,
    )
    review.refresh_from_db()
    return review


def _record(ctx: DemoContext, key: str, task, offer, **fields) -> None:
    BenchmarkRecord.objects.update_or_create(
        team=ctx.team1, idempotency_key=f"demo-cal-{key}",
        defaults={"task": task, "offer": offer, "source": "form", **fields},
    )


def _outcome(ctx: DemoContext, review: Review, fate: str, offer, n: int) -> None:
    """The records that happened after the decision."""
    task = review.task
    snapshot = current_snapshot(review) or latest_snapshot(review)
    planned = snapshot.chosen_total_hours if snapshot else None
    if fate in ("pilot_ok", "pilot_failed"):
        ok = fate == "pilot_ok"
        _record(
            ctx, f"pilot-{n}", task, offer, kind="pilot_migration", tier="cross_hub",
            succeeded=ok, e2e_hours=0, compute_hours=0, migration_effort_hours=6.0,
            notes="Pilot slice run in Shanghai." if ok else
            "Pilot stalled: the Shanghai bucket throttled reads of the 10 TB input.",
        )
    elif fate in ("on_plan", "slower") and planned:
        factor = 1.05 if fate == "on_plan" else 1.5
        e2e = round(planned * factor, 1)
        _record(
            ctx, f"run-{n}", task, offer, kind="single", nodes=1, gpus_per_node=8,
            e2e_hours=e2e, compute_hours=round(COMPUTE_HOURS / 1.3, 1),
            transfer_hours=round(e2e - COMPUTE_HOURS / 1.3 - 0.5, 1), queue_hours=0.5,
            recovery="resume",
            notes="First production run." if fate == "on_plan" else
            "First production run: the transfer took three times the estimate at evening peak.",
        )


def load(ctx: DemoContext) -> None:
    sites = ctx.objects.get("sites", {})
    offer = ctx.objects.get("offers", {}).get(OFFER)
    link = ctx.objects.get("links", {}).get(LINK)
    if "bj-a" not in sites or offer is None or link is None:
        # The catalog demo changed: without its Beijing site, H200 offer and link, skip.
        log.warning("calibration demo skipped: bj-a, %s or %s not in ctx.objects", OFFER, LINK)
        return
    alice, bob = ctx.users["alice"], ctx.users["bob"]
    for n, (name, workload, input_gb, result_gb, interruption, budget, author, fate) in enumerate(
        JOBS
    ):
        title = f"{name.split(',')[0]}: move to Shanghai H200"
        task = _profile(ctx, sites, name, workload, input_gb, result_gb, interruption, budget)
        review = Review.objects.filter(team=ctx.team1, title=title).first()
        if review is None:
            author_user = ctx.users[author]
            decider = alice if author_user == bob else bob
            try:
                with transaction.atomic():
                    review = _review(ctx, task=task, title=title, author=author_user,
                                     offer=offer, link=link)
                    if fate == "rejected":
                        _decide(review, reviewer=decider, decision="reject",
                                comment="Over a third of the bill is transfer: process it in "
                                        "Beijing or ship a reduced tile set.")
                    else:
                        _decide(review, reviewer=decider, decision="approve",
                                comment="Spare H200 capacity beats the Beijing queue.")
            except (ReviewRefused, ReviewConflict) as exc:
                log.warning("calibration demo review %r not built: %s %s", title, exc,
                            getattr(exc, "reasons", []))
                continue
        _outcome(ctx, review, fate, offer, n)

    name, workload, input_gb, result_gb, interruption, budget, author = DRAFT
    task = _profile(ctx, sites, name, workload, input_gb, result_gb, interruption, budget)
    title = "Speech transcription, spring batch: Shanghai or wait"
    if not Review.objects.filter(team=ctx.team1, title=title).exists():
        draft = reviews.review_create(
            team=ctx.team1, author=ctx.users[author], task=task, title=title,
            candidates=[(offer, 1)],
        )
        candidate = draft.candidates.get()
        for question in ("q1", "q2", "q4"):  # three still open: the checklist gate blocks
            checklist_answer_save(
                candidate=candidate, question=question, actor=ctx.users[author],
                status=AnswerStatus.ANSWERED, text=ANSWERS[question],
            )
        snapshot_compute(review_id=draft.pk)
    # The scoring demo wrote the quarterly cost review before these approvals existed.
    quarterly_refresh(team=ctx.team1)
