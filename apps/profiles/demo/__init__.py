"""Demo task profiles: jobs for Team Aurora, each chosen so that the engine's conclusion teaches
something (six of method 1, then the method 2.0 stories of SPEC 6.1, one old imported profile),
and two for Team Borealis. Runs after apps.catalog.demo (it needs ctx.objects["sites"]);
idempotent by (team, name). Team Aurora's engineer-hour price (SPEC 6.1 T), which the stories
below read, is set by apps.teams.demo through the settings service. The stories are data in
method1.py and method2.py; this module loads them.

Model sizes are public parameter counts (Llama 2 7B / 13B / 70B, a 40B dense model, Qwen 14B,
Whisper-large-v3 1.55B, ViT-L 0.3B, BERT-large 0.34B); compute hours are plausible orders of
magnitude, not measurements.

What the engine concludes on the demo catalog (see tests/profiles/test_demo.py):
- inference-7b: 16.8 GB, one GPU fits (R5, compute platform); no transfer budget (G2), so it
  waits locally.
- training-70b: 1,344 GB, no offer fits one machine; one-off and nobody maintains a scheduler
  (R1b: rent multi-node capacity, do not build a scheduler); loose coupling lets it move.
- training-tp: tensor parallel, tight coupling: X3 and K1, stays in its pool; fits one H200
  machine only because it splits (R4: machines, scheduler, too slow → look at both layers).
- cleaning-5tb: 5 TB at gz-a, 50 GB of results, home bj-a: move compute to the data (D1, M1).
- compliance-batch: compliance restricted (X4): the data does not move; it waits locally.
- online-service: low-latency online service (X1): deployed locally.
Method 2.0 (each story's comment below works out the figures):
- compliance-away (X4 next to the data), finetune-7b-full (sharded), pretrain-no-resume (R7,
  pool_too_small);
- embed-retrain: a measured cross-machine gain on a weekly job moves the platform (R6);
- synthetic-160: no pool holds 160 GPUs; K2 names the pool sets that together would;
- whisper-ft: nobody can maintain the Ray cluster: delivery managed (R1e), J4 blocks self-hosting;
- vit-epochs: repeated full scans are staged once next to the compute (D2);
- fraud-retrain: the cheapest plan misses the 1 h queue budget; M3 names the one that meets it;
- legacy-bert: an imported v1 profile without a planned GPU count (P3).
Engine 2.1 (SPEC 6.3, method21.py):
- lora-8b-spot: a model shape from the Llama-3-8B preset (the memory bar shows its activations),
  a checkpoint every 30 min and an 8 h compute budget (6 GPUs would meet it); the spot review of
  the reviews demo compares the spot H100 in Shanghai with the on-demand one in Beijing.
Engine 2.2 (SPEC 6.4, method22.py):
- tokens-14b-staged: 20 TB of raw logs in Guangzhou, 400 GB of tokenized shards made there and
  reused by 4 runs; training in Beijing ships the shards, not the logs (a staged plan, D3).
Engine 3.0 (SPEC 7.1, method30.py):
- finetune-70b-8gpus: a 70B full fine-tune planned on 8 GPUs holds one replica nowhere
  (too_few_gpus); A2 blocks, naming the GPUs to plan.
Engine 3.0 (SPEC 7.8, method30.py):
- scans-stay-gz: compliance-restricted scans in Guangzhou whose licence forbids running off the
  allowed sites (G1 fails only on offsite_allowed): X4's allowed sites, not the home
  datacenter, limit the options, so the job runs next to its data.
Engine 3.1 (SPEC 7.4, 7.5, 7.11, method31.py):
- pretrain-70b-tight-32: a tight job over 4 machines: the Ethernet A100s are refused
  (no_fast_interconnect), the team's own pool has no interconnect recorded (K3), and its
  self-hosted scheduler's upkeep joins its bill (scheduler_ops_cost, R1e).
- docs-7b-streamed: 6 TB read from Guangzhou while computing in Beijing (input_overlapped).
Engine 3.1 (SPEC 7.6, 7.7, method31_money.py):
- eval-sweep-deadline: a 12 h compute budget no offer meets on the planned 8 GPUs and a money
  budget of 950 USD a run: deadline plans per offer, M3 naming the cheapest, P4.
"""

from __future__ import annotations

from apps.accounts.demo import DemoContext

from ..models import TaskProfile
from .method1 import AURORA_PROFILES, BOREALIS_PROFILES
from .method2 import AURORA_IMPORTED_V1_PROFILES, AURORA_V2_PROFILES
from .method21 import AURORA_V21_PROFILES
from .method22 import AURORA_V22_PROFILES
from .method30 import AURORA_V30_PROFILES
from .method31 import AURORA_V31_PROFILES
from .method31_money import AURORA_V31_MONEY_PROFILES


def _load_team(ctx: DemoContext, team, specs) -> None:
    sites = ctx.objects["sites"]
    profiles = ctx.objects.setdefault("profiles", {})
    for spec in specs:
        fields = dict(spec)
        key = fields.pop("key")
        for name in ("data_site", "home_site", "result_site"):
            fields[name] = sites[fields[name]]
        fields.setdefault("created_by", ctx.users.get("alice" if team == ctx.team1 else "carol"))
        profile, _ = TaskProfile.objects.update_or_create(
            team=team, name=fields.pop("name"), defaults=fields
        )
        profile.full_clean()
        profiles[key] = profile


def load(ctx: DemoContext) -> None:
    """ctx.objects["profiles"][key] for the keys above."""
    _load_team(
        ctx,
        ctx.team1,
        AURORA_PROFILES
        + AURORA_V2_PROFILES
        + AURORA_V21_PROFILES
        + AURORA_V22_PROFILES
        + AURORA_V30_PROFILES
        + AURORA_V31_PROFILES
        + AURORA_V31_MONEY_PROFILES,
    )
    _load_team(ctx, ctx.team1, AURORA_IMPORTED_V1_PROFILES)  # straight to the model, as imported
    _load_team(ctx, ctx.team2, BOREALIS_PROFILES)
