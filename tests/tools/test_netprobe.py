"""tools/netprobe.py end to end: a real listener process on 127.0.0.1, a real client process, and
a post to the API of a live test server."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from apps.accounts.tokens import api_token_create
from apps.benchmarks.models import BenchmarkRecord
from tests.benchmarks.helpers import make_world

NETPROBE = Path(__file__).resolve().parents[2] / "tools" / "netprobe.py"


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(NETPROBE), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def listener():
    """A listener process on a port the system picked; its first line says which."""
    process = subprocess.Popen(
        [sys.executable, "-u", str(NETPROBE), "listen", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stdout.readline()
        assert first.startswith("listening on 127.0.0.1:"), first + process.stderr.read()
        yield int(first.rsplit(":", 1)[1])
    finally:
        process.terminate()
        process.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class NetprobeMeasureTests:
    def test_it_measures_throughput_and_rtt_against_a_listener(self, listener):
        result = run("connect", "127.0.0.1", "--port", str(listener), "--seconds", "0.3",
                     "--pings", "5", "--json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert data["gbps"] > 0
        assert data["rtt_ms"] >= 0
        assert data["rtt_min_ms"] <= data["rtt_ms"] <= data["rtt_max_ms"]
        assert data["pings"] == 5
        assert data["bytes"] > 0 and data["seconds"] > 0
        assert data["gbps"] == pytest.approx(data["bytes"] * 8 / data["seconds"] / 1e9, rel=0.01)

    def test_it_sends_an_exact_byte_count_and_prints_a_result_line(self, listener):
        result = run("connect", "127.0.0.1", "--port", str(listener), "--bytes", "3000000")
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("RTT ")
        assert "3000000 bytes" in result.stdout
        assert "Gbit/s" in result.stdout and "confirmed by the listener" in result.stdout

    def test_an_unreachable_listener_exits_1(self):
        result = run("connect", "127.0.0.1", "--port", str(free_port()), "--seconds", "0.1")
        assert result.returncode == 1
        assert "cannot measure" in result.stderr

    @pytest.mark.parametrize(
        "args",
        [
            ["--seconds", "-1"],
            ["--seconds", "1", "--bytes", "10"],
            ["--pings", "0"],
            ["--port", "70000"],
            ["--post", "http://127.0.0.1:1/api/v1/benchmarks", "--task", "1"],
            ["--post", "ftp://x", "--token", "t", "--task", "1", "--from-site", "a",
             "--to-site", "b"],
        ],
    )
    def test_bad_arguments_exit_2_with_a_message(self, args):
        result = run("connect", "127.0.0.1", *args)
        assert result.returncode == 2
        assert "error" in result.stderr


@pytest.mark.django_db(transaction=True)
class NetprobePostTests:
    def _setup(self):
        from tests.factories import make_membership, make_team, make_user

        team = make_team("Probe team", "probe-team")
        owner = make_membership(make_user("probe-owner"), team, "owner").user
        world = make_world(team)
        _, raw = api_token_create(team=team, name="netprobe", created_by=owner)
        return world, raw

    def _post_args(self, live_server, listener, world, token, *extra):
        return (
            "connect", "127.0.0.1", "--port", str(listener), "--seconds", "0.2", "--pings", "3",
            "--json", "--post", live_server.url + "/api/v1/benchmarks", "--token", token,
            "--task", str(world.task.pk), "--from-site", world.site_a.code,
            "--to-site", world.site_b.code, *extra,
        )

    def test_it_posts_a_network_probe_record_to_the_live_api(self, live_server, listener):
        world, token = self._setup()
        result = run(*self._post_args(live_server, listener, world, token))
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        probe = BenchmarkRecord.objects.get()
        assert probe.kind == "network_probe"
        assert probe.source == "api"
        assert probe.bandwidth_gbps == pytest.approx(data["gbps"])
        assert probe.rtt_ms == pytest.approx(data["rtt_ms"])
        assert (probe.from_site, probe.to_site) == (world.site_a, world.site_b)
        assert probe.idempotency_key.startswith("netprobe-")
        assert data["posted"] == {"status": 201, "id": probe.pk, "url": f"/benchmarks/{probe.pk}/"}

    def test_a_repeated_post_with_the_same_key_records_one_probe(self, live_server, listener):
        """A second run measures again, so its figures differ from the first: under the same key
        that is another request, refused with 409 (Stripe's semantics), never a silent drop."""
        world, token = self._setup()
        args = self._post_args(live_server, listener, world, token, "--idempotency-key", "np-1")
        first, second = run(*args), run(*args)
        assert first.returncode == 0, first.stderr
        assert second.returncode == 2
        assert "HTTP 409" in second.stderr and "np-1" in second.stderr
        assert BenchmarkRecord.objects.filter(kind="network_probe").count() == 1

    def test_a_refused_post_exits_2_naming_the_problem(self, live_server, listener):
        world, token = self._setup()
        bad_token = run(*self._post_args(live_server, listener, world, token + "nope"))
        assert bad_token.returncode == 2
        assert "HTTP 401" in bad_token.stderr
        args = list(self._post_args(live_server, listener, world, token))
        args[args.index("--to-site") + 1] = world.site_a.code  # same site twice
        same_site = run(*args)
        assert same_site.returncode == 2
        assert "to_site" in same_site.stderr
        assert not BenchmarkRecord.objects.exists()
