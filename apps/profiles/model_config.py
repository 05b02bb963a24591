"""A model's shape from its Hugging Face `config.json` (issue 38): hidden size, layers, heads,
key/value heads, and the parameter count worked out from the shapes, so nobody types them.

Read: decoder models with a gated MLP and rotary positions (`llama`, `mistral`, `qwen2`: Llama-3,
Mistral, Qwen2/2.5), GPT-2 style decoders (`gpt2`) and BERT style encoders (`bert`). The count is
the weights' (what memory sizing needs), embeddings and biases included:
- gated decoders: embeddings V·h; per layer q h·(a·d), k and v h·(k·d) each, o (a·d)·h (q, k and v
  with biases for qwen2, or when `attention_bias`), gate/up/down 3·h·I, two RMS norms 2·h; a final
  norm h; an output head V·h unless tied (`tie_word_embeddings`);
- GPT-2: token and position embeddings (V + P)·h; per layer two layer norms 4·h, fused qkv
  3h·h + 3h, projection h·h + h, MLP 2·h·I + I + h (I = `n_inner`, or 4h); a final norm 2h;
  the head is tied;
- BERT: embeddings (V + P + T)·h + a norm 2h; per layer qkv 3(h·h + h), output h·h + h, MLP
  2·h·I + I + h, two norms 4h; the pooler h·h + h.
Anything else (a mixture of experts, a multimodal config with a nested `text_config`) is refused
by name: its shape is entered by hand. Every key a count needs is named when missing or wrong.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

GATED = ("llama", "mistral", "qwen2")
READ = (*GATED, "gpt2", "bert")
# Beyond any published model, as the profile's own limits (apps/profiles/shape.SHAPE_MAX).
LIMITS = {"hidden": 1_000_000, "layers": 10_000, "heads": 100_000, "vocab": 100_000_000,
          "intermediate": 10_000_000, "positions": 100_000_000, "head_dim": 100_000}  # fmt: skip
MAX_CONFIG_BYTES = 1024 * 1024


class ModelConfigError(ValueError):
    """A config this reader cannot take; the message names the key (or what was found)."""


@dataclass(frozen=True)
class ModelShape:
    model_type: str
    hidden_size: int
    layers: int
    heads: int
    kv_heads: int
    params: int

    @property
    def params_b(self) -> float:
        """Billions of parameters, as the profile's `params_b` holds them."""
        return round(self.params / 1e9, 3)

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "params_b": self.params_b}


def _int(config: dict, key: str, limit: str, default: int | None = None) -> int:
    value = config.get(key, default)
    if value is None:
        raise ModelConfigError(f"config.json has no '{key}'")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LIMITS[limit]:
        raise ModelConfigError(f"'{key}' must be a whole number from 1 to {LIMITS[limit]:,}")
    return value


def _flag(config: dict, key: str, default: bool) -> bool:
    value = config.get(key, default)
    if not isinstance(value, bool):
        raise ModelConfigError(f"'{key}' must be true or false")
    return value


def _gated(config: dict, model_type: str) -> ModelShape:
    h = _int(config, "hidden_size", "hidden")
    layers = _int(config, "num_hidden_layers", "layers")
    a = _int(config, "num_attention_heads", "heads")
    kv = _int(config, "num_key_value_heads", "heads", default=a)
    if kv > a or a % kv:
        raise ModelConfigError("'num_key_value_heads' must divide 'num_attention_heads'")
    if config.get("head_dim") is None and h % a:
        raise ModelConfigError("'num_attention_heads' must divide 'hidden_size'")
    d = _int(config, "head_dim", "head_dim", default=h // a)
    vocab = _int(config, "vocab_size", "vocab")
    inter = _int(config, "intermediate_size", "intermediate")
    qkv_bias = model_type == "qwen2" or _flag(config, "attention_bias", False)
    tied = _flag(config, "tie_word_embeddings", False)
    attention = h * a * d + 2 * h * kv * d + a * d * h + ((a + 2 * kv) * d if qkv_bias else 0)
    per_layer = attention + 3 * h * inter + 2 * h
    params = vocab * h + layers * per_layer + h + (0 if tied else vocab * h)
    return ModelShape(model_type, h, layers, a, kv, params)


# The keys of (hidden size, layers, heads, positions) in each family's config.
KEYS = {
    "gpt2": ("n_embd", "n_layer", "n_head", "n_positions"),
    "bert": ("hidden_size", "num_hidden_layers", "num_attention_heads", "max_position_embeddings"),
}


def _block(config: dict, family: str) -> tuple[int, int, int, int, int]:
    """(h, layers, heads, vocab, positions) of a GPT-2 or BERT style config."""
    hidden, layers, heads, positions = KEYS[family]
    h = _int(config, hidden, "hidden")
    a = _int(config, heads, "heads")
    if h % a:
        raise ModelConfigError(f"'{heads}' must divide '{hidden}'")
    return (h, _int(config, layers, "layers"), a, _int(config, "vocab_size", "vocab"),
            _int(config, positions, "positions"))  # fmt: skip


def _layer(h: int, inter: int) -> int:
    """A GPT-2 or BERT layer: qkv 3(h² + h), output h² + h, MLP 2·h·I + I + h, norms 4h."""
    return 3 * (h * h + h) + (h * h + h) + (2 * h * inter + inter + h) + 4 * h


def _gpt2(config: dict) -> ModelShape:
    h, layers, a, vocab, positions = _block(config, "gpt2")
    inter = _int(config, "n_inner", "intermediate", default=4 * h)
    params = (vocab + positions) * h + layers * _layer(h, inter) + 2 * h
    return ModelShape("gpt2", h, layers, a, a, params)


def _bert(config: dict) -> ModelShape:
    h, layers, a, vocab, positions = _block(config, "bert")
    types = _int(config, "type_vocab_size", "vocab", default=2)
    inter = _int(config, "intermediate_size", "intermediate")
    params = (vocab + positions + types) * h + 2 * h + layers * _layer(h, inter) + h * h + h
    return ModelShape("bert", h, layers, a, a, params)


def model_shape(config: Any) -> ModelShape:
    """The shape of a parsed config.json; ModelConfigError naming what is missing or wrong."""
    if not isinstance(config, dict):
        raise ModelConfigError("config.json must hold a JSON object")
    model_type = config.get("model_type")
    if not isinstance(model_type, str) or not model_type:
        raise ModelConfigError("config.json has no 'model_type'")
    if model_type in GATED:
        return _gated(config, model_type)
    if model_type == "gpt2":
        return _gpt2(config)
    if model_type == "bert":
        return _bert(config)
    raise ModelConfigError(
        f"model_type '{model_type[:40]}' is not read (it reads {', '.join(READ)}): enter the "
        "model's shape by hand"
    )


def model_shape_from_text(text: str | bytes) -> ModelShape:
    """The shape of a config.json's text (pasted or uploaded)."""
    if len(text) > MAX_CONFIG_BYTES:
        raise ModelConfigError("config.json is larger than 1 MB: it is not a model config")
    try:
        config = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ModelConfigError(f"config.json is not JSON: {str(exc)[:80]}") from None
    return model_shape(config)
