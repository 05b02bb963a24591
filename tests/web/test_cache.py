"""The Redis cache backend: Django's, with one redis-py client per pool (apps/web/cache.py)."""

from __future__ import annotations

import uuid

from apps.web.cache import ReusedClientRedisCache
from tests.services import need_redis


def _cache() -> ReusedClientRedisCache:
    url = need_redis()
    return ReusedClientRedisCache(url, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}", "TIMEOUT": 60})


class ReusedClientRedisCacheTests:
    def test_it_builds_the_client_once_and_reuses_it(self):
        cache = _cache()
        first = cache._cache.get_client("a")
        assert cache._cache.get_client("b") is first
        assert cache._cache.get_client("c", write=True) is first  # one server: one pool

    def test_it_stores_counts_and_deletes_as_djangos_does(self):
        cache = _cache()
        assert cache.get("missing", "default") == "default"
        cache.set("n", 1)
        assert cache.incr("n") == 2
        assert cache.add("n", 5) is False
        cache.set_many({"a": {"x": [1, 2]}, "b": "text"})
        assert cache.get_many(["a", "b", "missing"]) == {"a": {"x": [1, 2]}, "b": "text"}
        cache.delete_many(["a", "b", "n"])
        assert cache.get_many(["a", "b", "n"]) == {}

    def test_the_site_uses_it_when_redis_is_configured(self):
        need_redis()
        from django.core.cache import caches

        cache = caches["default"]
        assert isinstance(cache, ReusedClientRedisCache)
        cache.set("probe", "value", 5)
        assert cache.get("probe") == "value"

    def test_it_bumps_counters_in_one_round_trip(self):
        """incr_or_start_many (the teams' generations, apps.accounts.generations): a key that is
        set goes up by one, one that is not starts at its given value plus one, with no expiry;
        every key in one pipeline."""
        cache = _cache()
        cache.set("kept", 41, None)
        client = cache._cache.get_client(write=True)
        executed, make = [], client.pipeline

        def pipeline(*args, **kwargs):
            pipe = make(*args, **kwargs)
            run = pipe.execute
            pipe.execute = lambda *a, **k: executed.append(len(pipe.command_stack)) or run(*a, **k)
            return pipe

        client.pipeline = pipeline
        try:
            cache.incr_or_start_many({"kept": 7, "new": 1000})
        finally:
            del client.pipeline
        assert executed == [4]  # SET NX and INCR for each of the two keys, sent at once
        assert cache.get_many(["kept", "new"]) == {"kept": 42, "new": 1001}
        assert client.ttl(cache.make_and_validate_key("new")) == -1  # kept until evicted
