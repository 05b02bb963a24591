"""`{% rule_link %}` and `|method_url` (apps/method/templatetags/method.py): one link scheme for
every rule id on every page."""

from __future__ import annotations

from django.template import Context, Template
from django.utils import translation


def render(source: str, **context) -> str:
    return Template("{% load method %}" + source).render(Context(context))


class RuleLinkTests:
    def test_a_rule_id_links_to_its_entry_named_by_its_title(self):
        with translation.override("en"):
            html = render("{% rule_link rule %}", rule="G1")
        assert html.startswith('<a class="rule-link" href="/method/G1/"')
        assert 'aria-label="Rule G1 in the method guide: Gate: portability"' in html
        assert html.endswith(">G1</a>")

    def test_the_name_is_in_the_users_language(self):
        with translation.override("zh-hans"):
            html = render("{% rule_link 'H2' %}")
        assert 'title="方法指南中的规则 H2：配套未齐，不能派发"' in html

    def test_a_message_key_links_to_its_rules_entry(self):
        assert render("{{ key|method_url }}", key="R1a.split") == "/method/R1a/"
        assert render("{{ key|method_url }}", key="R-mod") == "/method/R-mod/"

    def test_an_unknown_id_stays_plain_escaped_text(self):
        assert render("{% rule_link rule %}", rule="<b>Z9</b>") == "&lt;b&gt;Z9&lt;/b&gt;"
        assert render("{{ rule|method_url }}", rule="Z9") == ""
        assert render("{% rule_link rule %}", rule=None) == ""
