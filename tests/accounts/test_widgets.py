from __future__ import annotations

from django import forms

from apps.accounts.widgets import FastSelect


class _Form(forms.Form):
    fast = forms.ChoiceField(
        choices=[("", "All"), ("1", "a<b"), ("2", "c")],
        required=False,
        widget=FastSelect(attrs={"data-autosubmit": ""}),
    )
    grouped = forms.ChoiceField(
        choices=[("Hubs", [("n", "North"), ("s", "South")])],
        required=False,
        widget=FastSelect,
    )


class FastSelectTests:
    def test_it_renders_the_same_choices_escaped_with_the_selection(self):
        html = str(_Form({"fast": "1"})["fast"])
        assert html.startswith('<select data-autosubmit="" id="id_fast" name="fast">')
        assert '<option value="1" selected>a&lt;b</option>' in html
        assert '<option value="2">c</option>' in html
        assert html.count("selected") == 1

    def test_it_renders_optgroups(self):
        html = str(_Form({"grouped": "s"})["grouped"])
        assert '<optgroup label="Hubs"><option value="n">North</option>' in html
        assert '<option value="s" selected>South</option></optgroup>' in html
