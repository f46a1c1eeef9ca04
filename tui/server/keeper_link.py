"""The server's end of the table keeper (:mod:`tui.keeper.run`): start it, copy its lines into the log, restart it.

The keeper is a process of its own, started with a clean environment (the save folder, the server's notice URL,
the keeper's period, the server's process id, so that it ends when the server dies, even killed), so no database
connection ever crosses a fork and the server, which holds the host key, never opens the database. One that ends while the server runs is started again after a pause that doubles
with each quick death (up to :data:`MAX_PAUSE_SECONDS`), and the log says so each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from pathlib import Path

from tui.keeper.run import PARENT_ENV, PERIOD_ENV, SENDER_WAIT_SECONDS, period
from tui.notify.url import ENV_URL as NOTIFY_URL_VARIABLE

log = logging.getLogger("coven.serve")

START_DELAY_SECONDS = 10.0
"""How long after the server starts the first keeper starts (its period instead, when that is shorter): the
first seconds belong to the players who reconnect to a restarted server, and a time per move is counted in days."""
FIRST_PAUSE_SECONDS = 1.0
"""The wait before starting a keeper that ended; doubled after each keeper that lived less than a minute."""
MAX_PAUSE_SECONDS = 60.0
STEADY_SECONDS = 60.0
"""A keeper that ran this long before it ended is restarted after :data:`FIRST_PAUSE_SECONDS` again."""
STOP_SECONDS = 10.0 + SENDER_WAIT_SECONDS / 6  # 15 s
"""How long a stopping server waits for the keeper to end before killing it: on SIGTERM the keeper finishes the
table it is at (10 s leaves room for a slow one), then waits up to ``SENDER_WAIT_SECONDS / 6`` (5 s) for the
notices on their way; a shorter wait would kill it while it sends them (a kill mid-table is safe, but loses them)."""
MAX_LINE = 1000
"""The longest keeper line copied into the log (its lines are short; a longer one is cut)."""
MAX_PENDING = 64 * 1024
"""The most bytes of one unfinished keeper line held while its newline is awaited; past it the line is dropped."""
CHUNK = 4096
"""Bytes read from the keeper's stderr at a time."""


class TableKeeper:
    """The keeper process of one served save folder.

    Attributes:
        restarts: How many times it was started again after ending by itself.
    """

    def __init__(self, data_dir: Path, cwd: Path, notify_url: str | None) -> None:
        """A keeper for ``data_dir``, run from ``cwd`` (where the ``tui`` package is), not started yet."""
        self.data_dir = data_dir
        self.cwd = cwd
        self.notify_url = notify_url
        self.process: asyncio.subprocess.Process | None = None
        self.restarts = 0
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def pid(self) -> int | None:
        """The keeper's process id, while one runs."""
        return self.process.pid if self.process is not None and self.process.returncode is None else None

    def environment(self) -> dict[str, str]:
        """The keeper's whole environment: what it needs and nothing of the server's secrets."""
        env = {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": os.environ.get("HOME", str(self.data_dir)),
            "LANG": "C.UTF-8",
            "COVEN_DATA_DIR": str(self.data_dir),
            PARENT_ENV: str(os.getpid()),  # the keeper ends with this process (tui.keeper.run.die_with_server)
        }
        if self.notify_url is not None:
            env[NOTIFY_URL_VARIABLE] = self.notify_url
        if PERIOD_ENV in os.environ:
            env[PERIOD_ENV] = os.environ[PERIOD_ENV]
        return env

    def start(self) -> None:
        """Start the keeper and its watcher (in the running event loop)."""
        self._task = asyncio.create_task(self._run())

    async def _spawn(self) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.keeper.run", env=self.environment(), cwd=self.cwd,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
            start_new_session=True)  # a Ctrl+C at the server's terminal is the server's to pass on

    async def _run(self) -> None:
        """Keep one keeper running until :meth:`stop`."""
        pause = FIRST_PAUSE_SECONDS
        await asyncio.sleep(min(START_DELAY_SECONDS, period()))
        while not self._stopping:
            started = time.monotonic()
            try:
                self.process = await self._spawn()
            except OSError as error:
                log.warning("the table keeper could not start (%s); trying again in %g s", error, pause)
            else:
                log.info("table keeper %d started", self.process.pid)
                await self._relay(self.process)
                status = await self.process.wait()
                if self._stopping:
                    return
                if time.monotonic() - started >= STEADY_SECONDS:
                    pause = FIRST_PAUSE_SECONDS
                log.warning("table keeper %d ended (%s); starting it again in %g s", self.process.pid,
                            _status(status), pause)
                self.restarts += 1
            await asyncio.sleep(pause)
            pause = min(pause * 2, MAX_PAUSE_SECONDS)

    @staticmethod
    async def _relay(process: asyncio.subprocess.Process) -> None:
        """Copy each line the keeper writes into the server's log, until it closes its stderr (it ends).

        A line longer than :data:`MAX_PENDING` bytes is dropped whole, its tail too, however the pipe cuts it.
        """
        assert process.stderr is not None
        pending = b""
        dropping = False  # inside an oversize line: everything up to its newline goes
        while chunk := await process.stderr.read(CHUNK):
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if dropping:
                    dropping = False
                    continue
                _log_line(line)
            if len(pending) > MAX_PENDING:
                pending, dropping = b"", True
        if pending and not dropping:
            _log_line(pending)

    async def stop(self) -> None:
        """Stop the keeper (SIGTERM, then SIGKILL after :data:`STOP_SECONDS`) and its watcher."""
        self._stopping = True
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def _log_line(line: bytes) -> None:
    """One keeper line into the server's log: cut to :data:`MAX_LINE`, printable only (names come from players)."""
    text = line.decode("utf-8", "replace").rstrip()[:MAX_LINE]
    shown = "".join(char if char.isprintable() else "?" for char in text)
    if shown:
        log.info("keeper: %s", shown)


def _status(code: int) -> str:
    """An exit status in words: "exit code 1", "killed by SIGKILL"."""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


async def start_keeper(data_dir: Path, notify_url: str | None) -> TableKeeper:
    """Start the table keeper of ``data_dir`` (``coven serve`` and ``coven web`` call it once)."""
    from tui.server.connection import SOURCE_ROOT

    keeper = TableKeeper(data_dir, SOURCE_ROOT, notify_url)
    keeper.start()
    return keeper
