"""The staged plan's fields on the task profile (issue 21, SPEC 6.4): saved from the form, sent
to the engine only when the processed size is given, refused by field when bad."""

from __future__ import annotations

import pytest

import engine
from apps.profiles.engine_input import task_input
from apps.profiles.forms import TaskProfileForm
from apps.profiles.models import TaskProfile
from tests.factories import make_profile, make_site

pytestmark = pytest.mark.django_db


def _form_data(profile: TaskProfile, **changes) -> dict:
    form = TaskProfileForm(instance=profile, team=profile.team)
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None:
            continue
        if isinstance(value, list | tuple):
            data[name] = [getattr(v, "pk", v) for v in value]
        elif hasattr(value, "pk"):
            data[name] = value.pk
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = value
    data.update(changes)
    return data


def test_a_profile_without_a_processed_size_sends_nothing_new(team):
    profile = make_profile(team)
    data = task_input(profile, team)
    assert "processed_gb" not in data and "rounds_per_refresh" not in data


def test_the_form_saves_the_staged_plan_and_the_engine_reads_it(team):
    site = make_site(team)
    profile = make_profile(team, site=site, input_gb=5000)
    form = TaskProfileForm(
        _form_data(profile, processed_gb="200", preprocess_hours="2",
                   preprocess_cost_per_hour="5", rounds_per_refresh="4"),
        instance=profile, team=team,
    )
    assert form.is_valid(), form.errors
    saved = form.save()
    data = task_input(saved, team)
    assert (data["processed_gb"], data["preprocess_hours"], data["preprocess_cost_per_hour"],
            data["rounds_per_refresh"]) == (200.0, 2.0, 5.0, 4)
    # The engine reads what the profile sends: staged away from the data.
    from apps.profiles.engine_input import build_profile_input

    output = engine.evaluate(build_profile_input(saved))
    assert all(o["plan"] in (None, "raw", "staged") for o in output["options"])


@pytest.mark.parametrize(
    ("field", "value"),
    [("rounds_per_refresh", "0"), ("preprocess_hours", "-1"), ("processed_gb", "-5"),
     ("preprocess_cost_per_hour", "nan")],
)
def test_bad_values_are_refused_by_field(team, field, value):
    profile = make_profile(team)
    form = TaskProfileForm(_form_data(profile, **{field: value}), instance=profile, team=team)
    assert not form.is_valid()
    assert field in form.errors
