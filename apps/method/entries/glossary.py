"""The glossary of the method's words (see apps/method/entries/__init__.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .model import Term

GLOSSARY: tuple[Term, ...] = (
    Term(
        "compute-platform",
        _("Compute platform"),
        _(
            "Sells resources: GPUs, storage and network as machines, containers or interfaces, "
            "bought by the hour or by contract. It answers “where does the compute come from”."
        ),
    ),
    Term(
        "distributed-platform",
        _("Distributed computing platform"),
        _(
            "Sells the ability to split one job over several machines and merge the results: a "
            "scheduler, a runtime and job descriptions. It produces no compute itself."
        ),
    ),
    Term(
        "both-layers",
        _("Both layers"),
        _(
            "A distributed layer stacked on a compute platform; the two stack, one does not "
            "replace the other."
        ),
    ),
    Term(
        "managed",
        _("Managed delivery"),
        _(
            "The distributed layer is run by the provider, for a team that cannot maintain a "
            "scheduler."
        ),
    ),
    Term(
        "site",
        _("Site (resource pool)"),
        _("A place with capacity, a queue and storage; every offer runs at one site."),
    ),
    Term(
        "domain",
        _("Domain"),
        _(
            "A datacenter. A site without a datacenter is a domain of its own. “Stay in the "
            "same domain” means every option stays in the home site's datacenter."
        ),
    ),
    Term(
        "tier",
        _("Tier"),
        _(
            "How far apart two sites are: same site, same datacenter, same city, cross hub. It "
            "sets the transfer buffer and the rollout order."
        ),
    ),
    Term(
        "wait-local",
        _("Wait locally"),
        _("Run at the home site, queue included."),
    ),
    Term(
        "move-compute",
        _("Move compute to the data"),
        _("Run at the data site and ship only the results."),
    ),
    Term(
        "move-data",
        _("Move the data"),
        _("Run at a third site: the input, the image and the results all travel."),
    ),
    Term(
        "objective",
        _("Objective"),
        _(
            "Total cost + the value of an hour of waiting × total hours; the feasible option "
            "with the least objective is chosen."
        ),
    ),
    Term(
        "effective-price",
        _("Effective GPU-hour price"),
        _(
            "A price on any billing basis brought to one GPU-hour: per machine-hour ÷ GPUs per "
            "machine; per contract ÷ (hours × GPUs × expected utilisation)."
        ),
    ),
    Term(
        "billed-gpus",
        _("Billed GPUs"),
        _(
            "The GPUs paid for: whole machines on machine-hour and contract bases, even when "
            "the plan uses fewer."
        ),
    ),
    Term(
        "staged",
        _("Staged input"),
        _("A repeatedly scanned input copied once to storage at the site that runs the job."),
    ),
    Term(
        "streamed",
        _("Streamed input"),
        _(
            "An input read over the network on every pass, because the site has no room to "
            "stage it."
        ),
    ),
    Term(
        "sharded",
        _("Sharded"),
        _(
            "Data parallelism that also splits the model's weights, gradients and optimizer "
            "state over the GPUs (FSDP, ZeRO-3), so a model that fits no single GPU can still "
            "fit one machine."
        ),
    ),
    Term(
        "coupling",
        _("Coupling"),
        _(
            "How often the parts of a job talk: none, loose, or tight (tensor parallel, "
            "high-frequency communication)."
        ),
    ),
    Term(
        "pair",
        _("Like-for-like pair"),
        _(
            "The fastest single-machine and the fastest multi-machine run of one task on the "
            "same offer. Speedup = single ÷ multi end-to-end hours; scaling efficiency = "
            "speedup ÷ GPU ratio."
        ),
    ),
    Term(
        "readiness",
        _("Readiness (dispatch ready)"),
        _(
            "Channel reserved, resume verified, environments aligned: all three before a plan "
            "that moves data may be dispatched."
        ),
    ),
    Term(
        "latency-budget",
        _("Latency budget"),
        _(
            "The longest wait the task tolerates, split into transfer, queue and compute; "
            "blank means no limit."
        ),
    ),
    Term(
        "preemptible",
        _("Preemptible capacity"),
        _(
            "Spot capacity the provider may take back; each preemption loses work, priced on "
            "its own line."
        ),
    ),
    Term(
        "severity",
        _("Block, warning, information"),
        _(
            "A block finding stops approval until fixed; a warning needs a reason to go on; "
            "information explains the decision."
        ),
    ),
    Term(
        "contract-paid",
        _("Package already paid"),
        _(
            "A contract package bought up front: the runs that fit its hours cost no new money, "
            "only the work they displace (T.paid). Unpaid, a one-off job pays the whole package "
            "and a recurring one its share at the expected utilization."
        ),
    ),
    Term(
        "cost-budget",
        _("Cost budget per run"),
        _(
            "The most one run may cost, read against the whole bill; over it, P4 names the "
            "option within it and the hours it adds."
        ),
    ),
    Term(
        "deadline-plan",
        _("Deadline plan"),
        _(
            "What meeting the compute budget would cost on an offer that misses it: the GPUs "
            "that meet it, in whole machines, and the total against the chosen option (M3)."
        ),
    ),
)
