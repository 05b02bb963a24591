"""Settings of the worker the outbox test starts: the scoring workers' settings (broker keys under
the test's prefix), with an email backend that fails its first send and retries after a second."""

from tests.scoring.worker_settings import *  # noqa: F403

EMAIL_BACKEND = "tests.accounts.email_backends.FailsFirstFileBackend"
EMAIL_RETRY_BASE_SECONDS = 1
