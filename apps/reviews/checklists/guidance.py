"""The six questions of SPEC C (选型核对清单) with guidance in the method's own terms."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .models import Question


@dataclass(frozen=True)
class QuestionGuide:
    code: str
    number: int
    title: Promise
    prompt: Promise
    guidance: Promise


GUIDES: tuple[QuestionGuide, ...] = (
    QuestionGuide(
        Question.Q1.value,
        1,
        Question.Q1.label,
        _("Memory and data volume: can the job fit on one machine?"),
        _(
            "Compare the estimated or measured peak GPU memory with this offer's usable memory "
            "(GPU memory × 0.9 headroom) and count the machines it needs; say how much input "
            "data it reads. If it fits one machine, a compute platform is enough: a distributed "
            "layer only pays when it does not."
        ),
    ),
    QuestionGuide(
        Question.Q2.value,
        2,
        Question.Q2.label,
        _("Which parallel strategies, and what cross-machine network and bandwidth?"),
        _(
            "Name the strategies the task's framework supports (data, tensor, pipeline) and "
            "whether this offer supports them; give the bandwidth (Gbit/s) between machines and "
            "between sites. Tightly coupled training needs one high-speed pool: multi-machine "
            "can be slower end to end, so measure single against multi."
        ),
    ),
    QuestionGuide(
        Question.Q3.value,
        3,
        Question.Q3.label,
        _("After a failure: resume, partial retry, or a whole rerun?"),
        _(
            "Say whether the job resumes from a checkpoint on this offer (and whether that was "
            "verified), retries only the failed part, or reruns everything; give the hours one "
            "interruption loses. One rerun can eat the whole gain of going multi-machine."
        ),
    ),
    QuestionGuide(
        Question.Q4.value,
        4,
        Question.Q4.label,
        _("GPU-hour, machine-hour or contract; is scheduling overhead billed?"),
        _(
            "State the billing basis and any scheduling fee on top, then align the prices to an "
            "effective GPU-hour (a contract divides by its hours × GPUs × expected "
            "utilization). Compare total bills, not unit prices: the cheapest unit price is not "
            "always the cheapest total."
        ),
    ),
    QuestionGuide(
        Question.Q5.value,
        5,
        Question.Q5.label,
        _("What changes to launch here: scripts, dependency versions, data paths?"),
        _(
            "List what must change to run on this offer: launch commands, drivers and "
            "dependency versions, the environment image, data paths. Count the effort in hours "
            "and weigh it against the hours saved per run over a year."
        ),
    ),
    QuestionGuide(
        Question.Q6.value,
        6,
        Question.Q6.label,
        _("Can the weights, data and job configs leave as they are?"),
        _(
            "Say how the model weights, the data and the job configurations come back out of "
            "this platform, in which formats, and whether anything locks them in. A plan without "
            "an exit path is a plan you cannot change later."
        ),
    ),
)

GUIDE_BY_CODE = {guide.code: guide for guide in GUIDES}
