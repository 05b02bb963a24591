"""Model shapes of common open models, for the SPEC 6.3 memory breakdown.

Each preset gives the task fields a profile form can fill in one click: `params_b` and the
architecture (`hidden_size`, `layers`, `heads`, `kv_heads`) as the model's public config.json
states them (`hidden_size`, `num_hidden_layers`, `num_attention_heads`, `num_key_value_heads`,
which is `num_attention_heads` for models without grouped-query attention), with the page
they come from. `params_b` is the parameter count the model card states, in billions.
Batch size and sequence length describe the job, not the model: the profile supplies them
(`max_seq_len` is the longest the model's positions allow, for a form to offer as a bound).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ModelPreset:
    name: str
    params_b: float
    hidden_size: int
    layers: int
    heads: int
    kv_heads: int
    max_seq_len: int
    source: str  # the model's config.json on Hugging Face

    def task_fields(self) -> dict[str, Any]:
        """The engine input's task fields this preset fills."""
        return {
            "params_b": self.params_b,
            "hidden_size": self.hidden_size,
            "layers": self.layers,
            "heads": self.heads,
            "kv_heads": self.kv_heads,
        }


PRESETS: dict[str, ModelPreset] = {
    preset.name: preset
    for preset in (
        ModelPreset(
            name="Llama-3-8B",
            params_b=8.03,
            hidden_size=4096,
            layers=32,
            heads=32,
            kv_heads=8,
            max_seq_len=8192,
            source="https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json",
        ),
        ModelPreset(
            name="Llama-3-70B",
            params_b=70.6,
            hidden_size=8192,
            layers=80,
            heads=64,
            kv_heads=8,
            max_seq_len=8192,
            source="https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json",
        ),
        ModelPreset(
            name="Mistral-7B",
            params_b=7.24,
            hidden_size=4096,
            layers=32,
            heads=32,
            kv_heads=8,
            max_seq_len=32768,
            source="https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json",
        ),
        ModelPreset(
            name="Qwen2-7B",
            params_b=7.62,
            hidden_size=3584,
            layers=28,
            heads=28,
            kv_heads=4,
            max_seq_len=131072,
            source="https://huggingface.co/Qwen/Qwen2-7B/blob/main/config.json",
        ),
        ModelPreset(
            name="BERT-large",
            params_b=0.336,
            hidden_size=1024,
            layers=24,
            heads=16,
            kv_heads=16,  # no grouped-query attention: one KV head per head
            max_seq_len=512,
            source="https://huggingface.co/google-bert/bert-large-uncased/blob/main/config.json",
        ),
    )
}
