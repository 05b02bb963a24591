"""A model's shape from its Hugging Face config.json (issue 38), on the real config files of five
model families (tests/data/model_configs, sources in tests/data/README.md). Each count is worked by
hand below and checked against the published figure (within 1 %)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.profiles.model_config import ModelConfigError, model_shape, model_shape_from_text

CONFIGS = Path(__file__).resolve().parent.parent / "data" / "model_configs"


def shape_of(name: str):
    return model_shape_from_text((CONFIGS / name).read_text())


# Llama-3-8B: V 128256, h 4096, 32 layers, 32 heads, 8 KV heads (d 128), I 14336, untied.
#   embeddings 128256 × 4096 = 525,336,576 (and the same again for the output head)
#   per layer: q 4096·4096 = 16,777,216; k, v 4096·1024 = 4,194,304 each; o 16,777,216
#              MLP 3 × 4096 × 14336 = 176,160,768; norms 2 × 4096 = 8,192 → 218,112,000
#   32 × 218,112,000 = 6,979,584,000; + final norm 4,096
#   total 525,336,576 × 2 + 6,979,584,000 + 4,096 = 8,030,261,248 (published: 8.03 B)
# Mistral-7B-v0.1: the same block with V 32000: 32000 × 4096 = 131,072,000 twice,
#   6,979,584,000 + 4,096 → 7,241,732,096 (published: 7.24 B)
# Qwen2.5-0.5B: V 151936, h 896, 24 layers, 14 heads, 2 KV heads (d 64), I 4864, tied, qkv bias.
#   embeddings 151936 × 896 = 136,134,656 (tied: counted once)
#   per layer: q 896·896 + 896 = 803,712; k, v 896·128 + 128 = 114,816 each; o 802,816
#              MLP 3 × 896 × 4864 = 13,074,432; norms 1,792 → 14,912,384
#   24 × 14,912,384 = 357,897,216; + final norm 896 → 494,032,768 (published: 0.49 B)
# GPT-2 small: V 50257, P 1024, h 768, 12 layers, I 4h = 3072, tied.
#   embeddings (50257 + 1024) × 768 = 39,383,808
#   per layer: norms 4 × 768 = 3,072; qkv 768·2304 + 2304 = 1,771,776; proj 589,824 + 768
#              = 590,592; MLP 768·3072 + 3072 + 3072·768 + 768 = 4,722,432 → 7,087,872
#   12 × 7,087,872 = 85,054,464; + final norm 1,536 → 124,439,808 (published: 124 M)
# BERT-base: V 30522, P 512, T 2, h 768, 12 layers, I 3072.
#   embeddings (30522 + 512 + 2) × 768 = 23,835,648; + norm 1,536 = 23,837,184
#   per layer as GPT-2's (qkv 3(h² + h) = 1,771,776, ...) = 7,087,872; × 12 = 85,054,464
#   pooler 768² + 768 = 590,592 → 109,482,240 (published: 110 M)
CASES = [
    ("meta-llama-3-8b.json", ("llama", 4096, 32, 32, 8), 8_030_261_248, 8.03e9),
    ("mistral-7b-v0.1.json", ("mistral", 4096, 32, 32, 8), 7_241_732_096, 7.24e9),
    ("qwen2.5-0.5b.json", ("qwen2", 896, 24, 14, 2), 494_032_768, 0.49e9),
    ("gpt2.json", ("gpt2", 768, 12, 12, 12), 124_439_808, 124e6),
    ("bert-base-uncased-finetuned.json", ("bert", 768, 12, 12, 12), 109_482_240, 110e6),
]


@pytest.mark.parametrize(("name", "shape", "params", "published"), CASES)
def test_it_reads_the_shape_and_counts_the_parameters(name, shape, params, published):
    found = shape_of(name)
    assert (found.model_type, found.hidden_size, found.layers, found.heads, found.kv_heads) == shape
    assert found.params == params
    assert abs(found.params - published) / published < 0.01


def test_params_b_is_what_the_profile_holds():
    assert shape_of("meta-llama-3-8b.json").params_b == 8.03


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"intermediate_size": None}, "config.json has no 'intermediate_size'"),
        ({"num_hidden_layers": "32"}, "'num_hidden_layers' must be a whole number"),
        ({"num_hidden_layers": True}, "'num_hidden_layers' must be a whole number"),
        ({"num_key_value_heads": 5}, "'num_key_value_heads' must divide"),
        ({"tie_word_embeddings": "no"}, "'tie_word_embeddings' must be true or false"),
        ({"model_type": "mixtral"}, "model_type 'mixtral' is not read"),
        ({"model_type": None}, "config.json has no 'model_type'"),
    ],
)
def test_a_config_it_cannot_read_is_refused_naming_the_key(change, message):
    config = json.loads((CONFIGS / "mistral-7b-v0.1.json").read_text())
    for key, value in change.items():
        if value is None:
            config.pop(key)
        else:
            config[key] = value
    with pytest.raises(ModelConfigError, match=message.replace("(", r"\(")):
        model_shape(config)


@pytest.mark.parametrize("text", ["[1, 2]", "{not json", "9" * 2_000_000])
def test_text_that_is_no_config_is_refused(text):
    with pytest.raises(ModelConfigError):
        model_shape_from_text(text)


def test_the_command_prints_json_and_exits_2_on_a_bad_config(tmp_path):
    out = StringIO()
    call_command("model_shape", str(CONFIGS / "gpt2.json"), "--json", stdout=out)
    assert json.loads(out.getvalue())["params"] == 124_439_808
    bad = tmp_path / "config.json"
    bad.write_text('{"model_type": "llama", "hidden_size": 4096}')
    with pytest.raises(CommandError, match="no 'num_hidden_layers'") as caught:
        call_command("model_shape", str(bad))
    assert caught.value.returncode == 2
