"""The staged-plan demo (SPEC 6.4, apps.teams.demo_staged): alice's draft for the 14B model on
tokenized clickstream chooses a staged plan, with figures worked by hand:
raw 20,000 GB in Guangzhou, 400 GB of shards reused by 4 runs, the 5 Gbit/s return path to
Beijing at 0.05 USD/GB, 5 h of preprocessing at 24 USD/h, 16 H100s for 30 h at 2.99 USD.
"""

from __future__ import annotations

import pytest

from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import Offer
from apps.reviews.models import Review
from apps.reviews.snapshots.services import current_snapshot
from apps.teams.demo_staged import STAGED_REVIEW

pytestmark = pytest.mark.django_db


@pytest.fixture
def review(demo_world) -> Review:
    return Review.objects.get(team__slug="aurora", title=STAGED_REVIEW["title"])


class StagedDemoTests:
    def test_the_review_chooses_the_staged_plan_in_beijing(self, review):
        assert review.state == "draft"
        h100 = Offer.objects.get(team__slug="aurora", name="8× H100 SXM 80GB on demand")
        output = current_snapshot(review).output
        chosen = next(o for o in output["options"] if o["offer"] == output["chosen"]["offer"])
        assert chosen["offer"] == str(h100.pk)
        assert chosen["plan"] == "staged"
        # Per run: 400 GB ÷ 4 = 100 GB shipped, 100 × 0.05 = 5 USD; 5 h × 24 ÷ 4 = 30 USD.
        assert chosen["transfer_gb"] == pytest.approx(100)
        assert chosen["transfer_cost"] == pytest.approx(5)
        assert chosen["preprocess_cost"] == pytest.approx(30)
        assert chosen["preprocess_hours"] == pytest.approx(5)
        # 16 GPUs × 30 h × 2.99 = 1,435.20; in all 1,470.20 a run against 1,000 USD of raw
        # shipping alone.
        assert chosen["compute_cost"] == pytest.approx(1435.2)
        assert chosen["total_cost"] == pytest.approx(1470.2)

    def test_d3_says_what_is_shipped_instead_of_the_raw_logs(self, review):
        output = current_snapshot(review).output
        d3 = next(f for f in output["findings"] if f["rule"] == "D3")
        assert d3["data"]["shipped_gb"] == pytest.approx(100)
        assert d3["data"]["raw_gb"] == pytest.approx(20000)
        assert d3["data"]["saved_pct"] == pytest.approx(99.5)

    def test_the_data_side_pool_cannot_take_the_job(self, review):
        l40s = Offer.objects.get(team__slug="aurora", name="Managed 4× L40S 48GB")
        output = current_snapshot(review).output
        option = next(o for o in output["options"] if o["offer"] == str(l40s.pk))
        assert option["kind"] == "move_compute" and not option["feasible"]

    def test_the_profile_page_offers_the_latest_tokenization(self, review, client):
        record = BenchmarkRecord.objects.get(idempotency_key="demo-preprocess-tokens-gz-a")
        assert (record.kind, record.site.code, record.output_gb) == ("preprocess", "gz-a", 380)
        client.force_login(review.author)
        page = client.get(f"/profiles/{review.task_id}/").content.decode()
        assert f'name="record" value="{record.pk}"' in page

    # A second load adds nothing (no review, record or 14B profile): tests/teams/test_demo_world.py.
