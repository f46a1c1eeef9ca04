"""One Coven process in a pseudo-terminal, and the pumps between it and an SSH channel.

The process is started by a :data:`Launcher`: :func:`start_fresh` runs a new
interpreter, :meth:`tui.server.warm_link.WarmParent.spawn` forks one warm.
"""

from __future__ import annotations

import asyncio
import ctypes
import errno
import fcntl
import logging
import os
import pty
import signal
import struct
import sys
import termios
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

INPUT_LIMIT = 64 * 1024
"""Most bytes of typed input queued for the child; beyond that input is dropped."""
HANGUP_GRACE_SECONDS = 2.0
_READ_SIZE = 65536
_PR_SET_PDEATHSIG = 1

log = logging.getLogger("coven.serve")


def _set_size(fd: int, columns: int, rows: int) -> None:
    """Tell the pty behind ``fd`` its window size (at least 1x1)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(rows, 1), max(columns, 1), 0, 0))


_SIGNALS_RESET = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM)
"""Signals a player's Coven always starts with at their default action, whatever the server ignores."""


def _make_child_setup(server_pid: int) -> Callable[[], None]:
    """What the child runs between fork and exec (after ``setsid``)."""

    def setup() -> None:
        """Reset the ignored signals, take the pty as controlling terminal, and die with the server."""
        # A server started under nohup (or by anything else that ignores these) would hand the
        # ignore on through exec: the player's Coven could then not be hung up or stopped cleanly.
        for number in _SIGNALS_RESET:
            signal.signal(number, signal.SIG_DFL)
        # The pty (already on fd 0) becomes the controlling terminal of the new
        # session: resizes then send SIGWINCH, and a closed master sends SIGHUP.
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        if sys.platform.startswith("linux"):
            # A backup for a server killed with SIGKILL: the kernel hangs the child up too.
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGHUP), 0, 0, 0)
            if os.getppid() != server_pid:  # the server died before prctl took effect
                os._exit(1)

    return setup


class PlayerProcess(Protocol):
    """A started child as the bridge uses it: :class:`asyncio.subprocess.Process`, or a forked player."""

    @property
    def pid(self) -> int:
        """The process id."""
        ...

    @property
    def returncode(self) -> int | None:
        """The exit status once it ended (negative: the signal that ended it), else None."""
        ...

    async def wait(self) -> int:
        """Wait for the process to end; its exit status."""
        ...


Launcher = Callable[[Sequence[str], Mapping[str, str], "Path | None", int, Sequence[int]], Awaitable[PlayerProcess]]
"""Starts ``argv`` with ``env`` in ``cwd`` on the pty's terminal end (an fd), keeping the other fds open under
their numbers; the bridge closes the terminal end after."""


async def start_fresh(argv: Sequence[str], env: Mapping[str, str], cwd: Path | None, terminal: int,
                      pass_fds: Sequence[int] = ()) -> PlayerProcess:
    """Start ``argv`` as a new interpreter on ``terminal``: a new session, the pty its controlling terminal."""
    return await asyncio.create_subprocess_exec(
        *argv, stdin=terminal, stdout=terminal, stderr=terminal, env=dict(env), cwd=cwd,
        close_fds=True, pass_fds=tuple(pass_fds), start_new_session=True, preexec_fn=_make_child_setup(os.getpid()))


class PtyChild:
    """A child process whose terminal is a pty, pumped to and from callbacks.

    ``on_output`` receives what the child prints; ``on_exit`` is called once
    with its exit status after it ended and its last output was passed on.
    Output stops being read while :meth:`pause_output` is in force, so a slow
    client holds the child back instead of filling the server's memory.
    """

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int,
                 on_output: Callable[[bytes], None], on_exit: Callable[[int], None], *,
                 cwd: Path | None = None, label: str = "", pass_fds: Sequence[int] = ()) -> None:
        """A child to run ``argv`` with ``env`` in ``cwd`` at ``columns`` x ``rows``; :meth:`start` starts it.

        ``label`` names the connection in the log; ``pass_fds`` are kept open in the child (its status pipe).
        """
        self.argv = list(argv)
        self.env = dict(env)
        self.columns, self.rows = columns, rows
        self._on_output = on_output
        self._on_exit = on_exit
        self.cwd = cwd
        self.label = label
        self.pass_fds = tuple(pass_fds)
        self.process: PlayerProcess | None = None
        self._master: int | None = None
        self._paused = False
        self._pending = bytearray()
        self._dropped_logged = False
        self._watcher: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()

    @property
    def pid(self) -> int | None:
        """The child's process id once started."""
        return self.process.pid if self.process else None

    @property
    def queued_input(self) -> int:
        """Bytes of input waiting for the child to read them."""
        return len(self._pending)

    async def start(self, launch: Launcher = start_fresh) -> None:
        """Open the pty at the initial size and start the child in it with ``launch``."""
        master, slave = pty.openpty()
        try:
            _set_size(slave, self.columns, self.rows)
            self.process = await launch(self.argv, self.env, self.cwd, slave, self.pass_fds)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)  # only the child keeps the slave open, so its exit reads as EIO here
        os.set_blocking(master, False)
        self._master = master
        self._loop.add_reader(master, self._readable)
        self._watcher = asyncio.create_task(self._watch())

    def resize(self, columns: int, rows: int) -> None:
        """Apply a window change; the kernel tells the child with SIGWINCH."""
        self.columns, self.rows = columns, rows
        if self._master is not None:
            _set_size(self._master, columns, rows)

    def write(self, data: bytes) -> None:
        """Queue typed input for the child, dropping what exceeds :data:`INPUT_LIMIT`."""
        if self._master is None or not data:
            return
        room = INPUT_LIMIT - len(self._pending)
        if len(data) > room:
            if not self._dropped_logged:
                log.warning("%s input beyond %d KiB queued; %d bytes dropped", self.label,
                            INPUT_LIMIT // 1024, len(data) - room)
                self._dropped_logged = True
            data = data[:room]
        else:
            self._dropped_logged = False
        was_empty = not self._pending
        self._pending += data
        if was_empty:
            self._flush_input()

    def _flush_input(self) -> None:
        """Write what queued input the child has room for; wait for the pty to be writable for the rest."""
        if self._master is None:
            return
        try:
            written = os.write(self._master, self._pending) if self._pending else 0
        except BlockingIOError:
            written = 0
        except OSError:
            self._pending.clear()
            written = 0
        del self._pending[:written]
        self._loop.remove_writer(self._master)
        if self._pending:
            self._loop.add_writer(self._master, self._flush_input)

    def pause_output(self) -> None:
        """Stop reading the child's output (the channel is full)."""
        if not self._paused and self._master is not None:
            self._loop.remove_reader(self._master)
        self._paused = True

    def resume_output(self) -> None:
        """Read the child's output again."""
        if self._paused and self._master is not None:
            self._loop.add_reader(self._master, self._readable)
        self._paused = False

    def _read_some(self) -> bytes | None:
        """Bytes from the master; b"" when nothing is ready, None once the child side is gone."""
        assert self._master is not None
        try:
            return os.read(self._master, _READ_SIZE) or None
        except BlockingIOError:
            return b""
        except OSError as error:
            if error.errno != errno.EIO:
                log.warning("%s reading the pty failed: %s", self.label, error)
            return None

    def _readable(self) -> None:
        """Pass on what the child printed; stop reading once its side of the pty is gone."""
        data = self._read_some()
        if data is None:
            # Every copy of the slave is closed; the watcher reports the exit.
            assert self._master is not None
            self._loop.remove_reader(self._master)
        elif data:
            self._on_output(data)

    async def _watch(self) -> None:
        """Wait for the child to end, pass on its last output, then report its exit status."""
        assert self.process is not None
        status = await self.process.wait()
        # Pass on what the child printed last (bounded by the pty's own buffer).
        while self._master is not None:
            data = self._read_some()
            if not data:
                break
            self._on_output(data)
        self._close_master()
        self._on_exit(status)

    def _close_master(self) -> None:
        """Close the pty's master end (once), dropping queued input."""
        if self._master is None:
            return
        self._loop.remove_reader(self._master)
        self._loop.remove_writer(self._master)
        os.close(self._master)
        self._master = None
        self._pending.clear()

    async def hang_up(self, grace: float = HANGUP_GRACE_SECONDS) -> int | None:
        """End the child: close its terminal, SIGHUP its process group, SIGKILL after ``grace``; reap it.

        Returns the exit status, or None if the child never started.
        """
        self._close_master()
        process = self.process
        if process is None:
            return None
        if process.returncode is None:
            self._signal_group(signal.SIGHUP)
            try:
                await asyncio.wait_for(asyncio.shield(process.wait()), grace)
            except TimeoutError:
                log.warning("%s child %d ignored SIGHUP for %.0f s; killing it", self.label, process.pid, grace)
                self._signal_group(signal.SIGKILL)
        status = await process.wait()
        if self._watcher is not None:
            await asyncio.gather(self._watcher, return_exceptions=True)
        return status

    def _signal_group(self, number: signal.Signals) -> None:
        """Send ``number`` to the child's process group, if it still exists."""
        assert self.process is not None
        try:
            os.killpg(self.process.pid, number)  # start_new_session made it a group leader
        except ProcessLookupError:
            pass
