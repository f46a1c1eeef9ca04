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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import asyncssh

from engine.core.words import plural
from tui.serve_status import dropped_line
from tui.server.admission import ChildStatus
from tui.server.closing import tell_and_exit
from tui.server.config import ServeConfig, describe_duration
from tui.server.drop_notice import DropNotices
from tui.server.limits import MAX_COLUMNS, MAX_ROWS, clamp_size
from tui.server.output import OutputHold
from tui.server.paste import InputGate
from tui.server.players import Login
from tui.server.pty_bridge import INPUT_LIMIT, PlayerProcess, PtyChild, start_fresh
from tui.server.warm_link import WarmParent, WarmUnavailable

SOURCE_ROOT = Path(__file__).resolve().parents[2]
"""Where the ``tui`` package lives: the children's working directory, so ``-m tui.cli``
finds this very code and never a ``tui`` that happens to sit in the server's current directory."""
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reporting off
    b"\x1b[?2004l\x1b[?1004l"  # bracketed paste and focus events off
    b"\x1b[?1049l\x1b[0m\x1b[?25h\r\n"  # main screen, plain text, cursor shown
)
"""What a terminal needs to be usable again after Coven ran in it without quitting itself."""
MARKER_RESERVE = 2048
"""Room kept free in the child's input queue for paste markers, which are never cut."""
DROP_REPORT_SECONDS = 1.0
"""Quiet time after which dropped input is logged, as one line with the whole count."""


class SharedState(Protocol):
    """What a session reads of the server's shared state (:class:`tui.server.server.ServerState`)."""

    @property
    def config(self) -> ServeConfig:
        """The server's settings."""
        ...

    @property
    def port(self) -> int:
        """The port the server listens on."""
        ...

    @property
    def warm(self) -> WarmParent | None:
        """The warm parent players are forked from, or None when each starts as a fresh process."""
        ...

    @property
    def hangups(self) -> set[asyncio.Task[Any]]:
        """Tasks hanging children up, kept until done so the server can wait for them."""
        ...

    def connect_hint(self) -> str:
        """How to connect, for messages."""
        ...

    def child_environment(self, term: str | None, client_env: dict[str, str]) -> dict[str, str]:
        """A clean environment for one child."""
        ...


class SessionOwner(Protocol):
    """The connection a session belongs to (:class:`tui.server.server.CovenConnection`).

    A protocol, so this module never imports the server that imports it.
    """

    @property
    def state(self) -> SharedState:
        """The server's shared state."""
        ...

    @property
    def login(self) -> Login | None:
        """Who logged in and under which name, once the login is known."""
        ...

    @property
    def number(self) -> int:
        """The connection's number in the server's log."""
        ...

    @property
    def address(self) -> str:
        """The client's address, for the log."""
        ...

    @property
    def user(self) -> str:
        """The SSH user name the client gave."""
        ...

    @property
    def closing(self) -> bool:
        """Whether the connection is already being closed."""
        ...

    def note(self, message: str, *args: object, level: int = logging.INFO) -> None:
        """Log one line about the connection."""
        ...

    def admit(self, session: CovenSession) -> bool:
        """Take a player's place for ``session``, or refuse the connection."""
        ...

    def session_ended(self, session: CovenSession) -> None:
        """Free ``session``'s place."""
        ...

    def refuse(self, reason: str, *, quiet: bool = False, now: bool = False, code: int = ...) -> None:
        """Disconnect with ``reason``."""
        ...


def child_command(login: Login, port: int, host: str = "127.0.0.1", *, signed_in: bool = False,
                  linear: bool = False, browser: bool = False) -> list[str]:
    """The command of one player's process (the contract with ``coven play``).

    ``--serve-port`` and ``--serve-host`` let the app show joiners the right ``ssh -p PORT``
    line and tell it that it serves a connection; ``--account`` scopes the sessions it shows, and
    ``--signed-in`` says the account was proven (password or key auth), so it is this player's alone.
    Values from the client are glued to their flag (``--name=VALUE``), so a name such as
    ``--help`` stays a name and is never read as a flag. ``linear`` opens it in linear mode
    (the browser door's ``?linear=1``); ``browser`` says ``port`` and ``host`` are the browser door's.
    """
    command = [sys.executable, "-m", "tui.cli", "play", f"--name={login.player}", f"--serve-port={port}",
               f"--serve-host={host}", f"--account={login.account}"]
    return (command + (["--signed-in"] if signed_in else []) + (["--linear"] if linear else [])
            + (["--serve-browser"] if browser else [])
            + ([f"--join={login.code}"] if login.code else []))


class CovenSession(asyncssh.SSHServerSession[bytes]):
    """One session channel: a PTY and Coven in it, or a one-line refusal."""

    def __init__(self, owner: SessionOwner) -> None:
        """A session of ``owner``'s, with no terminal or child yet."""
        self.owner = owner
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size: tuple[int, int] | None = None
        self.refusal: str | None = None
        self.child: PtyChild | None = None
        self.closed = False
        self.last_input = time.monotonic()
        self.idle_timer: asyncio.TimerHandle | None = None
        self.gate = InputGate()
        self.drop_timer: asyncio.TimerHandle | None = None
        self.notices = DropNotices()
        """What the player has yet to be told of the input dropped."""
        self.notice_timer: asyncio.TimerHandle | None = None
        self.admitted = False
        self.admitted_at = 0.0
        self.status: ChildStatus | None = None
        """What the child says of itself (its first screen up, seated in a game), once it runs."""
        self.clamp_notes = 0
        self.warm_started = False
        config = owner.state.config
        self.hold = OutputHold(config.output_budget, config.stall_timeout, self._pending_output,
                               self._pause_child, self._resume_child, self._stalled)

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        """Keep the channel the session talks through."""
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        """Accept a PTY, keeping its terminal type and (clamped) size for the child."""
        self.term = term_type or None
        self.size = self._clamped(term_size[0], term_size[1])
        return True

    def _clamped(self, columns: int, rows: int) -> tuple[int, int]:
        """``columns`` x ``rows`` within the limits, logging the first few clamps."""
        size = clamp_size(columns, rows)
        if size != (columns or size[0], rows or size[1]) and self.clamp_notes < 3:  # a few, not a flood
            self.clamp_notes += 1
            self.owner.note("terminal %dx%d clamped to %dx%d (at most %dx%d)", columns, rows, *size,
                            MAX_COLUMNS, MAX_ROWS)
        return size

    @property
    def live(self) -> bool:
        """Whether this session holds a player's place: its Coven is starting or running."""
        return self.admitted and not self.closed

    @property
    def ready(self) -> bool:
        """Whether the child said its first screen (the menu, or a table's seats) is up."""
        return self.status is not None and self.status.ready

    @property
    def seated(self) -> bool:
        """Whether the child said its player is seated in a game (or a table's lobby)."""
        return self.status is not None and self.status.seated

    def shell_requested(self) -> bool:
        """Accept a shell request: Coven is what runs in it."""
        return True

    def exec_requested(self, command: str) -> bool:
        """Accept a command, only to refuse it with a reason once the session starts."""
        # Accepted only to say why nothing runs: a bare failure shows the player no reason.
        self.refusal = f"Coven runs no commands; connect with: {self.owner.state.connect_hint()}"
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        """Accept a subsystem (sftp, say), only to refuse it with a reason once the session starts."""
        self.refusal = f"Coven offers no {subsystem or 'subsystem'}; connect with: {self.owner.state.connect_hint()}"
        return True

    def session_started(self) -> None:
        """Refuse the session with its reason, or take a player's place and start Coven."""
        assert self.chan is not None
        if self.refusal is None and self.size is None:
            self.refusal = f"Coven needs a terminal: connect with {self.owner.state.connect_hint()}"
        if self.refusal is not None:
            self.owner.note("refused: %s", self.refusal)
            tell_and_exit(self.chan, self.refusal)
            return
        if not self.owner.admit(self):
            return
        self.admitted = True
        self.admitted_at = time.monotonic()
        task = asyncio.get_running_loop().create_task(self._start_child())
        self.owner.state.hangups.add(task)
        task.add_done_callback(self.owner.state.hangups.discard)

    async def _start_child(self) -> None:
        """Start this session's ``coven play`` in a PTY; if it fails, tell the player and free the place."""
        assert self.chan is not None and self.size is not None and self.owner.login is not None
        state = self.owner.state
        columns, rows = self.size
        try:
            self.status = status = ChildStatus(self._status_heard)
            env = state.child_environment(self.term, dict(self.chan.get_environment())) | status.environment()
            child = PtyChild(child_command(self.owner.login, state.port, state.config.host,
                                               signed_in=state.config.auth != "none"), env, columns, rows,
                             self._output, self._exited, cwd=SOURCE_ROOT,
                             label=f"#{self.owner.number} {self.owner.address} user={self.owner.user}",
                             pass_fds=(status.child_fd,))
            await child.start(self._launch)
            status.listen()
        except Exception as error:  # noqa: BLE001 - whatever failed, the player hears why and the place is freed
            self.owner.note("could not start Coven: %s", error, level=logging.ERROR)
            if self.status is not None:
                self.status.close()
            self.closed = True
            self.owner.session_ended(self)
            if not self.owner.closing:
                tell_and_exit(self.chan, "Coven could not start here; tell the host.")
                self.owner.refuse("Coven could not start here; tell the host.", quiet=True)
            return
        self.child = child
        if self.size != (columns, rows):  # the window changed while the child was starting
            child.resize(*self.size)
        self.owner.note("session start term=%s size=%dx%d pid=%s %s", env["TERM"], columns, rows, child.pid,
                        "warm" if self.warm_started else "fresh")
        if self.closed:  # the client left while the child was starting
            self.client_gone()
            return
        self._arm_idle_timer()

    async def _launch(self, argv: Sequence[str], env: Mapping[str, str], cwd: Path | None,
                      terminal: int, pass_fds: Sequence[int]) -> PlayerProcess:
        """Fork the player from the warm parent; start a fresh process when that cannot be done."""
        warm = self.owner.state.warm
        if warm is not None and not warm.given_up:
            try:
                process = await warm.spawn(argv, env, cwd, terminal, pass_fds)
            except WarmUnavailable as why:
                self.owner.note("starting a fresh process: %s", why, level=logging.WARNING)
            else:
                self.warm_started = True
                return process
        return await start_fresh(argv, env, cwd, terminal, pass_fds)

    def _status_heard(self, word: str) -> None:
        """Log what the child said of itself: its first screen up (and how soon), seated in a game or not."""
        if word == "ready":
            self.owner.note("menu reached after %.1f s", time.monotonic() - self.admitted_at)
        else:
            self.owner.note("seated in a game" if word == "seated" else "no longer seated in a game")

    def _output(self, data: bytes) -> None:
        """Pass the child's output on to the client, holding the child back once the client is too far behind."""
        if self.chan is not None and not self.closed:
            try:
                self.chan.write(data)
            except OSError:  # BrokenPipeError: the client closed the channel before its close reached us
                self.client_gone()
                return
            self.hold.wrote()

    def _pending_output(self) -> int:
        """Bytes the server holds for this client: the channel's send buffer and the connection's transport buffer."""
        if self.chan is None:
            return 0
        # One session per connection, so the whole transport buffer is this client's. asyncssh keeps the
        # transport private and never stops writing to it when the TCP window is full, hence the look inside.
        transport = getattr(self.chan.get_connection(), "_transport", None)
        queued = transport.get_write_buffer_size() if transport is not None else 0
        return self.chan.get_write_buffer_size() + int(queued)

    def _pause_child(self) -> None:
        """Stop reading the child's output: it blocks on its terminal and stops drawing."""
        if self.child is not None:
            self.child.pause_output()

    def _resume_child(self) -> None:
        """Read the child's output again."""
        if self.child is not None:
            self.child.resume_output()

    def _stalled(self, pending: int, seconds: float) -> None:
        """The client read nothing of its held output for the stall timeout: drop the connection at once."""
        self.owner.note("output stalled: %d bytes pending, nothing read for %.0f s (budget %d bytes); disconnecting",
                        pending, seconds, self.hold.budget, level=logging.WARNING)
        chan = self.chan
        self.client_gone()
        if chan is not None:
            # abort, not close: a close would wait for the pending output to reach a client that reads nothing.
            chan.get_connection().abort()

    def _exited(self, status: int) -> None:
        """The child ended by itself: pass its exit status on and close the session."""
        if self.closed or self.chan is None:
            return
        self.owner.note("coven exited with status %d", status)
        try:
            self.chan.exit(status if 0 <= status < 256 else 1)
        except OSError:  # the client left first
            pass
        self.client_gone()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        """Pass the client's keys on to the child, dropping what its input queue has no room for."""
        self.last_input = time.monotonic()
        child = self.child
        room = INPUT_LIMIT - MARKER_RESERVE - (child.queued_input if child is not None else 0)
        passed = self.gate.filter(data, room)
        if self.gate.dropped and self.drop_timer is None:
            self.drop_timer = asyncio.get_running_loop().call_later(DROP_REPORT_SECONDS, self._report_dropped)
        if child is not None and passed:
            child.write(passed)

    def _report_dropped(self) -> None:
        """Log the bytes dropped in one burst of input, once it calmed down (or the session ended)."""
        if self.drop_timer is not None:
            self.drop_timer.cancel()
            self.drop_timer = None
        if time.monotonic() - self.last_input < DROP_REPORT_SECONDS and not self.closed:
            self.drop_timer = asyncio.get_running_loop().call_later(DROP_REPORT_SECONDS, self._report_dropped)
            return
        passed, text = self.gate.passed, self.gate.dropped_text
        dropped = self.gate.take_dropped()
        if dropped:
            self.owner.note("input faster than anyone types; %d bytes dropped, %d passed", dropped, passed,
                            level=logging.WARNING)
        if text and not self.closed:
            self.notices.add(text)
            if self.notice_timer is None:  # else the notice already waiting takes this flood's count too
                self._tell_dropped()

    def _tell_dropped(self) -> None:
        """Tell the player's Coven how much of their input was dropped, once per flood and not too often."""
        self.notice_timer = None
        if self.closed or self.status is None:
            return
        wait = self.notices.wait()
        if wait > 0:  # told a moment ago: this flood's count goes with the next notice, when it may
            self.notice_timer = asyncio.get_running_loop().call_later(wait, self._tell_dropped)
            return
        characters = self.notices.take()
        if characters:
            self.status.say(dropped_line(characters))

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        """Resize the child's terminal to the client's new window (clamped)."""
        self.size = self._clamped(width, height)
        if self.child is not None:
            self.child.resize(*self.size)

    def pause_writing(self) -> None:
        """The client's SSH window is used up and the channel's buffer full: hold the child back."""
        self.hold.channel_full()

    def resume_writing(self) -> None:
        """The channel's buffer has room again."""
        self.hold.channel_drained()

    def eof_received(self) -> bool:
        """The client's end of input closes the channel (asyncssh's default), which hangs the child up."""
        return False

    def _arm_idle_timer(self) -> None:
        """Check for idleness when the idle timeout after the last key runs out."""
        timeout = self.owner.state.config.idle_timeout
        delay = self.last_input + timeout - time.monotonic()
        self.idle_timer = asyncio.get_running_loop().call_later(max(delay, 0.0), self._idle_check)

    def _idle_check(self) -> None:
        """Say goodbye after the idle timeout without a key, or look again later."""
        if self.closed or self.chan is None:
            return
        if time.monotonic() - self.last_input < self.owner.state.config.idle_timeout:
            self._arm_idle_timer()
            return
        self.owner.note("idle timeout")
        minutes = self.owner.state.config.idle_timeout / 60
        span = plural(minutes, "minute") if minutes >= 1 else plural(self.owner.state.config.idle_timeout, "second")
        self.say_goodbye(f"No key pressed for {span}; goodbye from Coven.")

    def close_idle_seat(self, newcomer: int) -> None:
        """Give this idle session's place to connection ``newcomer``: say why, and close it."""
        grace = self.owner.state.config.idle_seat_grace
        self.owner.note("idle seat closed for newcomer #%d (%s, no key for %.0f s)", newcomer,
                        "menu reached" if self.ready else "menu never reached", time.monotonic() - self.last_input)
        self.say_goodbye(f"Coven is full and this terminal was idle for {describe_duration(grace)}; its place went to "
                         "another player. Goodbye.")

    def say_goodbye(self, line: str) -> None:
        """Give the player's terminal back in order, print ``line`` and close the session.

        The child is hung up without a chance to undo its screen modes, so the
        server does it: otherwise the player's shell is left on the alternate
        screen, with mouse reporting on and no cursor.
        """
        if self.chan is not None and not self.closed:
            try:
                self.chan.write(TERMINAL_RESET + f"{line}\r\n".encode())
                self.chan.exit(0)
            except OSError:  # BrokenPipeError: asyncssh refuses writes to a closing channel
                pass  # the client left first, so there is no terminal to give back
        self.client_gone()

    def connection_lost(self, exc: Exception | None) -> None:
        """The channel closed: hang the child up."""
        self.client_gone()

    def client_gone(self) -> None:
        """Hang the child up (once) and have the server reap it."""
        first = not self.closed
        self.closed = True
        self.hold.close()
        if self.idle_timer is not None:
            self.idle_timer.cancel()
        if self.notice_timer is not None:
            self.notice_timer.cancel()
            self.notice_timer = None
        if self.status is not None:
            self.status.close()
        if first:
            self._report_dropped()
            self.owner.session_ended(self)
        child, self.child = self.child, None
        if child is None:
            return
        task = asyncio.get_running_loop().create_task(child.hang_up())
        self.owner.state.hangups.add(task)

        def reaped(done: asyncio.Task[int | None]) -> None:
            """Forget the hang-up task and log the child's status."""
            self.owner.state.hangups.discard(done)
            if not done.cancelled() and done.exception() is None:
                self.owner.note("child %s reaped (status %s)", child.pid, done.result())

        task.add_done_callback(reaped)
