from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.benchmarks.models import BenchmarkRecord
from apps.benchmarks.services import (
    ProbeNotApplicable,
    benchmark_create,
    benchmark_update,
    probe_apply,
)
from tests.benchmarks.helpers import make_world, probe_data
from tests.factories import make_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(team):
    return make_world(team)


@pytest.fixture
def probe(team, world):
    record = benchmark_create(team=team, data=probe_data(world, bandwidth_gbps=42, rtt_ms=3.5))
    # a probe measured a while ago: the link must carry the probe's date, not today's
    BenchmarkRecord.objects.filter(pk=record.pk).update(
        recorded_at=timezone.now() - timedelta(days=3)
    )
    record.refresh_from_db()
    return record


class ProbeApplyServiceTests:
    def test_it_copies_bandwidth_rtt_and_date_onto_the_link(self, team, world, probe):
        link = make_link(team, world.site_a, world.site_b, bandwidth_gbps=10, rtt_ms=20)
        applied = probe_apply(probe=probe)
        link.refresh_from_db()
        probe.refresh_from_db()
        assert applied == link
        assert (link.bandwidth_gbps, link.rtt_ms) == (42, 3.5)
        assert link.measured_at == probe.recorded_at
        assert probe.applied_to_link == link and probe.applied_at is not None
        assert link.price_per_gb == 0.02  # untouched

    def test_a_link_recorded_the_other_way_is_used(self, team, world, probe):
        link = make_link(team, world.site_b, world.site_a)
        assert probe_apply(probe=probe) == link

    def test_without_a_link_it_refuses_and_creates_nothing(self, team, world, probe):
        with pytest.raises(ProbeNotApplicable) as caught:
            probe_apply(probe=probe)
        assert "Add the link in the catalog first" in str(caught.value)
        probe.refresh_from_db()
        assert probe.applied_to_link is None
        assert not world.site_a.links_out.exists()

    def test_only_a_probe_can_be_applied(self, team, world):
        run = BenchmarkRecord.objects.create(
            team=team, task=world.task, offer=world.offer, kind="single", nodes=1,
            gpus_per_node=8, e2e_hours=2, compute_hours=1,
        )
        with pytest.raises(ProbeNotApplicable):
            probe_apply(probe=run)

    def test_editing_the_measurement_unlinks_the_probe(self, team, world, probe):
        make_link(team, world.site_a, world.site_b)
        probe_apply(probe=probe)
        benchmark_update(record=probe, data=probe_data(world, bandwidth_gbps=1, rtt_ms=3.5))
        probe.refresh_from_db()
        assert probe.applied_to_link is None


class ProbeApplyViewTests:
    def test_an_owner_applies_it_and_the_page_shows_measured_by(
        self, client, owner, team, world, probe
    ):
        link = make_link(team, world.site_a, world.site_b)
        client.force_login(owner)
        url = reverse("benchmarks:apply_probe", args=[probe.pk])
        assert client.get(url).status_code == 405
        response = client.post(url, follow=True)
        link.refresh_from_db()
        assert link.bandwidth_gbps == 42
        html = response.content.decode()
        assert f"measured by probe #{probe.pk}" in html
        date = probe.recorded_at.strftime("%Y-%m-%d")
        assert f"measured {date} by probe" in html

    @pytest.mark.parametrize("role", ["member", "reviewer"])
    def test_non_owners_are_refused(self, client, team, world, probe, role, request):
        link = make_link(team, world.site_a, world.site_b, bandwidth_gbps=10)
        client.force_login(request.getfixturevalue(role))
        response = client.post(reverse("benchmarks:apply_probe", args=[probe.pk]))
        assert response.status_code == 403
        link.refresh_from_db()
        assert link.bandwidth_gbps == 10 and link.measured_at is None

    def test_without_a_link_the_owner_gets_a_message(self, client, owner, probe):
        client.force_login(owner)
        response = client.post(reverse("benchmarks:apply_probe", args=[probe.pk]), follow=True)
        html = response.content.decode()
        assert "No link is recorded between" in html
        assert "No link recorded between these sites" in html

    def test_the_detail_page_offers_the_button_to_owners_only(
        self, client, owner, member, team, world, probe
    ):
        make_link(team, world.site_a, world.site_b)
        button = reverse("benchmarks:apply_probe", args=[probe.pk])
        client.force_login(owner)
        assert button in client.get(reverse("benchmarks:detail", args=[probe.pk])).content.decode()
        client.force_login(member)
        assert button not in client.get(
            reverse("benchmarks:detail", args=[probe.pk])
        ).content.decode()
