"""SPEC 6.3 on the profile: the model shape and checkpoint interval fields, the preset picker, what
the engine receives, and every bad value refused on its field in both languages."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from apps.profiles.engine_input import build_profile_input, fingerprint
from apps.profiles.forms import TaskProfileForm, preset_options
from apps.profiles.models import TaskProfile
from engine.presets import PRESETS
from tests.factories import make_offer, make_profile, make_site
from tests.profiles.helpers import HX, profile_data

pytestmark = pytest.mark.django_db

CREATE = "/profiles/new/"
SHAPE = ("batch_size", "seq_len", "hidden_size", "layers", "heads", "kv_heads")


@pytest.fixture
def home(team):
    site = make_site(team, "bj-a")
    make_offer(team, site, name="8x H100", gpu_mem_gb=80, gpus_per_machine=8)
    return site


def llama_3_8b(site, **overrides):
    """The profile form as the Llama-3-8B preset fills it (its option's data-fields and, the
    batch and sequence being blank, its data-blank-fields), for a training job."""
    option = next(o for o in preset_options() if o["name"] == "Llama-3-8B")
    values = {**json.loads(option["fields"]), **json.loads(option["blank_fields"])}
    data = profile_data(site, workload="training", **{k: str(v) for k, v in values.items()})
    return {**data, **overrides}


class PresetTests:
    def test_each_preset_option_carries_its_config_values_and_source(self):
        options = {o["name"]: o for o in preset_options()}
        assert set(options) == {"Llama-3-8B", "Llama-3-70B", "Mistral-7B", "Qwen2-7B", "BERT-large"}
        assert json.loads(options["Llama-3-8B"]["fields"]) == {
            "params_b": 8.03,
            "hidden_size": 4096,
            "layers": 32,
            "heads": 32,
            "kv_heads": 8,
        }
        # The job's own figures, only when blank: batch 1, the context up to 4,096 tokens.
        assert json.loads(options["BERT-large"]["blank_fields"]) == {
            "batch_size": 1,
            "seq_len": 512,
        }
        assert json.loads(options["Qwen2-7B"]["blank_fields"])["seq_len"] == 4096

    def test_the_form_shows_the_picker_with_the_cited_sources(self, client, home, member):
        client.force_login(member)
        html = client.get(CREATE).content.decode()
        assert "data-preset-picker" in html and "js/presets.js" in html
        for preset in PRESETS.values():
            assert f'href="{preset.source}"' in html
        # The values travel as JSON in an attribute (escaped), never as an inline script.
        assert 'data-fields="{&quot;params_b&quot;: 8.03' in html
        assert "<script>" not in html

    def test_a_presets_values_are_saved_and_sent_to_the_engine(self, client, home, member):
        client.force_login(member)
        data = llama_3_8b(home, activation_checkpointing="on", checkpoint_interval_hours="0.5")
        response = client.post(CREATE, data)
        assert response.status_code == 302, response.context["form"].errors
        profile = TaskProfile.objects.get()
        assert (profile.params_b, profile.batch_size, profile.seq_len) == (8.03, 1, 4096)
        task = build_profile_input(profile)["task"]
        assert {k: task[k] for k in SHAPE} == {
            "batch_size": 1,
            "seq_len": 4096,
            "hidden_size": 4096,
            "layers": 32,
            "heads": 32,
            "kv_heads": 8,
        }
        assert task["activation_checkpointing"] is True
        assert task["checkpoint_interval_hours"] == 0.5

    def test_blank_fields_are_not_sent_so_fingerprints_stay(self, team, home):
        profile = make_profile(team, home)
        data = build_profile_input(profile)
        for key in (*SHAPE, "activation_checkpointing", "checkpoint_interval_hours"):
            assert key not in data["task"]
        before = fingerprint(data)
        # Saving through the form with the new fields blank changes nothing the engine sees.
        form = TaskProfileForm(
            {**profile_data(home), "name": profile.name, "workload": "inference",
             "params_b": "7", "gpus": "8", "compute_hours": "10", "input_gb": "100",
             "result_gb": "5", "version": profile.version},
            instance=profile,
            team=team,
        )  # fmt: skip
        assert form.is_valid(), form.errors
        assert form.cleaned_data["batch_size"] is None
        assert form.cleaned_data["checkpoint_interval_hours"] is None
        profile.refresh_from_db()
        assert fingerprint(build_profile_input(profile)) == before

    def test_kv_heads_blank_means_as_many_as_heads(self, client, home, member):
        client.force_login(member)
        response = client.post(CREATE, llama_3_8b(home, kv_heads=""))
        assert response.status_code == 302
        profile = TaskProfile.objects.get()
        task = build_profile_input(profile)["task"]
        assert "kv_heads" not in task and task["heads"] == 32
        page = client.get(f"/profiles/{profile.pk}/").content.decode()
        assert "as many as heads (32)" in page


BAD = [
    # (field changed, value, field refused, English message part)
    ("batch_size", "-4", "batch_size", "greater than or equal to 1"),
    ("batch_size", "0", "batch_size", "greater than or equal to 1"),
    ("seq_len", "2.5", "seq_len", "Enter a whole number"),
    ("heads", "48", "heads", "The heads must divide the hidden size (4096) evenly."),
    ("kv_heads", "64", "kv_heads", "Enter at most the number of heads (32)."),
    ("kv_heads", "5", "kv_heads", "The KV heads must divide the heads (32) evenly."),
    ("layers", "", "layers", "Enter this with the other model shape fields"),
    ("hidden_size", "99999999", "hidden_size", "less than or equal to 1000000"),
    ("checkpoint_interval_hours", "0", "checkpoint_interval_hours", "Enter a number above 0"),
    ("checkpoint_interval_hours", "nan", "checkpoint_interval_hours", "finite number"),
]


class BadShapeTests:
    @pytest.mark.parametrize(("name", "value", "refused", "message"), BAD)
    def test_it_is_refused_on_its_field(self, client, home, member, name, value, refused, message):
        client.force_login(member)
        response = client.post(CREATE, llama_3_8b(home, **{name: value}))
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert list(errors) == [refused], errors
        assert any(message in e for e in errors[refused]), errors[refused]
        assert not TaskProfile.objects.exists()

    def test_kv_heads_alone_asks_for_the_five_others(self, client, home, member):
        client.force_login(member)
        response = client.post(CREATE, profile_data(home, kv_heads="8"))
        errors = response.context["form"].errors
        assert sorted(errors) == ["batch_size", "heads", "hidden_size", "layers", "seq_len"]
        assert "leave them all blank" in errors["layers"][0]

    def test_the_messages_are_in_chinese_too(self, client, home, member):
        client.force_login(member)
        client.cookies["django_language"] = "zh-hans"
        with translation.override("zh-hans"):
            response = client.post(CREATE, llama_3_8b(home, heads="3", kv_heads="64"))
        errors = response.context["form"].errors
        assert errors["heads"] == ["隐藏层维度（4096）必须是注意力头数的整数倍。"]
        assert errors["kv_heads"] == ["KV 头数不能超过注意力头数（3）。"]

    def test_the_panel_names_the_bad_field_and_sizes_without_the_shape(self, client, home, member):
        client.force_login(member)
        data = llama_3_8b(home, heads="48")
        response = client.post("/profiles/panel/", data, **HX)
        assert response.status_code == 200
        assert [str(label) for label, _ in response.context["missing"]] == ["Attention heads"]
        assert response.context["engine_errors"] == []
        assert not response.context["show_sizing"]
        assert response.context["show_cross"]


class VersionTests:
    def test_an_edit_of_the_shape_keeps_optimistic_concurrency(self, client, team, home, member):
        profile = make_profile(team, home, name="Llama", workload="training", params_b=8.03)
        client.force_login(member)
        url = f"/profiles/{profile.pk}/edit/"
        data = llama_3_8b(home, name="Llama", version=str(profile.version))
        assert client.post(url, data).status_code == 302
        profile.refresh_from_db()
        assert (profile.layers, profile.version) == (32, 2)
        # A second tab still on version 1: nothing written, 409, the shape field named.
        stale = client.post(url, {**data, "version": "1", "layers": "40"})
        assert stale.status_code == 409
        profile.refresh_from_db()
        assert profile.layers == 32
        changes = {c.field: (c.yours, c.stored) for c in stale.context["form"].conflict.changes}
        assert changes == {"layers": ("40", "32")}
