"""The search box of the lists (apps/web/search.py): history, reviews, benchmarks, offers and the
method guide. Each term of a query must be found in one of a row's fields (task, offer, site,
author, rule); the page links keep the query; nothing found says so.

Run on SQLite (a plain match) and, with DATABASE_URL=postgres://…, on PostgreSQL (full text, and a
plain match for a term in Chinese)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from apps.catalog.models import Offer
from apps.web.search import MAX_TERMS, search_terms, text_matches
from tests.factories import (
    make_benchmark,
    make_membership,
    make_offer,
    make_profile,
    make_review,
    make_site,
    make_user,
)
from tests.scoring.helpers import make_world
from tests.scoring.web_helpers import clone_snapshots

pytestmark = pytest.mark.django_db


def ids(html: str, prefix: str) -> set[int]:
    return {int(x) for x in re.findall(rf'<tr id="{prefix}-(\d+)"', html)}


class SearchTermsTests:
    def test_it_reads_at_most_eight_words(self):
        assert search_terms("  a  b\tc ") == ["a", "b", "c"]
        assert search_terms(" ".join(str(i) for i in range(20))) == [str(i) for i in range(8)]
        assert len(search_terms("x " * 500)) == MAX_TERMS
        assert search_terms(None) == [] and search_terms("   ") == []

    def test_it_matches_every_term_in_some_text(self):
        assert text_matches("llama ALICE", ["Llama 70B pretraining", "alice"])
        assert not text_matches("llama bob", ["Llama 70B pretraining", "alice"])
        assert text_matches("", ["anything"])
        assert text_matches("训练", ["夜间训练任务"])


@pytest.fixture
def two_reviews(team, owner, other_team):
    """Alice's review of a Chinese-named task on a Lambda offer, Bob's of a Llama task on Acme,
    and a review of another team that matches every query below."""
    alice = make_user("alice", first_name="Alice", last_name="Wong")
    bob = make_user("bob")
    for user in (alice, bob):
        make_membership(user, team, "member")
    site = make_site(team, "sh-a")
    lambda_offer = make_offer(team, site, provider="Lambda", name="Gpu cloud H100")
    acme_offer = make_offer(team, site, provider="Acme Cloud", name="A100 pool")
    chinese = make_review(
        team, alice, task=make_profile(team, site, name="夜间训练任务"), offers=[lambda_offer],
        title="Q3 plan",
    )
    llama = make_review(
        team, bob, task=make_profile(team, site, name="Llama pretraining"), offers=[acme_offer],
        title="Q4 plan",
    )
    stranger = make_user("alice2", first_name="Alice")
    theirs = make_review(
        other_team, stranger, task=make_profile(other_team, name="Llama 夜间训练任务"),
        offers=[make_offer(other_team, provider="Lambda", name="Gpu cloud H100")],
    )
    return chinese, llama, theirs


class ReviewSearchTests:
    def search(self, client, q: str) -> set[int]:
        return ids(client.get(reverse("reviews:list"), {"q": q}).content.decode(), "review")

    def test_it_finds_a_review_by_task_offer_author_and_title(self, client, owner, two_reviews):
        chinese, llama, _theirs = two_reviews
        client.force_login(owner)
        assert self.search(client, "llama") == {llama.pk}  # task
        assert self.search(client, "训练") == {chinese.pk}  # a word inside a Chinese task name
        assert self.search(client, "lambda") == {chinese.pk}  # offer provider
        assert self.search(client, "A100") == {llama.pk}  # offer name
        assert self.search(client, "sh-a") == {chinese.pk, llama.pk}  # offer site
        assert self.search(client, "alice") == {chinese.pk}  # author's user name
        assert self.search(client, "wong") == {chinese.pk}  # author's name
        assert self.search(client, "q4") == {llama.pk}  # title
        assert self.search(client, "pretrain bob") == {llama.pk}  # two fields, any order

    def test_nothing_matches_says_so_and_offers_to_clear(self, client, owner, two_reviews):
        client.force_login(owner)
        response = client.get(reverse("reviews:list"), {"q": "llama lambda"})
        body = response.content.decode()
        assert ids(body, "review") == set()
        assert "No review matches these filters" in body
        assert f'href="{reverse("reviews:list")}"' in body

    def test_a_query_with_quotes_and_backslashes_is_text(self, client, owner, two_reviews):
        client.force_login(owner)
        for q in ("o'brien", "back\\slash", "a:* & !b", "'", "(|)"):
            response = client.get(reverse("reviews:list"), {"q": q})
            assert response.status_code == 200
            assert ids(response.content.decode(), "review") == set()

    def test_a_member_of_two_teams_finds_only_the_current_teams_reviews(
        self, client, owner, other_team, two_reviews
    ):
        chinese, _llama, theirs = two_reviews
        make_membership(owner, other_team, "member")
        client.force_login(owner)
        assert self.search(client, "训练") == {chinese.pk}
        client.post(reverse("accounts:team_switch"), {"team": other_team.pk, "next": "/"})
        assert self.search(client, "训练") == {theirs.pk}


class HistorySearchTests:
    def test_it_finds_snapshots_by_task_offer_site_and_author(self, client, team, owner):
        from apps.reviews.snapshots.services import snapshot_compute

        world = make_world(team, owner)
        snapshot = snapshot_compute(review_id=world.review.pk)
        other = make_world(team, make_user("carol"), tag="b", name="Weekly 训练 embedding")
        other_snapshot = snapshot_compute(review_id=other.review.pk)
        offer = Offer.objects.get(pk=int(snapshot.chosen_offer))
        client.force_login(owner)

        def found(q: str) -> set[int]:
            html = client.get(reverse("scoring:history"), {"q": q}).content.decode()
            return ids(html, "snapshot")

        assert found("nightly") == {snapshot.pk}  # task
        assert found("训练") == {other_snapshot.pk}
        assert found(offer.name.split()[0]) >= {snapshot.pk}  # chosen offer's name
        assert found(f"{snapshot.chosen_site} nightly") == {snapshot.pk}  # site and task
        assert found("carol") == {other_snapshot.pk}  # author
        html = client.get(reverse("scoring:history"), {"q": "nothing-like-this"}).content.decode()
        assert "No snapshot matches these filters" in html

    def test_the_page_links_keep_the_query(self, client, team, owner):
        from apps.reviews.snapshots.services import snapshot_compute

        world = make_world(team, owner)
        clone_snapshots(snapshot_compute(review_id=world.review.pk), 30)
        client.force_login(owner)
        html = client.get(reverse("scoring:history"), {"q": "nightly"}).content.decode()
        assert html.count('<tr id="snapshot-') == 25
        assert "?q=nightly&amp;page=2" in html
        second = client.get(reverse("scoring:history"), {"q": "nightly", "page": 2})
        assert second.content.decode().count('<tr id="snapshot-') == 6


class BenchmarkSearchTests:
    def test_it_finds_records_by_task_offer_site_and_author(self, client, team, owner):
        site = make_site(team, "gy-1")
        lambda_offer = make_offer(team, site, provider="Lambda", name="L40S box")
        llama = make_benchmark(
            team, make_profile(team, name="Llama pretraining"), lambda_offer, created_by=owner
        )
        other = make_benchmark(team, make_profile(team, name="夜间训练"), make_offer(team))
        client.force_login(owner)

        def found(q: str) -> set[int]:
            html = client.get(reverse("benchmarks:list"), {"q": q}).content.decode()
            return ids(html, "record")

        assert found("llama") == {llama.pk}
        assert found("训练") == {other.pk}
        assert found("lambda l40s") == {llama.pk}
        assert found("gy-1") == {llama.pk}
        assert found(owner.username) == {llama.pk}
        html = client.get(reverse("benchmarks:list"), {"q": "zzz"}).content.decode()
        assert "No record matches these filters" in html
        assert 'value="zzz"' in html  # the box shows what was searched


class OfferSearchTests:
    def test_it_finds_offers_and_keeps_the_query_in_page_links(self, client, team, owner):
        site = make_site(team, "wh-9", name="Wuhan 9")
        for i in range(26):
            make_offer(team, site, provider="Lambda", name=f"Box {i}")
        acme = make_offer(team, provider="Acme Cloud", name="A100 pool")
        client.force_login(owner)
        url = reverse("catalog:offer_list")
        assert ids(client.get(url, {"q": "acme"}).content.decode(), "offer") == {acme.pk}
        html = client.get(url, {"q": "wuhan"}).content.decode()
        assert len(ids(html, "offer")) == 25 and "?q=wuhan&amp;page=2" in html
        assert len(ids(client.get(url, {"q": "wh-9", "page": 2}).content.decode(), "offer")) == 1
        html = client.get(url, {"q": "nothing"}).content.decode()
        assert "No offer matches this search" in html


class MethodSearchTests:
    def entry_ids(self, html: str) -> set[str]:
        return set(re.findall(r'<article class="card method-entry" id="([^"]+)"', html))

    def test_it_finds_an_entry_by_rule_id_and_word_in_both_languages(self, client, owner):
        client.force_login(owner)
        url = reverse("method:index")
        everything = self.entry_ids(client.get(url).content.decode())
        found = self.entry_ids(client.get(url, {"q": "R1a"}).content.decode())
        assert "R1a" in found and len(found) < len(everything)
        from apps.method.entries import ENTRY_BY_ID

        with translation.override("zh-hans"):
            word = str(ENTRY_BY_ID["R1a"].title)[:2]
        client.cookies["django_language"] = "zh-hans"
        assert "R1a" in self.entry_ids(client.get(url, {"q": word}).content.decode())
        html = client.get(url, {"q": "qqqzzz"}).content.decode()
        assert self.entry_ids(html) == set() and 'id="glossary"' not in html
