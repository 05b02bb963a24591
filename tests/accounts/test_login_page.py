"""The sign-in page says each thing once (issue 39: "Forgot your password?" was shown twice)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation


@pytest.mark.parametrize(("language", "text"), [("en", "Forgot your password?"), ("zh-hans", None)])
def test_the_reset_link_is_offered_once(client, db, language, text):
    with translation.override(language):
        text = text or translation.gettext("Forgot your password?")
        html = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert html.count(text) == 1
    assert html.count(reverse("account_reset_password")) == 1
