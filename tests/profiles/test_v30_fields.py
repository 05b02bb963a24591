"""Engine 3.0's task fields on the profile (SPEC 7.1 `attention`, 7.3 `restart_hours`): saved from
the form, sent to the engine only when they differ from its defaults, refused by field when bad."""

from __future__ import annotations

import pytest

from apps.profiles.engine_input import task_input
from apps.profiles.forms import TaskProfileForm
from tests.factories import make_profile
from tests.profiles.test_staged_fields import _form_data

pytestmark = pytest.mark.django_db


def test_a_profile_left_at_the_defaults_sends_neither_field(team):
    profile = make_profile(team)
    assert (profile.attention, profile.restart_hours) == ("flash", 0)
    data = task_input(profile, team)
    assert "attention" not in data and "restart_hours" not in data  # fingerprints unchanged


def test_blank_fields_take_the_engines_defaults(team):
    profile = make_profile(team)
    form = TaskProfileForm(
        _form_data(profile, attention="", restart_hours=""), instance=profile, team=team
    )
    assert form.is_valid(), form.errors
    saved = form.save()
    assert (saved.attention, saved.restart_hours) == ("flash", 0.0)


def test_the_form_saves_eager_attention_and_restart_hours_and_the_engine_reads_them(team):
    profile = make_profile(team)
    form = TaskProfileForm(
        _form_data(profile, attention="eager", restart_hours="0.25"), instance=profile, team=team
    )
    assert form.is_valid(), form.errors
    data = task_input(form.save(), team)
    assert (data["attention"], data["restart_hours"]) == ("eager", 0.25)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("attention", "fast", "Select a valid choice"),
        ("restart_hours", "-1", "greater than or equal to 0"),
        ("restart_hours", "nan", "finite number"),
    ],
)
def test_bad_values_are_refused_on_their_field(team, field, value, message):
    profile = make_profile(team)
    form = TaskProfileForm(_form_data(profile, **{field: value}), instance=profile, team=team)
    assert not form.is_valid()
    assert message in " ".join(form.errors[field])
