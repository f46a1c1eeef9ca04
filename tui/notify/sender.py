"""Sending notices off the game screen: one worker thread, a bounded queue, retries with backoff.

The game screen only puts a notice on a queue (:meth:`NoticeSender.send`,
which never waits); a daemon thread posts it. A notice that fails (no
answer, a refused connection, a 5xx or 429 answer) is tried again after
:data:`BACKOFF_SECONDS`, then twice that, and so on, :data:`TRIES` times in
all; a 4xx answer is not tried again (the URL is wrong, and asking again
will not mend it). When the queue is full (a URL that hangs while the table
moves on) a new notice is dropped rather than held. The thread is a daemon
and waits on nothing at exit, so a player's Coven never hangs on a notice.

Redirects are not followed: a notice goes to the URL its owner gave, and
nowhere else.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from tui.notify.notice import SeatNotice

log = logging.getLogger("coven.notify")

TRIES = 4
"""How many times one notice is tried, the first included."""

BACKOFF_SECONDS = 2.0
"""The wait before the second try; each further try waits twice as long as the last (2, 4, 8 s)."""

TIMEOUT_SECONDS = 10.0
"""How long one try may take to connect and be answered."""

QUEUE_SIZE = 32
"""Notices waiting to be sent at most; past it a new one is dropped."""

MAX_NOTICES = 4
"""At most this many notices go to one player in any :data:`WINDOW_SECONDS`."""

WINDOW_SECONDS = 3600.0
"""The rate limit's window: an hour."""

RETRIED_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
"""HTTP answers worth trying again; any other error answer is final."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Refuse every redirect: the notice stays with the URL its owner gave."""

    def redirect_request(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                         headers: Any, newurl: str) -> None:
        """Never follow (urllib then reports the 3xx answer as an error)."""
        return None


_OPENER = urllib.request.build_opener(_NoRedirects(), urllib.request.ProxyHandler({}))


def post(url: str, body: bytes, timeout: float = TIMEOUT_SECONDS) -> int:
    """POST ``body`` (JSON) to ``url``; the HTTP status.

    Raises:
        urllib.error.HTTPError: the server answered with an error (or a redirect).
        OSError: no answer (refused, unreachable, timed out).
    """
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json; charset=utf-8", "User-Agent": "Coven"})
    with _OPENER.open(request, timeout=timeout) as answer:
        status: int = answer.status
        return status


class RateLimit:
    """At most ``most`` notices to one player in any ``window`` seconds."""

    def __init__(self, most: int = MAX_NOTICES, window: float = WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """No notice sent yet; ``clock`` is replaced by tests."""
        self.most = most
        self.window = window
        self._clock = clock
        self._sent: dict[str, deque[float]] = {}

    def allow(self, player: str) -> bool:
        """Whether one more notice may go to ``player`` now; counts it if so."""
        now = self._clock()
        times = self._sent.setdefault(player, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.most:
            return False
        times.append(now)
        return True


@dataclass(frozen=True)
class _Job:
    url: str
    notice: SeatNotice


class NoticeSender:
    """The queue and the worker thread that posts notices, with retries and backoff.

    Attributes:
        sent: How many notices were delivered (for the log and tests).
        failed: How many were given up on after every try.
    """

    def __init__(self, *, tries: int = TRIES, backoff: float = BACKOFF_SECONDS, queue_size: int = QUEUE_SIZE,
                 timeout: float = TIMEOUT_SECONDS, sleep: Callable[[float], object] = time.sleep) -> None:
        """Nothing sent yet; the thread starts with the first notice."""
        self.tries = max(1, tries)
        self.backoff = backoff
        self.timeout = timeout
        self._sleep = sleep
        self._queue: queue.Queue[_Job | None] = queue.Queue(maxsize=queue_size)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.sent = 0
        self.failed = 0
        self.dropped = 0

    def send(self, url: str, notice: SeatNotice) -> bool:
        """Queue ``notice`` for ``url`` without waiting; False when the queue is full and it was dropped."""
        self._start()
        try:
            self._queue.put_nowait(_Job(url, notice))
        except queue.Full:
            self.dropped += 1
            log.warning("notice for table %s dropped: %d notices already wait", notice.table, self._queue.maxsize)
            return False
        return True

    def _start(self) -> None:
        """Start the worker thread once (in the process that sends: a forked child starts its own)."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                # A daemon: the process exiting never waits for a notice still being tried.
                self._thread = threading.Thread(target=self._work, name="coven-notices", daemon=True)
                self._thread.start()

    def close(self) -> None:
        """Ask the worker to stop after the notice in hand (without waiting for it)."""
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass  # the daemon thread ends with the process anyway

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every queued notice was sent or given up (tests and a clean exit); True if so."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.02)
        return not self._queue.unfinished_tasks

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            try:
                if job is None:
                    return
                self._deliver(job)
            except Exception:  # noqa: BLE001 - a notice must never end the worker
                log.exception("a notice could not be sent")
            finally:
                self._queue.task_done()

    def _deliver(self, job: _Job) -> None:
        """Try ``job`` up to :attr:`tries` times, waiting twice as long after each failure."""
        body = job.notice.body(job.url)
        wait = self.backoff
        for attempt in range(1, self.tries + 1):
            try:
                post(job.url, body, self.timeout)
            except urllib.error.HTTPError as error:
                if error.code not in RETRIED_STATUSES:
                    log.warning("notice for table %s refused: HTTP %d", job.notice.table, error.code)
                    self.failed += 1
                    return
                why = f"HTTP {error.code}"
            except (OSError, ValueError) as error:  # no answer; ValueError: a URL urllib cannot use
                why = type(error).__name__
            else:
                self.sent += 1
                return
            if attempt < self.tries:
                log.info("notice for table %s failed (%s); trying again in %g s", job.notice.table, why, wait)
                self._sleep(wait)
                wait *= 2
        log.warning("notice for table %s given up after %d tries", job.notice.table, self.tries)
        self.failed += 1
