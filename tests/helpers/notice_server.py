"""A local HTTP server that receives notices: http.server on 127.0.0.1, a port the system picks.

Tests start it, point a notice URL at it, and read what arrived. It can
fail the first requests (with a status, or by closing the connection) to
test retries. It never listens on any other address.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    """What the server got: each request's path, headers and body, and how many it failed on purpose."""

    requests: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)
    fail_first: int = 0
    fail_status: int = 503
    failed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def bodies(self) -> list[dict[str, Any]]:
        """Each accepted notice's JSON body."""
        with self.lock:
            return [json.loads(body) for _, _, body in self.requests]

    def wait_for(self, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
        """Wait until ``count`` notices were accepted (a bound for a hung test, not a speed check)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.requests) >= count:
                    break
            time.sleep(0.02)
        bodies = self.bodies()
        assert len(bodies) >= count, f"{len(bodies)} notices arrived, not {count}; failed on purpose: {self.failed}"
        return bodies


@contextmanager
def notice_server(fail_first: int = 0, fail_status: int = 503) -> Iterator[tuple[str, Received]]:
    """Serve on 127.0.0.1 (port 0) until the block ends; yields its base URL and what it receives."""
    received = Received(fail_first=fail_first, fail_status=fail_status)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            with received.lock:
                failing = received.failed < received.fail_first
                if failing:
                    received.failed += 1
                else:
                    received.requests.append((self.path, dict(self.headers.items()), body))
            self.send_response(received.fail_status if failing else 200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
            pass  # quiet: the test reads what arrived instead

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
