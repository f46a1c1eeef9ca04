"""One session channel of ``coven serve``: a PTY and Coven in it, or a one-line refusal.

A session with a PTY gets its own ``coven play`` process (see
:mod:`tui.server.pty_bridge`); commands, subsystems and sessions without a PTY
are answered with the reason on stderr and exit status 1, and nothing runs.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh

from tui.server.limits import InputBudget
from tui.server.players import Login
from tui.server.pty_bridge import PtyChild

if TYPE_CHECKING:
    from tui.server.server import CovenConnection

SOURCE_ROOT = Path(__file__).resolve().parents[2]
"""Where the ``tui`` package lives: the children's working directory, so ``-m tui.cli``
finds this very code and never a ``tui`` that happens to sit in the server's current directory."""
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reporting off
    b"\x1b[?2004l\x1b[?1004l"  # bracketed paste and focus events off
    b"\x1b[?1049l\x1b[0m\x1b[?25h\r\n"  # main screen, plain text, cursor shown
)
"""What a terminal needs to be usable again after Coven ran in it without quitting itself."""


def child_command(login: Login, port: int, host: str = "127.0.0.1") -> list[str]:
    """The command of one player's process (the contract with ``coven play``).

    ``--serve-port`` and ``--serve-host`` let the app show joiners the right ``ssh -p PORT``
    line and tell it that it serves a connection; ``--account`` scopes the sessions it shows.
    """
    command = [sys.executable, "-m", "tui.cli", "play", "--name", login.player, "--serve-port", str(port),
               "--serve-host", host, "--account", login.account]
    return command + (["--join", login.code] if login.code else [])


class CovenSession(asyncssh.SSHServerSession[bytes]):
    """One session channel: a PTY and Coven in it, or a one-line refusal."""

    def __init__(self, owner: CovenConnection) -> None:
        self.owner = owner
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size: tuple[int, int] | None = None
        self.refusal: str | None = None
        self.child: PtyChild | None = None
        self.closed = False
        self.last_input = time.monotonic()
        self.idle_timer: asyncio.TimerHandle | None = None
        self.input_budget = InputBudget()
        self.over_budget = False

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        self.term = term_type or None
        self.size = (term_size[0] or 80, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        # Accepted only to say why nothing runs: a bare failure shows the player no reason.
        self.refusal = f"Coven runs no commands; connect with: {self.owner.state.connect_hint()}"
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.refusal = f"Coven offers no {subsystem or 'subsystem'}; connect with: {self.owner.state.connect_hint()}"
        return True

    def session_started(self) -> None:
        assert self.chan is not None
        if self.refusal is None and self.size is None:
            self.refusal = f"Coven needs a terminal: connect with {self.owner.state.connect_hint()}"
        if self.refusal is not None:
            self.owner.note("refused: %s", self.refusal)
            self.chan.write_stderr((self.refusal + "\r\n").encode())
            self.chan.exit(1)
            return
        asyncio.get_running_loop().create_task(self._start_child())

    async def _start_child(self) -> None:
        assert self.chan is not None and self.size is not None and self.owner.login is not None
        state = self.owner.state
        columns, rows = self.size
        env = state.child_environment(self.term, dict(self.chan.get_environment()))
        child = PtyChild(child_command(self.owner.login, state.port, state.config.host), env, columns, rows, self._output, self._exited,
                         cwd=SOURCE_ROOT,
                         label=f"#{self.owner.number} {self.owner.address} user={self.owner.user}")
        try:
            await child.start()
        except OSError as error:
            self.owner.note("could not start Coven: %s", error, level=logging.ERROR)
            self.chan.write_stderr(b"Coven could not start here; tell the host.\r\n")
            self.chan.exit(1)
            return
        self.child = child
        if self.size != (columns, rows):  # the window changed while the child was starting
            child.resize(*self.size)
        self.owner.note("session start term=%s size=%dx%d pid=%s", env["TERM"], columns, rows, child.pid)
        if self.closed:  # the client left while the child was starting
            self.client_gone()
            return
        self._arm_idle_timer()

    def _output(self, data: bytes) -> None:
        if self.chan is not None and not self.closed:
            self.chan.write(data)

    def _exited(self, status: int) -> None:
        if self.closed or self.chan is None:
            return
        self.owner.note("coven exited with status %d", status)
        self.chan.exit(status if 0 <= status < 256 else 1)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.last_input = time.monotonic()
        allowed = self.input_budget.take(len(data))
        if allowed < len(data):
            if not self.over_budget:
                self.owner.note("input faster than anyone types; %d bytes dropped", len(data) - allowed,
                                level=logging.WARNING)
            self.over_budget = True
            data = data[:allowed]
        else:
            self.over_budget = False
        if self.child is not None and data:
            self.child.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width or 80, height or 24)
        if self.child is not None:
            self.child.resize(*self.size)

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause_output()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume_output()

    def eof_received(self) -> bool:
        return False

    def _arm_idle_timer(self) -> None:
        timeout = self.owner.state.config.idle_timeout
        delay = self.last_input + timeout - time.monotonic()
        self.idle_timer = asyncio.get_running_loop().call_later(max(delay, 0.0), self._idle_check)

    def _idle_check(self) -> None:
        if self.closed or self.chan is None:
            return
        if time.monotonic() - self.last_input < self.owner.state.config.idle_timeout:
            self._arm_idle_timer()
            return
        self.owner.note("idle timeout")
        minutes = self.owner.state.config.idle_timeout / 60
        span = f"{minutes:g} minutes" if minutes >= 1 else f"{self.owner.state.config.idle_timeout:g} seconds"
        self.say_goodbye(f"No key pressed for {span}; goodbye from Coven.")

    def say_goodbye(self, line: str) -> None:
        """Give the player's terminal back in order, print ``line`` and close the session.

        The child is hung up without a chance to undo its screen modes, so the
        server does it: otherwise the player's shell is left on the alternate
        screen, with mouse reporting on and no cursor.
        """
        if self.chan is not None and not self.closed:
            self.chan.write(TERMINAL_RESET + f"{line}\r\n".encode())
            self.chan.exit(0)
        self.client_gone()

    def connection_lost(self, exc: Exception | None) -> None:
        self.client_gone()

    def client_gone(self) -> None:
        """Hang the child up (once) and have the server reap it."""
        self.closed = True
        if self.idle_timer is not None:
            self.idle_timer.cancel()
        child, self.child = self.child, None
        if child is None:
            return
        task = asyncio.get_running_loop().create_task(child.hang_up())
        self.owner.state.hangups.add(task)

        def reaped(done: asyncio.Task[int | None]) -> None:
            self.owner.state.hangups.discard(done)
            if not done.cancelled() and done.exception() is None:
                self.owner.note("child %s reaped (status %s)", child.pid, done.result())

        task.add_done_callback(reaped)
