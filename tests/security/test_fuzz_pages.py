"""The pages under hostile input: the list filters' query strings never give a 500, and hostile
text saved anywhere is shown escaped on every page.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.accounts.models import Team
from apps.benchmarks.models import BenchmarkRecord
from apps.catalog.models import Offer, Site
from apps.profiles.models import TaskProfile
from apps.reviews.checklists.models import ChecklistAnswer
from apps.reviews.models import Review
from tests.security.fuzzing import (
    ESCAPED,
    SETTINGS,
    XSS,
    client_for,
    hostile_values,
)
from tests.security.helpers import rolled_back

pytestmark = pytest.mark.django_db


FILTER_PARAMS = [
    "q", "page", "task", "kind", "offer", "source", "state", "author", "workload", "cadence",
    "team", "reviewer", "decision", "date_from", "date_to", "a", "b", "s", "profile",
    "params_b", "precision", "gpus", "peak_gpu_mem_gb", "gpu_mem_gb", "part",
]


class QueryStringFuzzTests:
    def test_pages_ignore_or_refuse_bad_filters(self, world):
        """Every page read by GET, with hostile filters and page numbers: never a 500."""
        from tests.security.test_authz_matrix import MATRIX

        pages = sorted(
            name for name, route in MATRIX.items()
            if "GET" in route.methods and not route.api and not route.fixed
        )
        client = client_for(world.a.owner)

        @settings(SETTINGS, max_examples=SETTINGS.max_examples * 3)
        @given(
            name=st.sampled_from(pages),
            params=st.dictionaries(st.sampled_from(FILTER_PARAMS), hostile_values(world),
                                   min_size=1, max_size=6),
            htmx=st.booleans(),
        )
        def fuzz(name, params, htmx):
            route = MATRIX[name]
            url = reverse(name, kwargs=route.obj(world.a) if route.obj else None)
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            with rolled_back():
                response = client.get(url, params, **headers)
            assert response.status_code < 500, (name, params)
            if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                assert XSS not in response.content.decode(), (name, params)

        fuzz()


class EscapingTests:
    def test_every_page_shows_hostile_names_escaped(self, world):
        """Every text a user can type, set to a script, on every page the URLconf serves."""
        from apps.accounts.models import ApiToken
        from apps.reviews.snapshots.services import snapshot_compute
        from tests.security.test_authz_matrix import MATRIX

        a = world.a
        hostile = f"{XSS}\"'><img src=x onerror=alert(2)>"
        Team.objects.filter(pk=a.team.pk).update(name=hostile)
        Site.objects.filter(team=a.team).update(name=hostile, datacenter=hostile, city=hostile,
                                                hub=hostile)
        Offer.objects.filter(team=a.team).update(provider=hostile, name=hostile,
                                                 gpu_model=hostile, exit_path=hostile)
        TaskProfile.objects.filter(team=a.team).update(name=hostile, description=hostile)
        BenchmarkRecord.objects.filter(team=a.team).update(notes=hostile)
        ApiToken.objects.filter(team=a.team).update(name=hostile)
        Review.objects.filter(team=a.team).update(title=hostile)
        ChecklistAnswer.objects.filter(candidate__review__team=a.team).update(text=hostile)
        from apps.reviews.comments.services import comment_post

        comment_post(review=a.review, actor=a.member, text=f"{hostile} https://e.com/{hostile}")
        comment_post(review=a.review, actor=a.member, text=hostile, candidate=a.candidate)
        for user in (a.owner, a.member, a.reviewer):
            type(user).objects.filter(pk=user.pk).update(first_name=hostile, last_name=hostile)
        snapshot_compute(review_id=a.review.pk)  # figures and charts carry the new names
        client = client_for(a.owner)
        shown = []
        for name, route in sorted(MATRIX.items()):
            if "GET" not in route.methods or route.api or route.fixed is not None:
                continue
            url = reverse(name, kwargs=route.obj(a) if route.obj else None)
            if route.query:
                url += "?" + "&".join(f"{k}={v}" for k, v in route.query(a).items())
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = client.get(url, **headers)
                assert response.status_code < 500, url
                if "text/html" not in response.get("Content-Type", ""):
                    continue  # CSV and XLSX exports carry the text as it is
                body = response.content.decode(errors="replace")
                assert XSS not in body, (name, headers)
                assert "<img src=x" not in body, (name, headers)
                if ESCAPED in body or "\\u003Cscript\\u003E" in body:
                    shown.append(name)
        # The names do reach the pages (escaped): the lists, details and forms of each kind.
        for expected in ("catalog:site_list", "catalog:offer_detail", "profiles:detail",
                         "benchmarks:detail", "reviews:detail", "checklists:review",
                         "benchmarks:tokens", "home", "scoring:snapshot_detail",
                         "scoring:review_record", "reviews:comments",
                         "reviews:candidate_comments"):
            assert expected in shown, expected
