"""Helpers for tests that talk to a real ``coven serve`` over 127.0.0.1.

``ServeProcess`` starts the server in a subprocess on a free port and finds
what it started; ``SSHPlayer`` is one asyncssh client with a PTY whose output
is rendered by pyte, so a test reads the screen a player would see::

    with ServeProcess.start(data_dir) as server:
        async def play() -> None:
            player = await SSHPlayer.connect(server.port, "ana")
            await player.wait_for("C O V E N")
            player.send("q")
            await player.close()
        asyncio.run(play())
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType

import asyncssh
import pyte

from tests.helpers.pyte_feed import feed

ROOT = Path(__file__).resolve().parents[2]
_LISTENING = re.compile(r"listening on (\S+):(\d+)")

KEYS = {"enter": "\r", "escape": "\x1b", "tab": "\t", "up": "\x1b[A", "down": "\x1b[B",
        "right": "\x1b[C", "left": "\x1b[D", "backspace": "\x7f", "space": " "}
"""What a terminal sends for the named keys, for :meth:`SSHPlayer.press`."""


# -- the server -------------------------------------------------------------------------------------


class ServeProcess:
    """``python -m tui.cli serve --port 0 ...`` in a subprocess, with its port parsed from stdout.

    Its log (stderr) goes to ``data_dir/serve-stderr.txt``; :attr:`log` reads it.
    Use as a context manager: leaving it stops the server (SIGTERM, then SIGKILL).
    """

    def __init__(self, process: subprocess.Popen[str], data_dir: Path, port: int, banner: list[str]) -> None:
        self.process = process
        self.data_dir = data_dir
        self.port = port
        self.banner = banner

    @classmethod
    def start(cls, data_dir: Path, *args: str, timeout: float = 20.0,
              env: dict[str, str] | None = None, command: str = "serve") -> ServeProcess:
        """Start a server with extra ``args`` and wait for its ``listening on`` line.

        ``command`` is ``serve`` (the SSH door) or ``web`` (the browser door), which print the same line.
        """
        data_dir.mkdir(parents=True, exist_ok=True)
        environment = dict(os.environ if env is None else env)
        environment["COVEN_DATA_DIR"] = str(data_dir)
        stderr = open(data_dir / "serve-stderr.txt", "a", encoding="utf-8")  # noqa: SIM115 - owned by the child
        process = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", command, "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL, env=environment, text=True,
            cwd=ROOT)
        stderr.close()
        banner: list[str] = []
        deadline = time.monotonic() + timeout
        assert process.stdout is not None
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            banner.append(line.rstrip("\n"))
            match = _LISTENING.search(line)
            if match:
                # Keep reading stdout in the background so the pipe never fills up.
                os.set_blocking(process.stdout.fileno(), False)
                return cls(process, data_dir, int(match.group(2)), banner)
        process.kill()
        process.wait()
        raise AssertionError(f"the server did not start; it printed {banner!r}; log:\n"
                             f"{(data_dir / 'serve-stderr.txt').read_text()}")

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.process.pid

    @property
    def log(self) -> str:
        """What the server logged so far (its stderr)."""
        return (self.data_dir / "serve-stderr.txt").read_text(encoding="utf-8")

    def children(self) -> list[int]:
        """Process ids of the Coven players started for this server's data directory."""
        return coven_processes(self.data_dir, exclude={self.pid})

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 15.0) -> int:
        """Send ``sig`` and wait for the server to exit; SIGKILL if it takes longer than ``timeout``."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        return self.process.returncode

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


def coven_processes(data_dir: Path, exclude: set[int] = frozenset()) -> list[int]:  # type: ignore[assignment]
    """Live ``tui.cli play`` processes whose COVEN_DATA_DIR is ``data_dir`` (found through /proc)."""
    marker = f"COVEN_DATA_DIR={data_dir}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in exclude:
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            environment = (entry / "environ").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if b"tui.cli" in command and b"play" in command and marker in environment and state != "Z":
            found.append(int(entry.name))
    return found


def wait_until(check: Callable[[], bool], what: str, timeout: float) -> None:
    """Poll ``check`` every 0.1 s until it holds; AssertionError naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


# -- a player -----------------------------------------------------------------------------------------


class _ScreenSession(asyncssh.SSHClientSession[bytes]):
    """Feeds what the server sends into a pyte screen and keeps stderr apart."""

    def __init__(self, screen: pyte.Screen) -> None:
        self.stream = pyte.ByteStream(screen)
        self.stderr = bytearray()
        self.received = bytearray()
        """Every byte of the terminal stream, for escapes pyte does not draw (a bell, a desktop notice)."""
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr += data
        else:
            self.received += data
            feed(self.stream, data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


class SSHPlayer:
    """One player connected over SSH with a PTY, the screen rendered by pyte."""

    def __init__(self, conn: asyncssh.SSHClientConnection, chan: asyncssh.SSHClientChannel[bytes],
                 session: _ScreenSession, screen: pyte.Screen) -> None:
        self.conn = conn
        self.chan = chan
        self.session = session
        self.screen = screen

    @classmethod
    async def connect(cls, port: int, username: str = "ana", *, password: str | None = None,
                      client_keys: Sequence[asyncssh.SSHKey] = (), columns: int = 80, rows: int = 24,
                      term: str = "xterm-256color", env: dict[str, str] | None = None,
                      host: str = "127.0.0.1", claim: tuple[int, int] | None = None,
                      agent_forwarding: bool = False) -> SSHPlayer:
        """Log in as ``username`` and open a session with a PTY of ``columns`` x ``rows``.

        ``claim`` tells the server another size than the screen read here (a hostile
        client's 10000x10000, say); ``agent_forwarding`` asks for the SSH agent to be forwarded.
        """
        conn = await open_connection(port, username, password=password, client_keys=client_keys, host=host,
                                     agent_forwarding=agent_forwarding)
        screen = pyte.Screen(columns, rows)
        session = _ScreenSession(screen)
        environment: dict[bytes | str, bytes | str] = {key: value for key, value in (env or {}).items()}
        try:
            chan, _ = await conn.create_session(
                lambda: session, term_type=term, term_size=claim or (columns, rows), env=environment, encoding=None)
        except BaseException:
            conn.close()
            raise
        return cls(conn, chan, session, screen)

    def text(self) -> str:
        """The screen as lines of text."""
        return "\n".join(self.screen.display)

    @property
    def stderr(self) -> str:
        """What the server wrote on the session's stderr."""
        return self.session.stderr.decode("utf-8", "replace")

    async def wait_for(self, text: str | Callable[[str], bool], timeout: float = 60.0) -> str:
        """Wait until the screen shows ``text`` (or the check holds); returns the screen.

        Raises:
            AssertionError: it did not within ``timeout`` seconds; the message holds the screen.
        """
        check = text if callable(text) else (lambda screen: text in screen)
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if check(screen):
                return screen
            if time.monotonic() > deadline or self.session.closed.is_set() and not check(self.text()):
                if self.session.closed.is_set() and time.monotonic() <= deadline:
                    raise AssertionError(f"the connection closed before {text!r} showed; screen:\n{screen}"
                                         f"\nstderr: {self.stderr}")
                raise AssertionError(f"timed out after {timeout:.0f} s waiting for {text!r}; screen:\n{screen}")
            await asyncio.sleep(0.05)

    def send(self, keys: str | bytes) -> None:
        """Type ``keys`` (text, escape sequences included)."""
        self.chan.write(keys.encode() if isinstance(keys, str) else keys)

    def press(self, *names: str) -> None:
        """Press named keys (see :data:`KEYS`); other names are typed as they are."""
        for name in names:
            self.send(KEYS.get(name, name))

    def resize(self, columns: int, rows: int) -> None:
        """Change the window size, as a terminal window being resized does."""
        self.screen.resize(rows, columns)
        self.chan.change_terminal_size(columns, rows)

    def claim_size(self, columns: int, rows: int) -> None:
        """Tell the server the window is ``columns`` x ``rows`` without resizing the screen read here."""
        self.chan.change_terminal_size(columns, rows)

    async def wait_closed(self, timeout: float = 15.0) -> int | None:
        """Wait for the server to close the session; returns its exit status."""
        await asyncio.wait_for(self.session.closed.wait(), timeout)
        return self.chan.get_exit_status()

    async def close(self) -> None:
        """Hang up, as a player closing their terminal does."""
        self.conn.close()
        await self.conn.wait_closed()


async def open_connection(port: int, username: str = "ana", *, password: str | None = None,
                          client_keys: Sequence[asyncssh.SSHKey] = (), host: str = "127.0.0.1",
                          agent_forwarding: bool = False, login_timeout: float = 20,
                          client_factory: Callable[[], asyncssh.SSHClient] | None = None,
                          ) -> asyncssh.SSHClientConnection:
    """An SSH connection to the test server, trusting its host key, never asking anyone anything.

    ``agent_forwarding`` asks for an agent that is not there: the request is what matters.
    """
    return await asyncssh.connect(
        host, port, username=username, password=password, client_keys=list(client_keys) or None,
        known_hosts=None, agent_path=None, config=None, preferred_auth="publickey,password,none"
        if client_keys else "password,none" if password or client_factory else "none",
        agent_forwarding=str(ROOT / "no-such-agent") if agent_forwarding else False,
        client_factory=client_factory, connect_timeout=20, login_timeout=login_timeout)
