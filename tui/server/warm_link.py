"""The server's end of the warm parent (:mod:`tui.server.warm`): start it, ask it for players, restart it.

The server makes itself a child subreaper, so each player the warm parent
forks (through a middle process that exits at once) becomes the server's own
child: :class:`ForkedPlayer` waits for it through a pidfd, and the server
signals and reaps it exactly as it would a process it had started itself.

Whatever goes wrong on this path (no warm parent yet, a dead one, a refusal,
no pidfd on this system) raises :class:`WarmUnavailable`, and the session
falls back to a fresh ``coven play`` process (:mod:`tui.server.connection`).
A warm parent that dies is started again, and the log says so; one that
keeps dying is given up on, and every player from then on starts fresh.
"""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import json
import logging
import os
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tui.server.warm import ARGV_ROOM, CONTROL_FD_FLAG, ENV_ROOM, HEADER, MAX_REQUEST, ROOM_ENV, ROOM_FLAG

log = logging.getLogger("coven.serve")

READY_SECONDS = 60.0
"""Longest a player waits for a warm parent that is still starting before starting fresh instead."""
SPAWN_SECONDS = 15.0
"""Longest the warm parent may take to fork one player before it is taken for broken and restarted."""
STOP_SECONDS = 5.0
RESTARTS_ALLOWED = 3
"""Restarts within :data:`RESTART_WINDOW_SECONDS` before the warm parent is given up on."""
RESTART_WINDOW_SECONDS = 60.0
_PR_SET_CHILD_SUBREAPER = 36


class WarmUnavailable(Exception):
    """No player can be forked warm right now; the caller starts a fresh process instead."""


def become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants (Linux); whether it now does."""
    if not sys.platform.startswith("linux") or not hasattr(os, "pidfd_open"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


class ForkedPlayer:
    """A player forked by the warm parent and adopted by this process, waited for through a pidfd.

    It offers what :class:`asyncio.subprocess.Process` offers the pty bridge:
    ``pid``, ``returncode`` (negative for a signal) and :meth:`wait`.
    """

    def __init__(self, pid: int) -> None:
        """Watch process ``pid``, which must already be this process's child.

        Raises:
            OSError: the process cannot be watched (it does not exist).
        """
        self.pid = pid
        self.returncode: int | None = None
        self._loop = asyncio.get_running_loop()
        self._ended: asyncio.Future[int] = self._loop.create_future()
        self._pidfd: int | None = os.pidfd_open(pid)
        self._loop.add_reader(self._pidfd, self._reap)

    def _reap(self) -> None:
        """Collect the exit status once the pidfd says the process ended."""
        if self._pidfd is None:
            return
        try:
            info = os.waitid(os.P_PIDFD, self._pidfd, os.WEXITED | os.WNOHANG)
        except ChildProcessError:
            # Not adopted yet (its middle process is still exiting): look again shortly.
            self._loop.remove_reader(self._pidfd)
            self._loop.call_later(0.02, self._watch_again)
            return
        if info is None:
            return
        status = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
        self._finish(status)

    def _watch_again(self) -> None:
        if self._pidfd is not None:
            self._loop.add_reader(self._pidfd, self._reap)

    def _finish(self, status: int) -> None:
        self.returncode = status
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        if not self._ended.done():
            self._ended.set_result(status)

    async def wait(self) -> int:
        """Wait for the process to end; its exit status."""
        return await asyncio.shield(self._ended)


def _library_pages(answer: Mapping[str, Any]) -> str:
    """What the warm parent's ready answer says of the library pages it mapped (:mod:`tui.server.library_pages`)."""
    if not answer.get("maps_ahead"):
        return "no library page mapped ahead (this kernel cannot: Linux 5.14's MADV_POPULATE_READ)"
    size = answer.get("library_pages")
    megabytes = size / 1_000_000 if isinstance(size, int) and not isinstance(size, bool) and size > 0 else 0.0
    return f"{megabytes:.1f} MB of library pages mapped ahead"


def _merging(answer: Mapping[str, Any]) -> str:
    """How the warm parent's ready answer says its players' identical pages fare (:func:`tui.server.warm.allow_page_merging`)."""
    if not answer.get("mergeable"):
        return "never merged (this kernel has no KSM for a whole process)"
    if answer.get("ksm"):
        return "merged by the host's KSM"
    return "mergeable, but the host's KSM is off (/sys/kernel/mm/ksm/run)"


class WarmParent:
    """The warm parent process, as the server sees it: started, asked for players, restarted when it dies."""

    def __init__(self, data_dir: Path, cwd: Path) -> None:
        """A warm parent for players of ``data_dir``, run in ``cwd``; :meth:`start` starts it."""
        self.data_dir = data_dir
        self.cwd = cwd
        self.process: asyncio.subprocess.Process | None = None
        self.given_up = False
        self._socket: socket.socket | None = None
        self._ready: asyncio.Future[None] | None = None
        self._pending: dict[int, asyncio.Future[int]] = {}
        self._numbers = itertools.count(1)
        self._restarts: deque[float] = deque()
        self._stopping = False
        self._watcher: asyncio.Task[None] | None = None
        self._generation = 0

    @property
    def pid(self) -> int | None:
        """The warm parent's process id, while one runs."""
        return self.process.pid if self.process is not None and self.process.returncode is None else None

    def environment(self) -> dict[str, str]:
        """The warm parent's environment: only what every player shares, and room for the players' own."""
        return {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": os.environ.get("HOME", str(self.data_dir)),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "COVEN_DATA_DIR": str(self.data_dir),
            ROOM_ENV: "x" * ENV_ROOM,
        }

    async def start(self) -> None:
        """Start a warm parent; it says when it is ready (:meth:`spawn` waits for that)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tui.server.warm", f"{CONTROL_FD_FLAG}={theirs.fileno()}",
                f"{ROOM_FLAG}={'x' * ARGV_ROOM}", pass_fds=[theirs.fileno()], env=self.environment(),
                cwd=self.cwd, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                start_new_session=True)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        self._socket = ours
        self._generation += 1
        self._ready = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().add_reader(ours.fileno(), self._readable)
        self._watcher = asyncio.create_task(self._watch(self.process, self._generation))

    def _readable(self) -> None:
        """Read one answer of the warm parent: ready, a player's pid, or a refusal."""
        if self._socket is None:
            return
        try:
            data = self._socket.recv(MAX_REQUEST)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            # It is exiting, or broken: its exit status, which the watcher reports, says which.
            self._close_socket()
            asyncio.get_running_loop().call_later(STOP_SECONDS, self._kill_if_running, self.process)
            return
        try:
            answer: dict[str, Any] = json.loads(data)
        except ValueError:
            answer = {"error": "an unreadable answer"}
        if "ready" in answer:
            log.info("warm parent %s ready in %.2f s (preloaded %s; %s; identical pages %s)", answer.get("pid"),
                     answer.get("seconds", 0), ", ".join(answer.get("preloaded", [])), _library_pages(answer),
                     _merging(answer))
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(None)
            return
        future = self._pending.pop(answer.get("id", 0), None)
        if "pid" in answer and isinstance(answer["pid"], int):
            if future is not None and not future.done():
                future.set_result(answer["pid"])
            return
        error = WarmUnavailable(f"the warm parent refused: {answer.get('error', 'no reason given')}")
        if future is not None and not future.done():
            future.set_exception(error)
        elif self._ready is not None and not self._ready.done():
            self._ready.set_exception(error)  # it could not even preload
            self._ready.exception()  # read, so an unawaited failure is not reported as lost

    async def _watch(self, process: asyncio.subprocess.Process, generation: int) -> None:
        """Wait for the warm parent to end; one that ends while the server runs is replaced."""
        status = await process.wait()
        if generation == self._generation:
            self._lost(f"exited with status {status}")

    def _close_socket(self) -> None:
        if self._socket is not None:
            asyncio.get_running_loop().remove_reader(self._socket.fileno())
            self._socket.close()
            self._socket = None

    @staticmethod
    def _kill_if_running(process: asyncio.subprocess.Process | None) -> None:
        """End a warm parent that closed its socket but did not exit."""
        if process is not None and process.returncode is None:
            try:
                process.kill()
            except ProcessLookupError:
                pass

    def _lost(self, why: str, *, kill: bool = True) -> None:
        """The warm parent is gone: fail what waits on it, and start another unless stopping or given up."""
        self._close_socket()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(WarmUnavailable(f"the warm parent {why}"))
        self._pending.clear()
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(WarmUnavailable(f"the warm parent {why}"))
            self._ready.exception()
        process, self.process = self.process, None
        if kill:
            self._kill_if_running(process)  # a parent that stopped answering is not left behind
        self._generation += 1
        if self._stopping:
            return
        now = time.monotonic()
        while self._restarts and now - self._restarts[0] > RESTART_WINDOW_SECONDS:
            self._restarts.popleft()
        if len(self._restarts) >= RESTARTS_ALLOWED:
            self.given_up = True
            log.error("warm parent %s; it died %d times within %.0f s, so players now start as fresh processes",
                      why, len(self._restarts) + 1, RESTART_WINDOW_SECONDS)
            return
        self._restarts.append(now)
        log.warning("warm parent %s; starting a new one (players already seated are unaffected)", why)
        task = asyncio.get_running_loop().create_task(self._restart())
        task.add_done_callback(lambda done: None if done.cancelled() else done.exception())

    async def _restart(self) -> None:
        try:
            await self.start()
        except OSError as error:
            self.given_up = True
            log.error("warm parent could not be started again (%s); players now start as fresh processes", error)

    async def until_ready(self) -> None:
        """Wait until the warm parent has preloaded (at most :data:`READY_SECONDS`).

        Raises:
            WarmUnavailable: it failed, or took longer.
        """
        if self.given_up or self._ready is None:
            raise WarmUnavailable("there is no warm parent")
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), READY_SECONDS)
        except TimeoutError:
            raise WarmUnavailable(f"the warm parent was not ready within {READY_SECONDS:.0f} s") from None

    async def spawn(self, argv: Sequence[str], env: Mapping[str, str], cwd: Path | None, terminal: int,
                    pass_fds: Sequence[int] = ()) -> ForkedPlayer:
        """Fork one player running ``argv`` with ``env`` in ``cwd``, its terminal the pty end ``terminal``.

        ``pass_fds`` are open in the player under the same numbers as here (its status pipe), as with a
        fresh process's ``pass_fds``.

        Raises:
            WarmUnavailable: no warm parent can do it now; start a fresh process instead.
        """
        await self.until_ready()
        if self._socket is None:
            raise WarmUnavailable("the warm parent is restarting")
        number = next(self._numbers)
        request = number.to_bytes(HEADER, "big") + json.dumps(
            {"argv": list(argv), "env": dict(env), "cwd": str(cwd or self.cwd), "keep": list(pass_fds)}).encode()
        if len(request) > MAX_REQUEST:
            raise WarmUnavailable("the request is too large for the warm parent")
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending[number] = future
        try:
            socket.send_fds(self._socket, [request], [terminal, *pass_fds])
        except OSError as error:
            self._pending.pop(number, None)
            raise WarmUnavailable(f"the warm parent could not be asked ({error.strerror or error})") from None
        try:
            pid = await asyncio.wait_for(future, SPAWN_SECONDS)
        except TimeoutError:
            self._pending.pop(number, None)
            self._lost(f"did not fork a player within {SPAWN_SECONDS:.0f} s")
            raise WarmUnavailable("the warm parent did not answer") from None
        try:
            return ForkedPlayer(pid)
        except OSError as error:
            raise WarmUnavailable(f"the forked player {pid} cannot be watched ({error.strerror or error})") from None

    async def stop(self) -> None:
        """Stop the warm parent (closing its socket ends it); its players are not touched."""
        self._stopping = True
        process = self.process
        self._lost("is stopping", kill=False)  # closing its socket ends it, between two forks
        if process is None:
            return
        try:
            await asyncio.wait_for(process.wait(), STOP_SECONDS)
        except TimeoutError:
            try:
                process.send_signal(signal.SIGKILL)
            except ProcessLookupError:
                pass
            await process.wait()
        if self._watcher is not None:
            await asyncio.gather(self._watcher, return_exceptions=True)
