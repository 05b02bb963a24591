"""The type-ahead filters of the review list and the history in a real browser
(apps/web/typeahead.py): typing in the task box fills its datalist from the list's options view
(htmx), and the name taken from it filters the list in place with the address keeping it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.conftest import log_in
from tests.factories import (
    make_membership,
    make_profile,
    make_review,
    make_site,
    make_team,
    make_user,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture
def two_tasks(db):
    team = make_team("Team Aurora", "aurora")
    alice = make_membership(make_user("alice"), team, "owner").user
    site = make_site(team, "bj-a")
    nightly = make_review(team, alice, title="Q3 plan", task=make_profile(team, site, name="Nightly eval"))
    llama = make_review(
        team, alice, title="Q4 plan", task=make_profile(team, site, name="Llama pretraining")
    )
    return nightly.pk, llama.pk


class TypeAheadInTheBrowserTests:
    def test_typing_offers_tasks_and_a_picked_name_filters_the_list(
        self, live_server, browser_page, two_tasks
    ):
        nightly, llama = two_tasks
        page = browser_page
        log_in(page, live_server.url, "alice")
        page.goto(live_server.url + reverse("reviews:list"))
        assert page.locator("select#id_task").count() == 0  # no list of every task
        # Focus asks for the first names; typing asks again, once it pauses.
        with page.expect_response(lambda r: "/reviews/filter-options/?task=lla" in r.url):
            page.locator("#id_task").press_sequentially("lla")
        page.wait_for_function("document.querySelectorAll('#id_task-options option').length == 1")
        options = page.locator("#id_task-options option")
        assert options.evaluate_all("os => os.map(o => o.value)") == ["Llama pretraining"]
        page.fill("#id_task", "Llama pretraining")
        page.press("#id_task", "Enter")
        page.wait_for_url(lambda url: "task=Llama%20pretraining" in url)
        page.locator(f"#review-{nightly}").wait_for(state="detached")
        page.locator(f"#review-{llama}").wait_for(state="visible")
        page.reload()  # the address kept the name, and the box shows it
        assert page.input_value("#id_task") == "Llama pretraining"
        page.locator(f"#review-{llama}").wait_for(state="visible")
        assert page.locator(f"#review-{nightly}").count() == 0

    def test_the_history_box_takes_a_task_id_from_a_link(
        self, live_server, browser_page, two_tasks
    ):
        page = browser_page
        log_in(page, live_server.url, "alice")
        from apps.profiles.models import TaskProfile

        task = TaskProfile.objects.get(name="Nightly eval")
        page.goto(live_server.url + reverse("scoring:history") + f"?task={task.pk}")
        assert page.input_value("#id_task") == "Nightly eval"
