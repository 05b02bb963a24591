from __future__ import annotations

import math

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from apps.catalog.services import InUseError
from apps.profiles import services
from apps.profiles.forms import TaskProfileForm
from apps.profiles.models import TaskProfile
from tests.factories import make_offer, make_profile, make_review, make_site
from tests.profiles.helpers import profile_data

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Messages are asserted in English, whatever an earlier test left active."""
    with translation.override("en"):
        yield


def fields(site, **overrides):
    data = {
        "name": "Job",
        "workload": "inference",
        "params_b": 7.0,
        "compute_hours": 3.0,
        "data_site": site,
        "home_site": site,
        "result_site": site,
    }
    data.update(overrides)
    return data


class ProfileServiceTests:
    def test_it_creates_a_profile_with_its_author(self, team, member):
        site = make_site(team, "a")
        profile = services.profile_create(team=team, created_by=member, **fields(site))
        assert TaskProfile.objects.get(pk=profile.pk).created_by == member

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            ("input_gb", math.nan),
            ("compute_hours", math.inf),
            ("compress_ratio", 0.0),
            ("compress_ratio", 1.5),
            ("data_passes", 0),
            ("parallelism", ["expert"]),
            ("workload", "mining"),
        ],
    )
    def test_it_refuses_bad_values_without_a_form(self, team, field, value):
        site = make_site(team, "a")
        with pytest.raises(ValidationError) as exc:
            services.profile_create(team=team, **fields(site, **{field: value}))
        assert field in exc.value.error_dict
        assert not TaskProfile.objects.exists()

    def test_it_refuses_another_teams_site(self, team, other_team):
        site, theirs = make_site(team, "a"), make_site(other_team, "b")
        with pytest.raises(ValidationError) as exc:
            services.profile_create(team=team, **fields(site, result_site=theirs))
        assert "result_site" in exc.value.error_dict

    def test_it_updates_and_deletes_an_unused_profile(self, team):
        profile = make_profile(team)
        services.profile_update(profile=profile, params_b=70.0)
        assert TaskProfile.objects.get(pk=profile.pk).params_b == 70.0
        services.profile_delete(profile=profile)
        assert not TaskProfile.objects.filter(pk=profile.pk).exists()

    def test_it_refuses_to_delete_a_profile_a_review_uses(self, team, owner):
        profile = make_profile(team, name="Used")
        make_review(team, owner, task=profile, offers=[make_offer(team)])
        with pytest.raises(InUseError) as exc:
            services.profile_delete(profile=profile)
        assert exc.value.message.startswith(
            "Profile Used cannot be deleted: it is used by 1 review"
        )


class TaskProfileFormTests:
    def test_it_groups_every_engine_field_in_eight_sections(self, team):
        """The method's six, the optional model shape of SPEC 6.3 after the workload and the
        optional staged plan of SPEC 6.4 after the data."""
        form = TaskProfileForm(team=team)
        sections = form.fieldsets()
        assert [key for key, _, _ in sections] == [
            "workload",
            "shape",
            "data",
            "staged",
            "time",
            "faults",
            "portability",
            "team",
        ]
        shown = {f.name for _, _, fields in sections for f in fields}
        model_fields = {
            f.name
            for f in [*TaskProfile._meta.fields, *TaskProfile._meta.many_to_many]
            if f.editable and f.name not in {"id", "team", "created_by"}
        }
        assert shown == model_fields  # nothing of SPEC 2 is left out of the form

    def test_every_field_has_help_text(self, team):
        form = TaskProfileForm(team=team)
        assert all(form.fields[name].help_text for name in form.fields)

    def test_a_valid_post_cleans_to_the_engines_types(self, team):
        site = make_site(team, "a")
        form = TaskProfileForm(profile_data(site, parallelism=["data", "tensor"]), team=team)
        assert form.is_valid(), form.errors
        assert form.cleaned_data["parallelism"] == ["data", "tensor"]
        assert form.cleaned_data["budget_transfer_hours"] is None  # blank = no limit


class AllowedSitesServiceTests:
    def test_it_stores_allowed_sites_of_the_team(self, team):
        site, other = make_site(team, "a"), make_site(team, "b")
        profile = services.profile_create(
            team=team,
            allowed_sites=[other, site],
            **fields(site, compliance_restricted=True, results_restricted=True),
        )
        assert sorted(s.code for s in profile.allowed_sites.all()) == ["a", "b"]
        services.profile_update(profile=profile, name="Renamed")  # None: left as they are
        assert profile.allowed_sites.count() == 2
        services.profile_update(profile=profile, allowed_sites=[])
        assert not profile.allowed_sites.exists()

    def test_it_refuses_another_teams_site_with_every_other_error_and_stores_nothing(
        self, team, other_team
    ):
        site, theirs = make_site(team, "a"), make_site(other_team, "b")
        with pytest.raises(ValidationError) as exc:
            services.profile_create(
                team=team, allowed_sites=[theirs], **fields(site, compress_ratio=2.0)
            )
        assert set(exc.value.error_dict) == {"allowed_sites", "compress_ratio"}
        assert not TaskProfile.objects.exists()

    def test_an_update_with_another_teams_site_keeps_the_saved_list(self, team, other_team):
        site, theirs = make_site(team, "a"), make_site(other_team, "b")
        profile = services.profile_create(team=team, allowed_sites=[site], **fields(site))
        with pytest.raises(ValidationError):
            services.profile_update(profile=profile, allowed_sites=[theirs])
        assert [s.code for s in TaskProfile.objects.get().allowed_sites.all()] == ["a"]
