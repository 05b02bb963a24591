"""A Hugging Face config.json pasted or uploaded on the profile form fills the shape fields
(issue 38); nothing is saved by the fill, and a config missing a key names it on the field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.profiles.models import TaskProfile
from tests.factories import make_profile, make_site
from tests.profiles.helpers import profile_data

pytestmark = pytest.mark.django_db
CONFIGS = Path(__file__).resolve().parent.parent / "data" / "model_configs"


@pytest.fixture
def site(team):
    return make_site(team, "bj-a", city="Beijing")


def value_of(html: str, name: str) -> str:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html).group()
    found = re.search(r'value="([^"]*)"', tag)
    return found.group(1) if found else ""


def shape(html: str) -> dict[str, str]:
    return {n: value_of(html, n) for n in ("hidden_size", "layers", "heads", "kv_heads",
                                            "params_b")}


class ConfigFillTests:
    def test_a_pasted_llama_3_config_fills_the_shape_and_saves_nothing(self, client, member,
                                                                       site):
        client.force_login(member)
        data = {**profile_data(site), "config-text": (CONFIGS / "meta-llama-3-8b.json").read_text(),
                "config-fill": "1"}
        response = client.post(reverse("profiles:create"), data)
        assert response.status_code == 200
        html = response.content.decode()
        # Llama 3 8B: hidden 4096, 32 layers, 32 heads, 8 KV heads, 8,030,261,248 parameters.
        assert shape(html) == {"hidden_size": "4096", "layers": "32", "heads": "32",
                               "kv_heads": "8", "params_b": "8.03"}
        assert value_of(html, "name") == "7B chat inference"  # the rest kept as posted
        assert 'class="error"' not in html  # no field judged by a fill
        assert not TaskProfile.objects.exists()

    def test_an_uploaded_config_fills_the_edit_form_and_the_save_keeps_it(self, client, member,
                                                                         team, site):
        profile = make_profile(team, site, name="Nightly eval")
        client.force_login(member)
        url = reverse("profiles:edit", args=[profile.pk])
        posted = profile_data(site, name="Nightly eval")
        upload = SimpleUploadedFile("config.json", (CONFIGS / "mistral-7b-v0.1.json").read_bytes(),
                                    "application/json")
        html = client.post(url, {**posted, "config-file": upload, "config-fill": "1"}
                           ).content.decode()
        filled = shape(html)
        # Mistral 7B v0.1: hidden 4096, 32 layers, 32 heads, 8 KV heads, 7.24 B parameters.
        assert filled == {"hidden_size": "4096", "layers": "32", "heads": "32", "kv_heads": "8",
                          "params_b": "7.242"}
        profile.refresh_from_db()
        assert profile.params_b != 7.242  # not saved by the fill
        # The job's own batch size and sequence length go with the model's shape.
        job = {"batch_size": "1", "seq_len": "4096"}
        assert client.post(url, {**posted, **filled, **job}).status_code == 302
        profile.refresh_from_db()
        assert (profile.hidden_size, profile.layers, profile.kv_heads, profile.params_b) == (
            4096, 32, 8, 7.242)

    def test_a_config_missing_a_key_names_it_on_the_field(self, client, member, site):
        config = json.loads((CONFIGS / "meta-llama-3-8b.json").read_text())
        del config["num_hidden_layers"]
        client.force_login(member)
        posted = profile_data(site)
        response = client.post(reverse("profiles:create"), {
            **posted, "config-text": json.dumps(config), "config-fill": "1"})
        html = response.content.decode()
        field = re.search(r'id="field-config-text".*?</div>', html, re.S).group()
        assert "This config.json cannot be read: config.json has no &#x27;num_hidden_layers&#x27;" \
            in field
        assert "hidden_size" not in posted and value_of(html, "hidden_size") == ""  # as posted
        assert not TaskProfile.objects.exists()

    def test_an_empty_fill_asks_for_the_config(self, client, member, site):
        client.force_login(member)
        html = client.post(reverse("profiles:create"), {**profile_data(site), "config-fill": "1"}
                           ).content.decode()
        assert "Paste a config.json, or choose the file." in html
