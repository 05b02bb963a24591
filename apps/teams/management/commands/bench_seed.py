"""Seed a large, realistic dataset for the performance benchmarks (bench/run).

Default scale: 20 teams, 10,000 task profiles, 10,000 reviews with candidates and answers,
100,000 benchmark records, 20,000 snapshots — with bulk inserts, in a few minutes at most.
Snapshot JSON is a real engine evaluation per team, reused with distinct fingerprints, so pages
read documents of realistic size. Refused under production settings; `--scale` shrinks it.
"""

from __future__ import annotations

import hashlib
import random
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.utils import timezone

from apps.accounts.models import Membership, Team
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import NetworkLink, Offer, Site
from apps.profiles.models import TaskProfile
from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.models import Candidate, Review, SignOff
from apps.reviews.snapshots.models import EvaluationSnapshot

BENCH_PASSWORD = "bench-pass-123"
SITES = [
    # code, datacenter, city, hub, queue hours
    ("bj-a", "bj-dc1", "Beijing", "north", 6.0),
    ("bj-b", "bj-dc2", "Beijing", "north", 1.0),
    ("sh-a", "sh-dc1", "Shanghai", "east", 0.5),
    ("gz-a", "gz-dc1", "Guangzhou", "south", 0.2),
]
WORKLOADS = ["training", "fine_tuning", "inference", "batch_inference", "data_processing"]
STATES = ["draft", "submitted", "approved", "changes_requested", "rejected"]


class Command(BaseCommand):
    help = "Create the large benchmark dataset (bulk inserts). Not for production."

    def add_arguments(self, parser):
        parser.add_argument("--teams", type=int, default=20)
        parser.add_argument("--profiles", type=int, default=10_000)
        parser.add_argument("--reviews", type=int, default=10_000)
        parser.add_argument("--benchmarks", type=int, default=100_000)
        parser.add_argument("--snapshots", type=int, default=20_000)
        parser.add_argument("--big-review-records", type=int, default=1_000)
        parser.add_argument("--seed", type=int, default=7)

    def handle(self, *args, **opts):
        if getattr(settings, "PRODUCTION", False):
            raise CommandError("bench_seed never runs with production settings.")
        if Team.objects.filter(slug="bench-01").exists():
            self.stdout.write("bench data already present; nothing to do")
            return
        for key in ("teams", "profiles", "reviews", "benchmarks", "snapshots"):
            if opts[key] < 1:
                raise CommandError(f"--{key} must be at least 1")
        if opts["snapshots"] < opts["reviews"]:
            raise CommandError("--snapshots must be at least --reviews (one per review)")
        self.rng = random.Random(opts["seed"])
        started = time.monotonic()
        with transaction.atomic():
            self._seed(opts)
        if connection.vendor == "postgresql":
            # As autovacuum leaves a table some time after a bulk insert: statistics for the
            # planner, and a visibility map so an index alone answers a count or a page of ids.
            with connection.cursor() as cursor:
                # VACUUM cannot run in a transaction (a caller's): ANALYZE alone there.
                cursor.execute("ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE")
        elapsed = time.monotonic() - started
        self.stdout.write(self.style.SUCCESS(f"bench data seeded in {elapsed:.1f}s"))

    def _log(self, what: str) -> None:
        self.stdout.write(f"  {what}")

    def _seed(self, opts) -> None:
        rng = self.rng
        n_teams = opts["teams"]
        User = get_user_model()
        password = make_password(BENCH_PASSWORD)
        teams = Team.objects.bulk_create(
            [
                Team(name=f"Bench team {i + 1:02d}", slug=f"bench-{i + 1:02d}")
                for i in range(n_teams)
            ]
        )
        users, memberships = [], []
        for i in range(len(teams)):
            for name in ("owner", "reviewer", "eng"):
                users.append(User(username=f"bench-{name}-{i + 1:02d}", password=password))
        # The user the benchmark logs in as: reviewer of team 1 and member of team 2.
        users.append(User(username="bench", password=password))
        users = User.objects.bulk_create(users)
        by_name = {u.username: u for u in users}
        for i, team in enumerate(teams):
            for role, name in (("owner", "owner"), ("reviewer", "reviewer"), ("member", "eng")):
                memberships.append(
                    Membership(user=by_name[f"bench-{name}-{i + 1:02d}"], team=team, role=role)
                )
        memberships.append(Membership(user=by_name["bench"], team=teams[0], role="reviewer"))
        if n_teams > 1:
            memberships.append(Membership(user=by_name["bench"], team=teams[1], role="member"))
        Membership.objects.bulk_create(memberships)
        self._log(f"{len(teams)} teams, {len(users)} users")

        sites = Site.objects.bulk_create(
            [
                Site(team=t, code=c, name=c.upper(), datacenter=dc, city=city, hub=hub,
                     queue_hours=q)
                for t in teams
                for c, dc, city, hub, q in SITES
            ]
        )
        sites_by_team: dict[int, list[Site]] = {}
        for s in sites:
            sites_by_team.setdefault(s.team_id, []).append(s)
        links = []
        for t in teams:
            ts = sites_by_team[t.pk]
            for a in ts:
                for b in ts:
                    if a is b:
                        continue
                    same_city = a.city == b.city
                    links.append(
                        NetworkLink(
                            team=t, from_site=a, to_site=b,
                            bandwidth_gbps=100 if same_city else 10,
                            rtt_ms=1.5 if same_city else 30,
                            price_per_gb=0.0 if same_city else 0.05,
                            reservable=not same_city,
                        )
                    )
        NetworkLink.objects.bulk_create(links)
        offers = []
        for t in teams:
            ts = sites_by_team[t.pk]
            for k in range(10):
                basis = ("gpu_hour", "machine_hour", "contract")[k % 3]
                offers.append(
                    Offer(
                        team=t, provider=f"Provider {k % 4}", name=f"Offer {k}",
                        kind=("compute", "distributed", "managed")[k % 3], site=ts[k % 4],
                        gpu_model=("H100 80GB", "A100 80GB", "H200 141GB", "L40S 48GB")[k % 4],
                        gpu_mem_gb=(80, 80, 141, 48)[k % 4], gpus_per_machine=8,
                        max_machines=64, billing_basis=basis,
                        price={"gpu_hour": 2.5, "machine_hour": 22.0, "contract": 150_000.0}[basis],
                        contract_hours=2000 if basis == "contract" else None,
                        expected_utilization=0.75 if basis == "contract" else None,
                        scheduling_fee_pct=5 if k % 3 == 1 else 0,
                        parallelism=["data", "tensor", "pipeline"], relative_speed=1.0 + k * 0.05,
                    )
                )
        offers = Offer.objects.bulk_create(offers)
        offers_by_team: dict[int, list[Offer]] = {}
        for o in offers:
            offers_by_team.setdefault(o.team_id, []).append(o)
        self._log(f"{len(sites)} sites, {len(links)} links, {len(offers)} offers")

        profiles = []
        for i in range(opts["profiles"]):
            t = teams[i % n_teams]
            ts = sites_by_team[t.pk]
            profiles.append(
                TaskProfile(
                    team=t, name=f"Task {i:05d}", workload=WORKLOADS[i % len(WORKLOADS)],
                    cadence="recurring" if i % 3 else "one_off", runs_per_quarter=1 + i % 6,
                    params_b=(7, 13, 70, 1.5)[i % 4], precision="bf16", coupling="loose",
                    parallelism=["data", "tensor"], input_gb=rng.choice([50, 500, 5000]),
                    result_gb=rng.choice([1, 50]), compress_ratio=0.6, compute_hours=rng.choice(
                        [4, 24, 120]), data_site=ts[i % 4], home_site=ts[0], result_site=ts[0],
                    resumable=True, env_simple=True, image_packaged=True, offsite_allowed=True,
                    has_machines=bool(i % 2), pain=("none", "slow", "queueing")[i % 3],
                )
            )
        profiles = TaskProfile.objects.bulk_create(profiles, batch_size=2000)
        profiles_by_team: dict[int, list[TaskProfile]] = {}
        for p in profiles:
            profiles_by_team.setdefault(p.team_id, []).append(p)
        self._log(f"{len(profiles)} task profiles")

        records = []
        for i in range(opts["benchmarks"]):
            t = teams[i % n_teams]
            p = profiles_by_team[t.pk][(i // n_teams) % len(profiles_by_team[t.pk])]
            o = offers_by_team[t.pk][i % 10]
            multi = i % 2 == 1
            e2e = rng.uniform(5, 200)
            records.append(
                BenchmarkRecord(
                    team=t, task=p, offer=o, kind="multi" if multi else "single",
                    nodes=4 if multi else 1, gpus_per_node=8, e2e_hours=e2e,
                    compute_hours=e2e * 0.8, transfer_hours=e2e * 0.05, queue_hours=e2e * 0.05,
                    failure_reruns=i % 3, hours_lost_per_rerun=2.0, cost=e2e * 20, source="api",
                )
            )
        BenchmarkRecord.objects.bulk_create(records, batch_size=5000)
        self._log(f"{len(records)} benchmark records")

        now = timezone.now()
        reviews = []
        for i in range(opts["reviews"]):
            t = teams[i % n_teams]
            p = profiles_by_team[t.pk][(i // n_teams) % len(profiles_by_team[t.pk])]
            author = by_name[f"bench-eng-{(i % n_teams) + 1:02d}"]
            reviews.append(
                Review(team=t, task=p, title=f"Review {i:05d}: {p.name}", author=author,
                       state="draft", submitted_at=now, approvals_required=1)
            )
        reviews = Review.objects.bulk_create(reviews, batch_size=2000)
        candidates = []
        for r in reviews:
            team_offers = offers_by_team[r.team_id]
            k = r.pk % 10
            for pos, o in enumerate((team_offers[k], team_offers[(k + 1) % 10])):
                candidates.append(Candidate(review=r, offer=o, machines=1 + pos, position=pos))
        candidates = Candidate.objects.bulk_create(candidates, batch_size=5000)
        answers = [
            ChecklistAnswer(candidate=c, question=f"q{q}", status="answered",
                            text="Checked against the benchmark and the contract.")
            for c in candidates
            for q in range(1, 7)
        ]
        ChecklistAnswer.objects.bulk_create(answers, batch_size=10_000)
        self._log(f"{len(reviews)} reviews, {len(candidates)} candidates, {len(answers)} answers")

        self._snapshots(opts, teams, reviews, by_name, n_teams)
        self._big_review(opts, teams[0], offers_by_team, sites_by_team, by_name)

    def _template_snapshot(self, review: Review) -> EvaluationSnapshot:
        from apps.reviews.snapshots.services import snapshot_compute

        return snapshot_compute(review_id=review.pk)

    def _snapshots(self, opts, teams, reviews, by_name, n_teams) -> None:
        templates: dict[int, EvaluationSnapshot] = {}
        for r in reviews[:n_teams]:
            templates[r.team_id] = self._template_snapshot(r)
        from apps.profiles.engine_input import fingerprint

        real_fp = {team_id: fingerprint(t.input) for team_id, t in templates.items()}
        per_review = max(1, opts["snapshots"] // len(reviews))
        extra = opts["snapshots"] - per_review * len(reviews)
        snaps = []
        done_templates = {t.review_id for t in templates.values()}
        now = timezone.now()
        for i, r in enumerate(reviews):
            tpl = templates[r.team_id]
            count = per_review + (1 if i < extra else 0)
            for k in range(count):
                if r.pk in done_templates and k == 0:
                    continue
                # The newest snapshot carries the real fingerprint of its input, so an approved
                # review (whose signed input is that input) finds it as its current snapshot.
                fp = (
                    real_fp[r.team_id]
                    if k == count - 1 and r.pk not in done_templates
                    else hashlib.sha256(f"bench-{r.pk}-{k}".encode()).hexdigest()
                )
                snaps.append(
                    EvaluationSnapshot(
                        team_id=r.team_id, review=r, task_id=r.task_id, fingerprint=fp,
                        input_hash=tpl.input_hash, engine_version="bench-" + tpl.engine_version
                        if k < count - 1 else tpl.engine_version,
                        input=tpl.input, output=tpl.output, table_rows=tpl.table_rows,
                        chart_data=tpl.chart_data,
                        review_state=STATES[(i // n_teams) % len(STATES)],
                        platform=tpl.platform, chosen_kind=tpl.chosen_kind,
                        chosen_site=tpl.chosen_site, chosen_offer=tpl.chosen_offer,
                        chosen_total_cost=tpl.chosen_total_cost,
                        chosen_total_hours=tpl.chosen_total_hours, block_count=tpl.block_count,
                        warn_count=tpl.warn_count,
                    )
                )
        EvaluationSnapshot.objects.bulk_create(snaps, batch_size=1000)
        # Spread creation times over two years so history filters and ordering mean something.
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "UPDATE scoring_evaluationsnapshot SET created_at = "
                    "now() - (id % 730) * interval '1 day' WHERE engine_version LIKE 'bench-%%'"
                )
        self._log(f"{len(snaps) + len(templates)} snapshots")
        # Final states, set after the children exist (a signed review refuses new children).
        latest = {}
        for s in EvaluationSnapshot.objects.filter(review__in=reviews).values_list(
            "review_id", "id"
        ):
            latest[s[0]] = max(latest.get(s[0], 0), s[1])
        signoffs, approved, by_state = [], [], {}
        for i, r in enumerate(reviews):
            state = STATES[(i // n_teams) % len(STATES)]
            by_state.setdefault(state, []).append(r.pk)
            if state in ("approved", "rejected", "changes_requested"):
                reviewer = by_name[f"bench-reviewer-{(i % n_teams) + 1:02d}"]
                decision = {"approved": "approve", "rejected": "reject",
                            "changes_requested": "request_changes"}[state]
                signoffs.append(SignOff(review=r, reviewer=reviewer, decision=decision,
                                        comment="Figures checked.", snapshot_id=latest[r.pk]))
            if state == "approved":
                approved.append(r.pk)
        SignOff.objects.bulk_create(signoffs, batch_size=5000)
        now = timezone.now()
        for state, ids in by_state.items():
            if state in ("draft", "approved"):
                continue
            Review.objects.filter(pk__in=ids).update(
                state=state, decided_at=now if state == "rejected" else None
            )
        # Approved reviews keep the input they were signed on, written with the state in one
        # update: once a review is approved the database refuses any further change.
        snapshot_inputs = dict(
            EvaluationSnapshot.objects.filter(review_id__in=approved, id__in=latest.values())
            .values_list("review_id", "input")
        )
        for review_id in approved:
            Review.objects.filter(pk=review_id).update(
                state="approved", decided_at=now, frozen_input=snapshot_inputs[review_id]
            )
        self._log(f"{len(signoffs)} sign-offs; states set")

    def _big_review(self, opts, team, offers_by_team, sites_by_team, by_name) -> None:
        """One review whose task has N benchmark records, for the snapshot-task timing."""
        ts = sites_by_team[team.pk]
        profile = TaskProfile.objects.create(
            team=team, name="Bench: task with many records", workload="training",
            params_b=70, precision="bf16", coupling="loose", parallelism=["data", "pipeline"],
            input_gb=2000, result_gb=20, compress_ratio=0.7, compute_hours=300,
            data_site=ts[3], home_site=ts[0], result_site=ts[0], resumable=True,
            env_simple=True, image_packaged=True, offsite_allowed=True, cadence="recurring",
            runs_per_quarter=3,
        )
        team_offers = offers_by_team[team.pk][:5]
        records = []
        for i in range(opts["big_review_records"]):
            o = team_offers[i % 5]
            multi = i % 2 == 1
            e2e = 400 / (3 if multi else 1) + self.rng.uniform(-5, 5)
            records.append(
                BenchmarkRecord(
                    team=team, task=profile, offer=o, kind="multi" if multi else "single",
                    nodes=4 if multi else 1, gpus_per_node=8, e2e_hours=e2e,
                    compute_hours=e2e * 0.85, failure_reruns=i % 2, hours_lost_per_rerun=3,
                    cost=e2e * 25, source="api",
                )
            )
        BenchmarkRecord.objects.bulk_create(records, batch_size=5000)
        review = Review.objects.create(
            team=team, task=profile, title="Bench: review with many records",
            author=by_name["bench-eng-01"], state="draft",
        )
        Candidate.objects.bulk_create(
            [Candidate(review=review, offer=o, machines=2, position=i)
             for i, o in enumerate(team_offers)]
        )
        self._log(f"big review #{review.pk} with {len(records)} records")
