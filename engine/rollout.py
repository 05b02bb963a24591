"""SPEC H: rollout tier (H1) and dispatch readiness (H2) of the chosen option."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import Finding, finding
from .placement import PlacementOption
from .schema import EngineInput

# SPEC H: an owner may mark a tier validated after this many successful pilots on it.
PILOTS_TO_VALIDATE = 2


@dataclass(slots=True)
class Readiness:
    channel_reserved: bool
    resume_verified: bool
    env_aligned: bool

    @property
    def dispatch_ready(self) -> bool:
        return self.channel_reserved and self.resume_verified and self.env_aligned


def rollout(inp: EngineInput, chosen: PlacementOption | None) -> tuple[Readiness, list[Finding]]:
    if chosen is None:
        # Nothing chosen, nothing to dispatch.
        return Readiness(False, False, False), []
    task = inp.task
    found: list[Finding] = []

    # SPEC H1: a chosen option on a tier the team has not validated → pilot first.
    if chosen.tier not in task.team.validated_tiers:
        pilots = sum(
            1
            for b in inp.benchmarks
            if b.kind == "pilot_migration" and b.tier == chosen.tier and b.succeeded
        )
        key = "H1.pilots_ready" if pilots >= PILOTS_TO_VALIDATE else "H1"
        data = {
            "tier": chosen.tier,
            "validated": list(task.team.validated_tiers),
            "successful_pilots": pilots,
        }
        found.append(finding("H1", "warn", key, data))

    if not chosen.legs:
        # An option that moves nothing is ready as it is.
        return Readiness(True, True, True), found
    readiness = Readiness(
        channel_reserved=all(leg.link_reserved for leg in chosen.legs),
        resume_verified=task.resume_verified,
        env_aligned=task.env_aligned,
    )
    if not readiness.dispatch_ready:
        # SPEC H2: a plan that moves something is not approved until all three are in place.
        missing = [
            name
            for name in ("channel_reserved", "resume_verified", "env_aligned")
            if not getattr(readiness, name)
        ]
        found.append(finding("H2", "block", "H2", {"missing": missing}))
    return readiness, found
