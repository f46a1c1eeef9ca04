"""One browser visit: its WebSocket and its own ``coven play`` on a pty, under the same limits as an SSH session.

The page sends JSON text messages, ``["stdin", text]``, ``["resize", {"width": W, "height": H}]`` and, once, as
it opens, ``["seat", kept]`` (the seat its session storage kept, :mod:`tui.web.kept_seat`); the server sends the
screen as binary messages, and ``["size", {...}]`` (the size applied, clamped to 400x200), ``["seat", kept]``
(the seat to keep; "" to keep none) or ``["refused", reason]`` as text. Every message is bounded in size
(:data:`MAX_MESSAGE_BYTES`, enforced by aiohttp, which closes the socket on a bigger one) and in rate (:data:`MESSAGE_BURST`,
:data:`MESSAGE_RATE`); typed input goes through the SSH door's input gate, and output through its output
budget, so a page that stops reading holds its own Coven back and is let go after the stall timeout.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from tui.kept_seat import FORGET, KEEP_SEAT_VARIABLE, RECLAIM, SEAT, read_seat_line, seat_line
from tui.server.admission import ChildStatus, idle_seat
from tui.server.config import describe_duration
from tui.server.connection import MARKER_RESERVE, SOURCE_ROOT, child_command
from tui.server.limits import DEFAULT_COLUMNS, DEFAULT_ROWS, MAX_COLUMNS, MAX_ROWS, RateLimiter, clamp_size
from tui.server.output import OutputHold
from tui.server.paste import InputGate
from tui.server.players import Login
from tui.server.pty_bridge import INPUT_LIMIT, PlayerProcess, PtyChild, start_fresh
from tui.server.server import LOW_MEMORY, ServerState
from tui.server.warm_link import WarmUnavailable
from tui.web.kept_seat import SeatSeal

log = logging.getLogger("coven.serve")

MAX_MESSAGE_BYTES = 64 * 1024
"""The largest message a page may send; a bigger one closes its socket. The page sends a paste in pieces of 8,192
characters, at most 48 KiB of JSON even if every one is escaped."""
PASTE_END = "\\u001b[201~"
"""A bracketed paste's end marker as the page's JSON writes it: the message ending a paste is not dropped for the
rate, so a paste always ends."""
MESSAGE_BURST = 400
"""Messages a page may send at once before the rate applies."""
MESSAGE_RATE = 200.0
"""Messages a second a page may go on sending; beyond that they are dropped (nobody types that fast)."""
TERM = "xterm-256color"
"""What xterm.js emulates, told to the child."""
ENDED = "Coven ended; reload the page to play again."


def _whole(text: str | None) -> int:
    """``text`` as a small whole number (0 when it is not one): a size from the page's address."""
    return int(text) if text is not None and text.isdigit() and len(text) <= 5 else 0


class BrowserSeat:
    """One visit's WebSocket and the Coven behind it."""

    def __init__(self, state: ServerState, ws: web.WebSocketResponse, request: web.Request, login: Login,
                 number: int, address: str, *, seal: SeatSeal | None = None, cookie: str = "") -> None:
        """A visit not yet admitted; ``number`` and ``address`` name it in the log. With ``seal`` its page keeps
        its seat for a refresh, under the login ``cookie``."""
        self.state = state
        self.seal = seal
        self.cookie = cookie
        self.kept_heard = False
        """Whether the page handed a kept seat back already (one a visit is heard)."""
        self.ws = ws
        self.request = request
        self.login = login
        self.number = number
        self.address = address
        self.child: PtyChild | None = None
        self.status: ChildStatus | None = None
        self.admitted = False
        self.admitted_at = 0.0
        self.closed = False
        self.last_input = time.monotonic()
        self.gate = InputGate()
        self.messages = RateLimiter(MESSAGE_BURST, 1.0 / MESSAGE_RATE)
        self.dropped_messages = 0
        self.clamp_notes = 0
        self.started_at = time.monotonic()
        self._queue: list[bytes] = []
        self._queued = 0
        self._wake = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._idle: asyncio.TimerHandle | None = None
        config = state.config
        self.hold = OutputHold(config.output_budget, config.stall_timeout, self._pending_output,
                               self._pause_child, self._resume_child, self._stalled)

    def note(self, message: str, *args: object, level: int = logging.INFO) -> None:
        """Log one line about this visit."""
        log.log(level, f"#%d web %s user=%s {message}", self.number, self.address, self.login.account, *args)

    @property
    def live(self) -> bool:
        """Whether this visit holds a player's place: its Coven is starting or running."""
        return self.admitted and not self.closed

    @property
    def ready(self) -> bool:
        """Whether the visit's Coven said its first screen is up."""
        return self.status is not None and self.status.ready

    @property
    def seated(self) -> bool:
        """Whether the visit's Coven said its player is seated in a game (or a table's lobby)."""
        return self.status is not None and self.status.seated

    def close_idle_seat(self, newcomer: int) -> None:
        """Give this idle visit's place to connection ``newcomer``: tell the page why, and close."""
        grace = self.state.config.idle_seat_grace
        self.note("idle seat closed for newcomer #%d (%s, no key for %.0f s)", newcomer,
                  "menu reached" if self.ready else "menu never reached", time.monotonic() - self.last_input)
        reason = (f"Coven is full and this page was idle for {describe_duration(grace)}; its place went to another "
                  "player. Goodbye.")
        self._gone()
        task = asyncio.get_running_loop().create_task(self._say_goodbye(reason))
        self.state.hangups.add(task)
        task.add_done_callback(self.state.hangups.discard)

    async def _say_goodbye(self, reason: str) -> None:
        """Show ``reason`` on the page and close its socket."""
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(["refused", reason]))
            await self.ws.close(code=1000, message=b"Coven is full; this page's place went to another player.")

    def _clamped(self, columns: int, rows: int) -> tuple[int, int]:
        """``columns`` x ``rows`` within the limits, logging the first few clamps."""
        size = clamp_size(columns, rows)
        if size != (columns or size[0], rows or size[1]) and self.clamp_notes < 3:
            self.clamp_notes += 1
            self.note("window %dx%d clamped to %dx%d (at most %dx%d)", columns, rows, *size, MAX_COLUMNS, MAX_ROWS)
        return size

    async def refuse(self, reason: str) -> None:
        """Tell the page why it gets no Coven, and close the socket."""
        self.note("refused: %s", reason)
        await self.ws.send_str(json.dumps(["refused", reason]))
        await self.ws.close(code=1013, message=reason.encode("utf-8")[:120])

    async def run(self) -> None:
        """Admit the visit (memory floor, session cap), start its Coven and pump until either side ends."""
        state = self.state
        available = state.memory.shortfall()
        if available is not None:
            await self.refuse(LOW_MEMORY)
            return
        if state.counter.full() and (
                idle := idle_seat(state.sessions(), time.monotonic(), state.config.idle_seat_grace)) is not None:
            idle.close_idle_seat(self.number)  # a seat idle that long goes to this newcomer, as over SSH
        if not state.counter.try_admit():
            await self.refuse(f"The table is full (at most {state.config.max_sessions} at once); try again later.")
            return
        self.admitted = True
        self.admitted_at = time.monotonic()
        state.browser_seats.add(self)
        try:
            query = self.request.query
            size = self._clamped(_whole(query.get("width")) or DEFAULT_COLUMNS,
                                 _whole(query.get("height")) or DEFAULT_ROWS)
            if not await self._start_child(*size, linear=query.get("linear") == "1"):
                return
            await self.ws.send_str(json.dumps(["size", {"width": size[0], "height": size[1]}]))
            self._sender = asyncio.create_task(self._send_output())
            self._arm_idle_timer()
            async for message in self.ws:
                if message.type == WSMsgType.TEXT:
                    self._received(str(message.data))
                elif message.type != WSMsgType.BINARY:  # errors and closes end the visit; binary is ignored
                    break
        finally:
            self._gone()

    async def _start_child(self, columns: int, rows: int, *, linear: bool) -> bool:
        """Start this visit's ``coven play`` in a pty (in linear mode if asked); False (the page told why) when it
        cannot start."""
        state = self.state
        try:
            self.status = status = ChildStatus(self._status_heard, self._child_said)
            env = state.child_environment(TERM, {}) | status.environment()
            if self.seal is not None:
                env[KEEP_SEAT_VARIABLE] = "1"
            child = PtyChild(child_command(self.login, state.port, state.config.host,
                                           signed_in=state.config.auth != "none", linear=linear,
                                           browser=state.browser_only),
                             env, columns, rows,
                             self._output, self._exited, cwd=SOURCE_ROOT,
                             label=f"#{self.number} web {self.address}", pass_fds=(status.child_fd,))
            await child.start(self._launch)
            status.listen()
        except Exception as error:  # noqa: BLE001 - whatever failed, the player hears why and the place is freed
            self.note("could not start Coven: %s", error, level=logging.ERROR)
            await self.refuse("Coven could not start here; tell the host.")
            return False
        self.child = child
        self.started_at = time.monotonic()
        self.note("session start size=%dx%d pid=%s", columns, rows, child.pid)
        return True

    async def _launch(self, argv: Sequence[str], env: Mapping[str, str], cwd: Path | None,
                      terminal: int, pass_fds: Sequence[int]) -> PlayerProcess:
        """Fork the player from the warm parent; start a fresh process when that cannot be done."""
        warm = self.state.warm
        if warm is not None and not warm.given_up:
            try:
                return await warm.spawn(argv, env, cwd, terminal, pass_fds)
            except WarmUnavailable as why:
                self.note("starting a fresh process: %s", why, level=logging.WARNING)
        return await start_fresh(argv, env, cwd, terminal, pass_fds)

    def _status_heard(self, word: str) -> None:
        """Log what the child said of itself: its first screen up, seated in a game or not."""
        if word == "ready":
            self.note("menu reached after %.1f s", time.monotonic() - self.started_at)

    def _received(self, text: str) -> None:
        """One message from the page: typed keys or a new window size; anything else is ignored."""
        # Past the rate only the end of a paste the gate is inside still passes (once: it ends the paste).
        if not self.messages.allow("") and not (self.gate.in_paste and PASTE_END in text):
            self.dropped_messages += 1
            if self.dropped_messages in (1, 1000):  # a line when it starts, one more if it goes on
                self.note("messages faster than %g a second; dropping them", MESSAGE_RATE, level=logging.WARNING)
            return
        try:
            message: Any = json.loads(text)
        except ValueError:
            return
        if not isinstance(message, list) or len(message) != 2 or not isinstance(message[0], str):
            return
        kind, value = message
        if kind == "stdin" and isinstance(value, str):
            self._typed(value.encode("utf-8", "replace"))
        elif kind == "seat":
            self._seat_handed_back(value)
        elif kind == "resize" and isinstance(value, dict):
            width, height = value.get("width"), value.get("height")
            if isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0:
                self._resize(width, height)

    def _seat_handed_back(self, kept: object) -> None:
        """The page handed back the seat it kept: give it to the Coven if this door sealed it for this login."""
        if self.kept_heard or self.seal is None:
            return  # one a visit: a page that sends more is not heard
        self.kept_heard = True
        found = self.seal.open(self.cookie, kept)
        if found is None:
            self.note("kept seat refused: not sealed by this door for this login", level=logging.WARNING)
            self._send_text(["seat", ""])
            return
        if self.status is not None and self.status.say(seat_line(RECLAIM, *found)):
            self.note("kept seat at table %s handed to Coven", found[0])  # never the token

    def _child_said(self, line: str) -> None:
        """A line from the Coven beyond its status words: a seat for the page to keep, or none."""
        if self.seal is None:
            return
        if line == FORGET:
            self._send_text(["seat", ""])
        elif (found := read_seat_line(line, SEAT)) is not None:
            self._send_text(["seat", self.seal.seal(self.cookie, *found)])

    def _typed(self, data: bytes) -> None:
        """Pass typed keys on to the child through the same input gate as an SSH session's."""
        self.last_input = time.monotonic()
        child = self.child
        room = INPUT_LIMIT - MARKER_RESERVE - (child.queued_input if child is not None else 0)
        passed = self.gate.filter(data, room)
        if self.gate.dropped:
            self.note("input faster than anyone types; %d bytes dropped", self.gate.take_dropped(),
                      level=logging.WARNING)
        if child is not None and passed:
            child.write(passed)

    def _resize(self, columns: int, rows: int) -> None:
        """Resize the child to the page's new window (clamped) and tell the page the size applied."""
        size = self._clamped(columns, rows)
        if self.child is not None:
            self.child.resize(*size)
        self._send_text(["size", {"width": size[0], "height": size[1]}])

    def _send_text(self, message: list[object]) -> None:
        """Send a small text message to the page without waiting for it."""
        if not self.closed and not self.ws.closed:
            task = asyncio.get_running_loop().create_task(self.ws.send_str(json.dumps(message)))
            task.add_done_callback(lambda done: done.cancelled() or done.exception())

    def _output(self, data: bytes) -> None:
        """Queue the child's output for the page, holding the child back once the page is too far behind."""
        if self.closed:
            return
        self._queue.append(data)
        self._queued += len(data)
        self._wake.set()
        self.hold.wrote()

    async def _send_output(self) -> None:
        """Send queued output to the page, in order, as fast as it reads it."""
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._queue and not self.closed:
                    chunk = b"".join(self._queue)
                    self._queue.clear()
                    await self.ws.send_bytes(chunk)
                    self._queued -= len(chunk)
        except (ConnectionError, RuntimeError):  # the page went while we wrote
            self._gone()

    def _pending_output(self) -> int:
        """Bytes held for this page: queued here, and in the connection's transport buffer."""
        transport = self.request.transport
        return self._queued + (transport.get_write_buffer_size() if transport is not None else 0)

    def _pause_child(self) -> None:
        """Stop reading the child's output: it blocks on its terminal and stops drawing."""
        if self.child is not None:
            self.child.pause_output()

    def _resume_child(self) -> None:
        """Read the child's output again."""
        if self.child is not None:
            self.child.resume_output()

    def _stalled(self, pending: int, seconds: float) -> None:
        """The page read nothing of its held output for the stall timeout: drop it at once."""
        self.note("output stalled: %d bytes pending, nothing read for %.0f s (budget %d bytes); disconnecting",
                  pending, seconds, self.hold.budget, level=logging.WARNING)
        transport = self.request.transport
        self._gone()
        if transport is not None:
            transport.abort()  # a close would wait for output a page that reads nothing never takes

    def _exited(self, status: int) -> None:
        """The child ended by itself: close the socket, saying so."""
        if self.closed:
            return
        self.note("coven exited with status %d", status)
        task = asyncio.get_running_loop().create_task(self._close_after_output())
        self.state.hangups.add(task)
        task.add_done_callback(self.state.hangups.discard)

    async def _close_after_output(self) -> None:
        """Let the last screen reach the page, then close the socket."""
        while self._queue and not self.ws.closed:
            await asyncio.sleep(0.05)
        await self.ws.close(code=1000, message=ENDED.encode("utf-8"))

    def _arm_idle_timer(self) -> None:
        """Check for idleness when the idle timeout after the last key runs out."""
        delay = self.last_input + self.state.config.idle_timeout - time.monotonic()
        self._idle = asyncio.get_running_loop().call_later(max(delay, 0.0), self._idle_check)

    def _idle_check(self) -> None:
        """Close the visit after the idle timeout without a key, or look again later."""
        if self.closed:
            return
        if time.monotonic() - self.last_input < self.state.config.idle_timeout:
            self._arm_idle_timer()
            return
        self.note("idle timeout")
        span = describe_duration(self.state.config.idle_timeout)
        task = asyncio.get_running_loop().create_task(
            self.ws.close(code=1000, message=f"No key pressed for {span}; goodbye from Coven.".encode()))
        self.state.hangups.add(task)
        task.add_done_callback(self.state.hangups.discard)

    def hang_up(self) -> None:
        """End the visit from the server's side: free its place and hang its Coven up (the socket closes after)."""
        self._gone()

    def _gone(self) -> None:
        """The visit ended: free its place (once), hang its Coven up and have the server reap it."""
        if self.closed:
            return
        self.closed = True
        self._wake.set()
        self.hold.close()
        if self._idle is not None:
            self._idle.cancel()
        if self.status is not None:
            self.status.close()
        self.state.browser_seats.discard(self)
        if self.admitted:
            self.admitted = False
            self.state.counter.release()
        if self.dropped_messages:
            self.note("%d message(s) dropped for their rate", self.dropped_messages, level=logging.WARNING)
        child, self.child = self.child, None
        if child is None:
            return
        task = asyncio.get_running_loop().create_task(child.hang_up())
        self.state.hangups.add(task)
        task.add_done_callback(self.state.hangups.discard)
