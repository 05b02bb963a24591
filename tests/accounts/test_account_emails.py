"""The account emails (django-allauth's, in our words): they greet the person and sign with the
product's name, not with the address the request came to ("Hello from 127.0.0.1:18822!")."""

from __future__ import annotations

from django.core import mail
from django.urls import reverse
from django.utils import translation


def test_the_reset_email_greets_and_signs_with_the_products_name(
    client, member, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_reset_password"), {"email": member.email})
    [message] = mail.outbox
    assert message.body.startswith("Hello,\n")
    assert "Hello from" not in message.body and "testserver!" not in message.body
    assert message.body.rstrip().endswith("Compute selection reviews")


def test_the_reset_email_is_in_chinese_for_a_chinese_page(
    client, member, django_capture_on_commit_callbacks
):
    with translation.override("zh-hans"), django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("account_reset_password"), {"email": member.email},
            HTTP_ACCEPT_LANGUAGE="zh-hans",
        )  # fmt: skip
    [message] = mail.outbox
    assert message.body.startswith("您好：")
    assert message.body.rstrip().endswith("算力选型评审")
