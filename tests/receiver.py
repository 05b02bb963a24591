"""A real HTTP receiver for tests of what the site posts or fetches (webhooks, MLflow URIs):
`http.server` in a thread on 127.0.0.1, answering each request with the next programmed answer.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    status: int


@dataclass
class Receiver:
    """`answers`: (status, headers) taken in order, then (200, {}) for every later request."""

    server: ThreadingHTTPServer
    answers: list[tuple[int, dict]] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    @property
    def accepted(self) -> list[Received]:
        return [r for r in self.received if 200 <= r.status < 300]


def start_receiver() -> Receiver:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            with lock:
                status, headers = receiver.answers.pop(0) if receiver.answers else (200, {})
                receiver.received.append(
                    Received(self.command, self.path, dict(self.headers), body, status)
                )
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        do_GET = do_POST = _answer

        def log_message(self, *args) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    receiver = Receiver(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return receiver
