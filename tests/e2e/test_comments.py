"""Issue 40's discussion in a real browser, in English and in Chinese: a member posts a comment
with a link and an @mention (htmx: the thread changes in place, the page does not reload), the
mentioned reviewer is told, a comment too long is refused in place with every character kept,
the author edits it in place; without JavaScript the same form posts and comes back to the
comment; the decision record prints the discussion with its appendix."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.notifications.models import Kind, Notification
from apps.reviews.comments.models import Comment
from apps.web.limits import MAX_COMMENT_CHARS
from tests.e2e.conftest import log_in
from tests.reviews.helpers import ready_review

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {"post": "Post comment", "save": "Save comment", "edit": "Edit", "edited": "edited",
           "empty": "No comments yet.", "long": "at most 4000 characters"},
    "zh-hans": {"post": "发表评论", "save": "保存评论", "edit": "编辑", "edited": "已编辑",
                "empty": "还没有评论。", "long": "最多 4000 个字符"},
}  # fmt: skip


def in_language(browser, base: str, language: str, **options):
    context = browser.new_context(locale="en-US", **options)
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_member_posts_mentions_and_edits_a_comment_in_place(
    live_server, browser, team, member, reviewer, language
):
    from playwright.sync_api import expect

    words, base = WORDS[language], live_server.url
    review = ready_review(team, member, offers=2, title="Nightly batch")
    context, page = in_language(browser, base, language)
    try:
        log_in(page, base, "member")
        page.goto(base + reverse("reviews:detail", args=[review.pk]))
        thread = page.locator("#thread-review")
        expect(thread).to_contain_text(words["empty"])
        page.evaluate("window.notReloaded = true")

        page.fill("#id_review-text", "@reviewer see https://example.com/run?a=1 <b>not bold</b>")
        thread.get_by_role("button", name=words["post"]).click()
        comment = thread.locator(".comment")
        expect(comment).to_have_count(1)
        assert page.evaluate("window.notReloaded") is True  # swapped in place by htmx
        expect(comment.locator(".mention")).to_have_text("@reviewer")
        link = comment.locator("a.comment__link")
        expect(link).to_have_attribute("href", "https://example.com/run?a=1")
        expect(link).to_have_attribute("rel", "noopener nofollow")
        expect(comment.locator(".comment__text")).to_contain_text("<b>not bold</b>")
        assert comment.locator("b").count() == 0
        expect(page.locator("#id_review-text")).to_have_value("")
        told = Notification.objects.get(kind=Kind.COMMENT_MENTION)
        assert told.recipient == reviewer

        # Too long: the browser's own limit lifted (as a script could), the server refuses it
        # in place and keeps every character typed.
        typed = "y" * (MAX_COMMENT_CHARS + 1)
        page.eval_on_selector("#id_review-text", "el => el.removeAttribute('maxlength')")
        page.fill("#id_review-text", typed)
        thread.get_by_role("button", name=words["post"]).click()
        expect(thread.locator(".error")).to_contain_text(words["long"])
        assert page.input_value("#id_review-text") == typed
        assert Comment.objects.count() == 1

        # The author edits in place.
        comment.get_by_role("link", name=words["edit"]).click()
        editing = page.locator("form.comment--editing")
        editing.locator("textarea").fill("@reviewer done, see the run")
        editing.get_by_role("button", name=words["save"]).click()
        expect(thread.locator(".comment .comment__text")).to_have_text(
            "@reviewer done, see the run"
        )
        expect(thread.locator(".comment")).to_contain_text(words["edited"])
        assert page.evaluate("window.notReloaded") is True
        assert Comment.objects.get().text == "@reviewer done, see the run"
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_without_javascript_a_comment_posts_and_an_error_keeps_the_text(
    live_server, browser, team, member, language
):
    words, base = WORDS[language], live_server.url
    review = ready_review(team, member, offers=1, title="Nightly batch")
    candidate = review.candidates.get()
    context, page = in_language(browser, base, language, java_script_enabled=False)
    try:
        log_in(page, base, "member")
        page.goto(base + reverse("reviews:detail", args=[review.pk]))
        box = f"#id_candidate-{candidate.pk}-text"
        # A candidate's thread with no comment yet is folded (a <details>, no script needed).
        page.locator(f"details:has(#thread-candidate-{candidate.pk}) > summary").click()
        page.fill(box, "Spot instances are fine here.")
        page.locator(f"#thread-candidate-{candidate.pk}").get_by_role(
            "button", name=words["post"]
        ).click()
        posted = Comment.objects.get()
        page.wait_for_url(f"**/reviews/{review.pk}/#comment-{posted.pk}")
        assert "Spot instances are fine here." in page.inner_text(f"#comment-{posted.pk}")
        assert posted.candidate_id == candidate.pk

        # Too long (the browser's limit lifted): the thread's own page answers with the error
        # and every character typed.
        typed = "z" * (MAX_COMMENT_CHARS + 1)
        page.eval_on_selector("#id_review-text", "el => el.removeAttribute('maxlength')")
        page.fill("#id_review-text", typed)
        page.locator("#thread-review").get_by_role("button", name=words["post"]).click()
        page.wait_for_url(f"**/reviews/{review.pk}/comments/")
        assert words["long"] in page.inner_text("#thread-review .error")
        assert page.input_value("#id_review-text") == typed
        assert Comment.objects.count() == 1
    finally:
        context.close()


def test_the_record_prints_the_discussion_with_its_appendix(live_server, browser, team, member):
    from apps.reviews.comments.services import comment_post

    review = ready_review(team, member, offers=1, title="Nightly batch")
    comment_post(review=review, actor=member, text="Printed with the appendix.")
    base = live_server.url
    for language, heading in (("en", "Appendix: discussion"), ("zh-hans", "附录：讨论")):
        context, page = in_language(browser, base, language)
        try:
            log_in(page, base, "member")
            page.goto(base + reverse("scoring:review_record", args=[review.pk]))
            section = page.locator("#record-discussion")
            assert heading in section.inner_text()
            page.emulate_media(media="print")
            text = section.locator(".comment__text")
            assert not text.is_visible()  # on paper only with the appendix ticked
            page.emulate_media(media="screen")
            page.locator("label[for=record-appendix]").click()
            page.emulate_media(media="print")
            assert text.is_visible() and text.inner_text() == "Printed with the appendix."
        finally:
            context.close()
