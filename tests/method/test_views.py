"""The method guide's pages (apps/method/views.py) and the links to them: the guide renders for a
member in both languages with the team's own thresholds, every finding on a review page links
to its entry, and no page says "SPEC"."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from apps.accounts.models import Team
from apps.method.entries import ENTRIES, GLOSSARY, entry_for
from apps.reviews.checklists.models import ChecklistAnswer
from tests.reviews.helpers import current_snapshot_id, submitted_review
from tests.teams.helpers import moving_review

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


class FindingLinks(HTMLParser):
    """Per finding (`<li data-rule=…>`), the rule it shows and the links inside it; and every
    rule-id link on the page."""

    def __init__(self):
        super().__init__()
        self.findings: list[dict] = []
        self.rule_links: list[dict] = []
        self._depth = 0  # open <li> elements inside the current finding

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "li" and "data-rule" in a and "finding" in (a.get("class") or ""):
            self.findings.append({"rule": a["data-rule"], "links": []})
            self._depth = 1
        elif tag == "li" and self._depth:
            self._depth += 1
        if tag == "a" and "rule-link" in (a.get("class") or ""):
            self.rule_links.append(a)
            if self._depth:
                self.findings[-1]["links"].append(a)

    def handle_endtag(self, tag):
        if tag == "li" and self._depth:
            self._depth -= 1


def parse(html: str) -> FindingLinks:
    parser = FindingLinks()
    parser.feed(html)
    return parser


class MethodGuidePageTests:
    def test_a_member_reads_every_entry_and_the_glossary_with_anchors(self, client, member):
        client.force_login(member)
        response = client.get(reverse("method:index"), **EN)
        assert response.status_code == 200
        html = response.content.decode()
        for entry in ENTRIES:
            assert f'<article class="card method-entry" id="{entry.id}"' in html
            assert f'href="#{entry.id}"' in html  # the contents list
        for term in GLOSSARY:
            assert f'id="term-{term.id}"' in html
        assert 'id="group-eligibility"' in html and "Eligibility and gates" in html

    @pytest.mark.parametrize("headers", [EN, ZH], ids=["en", "zh-hans"])
    def test_the_formulas_show_the_teams_overridden_threshold(self, client, team, member, headers):
        Team.objects.filter(pk=team.pk).update(thresholds={"network_cost_share": 0.35})
        client.force_login(member)
        html = client.get(reverse("method:index"), **headers).content.decode()
        m4 = html[html.index('id="M4"') : html.index("</article>", html.index('id="M4"'))]
        assert ("above 0.35" if headers is EN else "超过 0.35") in m4
        assert '<tr data-threshold="network_cost_share">' in m4
        assert "<strong>0.35</strong>" in m4 and '<td class="num">0.2</td>' in m4  # default beside

    def test_the_chinese_page_is_in_chinese_and_quotes_the_seed(self, client, member):
        client.force_login(member)
        html = client.get(reverse("method:entry", args=["G1"]), **ZH).content.decode()
        assert "门槛：可迁移性" in html and "怎么修正" in html
        assert "第一条是可迁移性:任务能否在另一个环境里跑起来" in html
        assert "二、任务适配的三个条件" in html
        assert "Gate: portability" not in html

    def test_each_entry_has_its_own_page_and_an_unknown_one_is_404(self, client, member):
        client.force_login(member)
        page = client.get(reverse("method:entry", args=["R-mod"]), **EN)
        assert page.status_code == 200
        assert "Recurring: make the job a standard part" in page.content.decode()
        assert client.get("/method/R99/").status_code == 404

    def test_someone_signed_out_is_sent_to_log_in(self, client):
        response = client.get(reverse("method:index"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))


class RuleLinkTests:
    def test_every_finding_on_a_review_page_links_to_its_entry(self, client, team, owner):
        review = moving_review(team, owner)  # M4 warns, H2 and C block
        current_snapshot_id(review)
        client.force_login(owner)
        for headers in (EN, ZH):
            html = client.get(reverse("reviews:detail", args=[review.pk]), **headers)
            page = parse(html.content.decode())
            rules = {f["rule"] for f in page.findings}
            assert {"M4", "H2", "C"} <= rules, rules
            for finding in page.findings:
                hrefs = [a["href"] for a in finding["links"]]
                expected = reverse("method:entry", args=[entry_for(finding["rule"]).id])
                assert expected in hrefs, finding
                link = next(a for a in finding["links"] if a["href"] == expected)
                assert finding["rule"] in link["aria-label"] and link["title"]
            for link in page.rule_links:  # badges and headers too: each names a real entry
                assert client.get(link["href"]).status_code == 200

    def test_a_reviewer_sees_why_approval_is_refused_linked_to_the_rule(
        self, client, team, owner, reviewer
    ):
        review = submitted_review(team, owner)
        ChecklistAnswer.objects.filter(question__in=["q1", "q2"]).update(status="unanswered")
        current_snapshot_id(review)
        client.force_login(reviewer)
        panel = client.get(reverse("reviews:detail", args=[review.pk]), HTTP_HX_REQUEST="true")
        body = panel.content.decode()
        refusal = body[body.index("Approval is not possible") :]
        assert f'href="{reverse("method:entry", args=["C"])}"' in refusal

    def test_the_profile_links_platform_rule_gates_and_indicators(self, client, team, owner):
        review = moving_review(team, owner)
        client.force_login(owner)
        html = client.get(reverse("profiles:detail", args=[review.task_id]), **EN).content
        hrefs = {a["href"] for a in parse(html.decode()).rule_links}
        expected = {reverse("method:entry", args=[r]) for r in ("G1", "G2", "G3", "M1", "M4")}
        assert expected <= hrefs, hrefs


class NoSpecTests:
    def test_no_main_page_says_spec(self, client, team, owner):
        review = moving_review(team, owner)
        snapshot = current_snapshot_id(review)
        client.force_login(owner)
        urls = [
            reverse("home"),
            reverse("scoring:snapshot_detail", args=[snapshot]),
            reverse("scoring:quarterly"),
            reverse("benchmarks:task", args=[review.task_id]),
            reverse("method:entry", args=["H2"]),
            reverse("method:index"),
            reverse("reviews:detail", args=[review.pk]),
            reverse("reviews:edit", args=[review.pk]),
            reverse("checklists:review", args=[review.pk]),
            reverse("profiles:detail", args=[review.task_id]),
            reverse("catalog:index"),
            reverse("teams:settings"),
            reverse("teams:calibration"),
            reverse("benchmarks:list"),
            reverse("scoring:history"),
        ]
        for url in urls:
            for headers in (EN, ZH):
                response = client.get(url, **headers)
                assert response.status_code == 200, url
                assert "SPEC" not in response.content.decode(), url

    def test_the_api_reference_does_not_cite_spec_either(self, client, owner):
        client.force_login(owner)
        schema = client.get("/api/v1/openapi.json")
        assert schema.status_code == 200
        assert "SPEC" not in schema.content.decode()
