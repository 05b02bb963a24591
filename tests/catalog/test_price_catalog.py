"""Offers from a provider's price catalog (issue 38): SkyPilot catalog files of two providers
(tests/data/catalogs, see tests/data/README.md), read, written into a site's offers, re-imported.
"""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from apps.catalog.models import Offer, OfferPriceChange
from apps.catalog.price_catalog import read_catalog
from tests.factories import make_site

DATA = Path(__file__).resolve().parent.parent / "data" / "catalogs"
LAMBDA = DATA / "skypilot_v7_lambda_vms.csv"
NEBIUS = DATA / "skypilot_v7_nebius_vms.csv"


def run(*args: str) -> dict:
    out = StringIO()
    call_command("import_offers", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def import_twice(team, tmp_path) -> dict:
    """Lambda's catalog into a new site, then a newer one where the 8 × A100 costs 9.98, not
    10.32: the second import's answer."""
    make_site(team, "lambda-use1")
    args = ("--team", team.name, "--site", "lambda-use1", "--region", "us-east-1",
            "--provider", "Lambda")  # fmt: skip
    run(str(LAMBDA), *args)
    newer = tmp_path / "vms.csv"
    newer.write_text(LAMBDA.read_text().replace(",10.32,us-east-1,", ",9.98,us-east-1,"))
    return run(str(newer), *args)


class ReadCatalogTests:
    def test_it_reads_the_gpu_machine_types_of_one_region(self):
        read = read_catalog(LAMBDA.read_text(), region="us-east-1")
        assert read.ok, read.errors
        assert read.regions == ["us-east-1", "us-west-1"]
        # 2 CPU rows in the file (one per region), whatever the region chosen.
        assert read.skipped_cpu_rows == 2
        by_name = {offer.name: offer for offer in read.offers}
        assert sorted(by_name) == [
            "gpu_1x_a6000", "gpu_1x_gh200", "gpu_1x_h100_sxm5", "gpu_8x_a100",
            "gpu_8x_h100_sxm5", "gpu_8x_v100",
        ]  # fmt: skip
        h100 = by_name["gpu_8x_h100_sxm5"]
        # 81920 MiB / 1024 = 80 GB per GPU; 23.92 per instance-hour for 8 GPUs.
        assert (h100.gpu_model, h100.gpus_per_machine, h100.gpu_mem_gb, h100.price) == (
            "H100", 8, 80.0, 23.92,
        )  # fmt: skip
        assert h100.spot_price is None
        # 40960 MiB = the 40 GB A100; 98304 MiB = 96 GB GH200.
        assert by_name["gpu_8x_a100"].gpu_mem_gb == 40.0
        assert by_name["gpu_1x_gh200"].gpu_mem_gb == 96.0

    def test_a_file_of_several_regions_needs_one_chosen(self):
        read = read_catalog(LAMBDA.read_text())
        assert not read.ok
        [error] = read.errors[1]
        assert error.field == "Region"
        assert "2 regions (us-east-1, us-west-1)" in error.message

    def test_a_region_the_file_does_not_list_is_named(self):
        read = read_catalog(LAMBDA.read_text(), region="mars-1")
        assert "No GPU machine in region 'mars-1'" in read.errors[1][0].message

    def test_memory_no_such_gpu_has_is_replaced_by_its_smallest_size_with_a_warning(self):
        """Nebius' catalog lists the host's 200 GiB as each H100's memory (204800 MiB)."""
        read = read_catalog(NEBIUS.read_text(), region="eu-north1")
        assert read.ok, read.errors
        by_name = {offer.name: offer for offer in read.offers}
        assert by_name["gpu-h100-sxm_8gpu-128vcpu-1600gb"].gpu_mem_gb == 80.0
        assert by_name["gpu-h200-sxm_8gpu-128vcpu-1600gb"].gpu_mem_gb == 141.0
        # 32768 MiB = 32 GB for an L40S, which has 48.
        assert by_name["gpu-l40s-a_1gpu-8vcpu-32gb"].gpu_mem_gb == 48.0
        assert any("200 GB per H100 GPU" in warning and "80 GB" in warning
                   for warning in read.warnings)  # fmt: skip
        # The spot price is kept: 10.00 for the 8 × H100 machine.
        assert by_name["gpu-h100-sxm_8gpu-128vcpu-1600gb"].spot_price == 10.0

    def test_zones_of_one_type_give_one_offer_and_the_highest_spot_price(self):
        header = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,AvailabilityZone,GpuInfo,SpotPrice\n"
        info = "\"{'Gpus': [{'Name': 'A100', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 81920}}]}\""
        rows = [
            f"p4de.24xlarge,A100,8,40.97,us-east-1,us-east-1a,{info},12.5",
            f"p4de.24xlarge,A100,8,40.97,us-east-1,us-east-1b,{info},15.25",
            f"p4de.24xlarge,A100,8,40.97,us-east-1,us-east-1c,{info},",
        ]
        read = read_catalog(header + "\n".join(rows) + "\n", region="us-east-1")
        assert read.ok, read.errors
        [offer] = read.offers
        assert (offer.price, offer.spot_price, offer.lines) == (40.97, 15.25, [2, 3, 4])

    def test_a_row_error_names_its_line_and_column(self):
        header = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo,SpotPrice\n"
        text = header + "big,H100,8,lots,r1,\"{'Gpus': []}\",\n"
        read = read_catalog(text, region="r1")
        assert {error.field for error in read.errors[2]} == {"Price", "GpuInfo"}

    def test_a_shared_gpu_slice_is_skipped_with_a_warning(self):
        header = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo,SpotPrice\n"
        info = "\"{'Gpus': [{'Name': 'T4', 'MemoryInfo': {'SizeInMiB': 16384}}]}\""
        rows = f"slice,T4,0.25,0.1,r1,{info},\nwhole,T4,1,0.4,r1,{info},\n"
        read = read_catalog(header + rows, region="r1")
        assert read.ok and [offer.name for offer in read.offers] == ["whole"]
        assert "shared slice" in read.warnings[0]

    def test_a_file_of_another_shape_names_the_missing_columns(self):
        read = read_catalog("name,price\nx,1\n", region="r1")
        assert "Missing column(s)" in read.errors[1][0].message


@pytest.mark.django_db
class ImportOffersCommandTests:
    def test_it_creates_one_offer_per_gpu_machine_type(self, team):
        make_site(team, "lambda-use1")
        result = run(str(LAMBDA), "--team", team.name, "--site", "lambda-use1",
                     "--region", "us-east-1", "--provider", "Lambda")  # fmt: skip
        assert result["saved"] is True
        assert len(result["created"]) == 6 and result["skipped_cpu_rows"] == 2
        offer = Offer.objects.get(team=team, name="gpu_8x_a100")
        assert (offer.provider, offer.site.code, offer.billing_basis) == (
            "Lambda", "lambda-use1", "machine_hour",
        )  # fmt: skip
        assert (offer.gpus_per_machine, offer.gpu_mem_gb, offer.price) == (8, 40.0, 10.32)
        assert offer.preemptible is False and offer.preemptions_per_day is None
        # Where a launcher finds the machine.
        assert (offer.region, offer.instance_type) == ("us-east-1", "gpu_8x_a100")

    def test_reimporting_updates_prices_in_place_and_keeps_the_change(self, team, tmp_path):
        result = import_twice(team, tmp_path)
        assert [o["name"] for o in result["updated"]] == ["gpu_8x_a100"]
        assert (result["updated"][0]["price_before"], result["updated"][0]["price"]) == (10.32, 9.98)
        assert len(result["unchanged"]) == 5 and result["created"] == []
        assert Offer.objects.filter(team=team).count() == 6
        change = OfferPriceChange.objects.get(offer__name="gpu_8x_a100")
        assert (change.price_before, change.price_after, change.team) == (10.32, 9.98, team)
        assert "vms.csv" in change.source

    def test_the_offer_page_shows_its_price_history(self, client, team, owner, tmp_path):
        import_twice(team, tmp_path)
        offer = Offer.objects.get(name="gpu_8x_a100")
        client.force_login(owner)
        html = client.get(reverse("catalog:offer_detail", args=[offer.pk])).content.decode()
        assert 'id="price-history"' in html and "9.98" in html and "10.32" in html
        assert "<code>gpu_8x_a100</code>" in html

    def test_spot_prices_become_preemptible_offers_when_a_rate_is_stated(self, team):
        make_site(team, "nebius-eun1")
        result = run(str(NEBIUS), "--team", str(team.pk), "--site", "nebius-eun1",
                     "--region", "eu-north1", "--provider", "Nebius",
                     "--spot-preemptions-per-day", "0.5")  # fmt: skip
        spot = Offer.objects.get(name="gpu-h100-sxm_8gpu-128vcpu-1600gb (spot)")
        assert (spot.price, spot.preemptible, spot.preemptions_per_day) == (10.0, True, 0.5)
        # 8 machine types with a GPU in eu-north1, 4 of them with a spot price.
        assert len(result["created"]) == 6 + 4
        assert any("per H100 GPU" in warning for warning in result["warnings"])

    def test_a_dry_run_writes_nothing(self, team):
        make_site(team, "lambda-use1")
        out = StringIO()
        call_command("import_offers", str(LAMBDA), "--team", team.name, "--site", "lambda-use1",
                     "--region", "us-west-1", "--provider", "Lambda", "--dry-run", stdout=out)  # fmt: skip
        assert "dry run: nothing written" in out.getvalue()
        assert "create  gpu_8x_h100_sxm5: 8 × H100 80 GB, 23.92 per machine-hour" in out.getvalue()
        assert not Offer.objects.filter(team=team).exists()

    @pytest.mark.parametrize(
        ("args", "message"),
        [
            (("--site", "nowhere", "--region", "us-east-1"), "has no site 'nowhere'"),
            (("--site", "lambda-use1"), "choose one"),
            (("--site", "lambda-use1", "--region", "us-east-1", "--spot-preemptions-per-day",
              "nan"), "a number from 0 to 1000"),  # fmt: skip
        ],
    )
    def test_bad_input_exits_2_naming_it_and_writes_nothing(self, team, args, message):
        make_site(team, "lambda-use1")
        with pytest.raises(CommandError) as caught:
            call_command("import_offers", str(LAMBDA), "--team", team.name, "--provider", "Lambda",
                         *args)  # fmt: skip
        assert caught.value.returncode == 2
        assert message in str(caught.value)
        assert not Offer.objects.exists()

    def test_another_teams_site_is_not_found(self, team, other_team):
        make_site(other_team, "theirs")
        with pytest.raises(CommandError, match="has no site 'theirs'"):
            call_command("import_offers", str(LAMBDA), "--team", team.name, "--site", "theirs",
                         "--region", "us-east-1", "--provider", "Lambda")  # fmt: skip

    def test_the_provider_is_the_folder_of_a_skypilot_vms_csv(self, team, tmp_path):
        make_site(team, "lambda-use1")
        folder = tmp_path / "lambda"
        folder.mkdir()
        (folder / "vms.csv").write_text(LAMBDA.read_text())
        result = run(str(folder / "vms.csv"), "--team", team.name, "--site", "lambda-use1",
                     "--region", "us-east-1")  # fmt: skip
        assert result["provider"] == "lambda"
