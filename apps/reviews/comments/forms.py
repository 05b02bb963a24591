"""The one field of a comment: its text, checked as the service checks it (services.clean_text)."""

from __future__ import annotations

from django import forms
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
