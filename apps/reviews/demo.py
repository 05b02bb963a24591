"""Demo reviews in every state, built through the services so the audit trail is real.

Runs after the catalog, profiles and benchmarks demos (it reads ctx.objects["offers"] and
ctx.objects["profiles"]); a review whose profile or offers are missing is skipped with a warning.
Idempotent: a review is looked up by (team, title) and left alone when it exists.

Team Aurora: a draft with answers missing (alice), one submitted and waiting for bob (alice), one
approved with two sign-offs (bob and erin; it required two) and a discussion after it (alice's
follow-up, bob's question on a candidate mentioning erin), one with changes requested, one
rejected. Team Borealis: carol's review waiting for dave.

Method 2.0 (V2_REVIEWS): alice's draft comparing the team's self-hosted Ray pool with the managed
L40S platform for the monthly Whisper fine-tune (profile whisper-ft). Nobody left can maintain the
Ray cluster, so the engine says delivery "managed" (R1e) and blocks the self-hosted candidate (J4):
the draft cannot be submitted as it stands. Its Q5 answers carry the migration effort, which Team
Aurora prices at 100 USD per engineer hour (apps.profiles.demo): the bill's migration_cost line is
effort × 100 ÷ 12 runs a year (3 a quarter × 4): 24 h → 200 USD per run on the managed platform,
4 h → 33.33 USD on the Ray pool.

Engine 2.1 (V21_REVIEWS, SPEC 6.3): alice's draft for the weekly Llama-3-8B LoRA job (profile
lora-8b-spot, whose model shape came from a preset) comparing the on-demand H100 at home with the
spot H100 in Shanghai next to the data. The spot option carries its expected preemption cost
(1.5 a day × 6 h ÷ 24 × half the 30-minute checkpoint interval × 8 GPUs × 2.49 = 1.87 USD) and is
still chosen: 119.52 + 1.87 against 143.52 on demand; both meet the 8 h compute budget with 6
GPUs, which the candidates table shows beside the planned machine.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import transaction

from apps.accounts.demo import DemoContext
from apps.accounts.models import Membership, Role
from apps.reviews import services
from apps.reviews.checklists.models import AnswerStatus, Question
from apps.reviews.checklists.services import checklist_answer_save
from apps.reviews.comments.services import comment_post
from apps.reviews.models import Review
from apps.reviews.snapshots.services import snapshot_compute
from apps.reviews.workflow import ReviewConflict, ReviewRefused

from .services import signoff, submission

log = logging.getLogger(__name__)

ALL = list(Question.values)

# What a careful engineer writes for each question, in the method's terms.
ANSWERS = {
    "q1": "{task}: about {mem} GB of GPU memory for one replica; {offer} has "
    "{gpu_mem:.0f} GB per GPU, so it fits on {fit}.",
    "q2": "Framework supports {parallelism}; the offer supports {offer_par}. Network between "
    "machines is the provider's fabric; we measured single vs multi before deciding.",
    "q3": "Checkpoints every 30 minutes to object storage; resume verified on a killed run. "
    "One interruption loses at most half an hour.",
    "q4": "Billed per {basis}; scheduling fee {fee:.0f}% on top. Compared on the effective "
    "GPU-hour price and the total bill, not the unit price.",
    "q5": "Same container image and launch script; only the data path changes. About 4 hours "
    "of work, paid back in the first week.",
    "q6": "{exit}",
}
# The effort the Q5 answer above names, entered with it (SPEC 6.1 T).
Q5_EFFORT_HOURS = 4.0

REVIEWS = [
    {
        "team": "team1",
        "title": "Nightly 7B evaluation: H100 or A100 pool",
        "author": "alice",
        "profile": "inference-7b",
        "candidates": [("h100-bj-a", 1), ("a100-bj-b", 1)],
        "answered": {"h100-bj-a": ["q1", "q2", "q4", "q6"], "a100-bj-b": ["q1", "q4"]},
        "outcome": "draft",
    },
    {
        "team": "team1",
        "title": "Nightly 7B evaluation on H100: sign-off",
        "author": "alice",
        "profile": "inference-7b",
        "candidates": [("h100-bj-a", 1)],
        "answered": {"h100-bj-a": ALL},
        "outcome": "submitted",
    },
    {
        "team": "team1",
        "title": "Q3 nightly evaluation capacity (signed)",
        "author": "alice",
        "profile": "inference-7b",
        "candidates": [("h100-bj-a", 1), ("sched-bj-a", 1)],
        "answered": {"h100-bj-a": ALL, "sched-bj-a": ALL},
        "outcome": "approved",
        "approvals_required": 2,
        "decisions": [
            ("bob", "approve", "Cheapest total bill and no transfer: fine."),
            ("erin", "approve", "Budget checked against the quarter's plan. Approved."),
        ],
        # Its discussion (issue 40), open after the signature: a follow-up on the review, a
        # question on a candidate with a link and a mention.
        "discussion": [
            ("alice", None, "First nightly run on the plan finished 40 minutes early."),
            (
                "bob",
                "sched-bj-a",
                "@erin the scheduler pool's queue times are at "
                "https://grafana.example.com/d/queues: worth a look next quarter?",
            ),
        ],
    },
    {
        "team": "team1",
        "title": "Nightly 7B evaluation on our own pool with a scheduler",
        "author": "alice",
        "profile": "inference-7b",
        "candidates": [("sched-bj-a", 1)],
        "answered": {"sched-bj-a": ALL},
        "outcome": "changes_requested",
        "decisions": [
            (
                "bob",
                "request_changes",
                "Add the H100 on-demand offer as a second candidate: its total bill may be "
                "lower than running our own pool with the scheduling fee.",
            ),
        ],
    },
    {
        "team": "team1",
        "title": "Clickstream cleaning: compute next to the data in Guangzhou",
        "author": "alice",
        "profile": "cleaning-5tb",
        "candidates": [("l40s-gz-a", 2), ("h100-bj-a", 1)],
        "answered": {"l40s-gz-a": ALL, "h100-bj-a": ALL},
        "reserve": ["bj-a>gz-a", "gz-a>bj-a"],
        "outcome": "rejected",
        "decisions": [
            (
                "bob",
                "reject",
                "The managed platform's job specs need rewriting (exit path): not for a job we "
                "run every month. Bring a plan on a portable offer.",
            ),
        ],
    },
    {
        "team": "team2",
        "title": "Qwen-14B LoRA fine-tuning on the Hangzhou 4090 pool",
        "author": "carol",
        "profile": "borealis-finetune",
        "candidates": [("4090-hz-a", 1)],
        "answered": {"4090-hz-a": ALL},
        "outcome": "submitted",
    },
]


# SPEC 6.1 stories. "migration": per candidate, the Q5 effort in hours and the answer naming it
# (instead of the default answer and Q5_EFFORT_HOURS).
V2_REVIEWS = [
    {
        "team": "team1",
        "title": "Whisper fine-tuning: our Ray pool or the managed L40S platform",
        "author": "alice",
        "profile": "whisper-ft",
        "candidates": [("sched-bj-a", 1), ("l40s-gz-a", 2)],
        "answered": {"sched-bj-a": ALL, "l40s-gz-a": ALL},
        "migration": {
            "l40s-gz-a": (
                24.0,
                "The managed scheduler's job specs replace our Ray job templates: about three "
                "days (24 hours) to rewrite and test them, once.",
            ),
        },
        # Draft: J4 blocks the self-hosted Ray candidate, so submitting it would be refused.
        "outcome": "draft",
    },
]


# SPEC 6.3 stories: preemptible capacity against on demand.
V21_REVIEWS = [
    {
        "team": "team1",
        "title": "Llama-3-8B LoRA: spot H100 in Shanghai or on demand at home",
        "author": "alice",
        "profile": "lora-8b-spot",
        "candidates": [("h100-bj-a", 1), ("h100-spot-sh-a", 1)],
        "answered": {"h100-bj-a": ALL, "h100-spot-sh-a": ALL},
        "reserve": ["bj-a>sh-a"],
        "outcome": "draft",
    },
]


def _demo_user(ctx: DemoContext, username: str, team, role: str):
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.com"}
    )
    if created or not user.check_password(DemoContext.PASSWORD):
        user.set_password(DemoContext.PASSWORD)
        user.save(update_fields=["password"])
    Membership.objects.update_or_create(user=user, team=team, defaults={"role": role})
    ctx.users[username] = user
    return user


def _answer_text(question: str, task, offer) -> str:
    mem = round((task.params_b or 0) * 2 * 1.2, 1)
    return ANSWERS[question].format(
        task=task.name,
        mem=mem,
        offer=offer.name,
        gpu_mem=offer.gpu_mem_gb,
        fit="one GPU of one machine" if mem <= offer.gpu_mem_gb * 0.9 else "one machine",
        parallelism=", ".join(task.parallelism or []) or "none",
        offer_par=", ".join(offer.parallelism or []) or "none",
        basis=offer.get_billing_basis_display(),
        fee=offer.scheduling_fee_pct,
        exit=offer.exit_path or "Weights and configs are ours; data stays in our storage.",
    )


def _build(ctx: DemoContext, spec: dict) -> Review | None:
    team = getattr(ctx, spec["team"])
    task = ctx.objects.get("profiles", {}).get(spec["profile"])
    offers = ctx.objects.get("offers", {})
    links = ctx.objects.get("links", {})
    if task is None or any(key not in offers for key, _ in spec["candidates"]):
        log.warning("demo review %r skipped: its profile or offers are not in the demo", spec)
        return None
    author = ctx.users[spec["author"]]
    review = services.review_create(
        team=team,
        author=author,
        task=task,
        title=spec["title"],
        candidates=[(offers[key], machines) for key, machines in spec["candidates"]],
    )
    for candidate in review.candidates.select_related("offer"):
        key = next(k for k, _ in spec["candidates"] if offers[k].pk == candidate.offer_id)
        effort, effort_text = spec.get("migration", {}).get(key, (Q5_EFFORT_HOURS, None))
        for question in spec["answered"].get(key, []):
            text = _answer_text(question, task, candidate.offer)
            if question == "q5" and effort_text:
                text = effort_text
            checklist_answer_save(
                candidate=candidate,
                question=question,
                actor=author,
                status=AnswerStatus.ANSWERED,
                text=text,
                **({"migration_effort_hours": effort} if question == "q5" else {}),
            )
    if spec.get("reserve"):
        services.review_reserve_links(
            review=review, actor=author, links=[links[k] for k in spec["reserve"] if k in links]
        )
    if spec["outcome"] == "draft":
        return review
    snapshot = submission.review_submit(review=review, actor=author)
    if spec.get("approvals_required"):
        # A review may ask for more sign-offs than the team's default (set after submission,
        # which copies the team's number).
        Review.objects.filter(pk=review.pk).update(approvals_required=spec["approvals_required"])
    for username, decision, comment in spec.get("decisions", []):
        review.refresh_from_db()
        signoff.signoff_create(
            review=review,
            reviewer=ctx.users[username],
            decision=decision,
            comment=comment,
            snapshot_id=snapshot.pk,
        )
    _discussion(ctx, review, spec, offers)
    return review


def _discussion(ctx: DemoContext, review: Review, spec: dict, offers: dict) -> None:
    """The review's comments, each through the service (audit entry, mention told)."""
    review.refresh_from_db()
    for username, offer_key, text in spec.get("discussion", []):
        candidate = None
        if offer_key is not None:
            candidate = review.candidates.select_related("offer").get(offer=offers[offer_key])
        comment_post(review=review, actor=ctx.users[username], text=text, candidate=candidate)


def load(ctx: DemoContext) -> None:
    _demo_user(ctx, "erin", ctx.team1, Role.REVIEWER)
    for spec in REVIEWS + V2_REVIEWS + V21_REVIEWS:
        team = getattr(ctx, spec["team"])
        existing = Review.objects.filter(team=team, title=spec["title"]).first()
        if existing is not None:
            continue
        try:
            with transaction.atomic():
                review = _build(ctx, spec)
        except (ReviewRefused, ReviewConflict) as exc:
            reasons = getattr(exc, "reasons", [])
            log.warning("demo review %r not built: %s %s", spec["title"], exc, reasons)
            continue
        if review is not None:
            snapshot_compute(review_id=review.pk)
