"""One URL, two shapes (apps.web.htmx), on every list a filter or a page link swaps with htmx.

Three requests per list: a plain GET gets the page; an htmx swap gets the results fragment; a
history restore (the Back button after htmx pushed the URL, when htmx's own history cache misses)
gets the page again, never the bare fragment, or the restored page would lose its layout. Every
answer says `Vary: HX-Request`, so no cache hands one shape to the other request.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.cache import has_vary_header

from tests.factories import make_benchmark, make_offer, make_profile, make_review, make_site

pytestmark = pytest.mark.django_db

# URL name, query string (a filter, as the form sends it), an element id of the results fragment.
FILTERED_LISTS = [
    ("profiles:list", "q=llama", "profile-results"),
    ("benchmarks:list", "kind=single", "benchmark-list"),
    ("reviews:list", "q=move", "review-results"),
    ("scoring:history", "q=move", "history-results"),
    ("catalog:site_list", "page=1", "site-table"),
    ("catalog:link_list", "page=1", "link-table"),
    ("catalog:offer_list", "page=1", "offer-table"),
]
SWAP = {"HTTP_HX_REQUEST": "true"}
RESTORE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}
PAGE_MARK = "<html"  # only the page (base.html) has it


@pytest.fixture
def signed_in(client, team, owner):
    site = make_site(team, "bj-a")
    offer = make_offer(team, site)
    profile = make_profile(team, site, name="Llama eval")
    make_benchmark(team, profile, offer)
    make_review(team, owner, task=profile, offers=[offer], title="Move the ETL")
    client.force_login(owner)
    return client


@pytest.mark.parametrize(("name", "query", "fragment_id"), FILTERED_LISTS)
class ListShapeTests:
    def url(self, name: str, query: str) -> str:
        return f"{reverse(name)}?{query}"

    def test_a_plain_request_gets_the_page(self, signed_in, name, query, fragment_id):
        response = signed_in.get(self.url(name, query))
        html = response.content.decode()
        assert response.status_code == 200
        assert PAGE_MARK in html and f'id="{fragment_id}"' in html
        assert has_vary_header(response, "HX-Request")

    def test_an_htmx_swap_gets_the_fragment(self, signed_in, name, query, fragment_id):
        response = signed_in.get(self.url(name, query), **SWAP)
        html = response.content.decode()
        assert response.status_code == 200
        assert PAGE_MARK not in html and f'id="{fragment_id}"' in html
        assert has_vary_header(response, "HX-Request")

    def test_a_history_restore_gets_the_page(self, signed_in, name, query, fragment_id):
        response = signed_in.get(self.url(name, query), **RESTORE)
        html = response.content.decode()
        assert response.status_code == 200
        assert PAGE_MARK in html and f'id="{fragment_id}"' in html
        assert has_vary_header(response, "HX-Request")
