"""Engine 3.1's task field on the profile (SPEC 7.5 `input_delivery`): saved from the form, sent
to the engine only when streamed, refused by field when bad, with help in both languages."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.profiles.engine_input import task_input
from apps.profiles.forms import TaskProfileForm
from tests.factories import make_profile
from tests.profiles.test_staged_fields import _form_data

pytestmark = pytest.mark.django_db


def test_a_profile_left_at_bulk_does_not_send_it(team):
    profile = make_profile(team)
    assert profile.input_delivery == "bulk"
    assert "input_delivery" not in task_input(profile, team)  # fingerprints unchanged


def test_blank_is_bulk(team):
    profile = make_profile(team)
    form = TaskProfileForm(_form_data(profile, input_delivery=""), instance=profile, team=team)
    assert form.is_valid(), form.errors
    assert form.save().input_delivery == "bulk"


def test_the_form_saves_streamed_and_the_engine_reads_it(team):
    profile = make_profile(team)
    form = TaskProfileForm(
        _form_data(profile, input_delivery="streamed"), instance=profile, team=team
    )
    assert form.is_valid(), form.errors
    assert task_input(form.save(), team)["input_delivery"] == "streamed"


@pytest.mark.parametrize(("lang", "message"), [("en", "Select a valid choice"),
                                               ("zh-hans", "选择一个有效的选项")])  # fmt: skip
def test_a_bad_value_is_refused_on_its_field(team, lang, message):
    profile = make_profile(team)
    with translation.override(lang):
        form = TaskProfileForm(
            _form_data(profile, input_delivery="trickle"), instance=profile, team=team
        )
        assert not form.is_valid()
        assert message in " ".join(form.errors["input_delivery"])


def test_the_help_text_is_in_both_languages(team):
    form = TaskProfileForm(instance=make_profile(team), team=team)
    with translation.override("en"):
        assert "hides behind compute" in str(form.fields["input_delivery"].help_text)
    with translation.override("zh-hans"):
        assert "传输藏在计算后面" in str(form.fields["input_delivery"].help_text)


def test_the_profile_page_shows_it_in_both_languages(client, team, owner):
    from django.urls import reverse

    from apps.profiles.models import TaskProfile

    profile = make_profile(team)
    TaskProfile.objects.filter(pk=profile.pk).update(input_delivery="streamed")
    client.force_login(owner)
    url = reverse("profiles:detail", args=[profile.pk])
    assert "Streamed (read while computing)" in client.get(url).content.decode()
    zh = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "流式（边算边读）" in zh
