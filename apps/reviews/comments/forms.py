"""The one field of a comment: its text, checked as the service checks it (services.clean_text)."""

from __future__ import annotations

from html import escape

from django import forms
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from apps.web.limits import MAX_COMMENT_CHARS


class CommentForm(forms.Form):
    text = forms.CharField(
        label=_("Comment"),
        max_length=MAX_COMMENT_CHARS,
        help_text=_("Plain text: links work, and @name tells a teammate."),
        error_messages={
            "required": _("Write a comment first."),
            "max_length": _(
                "A comment holds at most %(limit_value)d characters (this one has "
                "%(show_value)d): shorten it or split it in two."
            ),
        },
        widget=forms.Textarea(attrs={"rows": 3}),
    )


# components/field.html (the file, with its last newline) as it draws an empty CommentForm's
# text (no errors, no value), whitespace included: a thread's form is drawn per view (it carries
# the viewer's CSRF token), and a review's page draws one per candidate; this draws each without
# a form, a bound field or a template (tests/reviews/comments/test_discussion_cheap_draw.py checks
# it against the template).
_BLANK_FIELD = (
    '<div class="field{required}" id="field-{name}">\n  \n'
    '  <label for="{id}">{label}</label>\n'
    "  <textarea{attrs}>\n</textarea>\n  \n"
    '  <p class="help">{help}</p>\n  \n</div>\n'
)


def blank_comment_field(prefix: str) -> SafeString:
    """The text field of `CommentForm(prefix=prefix)`, unbound, as components/field.html draws
    it, in the active language."""
    field = CommentForm.base_fields["text"]
    name = f"{prefix}-text"
    auto_id = f"id_{name}"
    # The widget's attributes in the order Django's textarea template writes them.
    attrs = {
        "name": name,
        **field.widget.attrs,
        "required": field.required,
        "aria-describedby": f"{auto_id}_helptext",
        "id": auto_id,
    }
    drawn = "".join(
        f" {key}" if value is True else f' {key}="{escape(str(value))}"'
        for key, value in attrs.items()
        if value is not False and value is not None
    )
    return mark_safe(
        _BLANK_FIELD.format(
            required=" field--required" if field.required else "",
            name=escape(name),
            id=escape(auto_id),
            label=escape(str(field.label)),
            attrs=drawn,
            help=escape(str(field.help_text)),
        )
    )
