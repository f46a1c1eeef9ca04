"""The SSH side of ``coven serve``: connections, their limits and logins, starting and stopping.

Each connection may open one session (:mod:`tui.server.connection`). Everything
else a client may ask for (forwarding, a second session) is refused here,
each refusal logged with its reason and, where SSH has room for it, told to
the client.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import asyncssh

from engine.core.text import is_safe_text
from tui.notify.url import ENV_URL as NOTIFY_URL_VARIABLE
from tui.server.account_names import key_account
from tui.server.accounts import read_password_file, signed_in_as
from tui.server.admission import MemoryFloor, Seat, available_memory, describe_size, idle_seat, is_idle
from tui.server.closing import disconnect_politely, tell_and_exit
from tui.server.config import ServeConfig, describe_duration
from tui.server.connection import CovenSession
from tui.server.forwarding import refuse_forwarding_requests
from tui.server.limits import AuthThrottle, RateLimiter, SessionCounter, address_key
from tui.server.live_tickets import LiveTickets
from tui.server.output import cap_send_buffer
from tui.server.players import Login, parse_login
from tui.server.store_ready import prepare_database
from tui.server.warm_link import WarmParent

log = logging.getLogger("coven.serve")

DEFAULT_TERM = "xterm-256color"
MIN_PENDING = 64
"""Connections that may be logging in at once, however small ``--max-sessions`` is."""
MAX_LINGERING = 256
"""Refused clients given time to read their reason at once; beyond that they are cut off at once."""
LOW_MEMORY = "This host is full right now (it is short of memory); try again in a few minutes."
"""Why a newcomer is refused below ``--memory-floor``."""
_TERM_NAME = re.compile(r"[A-Za-z0-9._+-]{1,64}")
_ENV_VALUE = re.compile(r"[\x20-\x7e]{0,64}")
_PASSED_ENV = ("COLORTERM", "NO_COLOR")
"""Client variables the child may see; never COLUMNS or LINES, which Textual would trust over the pty."""


@dataclass
class ServerState:
    """What every connection shares: settings, limits, and the sessions alive now."""

    config: ServeConfig
    data_dir: Path
    port: int = 0
    authorized_keys: asyncssh.SSHAuthorizedKeys | None = None
    warm: WarmParent | None = None
    browser_only: bool = False
    """``coven web`` without its SSH door: ``port`` is the browser door's, and join hints say so."""
    limiter: RateLimiter = field(init=False)
    counter: SessionCounter = field(init=False)
    memory: MemoryFloor = field(init=False)
    throttle: AuthThrottle = field(default_factory=AuthThrottle)
    connections: set[CovenConnection] = field(default_factory=set)
    hangups: set[asyncio.Task[Any]] = field(default_factory=set)
    lingering: set[asyncio.Task[None]] = field(default_factory=set)
    serial: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    browser_seats: set[Seat] = field(default_factory=set)
    """The browser door's visits holding a place (:mod:`tui.web.door`); empty under ``coven serve``."""

    def __post_init__(self) -> None:
        """Size the rate limiter and the seat counter from the settings."""
        self.limiter = RateLimiter(self.config.rate_burst, self.config.rate_refill_seconds)
        self.counter = SessionCounter(self.config.max_sessions, LiveTickets(self.data_dir))
        self.memory = MemoryFloor(self.config.memory_floor)
        if self.config.memory_floor and available_memory(self.memory.meminfo) is None:
            log.warning("admission by memory is off: this system has no %s", self.memory.meminfo)

    def sessions(self) -> list[Seat]:
        """The sessions that hold a place now: SSH sessions, and browser visits when ``coven web`` shares this state."""
        ssh: list[Seat] = [connection.session for connection in self.connections
                           if connection.session is not None and connection.session.live]
        return ssh + [seat for seat in self.browser_seats if seat.live]

    @property
    def max_pending(self) -> int:
        """Most connections at once without a live session (logging in, or refused and closing)."""
        return max(MIN_PENDING, 2 * self.config.max_sessions)

    def linger(self, task: asyncio.Task[None] | None) -> None:
        """Hold on to a refused client's closing ``task`` until it is done (or the server stops)."""
        if task is not None:
            self.lingering.add(task)
            task.add_done_callback(self.lingering.discard)

    def connect_hint(self) -> str:
        """How to connect, for messages: ``ssh -t -p PORT HOST``."""
        host = "HOST" if self.config.all_interfaces else self.config.host
        return f"ssh -t -p {self.port} {host}"

    def child_environment(self, term: str | None, client_env: dict[str, str]) -> dict[str, str]:
        """A clean environment for one child, built from scratch."""
        env = {
            "TERM": term if term and _TERM_NAME.fullmatch(term) else DEFAULT_TERM,
            "LANG": "C.UTF-8",
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": os.environ.get("HOME", str(self.data_dir)),
            "COVEN_DATA_DIR": str(self.data_dir),
        }
        for name in _PASSED_ENV:
            if name in client_env and _ENV_VALUE.fullmatch(client_env[name]):
                env[name] = client_env[name]
        if "COVEN_AUTO_DELAY" in os.environ:
            env["COVEN_AUTO_DELAY"] = os.environ["COVEN_AUTO_DELAY"]
        if self.config.notify_url is not None:
            env[NOTIFY_URL_VARIABLE] = self.config.notify_url
        return env


def printable(text: str, limit: int = 64) -> str:
    """``text`` safe for one log line, at most ``limit`` characters.

    Spaces and whatever :mod:`engine.core.text` refuses in a name (controls, bidi
    overrides, zero-width characters) are spelled out as escapes.
    """

    def shown(char: str) -> str:
        """``char`` itself when it is safe to log, else its escape."""
        if is_safe_text(char) and char.isprintable() and not char.isspace():
            return char
        return f"\\x{ord(char):02x}" if ord(char) < 256 else f"\\u{ord(char):04x}"

    return "".join(map(shown, text[:limit])) + ("..." if len(text) > limit else "")


class CovenConnection(asyncssh.SSHServer):
    """One client connection: limits, authentication, and its single session."""

    def __init__(self, state: ServerState) -> None:
        """A new connection, numbered for the log; nothing is known of the client yet."""
        self.state = state
        self.number = next(state.serial)
        self.address = "?"
        self.key = "?"
        self.user = "-"
        self.login: Login | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.started = time.monotonic()
        self.refused = False
        self.closing = False
        self.method = "none"
        self.session: CovenSession | None = None
        self.failed_passwords = 0
        self.failed_logins = 0
        self.grace_timer: asyncio.TimerHandle | None = None

    def note(self, message: str, *args: object, level: int = logging.INFO) -> None:
        """Log one line about this connection, with its address and user."""
        log.log(level, f"#%d %s user=%s {message}", self.number, self.address, self.user, *args)

    def refuse(self, reason: str, *, quiet: bool = False, now: bool = False,
               code: int = asyncssh.DISC_TOO_MANY_CONNECTIONS) -> None:
        """Disconnect with ``reason``, which the client prints; logged unless ``quiet``.

        The disconnect waits for the next loop turn unless ``now``, because
        ``connection_made`` runs before asyncssh has sent its version line; the
        client then gets time to read the reason (:mod:`tui.server.closing`).
        """
        self.refused = True
        if not quiet:
            self.note("refused: %s", reason)
        if self.conn is None or self.closing:
            return
        self.closing = True
        conn = self.conn

        def disconnect() -> None:
            """Disconnect, lingering for the client unless too many already linger."""
            # Each lingering client holds a socket; a flood of them is cut off instead.
            polite = len(self.state.lingering) < MAX_LINGERING
            self.state.linger(disconnect_politely(conn, code, reason, linger=polite))

        if now:
            disconnect()
        else:
            asyncio.get_running_loop().call_soon(disconnect)

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Refuse a client connecting too often or while too many log in; otherwise start its login grace."""
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.key = address_key(self.address)
        self.state.connections.add(self)
        cap_send_buffer(conn.get_extra_info("socket"))  # else a stalled client holds megabytes in the kernel
        self.note("connect")
        if not self.state.limiter.allow(self.key):
            self.refuse(f"Too many connection attempts from {self.address}; wait a little.")
            return
        if len(self.state.connections) - self.state.counter.count > self.state.max_pending:
            # Like OpenSSH's MaxStartups: many addresses at once cannot pile up half-open logins.
            self.refuse("Too many connections are logging in right now; try again in a minute.")
            return
        self._arm_grace()

    def _arm_grace(self) -> None:
        """Give the client the login grace time to have a live session, or be closed."""
        if self.grace_timer is not None:
            self.grace_timer.cancel()
        self.grace_timer = asyncio.get_running_loop().call_later(self.state.config.login_grace, self._grace_over)

    def _grace_over(self) -> None:
        """Close the connection if it has no live session when its login grace runs out."""
        self.grace_timer = None
        if self.session is not None and self.session.live:
            return
        span = describe_duration(self.state.config.login_grace)
        self.refuse(f"No terminal session within {span}; connect with: {self.state.connect_hint()}",
                    code=asyncssh.DISC_CONNECTION_LOST)

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection, hang its session's child up, and log how it ended."""
        self.closing = True  # nothing more to refuse, and no grace timer to arm again
        self.state.connections.discard(self)
        if self.grace_timer is not None:
            self.grace_timer.cancel()
        if self.session is not None:
            self.session.client_gone()
        if self.failed_passwords:
            self.note("%d failed password attempt(s) from %s (%d lately from %s)", self.failed_passwords,
                      self.address, self.state.throttle.address_failures(self.key), self.key, level=logging.WARNING)
        quiet = (asyncssh.ConnectionLost, BrokenPipeError, ConnectionResetError)
        detail = f" ({exc})" if exc and not isinstance(exc, quiet) else ""
        self.note("disconnect after %.1f s%s", time.monotonic() - self.started, detail)

    def _table_full(self) -> str:
        """Why a player is refused while every place is taken."""
        return f"The table is full (at most {self.state.config.max_sessions} at once); try again later."

    def _refuse_table_full(self, *, now: bool = False) -> None:
        """Refuse with :meth:`_table_full`, logging why no idle seat could be freed."""
        clock, grace = time.monotonic(), self.state.config.idle_seat_grace
        seated = [session for session in self.state.sessions() if session.seated]
        idle = sum(is_idle(session, clock, grace) for session in seated)
        self.note("refused: %s (no idle seat: %d seated in a game, %d of them idle for %s)", self._table_full(),
                  len(seated), idle, describe_duration(grace))
        self.refuse(self._table_full(), quiet=True, now=now)

    def _low_memory(self, chan: asyncssh.SSHServerChannel[bytes] | None = None) -> bool:
        """Refuse the connection (true) while the machine's available memory is below the floor.

        The reason goes on ``chan``'s stderr too, when a session is already open.
        """
        available = self.state.memory.shortfall()
        if available is None:
            return False
        reason = LOW_MEMORY
        if chan is not None:
            tell_and_exit(chan, reason)
        self.note("refused: %s (MemAvailable %s, floor %s)", reason, describe_size(available),
                  describe_size(self.state.memory.floor))
        self.refuse(reason, quiet=True, now=True)
        return True

    def _idle_seat(self) -> Seat | None:
        """The session whose place a newcomer may take now, if any (see :mod:`tui.server.admission`)."""
        return idle_seat(self.state.sessions(), time.monotonic(), self.state.config.idle_seat_grace)

    def begin_auth(self, username: str) -> bool:
        """Read the login from ``username``; True when a password or key must follow.

        A full table is refused here, before the player types a password.
        """
        self.user = printable(username)
        if self.refused:
            return True
        config = self.state.config
        if self._low_memory():
            return True
        if self.state.counter.full() and self._idle_seat() is None:
            # Said before the password, to spare the player typing it; the place is only taken
            # when a session starts, so connections that never open one hold none. An idle seat
            # is only closed then, for a newcomer who has logged in.
            self._refuse_table_full(now=True)
            return True
        self.login = parse_login(username, accounts=config.auth != "none")
        if config.auth == "none":
            self.note("auth ok method=none")
            return False
        return True

    def admit(self, session: CovenSession) -> bool:
        """Take a player's place for ``session``; refuse the connection when the table or memory is full.

        On a full table an idle seat is closed first, and the newcomer takes its place.
        """
        if self._low_memory(session.chan):
            return False
        if self.state.counter.full() and (idle := self._idle_seat()) is not None:
            idle.close_idle_seat(self.number)
        if self.state.counter.try_admit():
            if self.grace_timer is not None:
                self.grace_timer.cancel()
                self.grace_timer = None
            return True
        if session.chan is not None:
            tell_and_exit(session.chan, self._table_full())
        self._refuse_table_full()
        return False

    def session_ended(self, session: CovenSession) -> None:
        """Free ``session``'s place (once); the connection then has the grace time to go."""
        if session.admitted:
            session.admitted = False
            self.state.counter.release()
            if not self.closing and self.conn is not None:
                self._arm_grace()

    def _login_failed(self) -> None:
        """Count one failed login; past ``--max-auth-tries`` the connection is closed."""
        self.failed_logins += 1
        tries = self.state.config.max_auth_tries
        if self.failed_logins >= tries:
            # At once, before asyncssh answers this attempt: a client told "no methods left" would
            # stop before it read the reason.
            self.refuse(f"Too many failed login attempts ({tries}); goodbye.", now=True,
                        code=asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)

    def password_auth_supported(self) -> bool:
        """Whether passwords are asked for (``--auth password``, and not refused)."""
        return self.state.config.auth == "password" and not self.refused

    async def validate_password(self, username: str, password: str) -> bool:
        """Check the password against the password file, after the throttle's waits; count a failure."""
        path = self.state.config.password_file
        if self.login is None or path is None or self.refused:
            return False
        account = self.login.account
        throttle = self.state.throttle
        # Waits are measured from recorded failures, never reserved: if this connection goes while it
        # waits, asyncssh cancels this coroutine and nobody else waits longer for it.
        # The address's part is asked once, so later guesses from a neighbour cannot keep extending it.
        if (wait := throttle.address_wait(self.key, account)) > 0:
            await asyncio.sleep(wait)
        while (wait := throttle.account_wait(account)) > 0:
            await asyncio.sleep(wait)
        if self.refused or self.closing:
            return False
        try:
            written = await asyncio.shield(self._check_password(path, account, password))
        except Exception as error:  # noqa: BLE001 - a broken file must not crash the server
            self.note("password check failed: %s", error, level=logging.ERROR)
            written = None
        self.method = "password"
        ok = written is not None
        if written is not None:
            # Sessions and settings stay under the file's spelling, whatever case was typed.
            self.login = replace(self.login, account=written)
            self.note("auth ok method=password account=%s", written)
        else:
            # One summary line when the connection closes, not one per guess.
            self.failed_passwords += 1
            self._login_failed()
        return ok

    def _check_password(self, path: Path, account: str, password: str) -> asyncio.Future[str | None]:
        """Start checking ``account``'s password; the throttle hears the outcome even if this connection goes.

        Shielded by the caller, so a client that hangs up mid-check still has
        its guess counted, and the next check of the account waits for this one.
        """
        throttle, address = self.state.throttle, self.key
        throttle.begin_check(account)
        # Read on every attempt, so `--add-user` takes effect without a restart;
        # scrypt is slow on purpose, so it runs off the event loop.
        check = asyncio.get_running_loop().run_in_executor(
            None, lambda: signed_in_as(read_password_file(path), account, password))

        def over(done: asyncio.Future[str | None]) -> None:
            """Tell the throttle whether the password matched (None: the check failed)."""
            outcome = None if done.cancelled() or done.exception() is not None else done.result() is not None
            throttle.end_check(address, account, outcome)

        check.add_done_callback(over)
        return check

    def public_key_auth_supported(self) -> bool:
        """Whether keys are asked for (``--auth keys``, and not refused)."""
        return self.state.config.auth == "keys" and not self.refused

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Whether ``key`` is in the authorized keys (for this address); count a failure."""
        keys = self.state.authorized_keys
        ok = keys is not None and keys.validate(key, "", self.address) is not None and not self.refused
        if not ok:
            self.note("auth failed method=keys key=%s", key.get_fingerprint("sha256"), level=logging.WARNING)
            self._login_failed()
        self.method = "keys"
        if ok and self.login is not None:
            # A key proves who holds it, not the user name typed (any key opens any name): the account is
            # the key's, so one key holder never opens another's sessions and settings by typing their name.
            self.login = replace(self.login, account=key_account(key.get_fingerprint("sha256")))
        return ok

    def auth_completed(self) -> None:
        """Log a key login's success."""
        if self.method == "keys":  # a password's success is logged where it is checked
            self.note("auth ok method=%s", self.method)

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel[bytes], CovenSession]:
        """Open the connection's one session, refusing its forwarding requests; a second session is refused."""
        if self.session is not None:
            self.note("refused: a second session on one connection")
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            "Coven allows one session per connection.")
        assert self.conn is not None
        chan: asyncssh.SSHServerChannel[bytes] = self.conn.create_server_channel()
        refuse_forwarding_requests(chan, self)
        self.session = CovenSession(self)
        return chan, self.session

    def _no_forwarding(self, what: str) -> None:
        """Log and refuse a request to forward ``what``."""
        self.note("refused: %s forwarding", what)
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "Coven does not forward connections.")

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        """Refuse local port forwarding."""
        self._no_forwarding(f"port ({dest_host}:{dest_port})")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        """Refuse local unix socket forwarding."""
        self._no_forwarding("unix socket")
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        """Refuse remote port forwarding."""
        self.note("refused: remote port forwarding (%s:%d)", listen_host, listen_port)
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        """Refuse remote unix socket forwarding."""
        self.note("refused: remote unix socket forwarding")
        return False


async def start_server(state: ServerState, host_key: asyncssh.SSHKey) -> asyncssh.SSHAcceptor:
    """Make the session database ready, then listen on the configured address; ``state.port`` becomes the real
    port."""
    config = state.config
    prepare_database(state.data_dir)  # the first players then open it, rather than create it while they wait
    acceptor = await asyncssh.create_server(
        lambda: CovenConnection(state), config.host or None, config.port,
        # asyncssh's own login timeout is only a backstop: the grace timer closes with a reason first.
        server_host_keys=[host_key], server_version="Coven", login_timeout=config.login_grace + 10,
        encoding=None, line_editor=False, agent_forwarding=False, x11_forwarding=False,
        keepalive_interval=60, keepalive_count_max=3)
    state.port = acceptor.get_port()
    return acceptor


GOODBYE_SECONDS = 2.0
"""How long a stopping server waits for clients to take their goodbye and close."""


async def stop_server(state: ServerState, acceptor: asyncssh.SSHAcceptor) -> None:
    """Stop listening, say goodbye to every client, and reap every child."""
    acceptor.close()
    for connection in list(state.connections):
        if connection.session is not None:
            # Schedules the hang-up now, not at connection_lost.
            connection.session.say_goodbye("The Coven server is stopping; goodbye.")
    # The goodbye gives each terminal back; a disconnect straight after it would
    # throw those bytes away, so clients get a moment to read them and leave.
    waiting = [connection.conn.wait_closed() for connection in state.connections if connection.conn is not None]
    if waiting:
        await asyncio.wait([asyncio.ensure_future(closing) for closing in waiting], timeout=GOODBYE_SECONDS)
    for connection in list(state.connections):
        if connection.conn is not None:
            connection.conn.disconnect(asyncssh.DISC_BY_APPLICATION, "Coven is shutting down.")
    for task in list(state.lingering):
        task.cancel()
    for _ in range(3):  # a child still starting adds its own hang-up when it finds its player gone
        pending = [task for task in state.hangups if not task.done()]
        if not pending:
            break
        await asyncio.gather(*pending, return_exceptions=True)
    await acceptor.wait_closed()
