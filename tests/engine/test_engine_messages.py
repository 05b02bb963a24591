"""Findings name offers the way people know them; the data keeps the id for machines."""

from __future__ import annotations

import engine
from tests.engine.engine_fixtures import (  # noqa: F401 - the engine needs no Django
    _eager_celery_and_clean_cache,
    make_input,
    offer,
    task,
)


def _c_finding(output):
    return next(f for f in output["findings"] if f["rule"] == "C")


class OfferNameTests:
    def test_C_message_names_the_offer_and_keeps_its_id(self):
        data = make_input(
            task(),
            offers=[offer("7", name="H100 on demand")],
            checklists={"7": {"q1": "answered"}},  # five unanswered: C blocks
        )
        f = _c_finding(engine.evaluate(data))
        assert f["message"].startswith("Candidate H100 on demand (#7): 5 of 6")
        assert f["message_zh"].startswith("候选 H100 on demand (#7)")
        assert f["data"]["offer"] == "7"
        assert f["offer"] == "7"

    def test_C_message_falls_back_to_the_id_without_a_name(self):
        data = make_input(task(), offers=[offer("7")], checklists={"7": {"q1": "answered"}})
        assert _c_finding(engine.evaluate(data))["message"].startswith("Candidate 7: 5 of 6")
