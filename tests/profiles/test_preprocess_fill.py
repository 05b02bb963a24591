"""One-click fill of the staged plan from the task's latest preprocessing run (SPEC 6.4): the
service (version-checked like any profile edit), the profile page's card as a page and as an
htmx fragment, and the team boundary (another team's run never fills)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.benchmarks.models import BenchmarkRecord
from apps.benchmarks.services import benchmark_create
from apps.profiles.preprocess import preprocess_latest
from apps.profiles.services import NothingToFill, profile_fill_from_preprocess
from apps.web.concurrency import StaleVersion
from tests.benchmarks.helpers import make_world, preprocess_data, single_data
from tests.profiles.helpers import HX

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(team):
    return make_world(team)


@pytest.fixture
def run(team, world):
    """Two runs of the task: an older one and the latest (6 h, 200 GB out, 12.5 an hour)."""
    older = benchmark_create(
        team=team,
        data=preprocess_data(world, preprocess_hours=9, output_gb=300, preprocess_cost_per_hour=20),
    )
    BenchmarkRecord.objects.filter(pk=older.pk).update(
        recorded_at=timezone.now() - timedelta(days=2)
    )
    return benchmark_create(team=team, data=preprocess_data(world))


def _staged(profile) -> tuple:
    profile.refresh_from_db()
    return profile.processed_gb, profile.preprocess_hours, profile.preprocess_cost_per_hour


def _block(html: str, opening: str) -> str:
    """What a swapped <div> holds: from its opening tag to the end of its partial."""
    start = html.index(opening) + len(opening)
    return html[start : html.index("</div><!-- /", start)]


def _fill_url(profile) -> str:
    return reverse("profiles:fill_preprocess", args=[profile.pk])


class FillServiceTests:
    def test_it_copies_output_hours_and_cost_per_hour_and_bumps_the_version(
        self, world, run, member
    ):
        profile = world.task
        before = profile.version
        profile_fill_from_preprocess(
            profile=profile, record_id=run.pk, actor=member, version=before
        )
        assert _staged(profile) == (200, 6, 12.5)
        assert profile.version == before + 1
        assert profile.updated_by == member
        assert profile.rounds_per_refresh == 1  # not a figure of the run: left alone

    def test_an_older_version_writes_nothing(self, world, run):
        profile = world.task
        with pytest.raises(StaleVersion):
            profile_fill_from_preprocess(
                profile=profile, record_id=run.pk, version=profile.version - 1
            )
        assert _staged(profile) == (None, 0, 0)

    def test_a_timed_run_fills_nothing(self, team, world):
        timed = benchmark_create(team=team, data=single_data(world))
        with pytest.raises(NothingToFill):
            profile_fill_from_preprocess(profile=world.task, record_id=timed.pk)
        assert _staged(world.task) == (None, 0, 0)

    def test_a_run_of_another_task_fills_nothing(self, team, world):
        from tests.factories import make_profile

        other_task = make_profile(team, world.site_a, name="Another task")
        theirs = benchmark_create(team=team, data=preprocess_data(world, task=other_task.pk))
        with pytest.raises(NothingToFill):
            profile_fill_from_preprocess(profile=world.task, record_id=theirs.pk)
        assert _staged(world.task) == (None, 0, 0)

    def test_another_teams_run_never_fills(self, world, other_team):
        theirs_world = make_world(other_team, prefix="x-")
        theirs = benchmark_create(team=other_team, data=preprocess_data(theirs_world))
        with pytest.raises(NothingToFill):
            profile_fill_from_preprocess(profile=world.task, record_id=theirs.pk)
        assert _staged(world.task) == (None, 0, 0)

    def test_the_latest_run_is_offered_and_filled_is_known(self, world, run):
        latest = preprocess_latest(profile=world.task)
        assert latest == {"preprocess_record": run, "preprocess_filled": False}
        profile_fill_from_preprocess(profile=world.task, record_id=run.pk)
        assert preprocess_latest(profile=world.task)["preprocess_filled"] is True


class FillViewTests:
    def test_the_profile_page_shows_the_latest_run_and_the_button(self, client, member, world, run):
        client.force_login(member)
        page = client.get(reverse("profiles:detail", args=[world.task.pk])).content.decode()
        assert 'id="preprocess-fill"' in page
        assert f'name="record" value="{run.pk}"' in page
        assert f'name="version" value="{world.task.version}"' in page
        assert "Fill the profile from this run" in page

    def test_without_a_run_the_page_links_to_recording_one(self, client, member, world):
        client.force_login(member)
        page = client.get(reverse("profiles:detail", args=[world.task.pk])).content.decode()
        assert "No preprocessing run of this task is recorded" in page
        assert f"?kind=preprocess&amp;task={world.task.pk}" in page
        assert "Fill the profile from this run" not in page

    def test_a_reviewer_sees_no_link_to_record_a_run(self, client, reviewer, world):
        client.force_login(reviewer)  # reviewers judge benchmark runs, they do not record them
        page = client.get(reverse("profiles:detail", args=[world.task.pk])).content.decode()
        assert "No preprocessing run of this task is recorded" in page
        assert "?kind=preprocess" not in page
        assert "Record one" not in page  # no invitation to what they cannot do
        assert "A member or owner of the team can record one" in page

    def test_a_page_post_fills_and_returns_to_the_profile(self, client, member, world, run):
        client.force_login(member)
        response = client.post(
            _fill_url(world.task),
            {"record": run.pk, "version": world.task.version},
            follow=True,
        )
        assert response.redirect_chain[-1][0] == reverse("profiles:detail", args=[world.task.pk])
        assert _staged(world.task) == (200, 6, 12.5)
        page = response.content.decode()
        assert f"Filled from preprocessing run #{run.pk}." in page
        assert "The profile carries these figures." in page

    def test_an_htmx_post_answers_the_card_in_place(self, client, reviewer, world, run):
        client.force_login(reviewer)  # any member of the team edits profiles
        response = client.post(
            _fill_url(world.task), {"record": run.pk, "version": world.task.version}, **HX
        )
        assert response.status_code == 200
        body = response.content.decode()
        assert body.lstrip().startswith('<section id="preprocess-fill"')
        assert "<html" not in body
        assert "The profile carries these figures." in body
        assert _staged(world.task) == (200, 6, 12.5)
        # The page's staged-plan section follows out of band, with the new figures.
        oob = body[body.index('<section class="card" id="section-staged" hx-swap-oob="true">') :]
        assert "200" in oob[: oob.index("</section>")]
        # So do the verdict and the evaluation: as a fresh page shows them after the fill.
        page = client.get(reverse("profiles:detail", args=[world.task.pk])).content.decode()
        for part in ("profile-verdict", "profile-evaluation"):
            swapped = _block(body, f'<div id="{part}" hx-swap-oob="true">')
            assert swapped == _block(page, f'<div id="{part}">')
            assert len(swapped) > 200  # the evaluation itself, not an empty box
        assert "Placement options" in _block(page, '<div id="profile-evaluation">')

    def test_a_stale_version_answers_409_and_writes_nothing(self, client, member, world, run):
        client.force_login(member)
        response = client.post(
            _fill_url(world.task), {"record": run.pk, "version": world.task.version + 5}, **HX
        )
        assert response.status_code == 409
        body = response.content.decode()
        assert "The profile changed since this page was loaded" in body
        assert "hx-swap-oob" not in body
        assert _staged(world.task) == (None, 0, 0)

    def test_another_teams_run_id_answers_409_and_fills_nothing(
        self, client, member, world, other_team
    ):
        theirs_world = make_world(other_team, prefix="x-")
        theirs = benchmark_create(team=other_team, data=preprocess_data(theirs_world))
        client.force_login(member)
        response = client.post(
            _fill_url(world.task), {"record": theirs.pk, "version": world.task.version}, **HX
        )
        assert response.status_code == 409
        body = response.content.decode()
        assert "No preprocessing run of this task has that number." in body
        assert "x-bj-a" not in body  # nothing of theirs is shown
        assert _staged(world.task) == (None, 0, 0)

    def test_an_outsider_cannot_fill_this_teams_profile(self, client, outsider, world, run):
        client.force_login(outsider)
        response = client.post(_fill_url(world.task), {"record": run.pk}, **HX)
        assert response.status_code == 404
        assert _staged(world.task) == (None, 0, 0)

    def test_get_is_not_allowed(self, client, member, world):
        client.force_login(member)
        assert client.get(_fill_url(world.task)).status_code == 405
