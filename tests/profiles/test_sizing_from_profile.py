"""From a profile's page to what follows (issue 39): "Start a review" of the task, and the sizing
page filled from the profile instead of retyping its fields."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_membership, make_offer, make_profile, make_site, make_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def profile(team):
    site = make_site(team, "bj-a")
    make_offer(team, site, name="8x H100", gpu_mem_gb=80, gpus_per_machine=8)
    return make_profile(
        team, site, name="Llama fine-tune", workload="training", params_b=8.03,
        precision="bf16", parallelism=["data", "sharded"], batch_size=1, seq_len=8192,
        hidden_size=4096, layers=32, heads=32, kv_heads=8, activation_checkpointing=True,
        gpus=8, compute_hours=40, budget_compute_hours=24, attention="eager",
    )  # fmt: skip


def test_the_profile_page_starts_a_review_and_sizes_the_task(client, member, profile):
    client.force_login(member)
    html = client.get(reverse("profiles:detail", args=[profile.pk])).content.decode()
    assert f'{reverse("reviews:create")}?task={profile.pk}' in html
    assert f'{reverse("profiles:sizing")}?profile={profile.pk}' in html
    form = client.get(reverse("reviews:create"), {"task": profile.pk}).context["form"]
    assert str(form["task"].value()) == str(profile.pk)


def test_the_sizing_page_is_filled_from_the_profile(client, member, profile):
    client.force_login(member)
    response = client.get(reverse("profiles:sizing"), {"profile": profile.pk})
    form = response.context["form"]
    assert form.is_bound and form.is_valid(), form.errors
    data = form.cleaned_data
    assert (data["params_b"], data["workload"], data["precision"]) == (8.03, "training", "bf16")
    assert (data["seq_len"], data["hidden_size"], data["kv_heads"]) == (8192, 4096, 8)
    assert data["activation_checkpointing"] is True
    assert data["attention"] == "eager"  # SPEC 7.1
    assert sorted(data["parallelism"]) == ["data", "sharded"]
    assert (data["gpus"], data["compute_hours"], data["budget_compute_hours"]) == (8, 40, 24)
    assert response.context["result"] is not None


def test_another_teams_profile_is_not_found(client, profile):
    stranger = make_team("Elsewhere", "elsewhere")
    from tests.factories import make_user

    user = make_user("stranger")
    make_membership(user, stranger, "member")
    client.force_login(user)
    assert client.get(reverse("profiles:sizing"), {"profile": profile.pk}).status_code == 404
    assert client.get(reverse("profiles:sizing"), {"profile": "x"}).status_code == 404
