"""SPEC 6.3 in a real browser: choosing a model preset on the profile form fills the model's fields
(static/js/presets.js, under the CSP) and the live panel redraws the memory bar with them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.conftest import log_in
from tests.factories import make_offer, make_site

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_preset_fills_the_form_and_the_bar_follows(live_server, browser_page, team, member):
    from playwright.sync_api import expect

    home = make_site(team, "bj-a")
    make_offer(team, home, name="8x H100", gpu_mem_gb=80, gpus_per_machine=8)
    page = browser_page
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security" in m.text else 0)
    base = live_server.url
    log_in(page, base, "member")
    page.goto(base + reverse("profiles:create"))
    page.select_option("#id_workload", "training")
    page.fill("#id_params_b", "7")
    page.locator("#id_params_b").dispatch_event("change")
    legend = page.locator("#profile-panel .mem-legend")
    # 7 B at bf16, training: weights 7 × 2 = 14 GB, optimizer 7 × 12 = 84 GB, 134.4 GB in all.
    expect(legend).to_contain_text("Optimizer state 84.0 GB")
    expect(legend).to_contain_text("Total 134.4 GB")

    page.select_option("[data-preset-picker]", "Llama-3-8B")
    # The preset's config.json values, and the job's batch and sequence (blank: 1 and 4,096).
    expect(page.locator("#id_params_b")).to_have_value("8.03")
    expect(page.locator("#id_hidden_size")).to_have_value("4096")
    expect(page.locator("#id_kv_heads")).to_have_value("8")
    expect(page.locator("#id_batch_size")).to_have_value("1")
    expect(page.locator("#id_seq_len")).to_have_value("4096")
    # SPEC 7.1 (engine 3.0), flash attention by default: without checkpointing, activations are
    # 32 layers × 4096 × 1 × 4096 × 34 bytes = 18,253,611,008 B = 18.25 GB (eager's score term
    # 5 × a × s / h is not stored); weights 8.03 × 2 = 16.06, gradients 16.06, optimizer
    # 8.03 × 12 = 96.36; 128.48 + 18.25 = 146.73; overhead 0.2 × 146.73 = 29.35; 176.08 GB in all.
    expect(legend).to_contain_text("Weights 16.1 GB")
    expect(legend).to_contain_text("Activations 18.3 GB")
    expect(legend).to_contain_text("Total 176.1 GB")
    # The bar draws the activations (a segment of the SVG) and the H100's 72 GB marker.
    expect(page.locator("#profile-panel rect.mem-seg--activations")).to_have_count(1)
    expect(page.locator("#profile-panel .mem-markers")).to_contain_text(
        "72.0 GB usable per GPU: 8x H100"
    )
    # Activation checkpointing keeps only each layer's input: 32 × 2 × 4096 × 4096 = 1.07 GB.
    page.check("#id_activation_checkpointing")
    expect(legend).to_contain_text("Activations 1.1 GB")
    assert violations == []
