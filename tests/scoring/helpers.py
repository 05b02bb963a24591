"""A small world for scoring tests: three sites, three offers (one per placement kind), a task
whose data lives away from home, a single/multi benchmark pair and a review of all three."""

from __future__ import annotations

from dataclasses import dataclass

from apps.reviews.checklists.models import AnswerStatus, ChecklistAnswer, Question
from tests.factories import (
    make_benchmark,
    make_link,
    make_offer,
    make_profile,
    make_review,
    make_site,
)


@dataclass
class World:
    home: object
    data: object
    far: object
    local: object  # offer at home: wait_local
    near_data: object  # offer at the data site: move_compute
    remote: object  # offer elsewhere: move_data
    task: object
    review: object


def make_world(
    team, author, *, tag: str = "", benchmarks: bool = True, answered: bool = True, **task_kw
) -> World:
    """Site codes are home-<team slug><tag>, data-…, far-…; `tag` tells two worlds apart."""
    suffix = f"{team.slug}{tag}"
    home = make_site(team, f"home-{suffix}", city="Shanghai", hub="east", queue_hours=10)
    data = make_site(team, f"data-{suffix}", city="Shanghai", hub="east", queue_hours=1)
    far = make_site(team, f"far-{suffix}", city="Guiyang", hub="west", queue_hours=0)
    make_link(team, data, home, bandwidth_gbps=10, price_per_gb=0.01)
    make_link(team, data, far, bandwidth_gbps=20, price_per_gb=0.02)
    make_link(team, home, far, bandwidth_gbps=5, price_per_gb=0.03)
    local = make_offer(team, home, name="Local H100", price=2.0)
    near_data = make_offer(team, data, name="Data-side A100", price=1.8, gpu_mem_gb=80)
    remote = make_offer(team, far, name="Far L40S", price=1.2, gpu_mem_gb=48)
    defaults = {
        "name": "Nightly batch inference",
        "workload": "batch_inference",
        "params_b": 7,
        "compute_hours": 20,
        "input_gb": 500,
        "result_gb": 5,
        "gpus": 8,
        "home_site": home,
        "data_site": data,
        "result_site": home,
        "env_simple": True,
        "image_packaged": True,
        "offsite_allowed": True,
        "resumable": True,
        "resume_verified": True,
        "env_aligned": True,
        "has_machines": True,
    }
    defaults.update(task_kw)
    task = make_profile(team, **defaults)
    if benchmarks:
        make_benchmark(team, task, local, kind="single", nodes=1, gpus_per_node=8,
                       e2e_hours=20, compute_hours=18, peak_gpu_mem_gb=17)
        make_benchmark(team, task, local, kind="multi", nodes=2, gpus_per_node=8,
                       e2e_hours=12, compute_hours=10, failure_reruns=1, hours_lost_per_rerun=1)
    review = make_review(team, author, task=task, offers=[local, near_data, remote])
    if answered:
        answer_all(review)
    return World(home, data, far, local, near_data, remote, task, review)


def approve(review, reviewer, snapshot, when) -> None:
    """Sign the review off on `snapshot` and mark it approved at `when` (in that order: on
    PostgreSQL nothing may be added to an approved review)."""
    from apps.reviews.models import Review, SignOff

    SignOff.objects.create(review=review, reviewer=reviewer, decision="approve", snapshot=snapshot)
    Review.objects.filter(pk=review.pk).update(state="approved", decided_at=when)
    review.refresh_from_db()


def answer_all(review) -> None:
    for candidate in review.candidates.all():
        for question in Question.values:
            ChecklistAnswer.objects.update_or_create(
                candidate=candidate, question=question,
                defaults={"status": AnswerStatus.ANSWERED, "text": "yes"},
            )
