"""Demo catalog: sites, network links and offers built from public figures.

Idempotent: every row is found by its natural key (site code; link direction; offer provider and
name) and updated to the figures below, so running load_demo twice creates nothing new.

Sources of the figures (public list prices and typical network numbers, 2024–2025; rounded, and
used as orders of magnitude rather than quotes):
- GPUs: NVIDIA datasheets: A100 80 GB, H100 SXM 80 GB, H200 141 GB, L40S 48 GB.
- H100 on demand: about 2.5–3.5 USD per GPU-hour at GPU clouds (e.g. Lambda's on-demand 8× H100
  SXM list price, 2.99 USD/GPU-h in 2024–2025); hyperscalers list more (AWS p5.48xlarge).
- H100 spot: spot / preemptible GPU capacity lists below on demand (AWS, GCP and Azure spot
  prices for 8× H100 machines, 2024–2025); 2.49 USD/GPU-h here, a modest discount. Interruption
  rates vary with the region and the hour; 1.5 expected preemptions a day is an assumption for
  the demo, not a provider's figure.
- A100 80 GB: 8-GPU machines list at about 14–40 USD per machine-hour (e.g. Lambda 8× A100 SXM
  80 GB at 1.79 USD/GPU-h = 14.32 USD/h; AWS p4de.24xlarge about 41 USD/h on demand).
- H200: on-demand list prices of roughly 3.5–10 USD/GPU-h in 2025; reserved quarterly packages
  come in lower, hence a contract around 3.7 USD per used GPU-hour at 80% utilisation.
- L40S: AWS g6e.12xlarge (4× L40S) about 10.5 USD/h on demand, i.e. about 2.6 USD/GPU-h.
- Networks: intra-city datacenter interconnect (DCI) of 100 Gbit/s with ~1 ms RTT; inter-region
  transfer priced 0.01–0.09 USD/GB at public clouds (AWS inter-region 0.02 USD/GB); RTT
  Beijing–Shanghai about 25–30 ms, Beijing–Guangzhou about 35–40 ms on terrestrial fibre.
- Team Borealis (CNY): domestic on-demand A800 80 GB and RTX 4090 rental prices of about 6–15
  CNY and 2 CNY per GPU-hour (public price lists of domestic GPU clouds, 2024–2025).
"""

from __future__ import annotations

from apps.accounts.demo import DemoContext

from .models import NetworkLink, Offer, Site

ALL = ["data", "tensor", "pipeline", "sharded"]

# Team Aurora (USD): four sites over three cities and three hubs.
AURORA_SITES = [
    # code, name, datacenter, city, hub, queue_hours, storage_tb
    ("bj-a", "Beijing A (Yizhuang)", "bj-yizhuang", "Beijing", "north", 6.0, 800.0),
    ("bj-b", "Beijing B (Shunyi)", "bj-shunyi", "Beijing", "north", 1.0, 400.0),
    ("sh-a", "Shanghai A (Lingang)", "sh-lingang", "Shanghai", "east", 2.0, 600.0),
    ("gz-a", "Guangzhou A (Nansha)", "gz-nansha", "Guangzhou", "south", 0.5, 1200.0),
]
AURORA_LINKS = [
    # from, to, bandwidth_gbps, rtt_ms, price_per_gb, reservable
    ("bj-a", "bj-b", 100.0, 1.0, 0.0, True),  # same-city DCI, own fibre
    ("bj-a", "sh-a", 10.0, 28.0, 0.02, True),
    ("bj-a", "gz-a", 10.0, 38.0, 0.02, True),
    ("gz-a", "bj-a", 5.0, 38.0, 0.05, True),  # return path rented separately: slower, dearer
    ("sh-a", "gz-a", 10.0, 25.0, 0.06, False),  # leased line between two provinces, dearer
    ("bj-b", "sh-a", 10.0, 29.0, 0.02, False),
]
AURORA_OFFERS = [
    {
        "key": "h100-bj-a",
        "provider": "Lambda-style GPU cloud",
        "name": "8× H100 SXM 80GB on demand",
        "kind": "compute",
        "site": "bj-a",
        "gpu_model": "H100 SXM 80GB",
        "gpu_mem_gb": 80.0,
        "gpus_per_machine": 8,
        "max_machines": 16,
        "billing_basis": "gpu_hour",
        "price": 2.99,
        "parallelism": ALL,
        "checkpoint_resume": True,
        "relative_speed": 1.0,
        "boot_hours": 0.25,
        # SPEC 7.4: an H100 SXM cloud cluster: machines joined by InfiniBand.
        "interconnect": "infiniband",
        "exit_path": "Weights, data and job configs stay in the team's object storage.",
    },
    {
        # SPEC 6.3 preemptible capacity: the same GPUs as spot, cheaper, taken back now and then.
        # A small pool in Shanghai, data parallel only, granted when the market has machines
        # free (12 h from order: an assumption of the demo). So it is priced on every profile
        # page (its preemption cost; G4 for the task that cannot resume) but chosen by none:
        # cheaper and sooner, it would take over the stories of the other offers.
        "key": "h100-spot-sh-a",
        "provider": "Shanghai spot market",
        "name": "8× H100 SXM 80GB spot",
        "kind": "compute",
        "site": "sh-a",
        "gpu_model": "H100 SXM 80GB",
        "gpu_mem_gb": 80.0,
        "gpus_per_machine": 8,
        "max_machines": 2,
        "billing_basis": "gpu_hour",
        "price": 2.49,
        "preemptible": True,
        "preemptions_per_day": 1.5,
        "parallelism": ["data"],
        "checkpoint_resume": True,
        "relative_speed": 1.0,
        "boot_hours": 12.0,
        "exit_path": "Weights, data and job configs stay in the team's object storage.",
    },
    {
        "key": "a100-bj-b",
        "provider": "Beijing colocation partner",
        "name": "8× A100 80GB machine",
        "kind": "compute",
        "site": "bj-b",
        "gpu_model": "A100 SXM 80GB",
        "gpu_mem_gb": 80.0,
        "gpus_per_machine": 8,
        "max_machines": 8,
        "billing_basis": "machine_hour",
        "price": 14.32,
        "parallelism": ALL,
        "checkpoint_resume": True,
        "relative_speed": 0.6,  # A100 vs H100 on transformer training, roughly
        "boot_hours": 1.0,
        # SPEC 7.4: colocated machines on the partner's 25 GbE network, no RDMA.
        "interconnect": "ethernet",
        "exit_path": "Bare machines: everything is ours to take away.",
    },
    {
        "key": "h200-sh-a",
        "provider": "Shanghai reserved capacity",
        "name": "8× H200 141GB quarterly contract",
        "kind": "compute",
        "site": "sh-a",
        "gpu_model": "H200 141GB",
        "gpu_mem_gb": 141.0,
        "gpus_per_machine": 8,
        "max_machines": 4,
        "billing_basis": "contract",
        "price": 52000.0,  # one machine for a quarter
        "contract_hours": 2190.0,  # 91 days × 24 h
        "expected_utilization": 0.8,
        "parallelism": ALL,
        "checkpoint_resume": True,
        "relative_speed": 1.3,
        "boot_hours": 24.0,
        "interconnect": "infiniband",
        "exit_path": "Contract ends with the quarter; data export over the reserved link.",
    },
    {
        "key": "sched-bj-a",
        "provider": "Ray-based scheduling layer",
        "name": "Distributed runtime on own A100 pool",
        "kind": "distributed",
        "site": "bj-a",
        "gpu_model": "A100 SXM 80GB",
        "gpu_mem_gb": 80.0,
        "gpus_per_machine": 8,
        "max_machines": 6,
        "billing_basis": "gpu_hour",
        "price": 1.2,  # amortised cost of the team's own machines
        "scheduling_fee_pct": 10.0,  # the layer bills a share on top of compute
        "parallelism": ["data", "pipeline"],
        "checkpoint_resume": True,
        "relative_speed": 0.6,
        "boot_hours": 2.0,
        "exit_path": "Job templates are plain Ray jobs; portable to any Ray cluster.",
    },
    {
        "key": "l40s-gz-a",
        "provider": "Guangzhou managed AI platform",
        "name": "Managed 4× L40S 48GB",
        "kind": "managed",
        "site": "gz-a",
        "gpu_model": "L40S 48GB",
        "gpu_mem_gb": 48.0,
        "gpus_per_machine": 4,
        "max_machines": 10,
        "billing_basis": "gpu_hour",
        "price": 2.62,
        "scheduling_fee_pct": 5.0,
        "parallelism": ["data"],
        "checkpoint_resume": True,
        "relative_speed": 0.45,
        "boot_hours": 0.1,
        "exit_path": "Images are standard OCI; the managed scheduler's job specs need rewriting.",
    },
]

# Team Borealis (CNY): a smaller set.
BOREALIS_SITES = [
    ("hz-a", "Hangzhou A", "hz-xiasha", "Hangzhou", "east", 3.0, 200.0),
    ("wlcb-a", "Ulanqab A", "wlcb-jining", "Ulanqab", "inner-mongolia", 0.5, 1000.0),
]
BOREALIS_LINKS = [
    ("hz-a", "wlcb-a", 10.0, 32.0, 0.1, True),
]
BOREALIS_OFFERS = [
    {
        "key": "a800-wlcb-a",
        "provider": "Domestic GPU cloud",
        "name": "8× A800 80GB on demand",
        "kind": "compute",
        "site": "wlcb-a",
        "gpu_model": "A800 80GB",
        "gpu_mem_gb": 80.0,
        "gpus_per_machine": 8,
        "max_machines": 8,
        "billing_basis": "gpu_hour",
        "price": 12.0,
        "parallelism": ALL,
        "checkpoint_resume": True,
        "relative_speed": 0.6,
        "boot_hours": 0.5,
        "interconnect": "roce",
        "exit_path": "Data on the provider's object storage; egress billed.",
    },
    {
        "key": "4090-hz-a",
        "provider": "Hangzhou managed platform",
        "name": "Managed 8× RTX 4090 24GB",
        "kind": "managed",
        "site": "hz-a",
        "gpu_model": "RTX 4090 24GB",
        "gpu_mem_gb": 24.0,
        "gpus_per_machine": 8,
        "max_machines": 4,
        "billing_basis": "machine_hour",
        "price": 16.0,
        "scheduling_fee_pct": 5.0,
        "parallelism": ["data", "pipeline"],
        "checkpoint_resume": False,
        "relative_speed": 0.35,
        "boot_hours": 0.1,
        "exit_path": "",
    },
    {
        # SPEC 7.6: a package already paid (sunk). One A800 machine for the year at Ulanqab:
        # 8,760 h × 8 GPUs = 70,080 GPU-hours bought up front. Runs that fit it cost no new
        # money, only the work they displace (T.paid); 2.2 priced it as if it were new.
        "key": "a800-pkg-wlcb-a",
        "provider": "Domestic GPU cloud",
        "name": "8× A800 80GB annual package (paid)",
        "kind": "compute",
        "site": "wlcb-a",
        "gpu_model": "A800 80GB",
        "gpu_mem_gb": 80.0,
        "gpus_per_machine": 8,
        "max_machines": 1,
        "billing_basis": "contract",
        "price": 420000.0,  # one machine for a year
        "contract_hours": 8760.0,
        "expected_utilization": 0.7,
        "contract_paid": True,
        "parallelism": ALL,
        "checkpoint_resume": True,
        "relative_speed": 0.6,
        "boot_hours": 0.0,
        "exit_path": "Data on the team's own object storage at Ulanqab.",
    },
]


def _load_team(ctx: DemoContext, team, sites, links, offers) -> None:
    site_objs = ctx.objects.setdefault("sites", {})
    for code, name, datacenter, city, hub, queue_hours, storage_tb in sites:
        site, _ = Site.objects.update_or_create(
            team=team,
            code=code,
            defaults={
                "name": name,
                "datacenter": datacenter,
                "city": city,
                "hub": hub,
                "queue_hours": queue_hours,
                "storage_tb": storage_tb,
            },
        )
        site_objs[code] = site
    link_objs = ctx.objects.setdefault("links", {})
    for source, target, bandwidth, rtt, price, reservable in links:
        link, _ = NetworkLink.objects.update_or_create(
            team=team,
            from_site=site_objs[source],
            to_site=site_objs[target],
            defaults={
                "bandwidth_gbps": bandwidth,
                "rtt_ms": rtt,
                "price_per_gb": price,
                "reservable": reservable,
            },
        )
        link_objs[f"{source}>{target}"] = link
    offer_objs = ctx.objects.setdefault("offers", {})
    for spec in offers:
        fields = dict(spec)
        key = fields.pop("key")
        fields["site"] = site_objs[fields["site"]]
        offer, _ = Offer.objects.update_or_create(
            team=team, provider=fields.pop("provider"), name=fields.pop("name"), defaults=fields
        )
        offer.full_clean()
        offer_objs[key] = offer


def load(ctx: DemoContext) -> None:
    """ctx.objects["sites"|"links"|"offers"][key]: site codes, "from>to", offer keys above."""
    _load_team(ctx, ctx.team1, AURORA_SITES, AURORA_LINKS, AURORA_OFFERS)
    _load_team(ctx, ctx.team2, BOREALIS_SITES, BOREALIS_LINKS, BOREALIS_OFFERS)
