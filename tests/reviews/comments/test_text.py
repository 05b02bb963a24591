"""A comment's text drawn as HTML: escaped, http(s) addresses linked with rel="noopener nofollow",
@mentions of the team's members marked, nothing else (apps/reviews/comments/text.py)."""

from __future__ import annotations

from apps.reviews.comments.text import excerpt, mentioned_names, render


class RenderTests:
    def test_markup_typed_in_a_comment_is_shown_as_text(self):
        html = render('<script>alert("x")</script> <b>bold</b> & <img src=x onerror=alert(1)>', [])
        assert "<script" not in html and "<b>" not in html and "<img" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
        assert "&amp;" in html

    def test_an_address_becomes_a_link_that_cannot_reach_back(self):
        html = render("See https://mlflow.example.com/runs?a=1&b=2.", [])
        assert html == (
            'See <a href="https://mlflow.example.com/runs?a=1&amp;b=2" rel="noopener nofollow" '
            'class="comment__link">https://mlflow.example.com/runs?a=1&amp;b=2</a>.'
        )

    def test_only_http_and_https_are_linked(self):
        for text in ("javascript:alert(1)", "data:text/html,<b>x</b>", "ftp://host/file"):
            assert "<a " not in render(text, []), text

    def test_an_address_cannot_break_out_of_its_attribute(self):
        html = render('https://e.com/"onmouseover="alert(1) and http://e.com/\'x', [])
        assert 'href="https://e.com/"' in html  # the quote ends the address
        assert '"onmouseover' not in html.replace("&quot;onmouseover", "")

    def test_a_closing_parenthesis_stays_with_the_sentence_unless_the_address_opened_it(self):
        assert 'href="https://e.com/x"' in render("(see https://e.com/x)", [])
        assert 'href="https://en.wikipedia.org/wiki/A_(b)"' in render(
            "https://en.wikipedia.org/wiki/A_(b)", []
        )

    def test_mentions_of_members_are_marked_and_others_left_as_typed(self):
        html = render("@Alice and @bob, not @carol nor dave@alice.com", ["alice", "bob"])
        assert html == (
            '<span class="mention">@Alice</span> and <span class="mention">@bob</span>, '
            "not @carol nor dave@alice.com"
        )


class MentionNameTests:
    def test_names_are_read_once_in_order_without_trailing_punctuation(self):
        assert mentioned_names("@Bob, @carol. @bob and x@dave (@erin)") == ["bob", "carol", "erin"]

    def test_an_email_address_mentions_no_one(self):
        assert mentioned_names("mail ops@team.example or a.b@c") == []

    def test_the_excerpt_is_one_line_of_at_most_140_characters(self):
        assert excerpt("two\nlines") == "two lines"
        long = excerpt("x" * 200)
        assert len(long) == 140 and long.endswith("…")
