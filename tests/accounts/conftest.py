from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation


@pytest.fixture(autouse=True)
def _english_unless_a_request_says_otherwise():
    """Each test starts in the default language and leaves no language behind.

    LocaleMiddleware leaves the last request's language active in the thread, so a test that
    switched to Chinese would otherwise change the messages of every later test in the process.
    """
    with translation.override(settings.LANGUAGE_CODE):
        yield
