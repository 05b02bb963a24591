from __future__ import annotations

import pytest

from apps.profiles.models import TaskProfile
from tests.factories import make_benchmark, make_offer, make_profile, make_site
from tests.profiles.helpers import HX, is_fragment, profile_data

pytestmark = pytest.mark.django_db

PANEL = "/profiles/panel/"


@pytest.fixture
def world(team):
    home = make_site(team, "bj-a", city="Beijing", datacenter="dc-1")
    h100 = make_offer(team, home, name="8x H100", gpu_mem_gb=80, gpus_per_machine=8)
    l40s = make_offer(team, home, name="4x L40S", gpu_mem_gb=48, gpus_per_machine=4)
    return {"home": home, "h100": h100, "l40s": l40s}


def sizing_row(response, offer):
    rows = response.context["evaluation"]["sizing"]["rows"]
    return next(r for r in rows if r["offer"] == str(offer.pk))


class PanelTests:
    def test_it_sizes_a_7b_bf16_inference_job_from_the_engine(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, profile_data(world["home"]), **HX)
        html = response.content.decode()
        assert response.status_code == 200 and is_fragment(response)
        assert html.lstrip().startswith('<aside id="profile-panel"')
        sizing = response.context["evaluation"]["sizing"]
        assert sizing["mem_gb"] == pytest.approx(16.8)  # 7 × 2 bytes × 1.2
        assert sizing["source"] == "estimate"
        assert "16.8 GB" in html and "estimated from parameters and precision" in html
        h100 = sizing_row(response, world["h100"])
        assert h100["gpus_needed"] == 1 and h100["machines_needed"] == 1
        assert h100["fits_single_gpu"] and not h100["near_capacity"]
        assert "fits one GPU" in html
        assert not TaskProfile.objects.exists()  # the panel never saves

    def test_it_is_a_full_page_without_htmx_and_answers_get_too(self, client, world, member):
        client.force_login(member)
        page = client.post(PANEL, profile_data(world["home"]))
        assert page.status_code == 200 and not is_fragment(page)
        assert "Engine check" in page.content.decode()
        by_get = client.get(PANEL, profile_data(world["home"], params_b="70"), **HX)
        assert by_get.context["evaluation"]["sizing"]["mem_gb"] == pytest.approx(168)

    def test_it_shows_machines_and_near_capacity_per_offer(self, client, world, member):
        client.force_login(member)
        data = profile_data(
            world["home"], workload="training", params_b="20", parallelism=["data", "tensor"]
        )
        response = client.post(PANEL, data, **HX)
        assert response.context["evaluation"]["sizing"]["mem_gb"] == pytest.approx(384)
        h100 = sizing_row(response, world["h100"])
        assert (h100["gpus_needed"], h100["machines_needed"]) == (6, 1)  # 384 / 72 → 6 GPUs
        assert h100["fits_single_machine"] and not h100["fits_single_gpu"]
        l40s = sizing_row(response, world["l40s"])
        assert (l40s["gpus_needed"], l40s["machines_needed"]) == (9, 3)  # 384 / 43.2 → 9 GPUs
        assert not l40s["fits_single_machine"]
        near = client.post(PANEL, {**data, "params_b": "28"}, **HX)
        assert sizing_row(near, world["h100"])["near_capacity"]  # 537.6 > 0.85 × 576
        assert "near capacity" in near.content.decode()

    def test_it_names_what_is_missing_instead_of_failing(self, client, world, member):
        client.force_login(member)
        data = profile_data(world["home"], compute_hours="", data_site="", name="")
        response = client.post(PANEL, data, **HX)
        html = response.content.decode()
        assert response.status_code == 200
        assert "To see the full evaluation, complete:" in html
        labels = [str(label) for label, _ in response.context["missing"]]
        assert labels == ["Data site", "Compute hours"]  # the name does not matter to the engine
        assert response.context["show_sizing"] and response.context["show_cross"]
        assert not response.context["show_all"]
        assert "16.8 GB" in html  # the sizing still shows
        assert 'class="findings"' not in html  # findings wait for a complete form

    def test_an_empty_form_gets_a_list_of_what_to_fill_in(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, {}, **HX)
        assert response.status_code == 200
        assert response.context["evaluation"] is None
        labels = [str(label) for label, _ in response.context["missing"]]
        assert "Workload" in labels and "Compute hours" in labels

    def test_it_withholds_the_sizing_when_a_sizing_field_is_invalid(self, client, world, member):
        client.force_login(member)
        response = client.post(PANEL, profile_data(world["home"], params_b="nan"), **HX)
        assert response.status_code == 200
        assert not response.context["show_sizing"]
        assert response.context["show_cross"]
        assert "Parameters (billions)" in response.content.decode()
        assert "Enter a finite number" in response.content.decode()

    def test_it_shows_exclusions_and_gates_by_name(self, client, world, member):
        client.force_login(member)
        data = profile_data(
            world["home"],
            workload="online_service",
            compliance_restricted="on",
            offsite_allowed=None,
            resumable=None,
            interruption_cost_hours="3",
        )
        response = client.post(PANEL, data, **HX)
        html = response.content.decode()
        cross = response.context["evaluation"]["cross"]
        assert not cross["eligible"]
        assert [rule for rule, _ in cross["exclusions"]] == ["X1", "X4"]
        assert "Low-latency online service" in html and "Compliance restricted" in html
        assert [(rule, passed) for rule, _, passed in cross["gates"]] == [
            ("G1", False),
            ("G2", True),
            ("G3", False),
        ]
        assert "Not eligible: only waiting locally" in html

    def test_it_lists_the_findings_with_rule_ids_when_the_form_is_complete(
        self, client, world, member
    ):
        client.force_login(member)
        response = client.post(PANEL, profile_data(world["home"], workload="online_service"), **HX)
        html = response.content.decode()
        assert 'data-rule="X1"' in html and 'data-rule="R5"' in html
        assert response.context["evaluation"]["platform"] == "compute_platform"

    def test_an_outsider_gets_404_for_another_teams_profile(self, client, team, world, outsider):
        profile = make_profile(team, world["home"])
        client.force_login(outsider)
        response = client.post(PANEL + f"?profile={profile.pk}", profile_data(world["home"]), **HX)
        assert response.status_code == 404

    def test_another_teams_site_is_named_as_missing(self, client, world, member, other_team):
        theirs = make_site(other_team, "theirs")
        client.force_login(member)
        response = client.post(PANEL, profile_data(world["home"], data_site=theirs.pk), **HX)
        assert response.status_code == 200
        assert [str(label) for label, _ in response.context["missing"]] == ["Data site"]

    def test_it_uses_the_saved_profiles_measured_peak_on_the_edit_page(
        self, client, team, world, member
    ):
        profile = make_profile(team, world["home"])
        make_benchmark(team, profile, world["h100"], kind="single", peak_gpu_mem_gb=30)
        client.force_login(member)
        response = client.post(PANEL + f"?profile={profile.pk}", profile_data(world["home"]), **HX)
        sizing = response.context["evaluation"]["sizing"]
        assert sizing["source"] == "measured" and sizing["mem_gb"] == 30

    def test_it_says_when_the_team_has_no_site(self, client, member):
        client.force_login(member)
        response = client.post(PANEL, {"workload": "inference", "params_b": "7"}, **HX)
        assert response.status_code == 200
        assert response.context["no_sites"]
        assert "The team has no sites yet" in response.content.decode()
