"""A real email backend for the worker tests: the first send fails like an SMTP server that
dropped the connection, every later send is appended to a file the test reads. The files live in
OUTBOX_TEST_DIR, so the test and the worker process see the same state."""

from __future__ import annotations

import os
import smtplib
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend


class FailsFirstFileBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        folder = Path(os.environ["OUTBOX_TEST_DIR"])
        failed_once = folder / "failed-once"
        if not failed_once.exists():
            failed_once.write_text("1")
            raise smtplib.SMTPServerDisconnected("connection dropped (test backend, first send)")
        with open(folder / "sent.log", "a") as log:
            for message in email_messages:
                log.write(f"{message.extra_headers.get('X-Outbox-Key')}\t{message.to[0]}\n")
        return len(email_messages)
