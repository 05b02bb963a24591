"""Plain factory functions: realistic defaults, every field overridable by keyword."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from apps.accounts.models import Membership, Team

_seq = itertools.count(1)
PASSWORD = "test-pass-123"


def make_team(name: str | None = None, slug: str | None = None, **kw) -> Team:
    n = next(_seq)
    return Team.objects.create(name=name or f"Team {n}", slug=slug or f"team-{n}", **kw)


def make_user(username: str | None = None, verified: bool = True, **kw):
    user = get_user_model().objects.create_user(
        username=username or f"user{next(_seq)}",
        password=PASSWORD,
        email=kw.pop("email", None) or f"{username or 'u'}{next(_seq)}@example.com",
        **kw,
    )
    if verified:  # as after an invitation: sign-in needs a verified address
        from allauth.account.models import EmailAddress

        # An address is verified for one account at most (two accounts may share an email).
        if not EmailAddress.objects.filter(email__iexact=user.email, verified=True).exists():
            EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def make_membership(user, team: Team, role: str = "member") -> Membership:
    return Membership.objects.create(user=user, team=team, role=role)


def make_site(team: Team, code: str | None = None, **kw):
    from apps.catalog.models import Site

    code = code or f"site-{next(_seq)}"
    defaults = {
        "name": code.upper(),
        "datacenter": f"dc-{code}",
        "city": "Beijing",
        "hub": "north",
        "queue_hours": 0,
    }
    defaults.update(kw)
    return Site.objects.create(team=team, code=code, **defaults)


def make_link(team: Team, from_site, to_site, **kw):
    from apps.catalog.models import NetworkLink

    defaults = {"bandwidth_gbps": 10, "rtt_ms": 5, "price_per_gb": 0.02}
    defaults.update(kw)
    return NetworkLink.objects.create(team=team, from_site=from_site, to_site=to_site, **defaults)


def make_offer(team: Team, site=None, **kw):
    from apps.catalog.models import Offer

    site = site or make_site(team)
    defaults = {
        "provider": "Acme Cloud",
        "name": f"H100 x8 #{next(_seq)}",
        "kind": "compute",
        "gpu_model": "H100 80GB",
        "gpu_mem_gb": 80,
        "gpus_per_machine": 8,
        "billing_basis": "gpu_hour",
        "price": 2.5,
        "scheduling_fee_pct": 0,
        "parallelism": ["data", "tensor", "pipeline"],
        "relative_speed": 1.0,
    }
    defaults.update(kw)
    return Offer.objects.create(team=team, site=site, **defaults)


def make_profile(team: Team, site=None, **kw):
    from apps.profiles.models import TaskProfile

    site = site or make_site(team)
    defaults = {
        "name": f"Task {next(_seq)}",
        "workload": "inference",
        "params_b": 7,
        "precision": "bf16",
        "compute_hours": 10,
        # SPEC 6.1: compute hours are measured on a GPU count (one machine of make_offer).
        "gpus": 8,
        "input_gb": 100,
        "result_gb": 5,
        "data_site": site,
        "home_site": site,
        "result_site": site,
    }
    defaults.update(kw)
    return TaskProfile.objects.create(team=team, **defaults)


def make_benchmark(team: Team, task, offer=None, **kw):
    from apps.benchmarks.models import BenchmarkRecord

    defaults = {
        "kind": "single",
        "nodes": 1,
        "gpus_per_node": 8,
        "e2e_hours": 10,
        "compute_hours": 9,
    }
    defaults.update(kw)
    return BenchmarkRecord.objects.create(team=team, task=task, offer=offer, **defaults)


def make_review(team: Team, author, task=None, offers=(), **kw):
    from apps.reviews.models import Candidate, Review

    task = task or make_profile(team)
    defaults = {"title": f"Review of {task.name}"}
    defaults.update(kw)
    review = Review.objects.create(team=team, task=task, author=author, **defaults)
    for position, offer in enumerate(offers):
        Candidate.objects.create(review=review, offer=offer, machines=1, position=position)
    return review
