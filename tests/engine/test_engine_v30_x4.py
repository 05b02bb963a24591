"""SPEC 7.8 X4 with G1 (engine 3.0): sites allowed by contract are allowed. A compliance-restricted
job whose only failed gate is offsite_allowed is limited to X4's allowed sites, not to the home
datacenter. engine_fixtures.SITES: home (dc-h) and data (dc-d) share a city; far is elsewhere."""

from __future__ import annotations

from typing import Any

from engine import evaluate

from .engine_fixtures import (
    _eager_celery_and_clean_cache,  # noqa: F401 - the engine needs no Django
    make_input,
    offer,
    option_of,
    rules,
    task,
)


def _restricted(**overrides: Any) -> dict[str, Any]:
    t = task(data_site="data", input_gb=100, compliance_restricted=True, offsite_allowed=False)
    t.update(overrides)
    return make_input(t, offers=[offer("local", "home"), offer("near", "data")])


class TestX4WithG1:
    def test_running_next_to_the_data_is_feasible(self):
        out = evaluate(_restricted())
        # 2.2: near was not_eligible (G1 kept the task in home's datacenter dc-h) and local's
        # input leg left the data's datacenter: no feasible placement (P2) while M1 said move
        # compute to the data. Now X4's allowed sites (the data's datacenter) decide.
        assert out["cross_domain"]["home_domain_only"] is False
        assert option_of(out, "near")["feasible"] is True
        assert out["chosen"] == {"kind": "move_compute", "site": "data", "offer": "near"}
        assert option_of(out, "local")["reasons"] == ["compliance_site", "compliance_moves_data"]
        assert "P2" not in rules(out) and "G1" in rules(out)

    def test_a_listed_site_is_allowed_by_contract(self):
        out = evaluate(_restricted(allowed_sites=["data", "far"]))
        assert out["cross_domain"]["allowed_sites"] == ["data", "far"]
        assert option_of(out, "near")["feasible"] is True

    def test_another_failed_portability_check_keeps_the_home_limit(self):
        out = evaluate(_restricted(image_packaged=False))
        assert out["cross_domain"]["home_domain_only"] is True
        assert "not_eligible" in option_of(out, "near")["reasons"]

    def test_another_exclusion_keeps_the_home_limit(self):
        out = evaluate(_restricted(stateful=True))
        assert out["cross_domain"]["home_domain_only"] is True
        assert "not_eligible" in option_of(out, "near")["reasons"]
