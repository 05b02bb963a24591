#!/usr/bin/env python3
"""Measure TCP throughput and round-trip time between two hosts; optionally report the result.

Standard library only, so it can be copied onto any machine of a resource pool.

    # on one host (e.g. a machine at site bj-b):
    python netprobe.py listen --port 5201 --host 0.0.0.0
    # on the other (site bj-a):
    python netprobe.py connect 10.0.0.2 --port 5201 --seconds 5
    python netprobe.py connect 10.0.0.2 --port 5201 \\
        --post https://reviews.example/api/v1/benchmarks \\
        --token csr_… --task 12 --from-site bj-a --to-site bj-b

RTT is the median of --pings small request/response round trips (ms). Throughput is the bytes
sent over the time until the listener confirmed it received all of them (Gbit/s = 10^9 bit/s).
With --post the result is sent as a network_probe record with `Authorization: Bearer <token>` and
an idempotency key, so a retried post never records the probe twice.

Exit codes: 0 success, 1 measurement failed (listener unreachable, byte count mismatch),
2 bad arguments or a failed post.

Protocol: the client opens one connection per phase and sends one mode byte. "P": then 8-byte
pings that the listener echoes. "B": then bulk data until the client shuts its side down; the
listener answers the 8-byte big-endian count of bytes it received.
"""

from __future__ import annotations

import argparse
import json
import socket
import socketserver
import statistics
import struct
import sys
import time
import urllib.error
import urllib.request
import uuid

PING = b"P"
BULK = b"B"
PING_SIZE = 8
CHUNK = 256 * 1024
COUNT = struct.Struct("!Q")


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        part = sock.recv(size - len(data))
        if not part:
            raise ConnectionError("connection closed early")
        data += part
    return bytes(data)


class ProbeHandler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        sock: socket.socket = self.request
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            mode = _recv_exact(sock, 1)
        except (ConnectionError, OSError):
            return
        if mode == PING:
            self._echo(sock)
        elif mode == BULK:
            self._sink(sock)

    def _echo(self, sock: socket.socket) -> None:
        try:
            while True:
                sock.sendall(_recv_exact(sock, PING_SIZE))
        except (ConnectionError, OSError):
            return

    def _sink(self, sock: socket.socket) -> None:
        received = 0
        started = time.perf_counter()
        buffer = bytearray(CHUNK)
        view = memoryview(buffer)
        while True:
            n = sock.recv_into(view)
            if n == 0:
                break
            received += n
        elapsed = time.perf_counter() - started
        try:
            sock.sendall(COUNT.pack(received))
        except OSError:
            return
        rate = received * 8 / elapsed / 1e9 if elapsed > 0 else 0.0
        print(
            f"received {received} bytes in {elapsed:.3f} s ({rate:.3f} Gbit/s) "
            f"from {self.client_address[0]}",
            flush=True,
        )


class ProbeServer(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


def listen(host: str, port: int) -> int:
    with ProbeServer((host, port), ProbeHandler) as server:
        bound_host, bound_port = server.server_address[:2]
        # The first line says where it listens (with --port 0, the port the system chose).
        print(f"listening on {bound_host}:{bound_port}", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


def _connect(host: str, port: int, timeout: float) -> socket.socket:
    sock = socket.create_connection((host, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def measure_rtt(host: str, port: int, pings: int, timeout: float) -> list[float]:
    """Round-trip times in ms of `pings` 8-byte messages echoed by the listener."""
    with _connect(host, port, timeout) as sock:
        sock.sendall(PING)
        times = []
        for seq in range(pings + 1):
            payload = COUNT.pack(seq)
            started = time.perf_counter()
            sock.sendall(payload)
            if _recv_exact(sock, PING_SIZE) != payload:
                raise ConnectionError("the listener echoed something else")
            if seq:  # the first round trip warms the path up and is not counted
                times.append((time.perf_counter() - started) * 1000)
        return times


def measure_throughput(
    host: str, port: int, seconds: float | None, total: int | None, timeout: float
) -> tuple[int, float, int]:
    """(bytes sent, seconds until the listener confirmed them, bytes the listener counted)."""
    chunk = b"\0" * CHUNK
    sent = 0
    with _connect(host, port, timeout) as sock:
        sock.sendall(BULK)
        started = time.perf_counter()
        deadline = started + seconds if seconds is not None else None
        while True:
            if total is not None:
                if sent >= total:
                    break
                piece = chunk if total - sent >= CHUNK else chunk[: total - sent]
            else:
                if time.perf_counter() >= deadline:
                    break
                piece = chunk
            sock.sendall(piece)
            sent += len(piece)
        sock.shutdown(socket.SHUT_WR)
        confirmed = COUNT.unpack(_recv_exact(sock, COUNT.size))[0]
        elapsed = time.perf_counter() - started
    return sent, elapsed, confirmed


def post_probe(url: str, token: str, body: dict, timeout: float, attempts: int = 3) -> dict:
    """POST the record; retries network errors and 5xx with the same idempotency key."""
    data = json.dumps(body).encode("utf-8")
    last_error = ""
    for attempt in range(attempts):
        request = urllib.request.Request(
            url,
            data=data,
            method="POST",
            headers={
                "Authorization": f"Bearer {token}",
                "Content-Type": "application/json",
                "Accept": "application/json",
                "User-Agent": "netprobe/1.0",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
                return {"status": response.status, "record": json.loads(response.read() or b"{}")}
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")
            if exc.code < 500:
                raise PostFailed(_describe_http_error(exc.code, detail)) from None
            last_error = f"HTTP {exc.code}: {detail[:300]}"
        except (urllib.error.URLError, OSError) as exc:
            last_error = str(getattr(exc, "reason", exc))
        if attempt + 1 < attempts:
            time.sleep(0.5 * (attempt + 1))
    raise PostFailed(f"could not post to {url}: {last_error}")


class PostFailed(Exception):
    pass


def _describe_http_error(code: int, detail: str) -> str:
    try:
        errors = json.loads(detail).get("errors")
    except (ValueError, AttributeError):
        errors = None
    if errors:
        fields = "; ".join(f"{e.get('field') or '-'}: {e.get('message')}" for e in errors)
        return f"the API refused the record (HTTP {code}): {fields}"
    if code == 401:
        return "the API refused the token (HTTP 401): check --token"
    return f"the API refused the record (HTTP {code}): {detail[:300]}"


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, got {text}")
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a TCP port: {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="netprobe", description="Measure TCP throughput and RTT between two hosts."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    lp = sub.add_parser("listen", help="serve pings and sink bulk data")
    lp.add_argument("--host", default="127.0.0.1", help="address to bind (0.0.0.0 for all)")
    lp.add_argument("--port", type=_port, default=5201, help="0 picks a free port")

    cp = sub.add_parser("connect", help="measure against a listener")
    cp.add_argument("host")
    cp.add_argument("--port", type=_port, default=5201)
    amount = cp.add_mutually_exclusive_group()
    amount.add_argument("--seconds", type=_positive_float, help="send for this long (default 3)")
    amount.add_argument("--bytes", type=_positive_int, dest="total", help="send this many bytes")
    cp.add_argument("--pings", type=_positive_int, default=20, help="round trips for the RTT")
    cp.add_argument("--timeout", type=_positive_float, default=10.0, help="socket timeout (s)")
    cp.add_argument("--json", action="store_true", help="print the result as JSON")
    post = cp.add_argument_group("posting the result as a network_probe record")
    post.add_argument("--post", metavar="URL", help="the /api/v1/benchmarks endpoint")
    post.add_argument("--token", help="a team API token")
    post.add_argument("--task", type=_positive_int, help="task profile id")
    post.add_argument("--from-site", help="code of the site this host is in")
    post.add_argument("--to-site", help="code of the listener's site")
    post.add_argument("--offer", type=_positive_int, help="offer id (optional)")
    post.add_argument("--idempotency-key", help="default: a fresh netprobe-<uuid>")
    post.add_argument("--notes", default="", help="free text stored with the record")
    return parser


def connect(args: argparse.Namespace) -> int:
    seconds = args.seconds if args.seconds is not None or args.total is not None else 3.0
    try:
        rtts = measure_rtt(args.host, args.port, args.pings, args.timeout)
        sent, elapsed, confirmed = measure_throughput(
            args.host, args.port, seconds, args.total, args.timeout
        )
    except (OSError, ConnectionError) as exc:
        print(f"netprobe: cannot measure against {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    if confirmed != sent:
        print(
            f"netprobe: sent {sent} bytes but the listener counted {confirmed}", file=sys.stderr
        )
        return 1
    gbps = sent * 8 / elapsed / 1e9 if elapsed > 0 else 0.0
    result = {
        "host": args.host,
        "port": args.port,
        "rtt_ms": round(statistics.median(rtts), 4),
        "rtt_min_ms": round(min(rtts), 4),
        "rtt_max_ms": round(max(rtts), 4),
        "pings": len(rtts),
        "bytes": sent,
        "seconds": round(elapsed, 4),
        "gbps": round(gbps, 4),
    }
    if args.post:
        body = {
            "kind": "network_probe",
            "task": args.task,
            "from_site": args.from_site,
            "to_site": args.to_site,
            "bandwidth_gbps": result["gbps"],
            "rtt_ms": result["rtt_ms"],
            "idempotency_key": args.idempotency_key or f"netprobe-{uuid.uuid4()}",
            "notes": (
                args.notes
                or f"netprobe to {args.host}:{args.port}: {sent} bytes in {elapsed:.2f} s, "
                f"RTT median of {len(rtts)} pings"
            ),
        }
        if args.offer:
            body["offer"] = args.offer
        try:
            posted = post_probe(args.post, args.token, body, args.timeout)
        except PostFailed as exc:
            print(f"netprobe: {exc}", file=sys.stderr)
            return 2
        record = posted["record"]
        result["posted"] = {"status": posted["status"], "id": record.get("id"),
                            "url": record.get("url")}
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"RTT {result['rtt_ms']:.3f} ms (median of {result['pings']}, "
            f"min {result['rtt_min_ms']:.3f}, max {result['rtt_max_ms']:.3f}) · "
            f"throughput {result['gbps']:.3f} Gbit/s ({sent} bytes in {elapsed:.2f} s, "
            f"confirmed by the listener)"
        )
        if "posted" in result:
            verb = "recorded" if result["posted"]["status"] == 201 else "already recorded"
            print(f"{verb} as benchmark record #{result['posted']['id']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "listen":
        try:
            return listen(args.host, args.port)
        except OSError as exc:
            print(f"netprobe: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
            return 1
    if args.post:
        missing = [
            flag
            for flag, value in (
                ("--token", args.token),
                ("--task", args.task),
                ("--from-site", args.from_site),
                ("--to-site", args.to_site),
            )
            if not value
        ]
        if missing:
            parser.error(f"--post needs {', '.join(missing)}")  # exits with status 2
        if not args.post.startswith(("http://", "https://")):
            parser.error("--post must be an http:// or https:// URL")
    return connect(args)


if __name__ == "__main__":
    raise SystemExit(main())
