"""The cache of a parallel test run: the configured backend, except that on Redis clear() deletes
this worker's keys (its KEY_PREFIX) instead of flushing the database the other workers, and the
Celery queues of the real-worker tests, share. tests/conftest.py puts it in place under xdist."""

from __future__ import annotations

from types import MethodType

from django.core.cache.backends.redis import RedisCache
from django.utils.module_loading import import_string


def _clear_own_keys(cache: RedisCache) -> bool:
    client = cache._cache.get_client(None, write=True)
    keys = list(client.scan_iter(match=f"{cache.key_prefix}:*", count=1000))
    for start in range(0, len(keys), 1000):
        client.delete(*keys[start : start + 1000])
    return True


def own_keys_cache(location, params):
    """Called by Django's cache handler like a backend class (BACKEND is this function's path)."""
    cache = import_string(params["WRAPPED_BACKEND"])(location, params)
    if isinstance(cache, RedisCache) and cache.key_prefix:
        cache.clear = MethodType(_clear_own_keys, cache)
    return cache
