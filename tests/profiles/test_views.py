from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.profiles.models import TaskProfile
from tests.factories import make_benchmark, make_offer, make_profile, make_review, make_site
from tests.profiles.helpers import HX, is_fragment, profile_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(team):
    return make_site(team, "bj-a", city="Beijing")


@pytest.fixture
def profile(team, site):
    return make_profile(team, site, name="Nightly 7B eval")


def object_urls(profile) -> list[str]:
    return [
        reverse("profiles:detail", args=[profile.pk]),
        reverse("profiles:edit", args=[profile.pk]),
        reverse("profiles:delete", args=[profile.pk]),
        reverse("profiles:panel") + f"?profile={profile.pk}",
    ]


class ProfileAccessTests:
    def test_it_redirects_anonymous_users_to_login(self, client, profile):
        names = ["profiles:list", "profiles:create", "profiles:panel", "profiles:sizing"]
        for url in [reverse(n) for n in names] + object_urls(profile):
            response = client.get(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("accounts:login"))

    def test_it_answers_404_to_an_outsider_on_every_profile_url(self, client, profile, outsider):
        client.force_login(outsider)
        for url in object_urls(profile):
            assert client.get(url).status_code == 404, url
            assert client.get(url, **HX).status_code == 404, url
        response = client.post(reverse("profiles:delete", args=[profile.pk]))
        assert response.status_code == 404
        response = client.post(
            reverse("profiles:edit", args=[profile.pk]), profile_data(profile.data_site)
        )
        assert response.status_code == 404
        assert TaskProfile.objects.get(pk=profile.pk).name == "Nightly 7B eval"

    def test_the_list_shows_only_the_current_teams_profiles(
        self, client, profile, member, other_team
    ):
        make_profile(other_team, name="Their secret job")
        client.force_login(member)
        html = client.get(reverse("profiles:list")).content.decode()
        assert "Nightly 7B eval" in html and "Their secret job" not in html

    @pytest.mark.parametrize("role", ["member", "reviewer", "owner"])
    def test_every_member_of_the_team_creates_and_edits_profiles(self, client, site, role, request):
        user = request.getfixturevalue(role)
        client.force_login(user)
        response = client.post(reverse("profiles:create"), profile_data(site))
        profile = TaskProfile.objects.get(name="7B chat inference")
        assert response.status_code == 302
        assert response["Location"] == reverse("profiles:detail", args=[profile.pk])
        assert profile.created_by == user and profile.parallelism == ["data"]
        response = client.post(
            reverse("profiles:edit", args=[profile.pk]), profile_data(site, params_b="13")
        )
        assert response.status_code == 302
        profile.refresh_from_db()
        assert profile.params_b == 13


class ProfileFormTests:
    def test_the_form_groups_every_field_in_six_sections_with_help_texts(
        self, client, site, member
    ):
        client.force_login(member)
        html = client.get(reverse("profiles:create")).content.decode()
        for legend in (
            "Workload and model",
            "Data",
            "Time and budget",
            "Fault tolerance",
            "Portability and compliance",
            "Team situation",
        ):
            assert f"<legend>{legend}</legend>" in html
        assert "Size after compression ÷ before" in html
        assert "Work lost by one interruption" in html
        assert "Blank = no limit" in html
        assert 'type="checkbox" name="parallelism" value="tensor"' in html
        assert 'hx-post="/profiles/panel/"' in html and 'hx-target="#profile-panel"' in html
        assert 'id="profile-panel"' in html

    @pytest.mark.parametrize(
        ("overrides", "field"),
        [
            ({"input_gb": "nan"}, "input_gb"),
            ({"compute_hours": "inf"}, "compute_hours"),
            ({"result_gb": "-Infinity"}, "result_gb"),
            ({"compress_ratio": "0"}, "compress_ratio"),
            ({"compress_ratio": "1.5"}, "compress_ratio"),
            ({"image_gb": "-1"}, "image_gb"),
            ({"params_b": "1e300"}, "params_b"),
            ({"workload": "mining"}, "workload"),
            ({"precision": "fp64"}, "precision"),
            ({"coupling": "very"}, "coupling"),
            ({"parallelism": ["data", "expert"]}, "parallelism"),
            ({"data_passes": "0"}, "data_passes"),
            ({"gpus": "0"}, "gpus"),
            ({"compute_hours": None}, "compute_hours"),
        ],
    )
    def test_it_shows_bad_input_on_the_field_and_writes_nothing(
        self, client, site, member, overrides, field
    ):
        client.force_login(member)
        response = client.post(reverse("profiles:create"), profile_data(site, **overrides))
        assert response.status_code == 200
        assert response.context["form"].errors[field]
        assert f'id="field-{field}"' in response.content.decode()
        assert not TaskProfile.objects.exists()

    @pytest.mark.parametrize("field", ["data_site", "home_site", "result_site"])
    def test_it_gives_a_field_error_for_another_teams_site(
        self, client, site, member, other_team, field
    ):
        theirs = make_site(other_team, "theirs")
        client.force_login(member)
        data = profile_data(site, **{field: theirs.pk})
        response = client.post(reverse("profiles:create"), data)
        assert response.status_code == 200
        assert field in response.context["form"].errors
        assert not TaskProfile.objects.exists()

    def test_an_invalid_edit_keeps_the_saved_profile(self, client, profile, member):
        client.force_login(member)
        url = reverse("profiles:edit", args=[profile.pk])
        response = client.post(url, profile_data(profile.data_site, compress_ratio="1.5"))
        assert response.status_code == 200
        assert response.context["form"].errors["compress_ratio"]
        profile.refresh_from_db()
        assert profile.compress_ratio == 1.0 and profile.name == "Nightly 7B eval"

    def test_the_edit_page_shows_the_panel_of_the_saved_profile(self, client, profile, member):
        make_offer(profile.team, profile.home_site, gpu_mem_gb=80)
        client.force_login(member)
        html = client.get(reverse("profiles:edit", args=[profile.pk])).content.decode()
        assert "16.8 GB" in html  # 7B × 2 bytes × 1.2
        assert f'hx-post="/profiles/panel/?profile={profile.pk}"' in html


class ProfileDeleteTests:
    def test_a_member_deletes_an_unused_profile(self, client, profile, member):
        client.force_login(member)
        url = reverse("profiles:delete", args=[profile.pk])
        assert "Nightly 7B eval" in client.get(url).content.decode()
        response = client.post(url)
        assert response.status_code == 302 and response["Location"] == reverse("profiles:list")
        assert not TaskProfile.objects.filter(pk=profile.pk).exists()

    def test_it_refuses_to_delete_a_profile_a_review_uses(self, client, profile, member, owner):
        make_review(profile.team, owner, task=profile)
        client.force_login(member)
        response = client.post(reverse("profiles:delete", args=[profile.pk]))
        assert response.status_code == 409
        html = response.content.decode()
        assert "cannot be deleted" in html and "1 review" in html
        assert TaskProfile.objects.filter(pk=profile.pk).exists()

    def test_it_refuses_to_delete_a_profile_with_benchmark_records(self, client, profile, member):
        make_benchmark(profile.team, profile, make_offer(profile.team, profile.home_site))
        client.force_login(member)
        response = client.post(reverse("profiles:delete", args=[profile.pk]))
        assert response.status_code == 409
        assert "1 benchmark record" in response.content.decode()
        assert TaskProfile.objects.filter(pk=profile.pk).exists()


class ProfileListTests:
    def test_it_searches_and_filters_by_workload_cadence_and_site(self, client, team, site, member):
        far = make_site(team, "gz-a", city="Guangzhou")
        make_profile(team, site, name="Llama 7B inference", workload="inference")
        make_profile(team, site, name="Llama 70B training", workload="training")
        make_profile(
            team,
            site,
            name="Clickstream cleaning",
            workload="data_processing",
            cadence="recurring",
            data_site=far,
        )
        make_profile(team, site, name="Weekly report", cadence="recurring", result_site=far)
        client.force_login(member)

        def names(**params):
            response = client.get(reverse("profiles:list"), params)
            return sorted(p.name for p in response.context["page_obj"].object_list)

        assert names(q="llama") == ["Llama 70B training", "Llama 7B inference"]
        assert names(workload="training") == ["Llama 70B training"]
        assert names(cadence="recurring") == ["Clickstream cleaning", "Weekly report"]
        assert names(site=far.pk) == ["Clickstream cleaning", "Weekly report"]
        assert names(workload="inference", q="70B") == []
        assert len(names(workload="not-a-workload")) == 4  # an unknown filter value is ignored

    def test_it_pages_25_at_a_time_newest_first(self, client, team, site, member):
        for i in range(30):
            make_profile(team, site, name=f"Job {i:02d}")
        client.force_login(member)
        first = client.get(reverse("profiles:list"))
        assert len(first.context["page_obj"].object_list) == 25
        assert first.context["page_obj"].object_list[0].name == "Job 29"
        second = client.get(reverse("profiles:list"), {"page": 2, "workload": "inference"})
        assert [p.name for p in second.context["page_obj"].object_list][-1] == "Job 00"
        assert "workload=inference&amp;page=1" in second.content.decode()

    def test_it_is_a_page_and_a_results_fragment(self, client, profile, member):
        client.force_login(member)
        page = client.get(reverse("profiles:list"))
        fragment = client.get(reverse("profiles:list"), {"q": "7B"}, **HX)
        assert not is_fragment(page) and is_fragment(fragment)
        assert fragment.content.decode().lstrip().startswith('<div id="profile-results">')
        assert "Nightly 7B eval" in fragment.content.decode()

    def test_it_shows_an_empty_state_with_a_new_profile_action(self, client, member):
        client.force_login(member)
        html = client.get(reverse("profiles:list")).content.decode()
        assert "No task profiles yet" in html and reverse("profiles:create") in html
        filtered = client.get(reverse("profiles:list"), {"q": "zzz"}).content.decode()
        assert "No profile matches these filters" in filtered

    def test_it_makes_as_many_queries_for_200_profiles_as_for_5(self, client, team, member):
        sites = [make_site(team, f"s{i}") for i in range(4)]
        client.force_login(member)

        def fill(count):
            for i in range(count):
                make_profile(team, sites[i % 4], home_site=sites[(i + 1) % 4])

        # The navigation's counts, kept under their own key that no profile write moves, are
        # read once here, so both views below count only what the list itself needs.
        client.get(reverse("method:index"))
        fill(5)
        with CaptureQueriesContext(connection) as few:
            first = client.get(reverse("profiles:list"))
        fill(195)
        with CaptureQueriesContext(connection) as many:
            second = client.get(reverse("profiles:list"))
        assert len(first.context["page_obj"].object_list) == 5
        assert len(second.context["page_obj"].object_list) == 25
        assert len(few) == len(many)


class ProfileDetailTests:
    def test_it_shows_the_sections_and_the_engines_evaluation(self, client, profile, member):
        make_offer(profile.team, profile.home_site, name="8x H100", gpu_mem_gb=80, price=2.5)
        client.force_login(member)
        response = client.get(reverse("profiles:detail", args=[profile.pk]))
        html = response.content.decode()
        assert response.status_code == 200
        assert "Workload and model" in html and "Team situation" in html
        evaluation = response.context["evaluation"]
        assert evaluation["platform"] == "compute_platform"
        assert evaluation["sizing"]["mem_gb"] == pytest.approx(16.8)
        assert evaluation["sizing"]["rows"][0]["gpus_needed"] == 1
        assert 'data-rule="R5"' in html and 'data-rule="A"' in html
        assert "Compute platform" in html
        assert 'class="is-chosen"' in html  # the chosen placement row
        assert "Wait locally" in html
        assert "The four indicators" in html

    def test_it_shows_the_engines_errors_when_the_data_is_inconsistent(
        self, client, profile, member
    ):
        TaskProfile.objects.filter(pk=profile.pk).update(input_gb=1e13)  # bypasses validation
        client.force_login(member)
        response = client.get(reverse("profiles:detail", args=[profile.pk]))
        html = response.content.decode()
        assert response.status_code == 200
        assert "The engine cannot evaluate this profile" in html
        assert "task.input_gb" in html

    def test_it_invites_to_add_offers_when_there_are_none(self, client, profile, member):
        client.force_login(member)
        html = client.get(reverse("profiles:detail", args=[profile.pk])).content.decode()
        assert "No offers to evaluate against" in html


class ProfileLanguageTests:
    def test_it_renders_the_profile_form_in_simplified_chinese(self, client, site, member):
        client.force_login(member)
        client.post(reverse("set_language"), {"language": "zh-hans"})
        html = client.get(reverse("profiles:create")).content.decode()
        assert '<html lang="zh-hans">' in html
        for text in ("新建任务画像", "负载类型与模型", "容错", "压缩后大小 ÷ 压缩前", "团队现状"):
            assert text in html
        assert "Workload and model" not in html

    def test_it_renders_the_profile_page_in_simplified_chinese(self, client, profile, member):
        make_offer(profile.team, profile.home_site)
        client.force_login(member)
        html = client.get(
            reverse("profiles:detail", args=[profile.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans"
        ).content.decode()
        assert "算力平台" in html and "就近等待" in html and "四个指标" in html
        assert "单副本显存估算" in html  # the engine's finding A in Chinese


class ProfileComplianceSitesTests:
    """SPEC 6.1 X4: where a compliance-restricted task's data may be processed."""

    def test_it_saves_the_allowed_sites_and_the_results_restriction(
        self, client, team, site, member
    ):
        other = make_site(team, "bj-b", datacenter="dc-bj-b")
        client.force_login(member)
        page = client.get(reverse("profiles:create")).content.decode()
        assert f'name="allowed_sites" value="{other.pk}"' in page
        assert "None chosen = the sites in the data site&#x27;s datacenter." in page
        assert "the results may not leave the allowed sites either" in page
        data = profile_data(
            site,
            compliance_restricted="on",
            allowed_sites=[other.pk, site.pk],
            results_restricted="on",
        )
        response = client.post(reverse("profiles:create"), data)
        assert response.status_code == 302
        profile = TaskProfile.objects.get()
        assert sorted(s.code for s in profile.allowed_sites.all()) == ["bj-a", "bj-b"]
        assert profile.results_restricted is True
        detail = client.get(reverse("profiles:detail", args=[profile.pk])).content.decode()
        assert "<dt>Allowed sites</dt><dd>bj-a, bj-b</dd>" in detail
        assert "<dt>Results restricted</dt><dd>Yes</dd>" in detail

    def test_an_edit_replaces_the_list_and_a_blank_one_reads_as_the_datacenter(
        self, client, team, profile, member
    ):
        other = make_site(team, "bj-b")
        client.force_login(member)
        url = reverse("profiles:edit", args=[profile.pk])
        client.post(url, profile_data(profile.data_site, allowed_sites=[other.pk]))
        assert [s.code for s in profile.allowed_sites.all()] == ["bj-b"]
        client.post(url, profile_data(profile.data_site))
        assert not profile.allowed_sites.exists()
        detail = client.get(reverse("profiles:detail", args=[profile.pk])).content.decode()
        assert "<dd>the sites in the data site&#x27;s datacenter</dd>" in detail

    def test_another_teams_site_is_refused_on_the_field_and_nothing_is_stored(
        self, client, site, profile, member, other_team
    ):
        theirs = make_site(other_team, "theirs")
        client.force_login(member)
        response = client.post(
            reverse("profiles:create"),
            profile_data(site, name="New job", allowed_sites=[theirs.pk]),
        )
        assert response.status_code == 200
        assert response.context["form"].errors["allowed_sites"] == ["Choose sites of this team."]
        assert 'id="field-allowed_sites"' in response.content.decode()
        assert not TaskProfile.objects.filter(name="New job").exists()
        edit = client.post(
            reverse("profiles:edit", args=[profile.pk]),
            profile_data(site, name="Renamed", allowed_sites=[site.pk, theirs.pk]),
        )
        assert edit.context["form"].errors["allowed_sites"]
        profile.refresh_from_db()
        assert profile.name == "Nightly 7B eval" and not profile.allowed_sites.exists()
        assert theirs.pk not in [
            s.pk for s in edit.context["form"].fields["allowed_sites"].queryset
        ]

    @pytest.mark.parametrize("value", ["99999999999999999999", "bj-a", "-1"])
    def test_a_value_that_is_no_site_id_is_a_field_error(self, client, site, member, value):
        client.force_login(member)
        response = client.post(
            reverse("profiles:create"), profile_data(site, allowed_sites=[value])
        )
        assert response.status_code == 200
        assert response.context["form"].errors["allowed_sites"]
        assert not TaskProfile.objects.exists()

    @pytest.mark.parametrize("shape", ["page", "fragment"])
    def test_the_live_panel_sends_the_sites_of_the_form_to_the_engine(
        self, client, team, site, member, monkeypatch, shape
    ):
        from apps.profiles import selectors

        other = make_site(team, "bj-b")
        make_offer(team, site)
        seen = []
        real = selectors.engine.evaluate
        monkeypatch.setattr(
            selectors.engine, "evaluate", lambda data: seen.append(data) or real(data)
        )
        client.force_login(member)
        data = profile_data(
            site, compliance_restricted="on", allowed_sites=[other.pk], results_restricted="on"
        )
        headers = HX if shape == "fragment" else {}
        response = client.post(reverse("profiles:panel"), data, **headers)
        assert response.status_code == 200
        assert is_fragment(response) == (shape == "fragment")
        task = seen[-1]["task"]
        assert (task["allowed_sites"], task["results_restricted"]) == (["bj-b"], True)
        assert not TaskProfile.objects.exists()  # the panel never saves


class ProfileGpuCountTests:
    """SPEC 6.1: compute hours are measured on a GPU count, so the form requires it."""

    def test_a_blank_gpu_count_is_refused_with_its_reason_and_nothing_is_stored(
        self, client, site, member
    ):
        client.force_login(member)
        page = client.get(reverse("profiles:create")).content.decode()
        assert "the GPU count compute hours were measured on" in page
        response = client.post(reverse("profiles:create"), profile_data(site, gpus=""))
        assert response.status_code == 200
        assert response.context["form"].errors["gpus"] == [
            "Enter the planned GPU count: the compute hours were measured on it."
        ]
        assert 'id="field-gpus"' in response.content.decode()
        assert not TaskProfile.objects.exists()

    def test_an_older_profile_without_it_is_shown_as_such_and_must_get_one_to_save(
        self, client, profile, member
    ):
        TaskProfile.objects.filter(pk=profile.pk).update(gpus=None)  # stored before v2
        client.force_login(member)
        detail = client.get(reverse("profiles:detail", args=[profile.pk])).content.decode()
        assert "not given: costs cannot be compared (P3)" in detail
        url = reverse("profiles:edit", args=[profile.pk])
        response = client.post(url, profile_data(profile.data_site, gpus="", params_b="13"))
        assert response.context["form"].errors["gpus"]
        profile.refresh_from_db()
        assert (profile.gpus, profile.params_b) == (None, 7)
        assert client.post(url, profile_data(profile.data_site, gpus="8")).status_code == 302
        profile.refresh_from_db()
        assert profile.gpus == 8


class ProfileWorkloadTests:
    """SPEC 6.1: fine-tuning is full fine-tuning; LoRA/QLoRA is adapter tuning; sharded DP."""

    def test_it_saves_adapter_tuning_with_sharded_parallelism(self, client, site, member):
        client.force_login(member)
        page = client.get(reverse("profiles:create")).content.decode()
        assert '<option value="adapter_tuning">Adapter tuning (LoRA/QLoRA)</option>' in page
        assert '<option value="fine_tuning">Full fine-tuning</option>' in page
        assert 'name="parallelism" value="sharded"' in page
        data = profile_data(site, workload="adapter_tuning", parallelism=["data", "sharded"])
        assert client.post(reverse("profiles:create"), data).status_code == 302
        profile = TaskProfile.objects.get()
        assert (profile.workload, profile.parallelism) == ("adapter_tuning", ["data", "sharded"])
        detail = client.get(reverse("profiles:detail", args=[profile.pk])).content.decode()
        assert "Adapter tuning (LoRA/QLoRA)" in detail
        assert "Data parallel, Sharded data parallel (FSDP, ZeRO-3)" in detail

    def test_the_new_labels_read_in_simplified_chinese(self, client, site, member):
        client.force_login(member)
        html = client.get(
            reverse("profiles:create"), HTTP_ACCEPT_LANGUAGE="zh-hans"
        ).content.decode()
        for text in ("适配器微调(LoRA/QLoRA)", "全参数微调", "分片数据并行(FSDP、ZeRO-3)"):
            assert text in html
        assert "the GPU count compute hours were measured on" not in html
        assert "Compliance only (X4)" not in html
