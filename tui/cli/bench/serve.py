"""``coven bench serve``: what a player's SSH link carries, against a bare Textual app served the same way.

The bench starts ``coven serve``'s own server (:mod:`tui.server.server`) in
this process on a free local port, twice: once as it is, once with each
connection's child running the bare app of :func:`_bare_app` (a Header, a
Static and a Footer) instead of Coven; only the command the server starts for
a child differs. A scripted asyncssh client then measures, for each:

- the bytes of the first frame at 100x30, of one key press and of a resize to
  120x40, and of a first frame at 120x40 (what a resize should cost at most);
- the child's resident memory after the resize;
- the time from connecting to the first screen, for one client and for
  several at once.

A frame is over once its screen's marker text has arrived and the output has
been quiet for :data:`QUIET_SECONDS`. Byte counts are the figures that matter
here; times depend on the machine.

``python tui/cli/bench/serve.py`` (the file, not ``-m``, so the baseline never imports
``tui.cli`` and what it brings) runs the bare app; only the bench starts it.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    import asyncssh

FIRST_SIZE = (100, 30)
RESIZED = (120, 40)
CONCURRENT = 8
"""Clients connecting at once for the concurrent connect-to-menu time."""
QUIET_SECONDS = 1.0
"""Output silent this long, after the marker showed, ends a frame."""
LIMIT_SECONDS = 90.0
"""Generous bound on any one wait, for a busy machine."""
FIRST_BYTE_SECONDS = 20.0
"""Bound on the wait for a key press's or a resize's first byte (none would mean nothing changed)."""
COVEN_MARKER = b"C O V E N"
BARE_MARKER = b"bare Textual app"
DOWN = b"\x1b[B"


# -- the baseline: a bare Textual app ---------------------------------------------------------------


def _bare_app() -> Any:
    """A Textual app with a Header, a Static that counts keys, and a Footer."""
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.widgets import Footer, Header, Static

    class BareApp(App[None]):
        BINDINGS = [Binding("q", "quit", "Quit")]

        def __init__(self) -> None:
            super().__init__()
            self.keys = 0

        def compose(self) -> ComposeResult:
            yield Header()
            yield Static(BARE_MARKER.decode(), id="bare")
            yield Footer()

        def on_key(self) -> None:
            # A key changes one line, as moving through Coven's menu does.
            self.keys += 1
            self.query_one("#bare", Static).update(f"{BARE_MARKER.decode()}: {self.keys} keys")

    return BareApp()


# -- the client ---------------------------------------------------------------------------------------


class BenchError(Exception):
    """A measurement could not be taken (the served app never showed its screen)."""


@dataclass
class _Counter:
    """What one client has received: bytes, and when the last ones came."""

    marker: bytes
    received: bytearray = field(default_factory=bytearray)
    last: float = field(default_factory=time.monotonic)
    shown_at: float | None = None
    closed: bool = False

    def take(self, data: bytes) -> None:
        """Count ``data``, noting when the marker first arrived."""
        self.received += data
        self.last = time.monotonic()
        if self.shown_at is None and self.marker in self.received[-(len(data) + len(self.marker)):]:
            self.shown_at = self.last


def _client_session(counter: _Counter) -> Any:
    import asyncssh

    class Session(asyncssh.SSHClientSession[bytes]):
        def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
            counter.take(data)

        def connection_lost(self, exc: Exception | None) -> None:
            counter.closed = True

    return Session()


class Client:
    """One SSH player with a PTY, counting what it receives."""

    def __init__(self, conn: asyncssh.SSHClientConnection, chan: asyncssh.SSHClientChannel[bytes],
                 counter: _Counter, started: float) -> None:
        self.conn, self.chan, self.counter, self.started = conn, chan, counter, started

    @classmethod
    async def connect(cls, port: int, size: tuple[int, int], marker: bytes) -> Client:
        import asyncssh

        started = time.monotonic()
        conn = await asyncssh.connect("127.0.0.1", port, username="bench", known_hosts=None, agent_path=None,
                                      config=None, client_keys=None, preferred_auth="none",
                                      connect_timeout=LIMIT_SECONDS, login_timeout=LIMIT_SECONDS)
        counter = _Counter(marker)
        chan, _ = await conn.create_session(lambda: _client_session(counter), term_type="xterm-256color",
                                            term_size=size, encoding=None)
        return cls(conn, chan, counter, started)

    async def until_shown(self) -> float:
        """Wait until the app's marker arrived; the seconds from connecting to it."""
        deadline = time.monotonic() + LIMIT_SECONDS
        while self.counter.shown_at is None:
            if self.counter.closed or time.monotonic() > deadline:
                raise BenchError(f"the served app never showed {self.counter.marker.decode()!r}")
            await asyncio.sleep(0.01)
        return self.counter.shown_at - self.started

    async def frame(self, first: bool = False) -> int:
        """Bytes from now until the output went quiet: after the marker for the ``first`` frame, else
        after at least one byte."""
        start = len(self.counter.received)
        if first:
            await self.until_shown()
        else:
            deadline = time.monotonic() + FIRST_BYTE_SECONDS
            while len(self.counter.received) == start and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
        deadline = time.monotonic() + LIMIT_SECONDS
        while time.monotonic() - self.counter.last < QUIET_SECONDS and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return len(self.counter.received) - start

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()


# -- one served app ---------------------------------------------------------------------------------


@dataclass
class Figures:
    """What the bench measures for one served app."""

    first_bytes: int = 0
    key_bytes: int = 0
    resize_bytes: int = 0
    first_resized_bytes: int = 0
    rss_mb: float = 0.0
    connect_one: float = 0.0
    connect_many: list[float] = field(default_factory=list)


def _child_pids() -> list[int]:
    """This process's children (the served apps), found through /proc; empty where there is none."""
    me = str(os.getpid())
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields and fields[1] == me and fields[0] != "Z":
            pids.append(int(stat.parent.name))
    return pids


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


@contextmanager
def _children_run_bare_app(bare: bool) -> Iterator[None]:
    """Make every served connection's child the bare app (the bench's baseline) while in force."""
    from tui.server import connection

    if not bare:
        yield
        return
    original: Callable[..., list[str]] = connection.child_command
    bare_app = str(Path(__file__).resolve())  # run as a file: ``-m`` would import the tui.cli package first
    connection.child_command = lambda *args, **kwargs: [sys.executable, bare_app]
    try:
        yield
    finally:
        connection.child_command = original


async def _measure(bare: bool, clients: int, data_dir: Path) -> Figures:
    import asyncssh

    from tui.server.config import ServeConfig
    from tui.server.server import ServerState, start_server, stop_server

    marker = BARE_MARKER if bare else COVEN_MARKER
    config = ServeConfig(host="127.0.0.1", port=0, auth="none", max_sessions=clients + 4,
                         rate_burst=4 * clients + 16)
    state = ServerState(config, data_dir)
    acceptor = await start_server(state, asyncssh.generate_private_key("ssh-ed25519"))
    figures = Figures()
    try:
        with _children_run_bare_app(bare):
            client = await Client.connect(state.port, FIRST_SIZE, marker)
            figures.first_bytes = await client.frame(first=True)
            figures.connect_one = await client.until_shown()
            client.chan.write(DOWN)
            figures.key_bytes = await client.frame()
            client.chan.change_terminal_size(*RESIZED)
            figures.resize_bytes = await client.frame()
            pids = _child_pids()
            figures.rss_mb = max((_rss_mb(pid) for pid in pids), default=float("nan"))
            await client.close()

            fresh = await Client.connect(state.port, RESIZED, marker)
            figures.first_resized_bytes = await fresh.frame(first=True)
            await fresh.close()

            crowd = await asyncio.gather(*(Client.connect(state.port, FIRST_SIZE, marker) for _ in range(clients)))
            figures.connect_many = list(await asyncio.gather(*(each.until_shown() for each in crowd)))
            await asyncio.gather(*(each.close() for each in crowd))
    finally:
        deadline = time.monotonic() + LIMIT_SECONDS
        while state.connections and time.monotonic() < deadline:  # every client has hung up: let the server see it
            await asyncio.sleep(0.05)
        await stop_server(state, acceptor)
    return figures


# -- the report ---------------------------------------------------------------------------------------


def _ratio(coven: float, bare: float) -> str:
    return f"{coven / bare:.2f}x" if bare else "n/a"


def _rows(coven: Figures, bare: Figures, clients: int) -> list[tuple[str, float, float, str]]:
    """(measure, Coven, bare app, unit) rows of the report."""
    return [
        (f"first frame {FIRST_SIZE[0]}x{FIRST_SIZE[1]}", coven.first_bytes, bare.first_bytes, "B"),
        ("key press (down)", coven.key_bytes, bare.key_bytes, "B"),
        (f"resize to {RESIZED[0]}x{RESIZED[1]}", coven.resize_bytes, bare.resize_bytes, "B"),
        (f"first frame {RESIZED[0]}x{RESIZED[1]}", coven.first_resized_bytes, bare.first_resized_bytes, "B"),
        (f"resize / first frame {RESIZED[0]}x{RESIZED[1]}", coven.resize_bytes / coven.first_resized_bytes,
         bare.resize_bytes / bare.first_resized_bytes, "x"),
        ("child RSS", coven.rss_mb, bare.rss_mb, "MB"),
        ("connect to menu, 1 client", coven.connect_one * 1e3, bare.connect_one * 1e3, "ms"),
        (f"connect, {clients} at once, median", statistics.median(coven.connect_many) * 1e3,
         statistics.median(bare.connect_many) * 1e3, "ms"),
        (f"connect, {clients} at once, slowest", max(coven.connect_many) * 1e3, max(bare.connect_many) * 1e3, "ms"),
    ]


def _shown(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}x"
    return f"{value:.1f} {unit}" if unit == "MB" else f"{value:,.0f} {unit}"


def run(clients: int = CONCURRENT) -> int:
    """Serve Coven and the bare app, measure both and print the figures with their ratios."""
    import asyncssh

    clients = max(1, clients)
    with tempfile.TemporaryDirectory(prefix="coven-bench-serve-") as folder:
        data_dir = Path(folder)
        data_dir.chmod(0o700)
        try:
            coven = asyncio.run(_measure(False, clients, data_dir))
            bare = asyncio.run(_measure(True, clients, data_dir))
        except (BenchError, OSError, asyncssh.Error) as error:
            print(f"coven: bench serve could not measure: {error}", file=sys.stderr)
            return 1
    table = Table(title=f"coven bench serve: one SSH client at {FIRST_SIZE[0]}x{FIRST_SIZE[1]}, "
                        f"Coven against a bare Textual app (Header, Static, Footer)")
    table.add_column("measure")
    for name in ("Coven", "bare app", "Coven/bare"):
        table.add_column(name, justify="right")
    for name, mine, theirs, unit in _rows(coven, bare, clients):
        table.add_row(name, _shown(mine, unit), _shown(theirs, unit), _ratio(mine, theirs))
    Console().print(table)
    return 0


if __name__ == "__main__":  # a served connection's child, for the baseline
    _bare_app().run()
