"""The SSH side of ``coven serve``: connections, their limits and logins, starting and stopping.

Each connection may open one session (:mod:`tui.server.session`). Everything
else a client may ask for (forwarding, a second session) is refused here.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from tui.server.accounts import check_password, read_password_file
from tui.server.config import LOGIN_TIMEOUT_SECONDS, ServeConfig
from tui.server.limits import RateLimiter, SessionCounter
from tui.server.players import Login, parse_login
from tui.server.session import CovenSession

log = logging.getLogger("coven.serve")

DEFAULT_TERM = "xterm-256color"
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
    limiter: RateLimiter = field(init=False)
    counter: SessionCounter = field(init=False)
    connections: set[CovenConnection] = field(default_factory=set)
    hangups: set[asyncio.Task[int | None]] = field(default_factory=set)
    serial: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.config.rate_burst, self.config.rate_refill_seconds)
        self.counter = SessionCounter(self.config.max_sessions)

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
        return env


def printable(text: str, limit: int = 64) -> str:
    """``text`` safe for one log line: control characters escaped, at most ``limit`` characters."""
    shown = "".join(char if char.isprintable() and not char.isspace() else f"\\x{ord(char):02x}"
                    if ord(char) < 256 else f"\\u{ord(char):04x}" for char in text[:limit])
    return shown + ("..." if len(text) > limit else "")


class CovenConnection(asyncssh.SSHServer):
    """One client connection: limits, authentication, and its single session."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self.number = next(state.serial)
        self.address = "?"
        self.user = "-"
        self.login: Login | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.started = time.monotonic()
        self.admitted = False
        self.refused = False
        self.method = "none"
        self.session: CovenSession | None = None

    def note(self, message: str, *args: object, level: int = logging.INFO) -> None:
        """Log one line about this connection, with its address and user."""
        log.log(level, f"#%d %s user=%s {message}", self.number, self.address, self.user, *args)

    def refuse(self, reason: str, *, now: bool = False) -> None:
        """Disconnect with ``reason``, which the client prints.

        Args:
            reason: one line for the player.
            now: disconnect at once; otherwise on the next loop turn, because
                ``connection_made`` runs before asyncssh has sent its version line.
        """
        self.refused = True
        self.note("refused: %s", reason)
        if self.conn is None:
            return
        if now:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)
        else:
            asyncio.get_running_loop().call_soon(self.conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.state.connections.add(self)
        self.note("connect")
        if not self.state.limiter.allow(self.address):
            self.refuse(f"Too many connection attempts from {self.address}; wait a little.")

    def connection_lost(self, exc: Exception | None) -> None:
        self.state.connections.discard(self)
        if self.admitted:
            self.state.counter.release()
        if self.session is not None:
            self.session.client_gone()
        quiet = (asyncssh.ConnectionLost, BrokenPipeError, ConnectionResetError)
        detail = f" ({exc})" if exc and not isinstance(exc, quiet) else ""
        self.note("disconnect after %.1f s%s", time.monotonic() - self.started, detail)

    def begin_auth(self, username: str) -> bool:
        self.user = printable(username)
        if self.refused:
            return True
        config = self.state.config
        # begin_auth runs again if the client changes user name mid-login: count it once.
        if not self.admitted and not self.state.counter.try_admit():
            self.refuse(f"The table is full (at most {config.max_sessions} at once); try again later.",
                        now=True)
            return True
        self.admitted = True
        self.login = parse_login(username, accounts=config.auth != "none")
        if config.auth == "none":
            self.note("auth ok method=none")
            return False
        return True

    def password_auth_supported(self) -> bool:
        return self.state.config.auth == "password" and not self.refused

    async def validate_password(self, username: str, password: str) -> bool:
        path = self.state.config.password_file
        if self.login is None or path is None:
            return False
        account = self.login.account
        try:
            # Read on every attempt, so `--add-user` takes effect without a restart;
            # scrypt is slow on purpose, so it runs off the event loop.
            ok = await asyncio.get_running_loop().run_in_executor(
                None, lambda: check_password(read_password_file(path), account, password))
        except Exception as error:  # noqa: BLE001 - a broken file must not crash the server
            self.note("password check failed: %s", error, level=logging.ERROR)
            ok = False
        self.method = "password"
        self.note("auth %s method=password account=%s", "ok" if ok else "failed", account,
                  level=logging.INFO if ok else logging.WARNING)
        return ok

    def public_key_auth_supported(self) -> bool:
        return self.state.config.auth == "keys" and not self.refused

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        keys = self.state.authorized_keys
        ok = keys is not None and keys.validate(key, "", self.address) is not None
        if not ok:
            self.note("auth failed method=keys key=%s", key.get_fingerprint("sha256"), level=logging.WARNING)
        self.method = "keys"
        return ok

    def auth_completed(self) -> None:
        if self.method == "keys":  # a password's success is logged where it is checked
            self.note("auth ok method=%s", self.method)

    def session_requested(self) -> CovenSession:
        if self.session is not None:
            self.note("refused: a second session on one connection")
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            "Coven allows one session per connection.")
        self.session = CovenSession(self)
        return self.session

    def _no_forwarding(self, what: str) -> None:
        self.note("refused: %s forwarding", what)
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "Coven does not forward connections.")

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        self._no_forwarding(f"port ({dest_host}:{dest_port})")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self._no_forwarding("unix socket")
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.note("refused: remote port forwarding (%s:%d)", listen_host, listen_port)
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        self.note("refused: remote unix socket forwarding")
        return False


async def start_server(state: ServerState, host_key: asyncssh.SSHKey) -> asyncssh.SSHAcceptor:
    """Listen on the configured address; ``state.port`` becomes the real port."""
    config = state.config
    acceptor = await asyncssh.create_server(
        lambda: CovenConnection(state), config.host or None, config.port,
        server_host_keys=[host_key], server_version="Coven", login_timeout=LOGIN_TIMEOUT_SECONDS,
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
    if state.hangups:
        await asyncio.gather(*list(state.hangups), return_exceptions=True)
    await acceptor.wait_closed()
