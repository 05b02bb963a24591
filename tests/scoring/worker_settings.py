"""Settings of the workers the integration tests start: the project's settings, with every broker
key under this test's prefix, so that another test run sharing the Redis database can neither
take this test's messages nor restore its unacknowledged ones."""

import os

from config.settings import *  # noqa: F403
from config.settings import CELERY_BROKER_TRANSPORT_OPTIONS

CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "global_keyprefix": os.environ["SNAPSHOT_TEST_KEYPREFIX"],
}
