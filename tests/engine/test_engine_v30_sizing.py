"""SPEC 7.1 (engine 3.0): attention activations, the plan that must hold the model (too_few_gpus)
and A2; each test names the case 2.2 got wrong and the number it must give now, worked by hand.

GPUs here: 80 GB, 0.9 headroom → 72 GB usable; 8 GPUs a machine.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import EngineInputError, evaluate, parse_input

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    big_sharded_training,
    findings_of,
    make_input,
    offer,
    option_of,
    rules,
    task,
)

LLAMA_3_8B = {"params_b": 8.03, "hidden_size": 4096, "layers": 32, "heads": 32, "kv_heads": 8}


def _llama_8k(**overrides: Any) -> dict[str, Any]:
    """A full fine-tune of Llama-3-8B at 8k context, batch 1, on 8 planned GPUs (one machine)."""
    fields = {"workload": "fine_tuning", "seq_len": 8192, "batch_size": 1, "gpus": 8,
              "parallelism": ["data", "tensor"], **LLAMA_3_8B, **overrides}  # fmt: skip
    return task(**fields)


class TestAttentionActivations:
    """SPEC 7.1 [Dao et al. 2022]: FlashAttention/SDPA never store the a·s·s score matrix."""

    def test_flash_is_the_default_and_stores_34_bytes_an_element(self):
        out = evaluate(make_input(_llama_8k()))
        b = out["sizing"]["breakdown"]
        # 32 layers × 8192 × 1 × 4096 × 34 B = 36,507,222,016 B = 36.507222 GB (2.2: 380.10)
        assert b["activations"] == pytest.approx(36.507222016, abs=1e-6)
        # weights 8.03 × 2 = 16.06, gradients 16.06, optimizer 8.03 × 12 = 96.36 → 128.48;
        # + 36.507222 = 164.987222; × 1.2 = 197.984666 GB
        assert out["sizing"]["estimated_gpu_mem_gb"] == pytest.approx(197.984666, abs=1e-5)

    def test_it_fits_one_machine_where_2_2_bought_a_distributed_layer(self):
        out = evaluate(make_input(_llama_8k()))
        row = out["sizing"]["offers"][0]
        # ⌈197.984666 / 72⌉ = ⌈2.75⌉ = 3 GPUs, one machine (2.2: 610.30 GB → ⌈8.48⌉ = 9
        # GPUs, 2 machines, R1: "buy a distributed layer")
        assert (row["gpus_needed"], row["machines_needed"]) == (3, 1)
        assert row["fits_single_machine"] is True
        assert out["platform"] == "compute_platform"

    def test_eager_keeps_section_6_3s_score_term(self):
        out = evaluate(make_input(_llama_8k(attention="eager")))
        b = out["sizing"]["breakdown"]
        # per layer 8192 × 1 × 4096 × (34 + 5 × 32 × 8192 / 4096 = 34 + 320 = 354)
        # = 33,554,432 × 354 = 11,878,268,928 B; × 32 = 380,104,605,696 B = 380.104606 GB
        assert b["activations"] == pytest.approx(380.104605696, abs=1e-6)
        # (128.48 + 380.104606) × 1.2 = 610.301527 GB: 9 GPUs, 2 machines
        assert out["sizing"]["estimated_gpu_mem_gb"] == pytest.approx(610.301527, abs=1e-5)
        assert out["sizing"]["offers"][0]["machines_needed"] == 2

    def test_checkpointing_stands_whatever_the_attention(self):
        flash = evaluate(make_input(_llama_8k(activation_checkpointing=True)))
        eager = evaluate(make_input(_llama_8k(activation_checkpointing=True, attention="eager")))
        # 2 × 8192 × 1 × 4096 × 32 layers = 2,147,483,648 B = 2.147484 GB either way
        for out in (flash, eager):
            assert out["sizing"]["breakdown"]["activations"] == pytest.approx(2.147483648)

    def test_a_bad_attention_is_refused_by_its_path(self):
        with pytest.raises(EngineInputError) as caught:
            parse_input(make_input(_llama_8k(attention="fast")))
        assert caught.value.errors == [
            {"field": "task.attention", "message": "must be one of flash, eager"}
        ]


class TestThePlanMustHoldTheModel:
    """SPEC 7.1 too_few_gpus and A2. 70B full training: 70 × 16 × 1.2 = 1344 GB; ⌈1344 / 72 =
    18.67⌉ = 19 GPUs hold one replica."""

    def test_eight_gpus_cannot_hold_a_replica_that_needs_19(self):
        out = evaluate(make_input(big_sharded_training(gpus=8)))
        local = option_of(out, "local")
        # 2.2 costed 8 GPUs × 10 h × 2.0 = 160 as feasible, with no warning
        assert (local["feasible"], local["reasons"]) == (False, ["too_few_gpus"])
        assert out["chosen"] is None
        [a2] = findings_of(out, "A2")
        # N = 19 > one machine of 8: the fix plans ⌈19 / 8⌉ = 3 machines = 24 GPUs
        assert (a2["severity"], a2["offer"]) == ("block", None)
        assert a2["data"] == {"planned": 8, "gpus": 19, "offer": "local", "fix_gpus": 24}
        assert a2["message"].startswith("8 planned GPUs cannot hold one replica: it needs 19")
        assert "P2" in rules(out)  # P2 still fires

    def test_nineteen_gpus_hold_it(self):
        out = evaluate(make_input(big_sharded_training(gpus=19)))
        assert option_of(out, "local")["feasible"] is True
        assert "A2" not in rules(out)

    def test_an_offer_that_cannot_split_keeps_its_own_reason(self):
        offers = [offer("local", parallelism=["data"])]
        out = evaluate(make_input(big_sharded_training(gpus=8), offers=offers))
        # task and offer share only `data`: no_shared_parallelism, not also too_few_gpus
        assert option_of(out, "local")["reasons"] == ["no_shared_parallelism"]
        assert "A2" not in rules(out)

    def test_A2_names_the_least_gpus_needed_among_the_short_options(self):
        offers = [
            offer("small", gpu_mem_gb=40),  # 36 usable: ⌈1344 / 36 = 37.33⌉ = 38 GPUs
            offer("big", gpu_mem_gb=80),  # 19 GPUs
        ]
        out = evaluate(make_input(big_sharded_training(gpus=8), offers=offers))
        [a2] = findings_of(out, "A2")
        assert (a2["data"]["gpus"], a2["data"]["offer"], a2["data"]["fix_gpus"]) == (19, "big", 24)

    def test_A2_within_one_machine_asks_for_exactly_N(self):
        # 7B full training: 7 × 16 × 1.2 = 134.4 GB, ⌈134.4 / 72 = 1.87⌉ = 2 GPUs; 1 planned
        t = task(workload="training", params_b=7, gpus=1, parallelism=["tensor"])
        [a2] = findings_of(evaluate(make_input(t)), "A2")
        assert (a2["data"]["gpus"], a2["data"]["fix_gpus"]) == (2, 2)

    def test_no_A2_while_another_option_is_feasible(self):
        offers = [offer("local"), offer("huge", gpu_mem_gb=1344 / 0.9 / 8 + 1)]
        out = evaluate(make_input(big_sharded_training(gpus=8), offers=offers))
        # huge: 8 GPUs of 187.7 GB usable hold 1344 GB (⌈1344 / 187.7⌉ = 8): feasible
        assert out["chosen"]["offer"] == "huge"
        assert option_of(out, "local")["reasons"] == ["too_few_gpus"]
        assert "A2" not in rules(out)
