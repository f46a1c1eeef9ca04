"""``coven bench serve``: what a player's SSH link carries, against a bare Textual app served the same way.

The bench starts ``coven serve``'s own server (:mod:`tui.server.server`) in
this process on a free local port, twice: once as it is, once with each
connection's child running the bare app of :func:`_bare_app` (a Header, a
Static and a Footer) instead of Coven; only the command the server starts for
a child differs. A scripted asyncssh client then measures, for each:

- the bytes of the first frame at 100x30, of one key press and of a resize to
  120x40, and of a first frame at 120x40 (what a resize should cost at most);
- the child's resident memory after the resize, in MB of 1,000,000 bytes (:mod:`tui.cli.bench.memory`);
- the time from connecting to the first screen, for one client (the median of
  :data:`CONNECT_TRIES` connects one after another) and for several at once.

Beside warm Coven it serves the same bare app forked from the same warm
parent: what any Textual app costs a forked seat on this Python, the floor
under warm Coven's connect time and memory.

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
CONCURRENT = 16
"""Clients connecting at once for the concurrent connect-to-menu time and the memory per seat."""
CONNECT_TRIES = 5
"""One client's connect to the first screen is the median of this many, one after another (one sample varies)."""
FLOOR_SEATS = 4
"""Seats of the bare app forked warm whose memory at rest is measured (the median is printed)."""
QUIET_SECONDS = 1.0
"""Output silent this long, after the marker showed, ends a frame."""
LIMIT_SECONDS = 90.0
"""Generous bound on any one wait, for a busy machine."""
FIRST_BYTE_SECONDS = 20.0
"""Bound on the wait for a key press's or a resize's first byte (none would mean nothing changed)."""
COVEN_MARKER = b"C O V E N"
BARE_MARKER = b"bare Textual app"
DOWN = b"\x1b[B"
UP = b"\x1b[A"


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
    waiter: asyncio.Future[float] | None = None

    def take(self, data: bytes) -> None:
        """Count ``data``, noting when the marker first arrived."""
        self.received += data
        self.last = time.monotonic()
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(self.last)
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

    async def echo(self, key: bytes) -> float:
        """Send ``key``; the seconds until the first byte of its answer arrived."""
        self.counter.waiter = asyncio.get_running_loop().create_future()
        sent = time.monotonic()
        self.chan.write(key)
        try:
            arrived = await asyncio.wait_for(self.counter.waiter, FIRST_BYTE_SECONDS)
        except TimeoutError:
            raise BenchError("a key press got no answer") from None
        finally:
            self.counter.waiter = None
        return arrived - sent

    async def quiet(self) -> None:
        """Wait until this client's output has been quiet for :data:`QUIET_SECONDS`."""
        deadline = time.monotonic() + LIMIT_SECONDS
        while time.monotonic() - self.counter.last < QUIET_SECONDS and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()


# -- one served app ---------------------------------------------------------------------------------

MODES = ("warm", "fresh", "bare")
"""Coven forked from its warm parent, Coven as a fresh process per player (``--no-warm``), the bare app."""


@dataclass
class Figures:
    """What the bench measures for one served app."""

    first_bytes: int = 0
    key_bytes: int = 0
    resize_bytes: int = 0
    first_resized_bytes: int = 0
    rss_mb: float = 0.0
    uss_mb: float = 0.0
    pss_mb: float = 0.0
    connect_one: float = 0.0
    connect_tries: list[float] = field(default_factory=list)
    connect_many: list[float] = field(default_factory=list)
    warm_parent_mb: float = 0.0
    echo_steps: list[tuple[int, float]] = field(default_factory=list)
    floor: Floor | None = None


@dataclass
class Floor:
    """The bare app forked from Coven's warm parent: one client's connect (median) and a seat's memory at rest."""

    connect_tries: list[float] = field(default_factory=list)
    uss_mb: float = 0.0
    pss_mb: float = 0.0


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


def memory_mb(pid: int) -> tuple[float, float, float]:
    """``(RSS, USS, PSS)`` of ``pid`` in MB (1,000,000 bytes) from /proc/PID/smaps_rollup; NaN where it cannot be
    read."""
    from tui.cli.bench.memory import read_rollup  # not at the top: the bare app run as this file imports no tui

    try:
        rollup = read_rollup(pid)
    except OSError:
        return float("nan"), float("nan"), float("nan")
    return rollup.rss_mb, rollup.uss_mb, rollup.pss_mb


@contextmanager
def _children_run_bare_app(bare: bool, *, forked: bool = False) -> Iterator[None]:
    """Make every served connection's child the bare app (the bench's baseline) while in force.

    ``forked``: as a module, which is how the warm parent starts what it forks
    (its imports are then the warm parent's); otherwise as a file, in a fresh
    interpreter, so the baseline never imports the tui.cli package.
    """
    from tui.server import connection

    if not bare:
        yield
        return
    original: Callable[..., list[str]] = connection.child_command
    command = [sys.executable, "-m", __name__] if forked else [sys.executable, str(Path(__file__).resolve())]
    connection.child_command = lambda *args, **kwargs: list(command)
    try:
        yield
    finally:
        connection.child_command = original


async def _measure(mode: str, clients: int, data_dir: Path) -> Figures:
    import asyncssh

    from tui.server.config import ServeConfig
    from tui.server.connection import SOURCE_ROOT
    from tui.server.server import ServerState, start_server, stop_server
    from tui.server.warm_link import WarmParent, become_subreaper

    marker = BARE_MARKER if mode == "bare" else COVEN_MARKER
    most = clients * (RAMP_STEPS + 1)
    connects = 2 * most + 2 * CONNECT_TRIES + FLOOR_SEATS + 2  # every connect this run makes, with room to spare
    config = ServeConfig(host="127.0.0.1", port=0, auth="none", max_sessions=most + FLOOR_SEATS + 4,
                         rate_burst=2 * connects + 16,
                         warm=mode == "warm")
    warm = None
    if mode == "warm":
        if not become_subreaper():
            raise BenchError("no warm parent on this system (it needs Linux's pidfd and child subreapers)")
        warm = WarmParent(data_dir, SOURCE_ROOT)
        await warm.start()
        await warm.until_ready()
    state = ServerState(config, data_dir, warm=warm)
    acceptor = await start_server(state, asyncssh.generate_private_key("ssh-ed25519"))
    figures = Figures()
    try:
        with _children_run_bare_app(mode == "bare"):
            client = await Client.connect(state.port, FIRST_SIZE, marker)
            figures.first_bytes = await client.frame(first=True)
            figures.connect_tries = [await client.until_shown()]
            client.chan.write(DOWN)
            figures.key_bytes = await client.frame()
            client.chan.change_terminal_size(*RESIZED)
            figures.resize_bytes = await client.frame()
            await client.close()

            fresh = await Client.connect(state.port, RESIZED, marker)
            figures.first_resized_bytes = await fresh.frame(first=True)
            await fresh.close()
            await _until_no_connections(state)
            floor_tries: list[float] = []
            for number in range(CONNECT_TRIES):
                if number:
                    figures.connect_tries += await _connect_times(state, marker, 1)
                if mode == "warm":  # the floor's connects alternate with warm Coven's, under the same load
                    with _children_run_bare_app(True, forked=True):
                        floor_tries += await _connect_times(state, BARE_MARKER, 1)
            figures.connect_one = statistics.median(figures.connect_tries)

            crowd = await asyncio.gather(*(Client.connect(state.port, FIRST_SIZE, marker) for _ in range(clients)))
            figures.connect_many = list(await asyncio.gather(*(each.until_shown() for each in crowd)))
            await asyncio.gather(*(each.quiet() for each in crowd))  # every menu drawn
            seats = [pid for pid in _child_pids() if warm is None or pid != warm.pid]
            sizes = [memory_mb(pid) for pid in seats]
            figures.rss_mb, figures.uss_mb, figures.pss_mb = (statistics.median(size[i] for size in sizes)
                                                              for i in range(3))
            if warm is not None and warm.pid is not None:
                figures.warm_parent_mb = memory_mb(warm.pid)[2]
            await asyncio.gather(*(each.close() for each in crowd))
            if mode == "warm":
                await _until_no_connections(state)
                figures.echo_steps = await _echo_ramp(state.port, clients)
                await _until_no_connections(state)
                with _children_run_bare_app(True, forked=True):
                    figures.floor = await _floor(state, warm, floor_tries)
    finally:
        await _until_no_connections(state)
        await stop_server(state, acceptor)
        if warm is not None:
            await warm.stop()
    return figures


async def _connect_times(state: Any, marker: bytes, tries: int) -> list[float]:
    """Connect one client ``tries`` times, one after another; the seconds each took to show its screen."""
    times = []
    for _ in range(tries):
        client = await Client.connect(state.port, FIRST_SIZE, marker)
        times.append(await client.until_shown())
        await client.frame(first=True)  # drawn whole before it hangs up, as the first client was
        await client.close()
        await _until_no_connections(state)
    return times


async def _floor(state: Any, warm: Any, connect_tries: list[float]) -> Floor:
    """The bare app forked from ``warm``, whose connects took ``connect_tries``: with a seat's memory at rest."""
    floor = Floor(connect_tries=connect_tries)
    seats = await asyncio.gather(*(Client.connect(state.port, FIRST_SIZE, BARE_MARKER) for _ in range(FLOOR_SEATS)))
    try:
        await asyncio.gather(*(seat.frame(first=True) for seat in seats))
        sizes = [memory_mb(pid) for pid in _child_pids() if pid != warm.pid]
        floor.uss_mb, floor.pss_mb = (statistics.median(size[i] for size in sizes) for i in (1, 2))
    finally:
        await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
    await _until_no_connections(state)
    return floor


ECHO_LIMIT_SECONDS = 0.1
"""A key's echo slower than this at the 95th percentile means the machine holds no more active seats."""
RAMP_STEPS = 6
"""The echo ramp adds seats this many times (``clients`` each), unless the echo gets too slow sooner."""
RAMP_ROUNDS = 4
"""Key presses each seat makes at each step, at random moments of a second, as active players would."""


async def _press_later(seat: Client, key: bytes, delay: float) -> float:
    """Press ``key`` after ``delay`` seconds; the seconds its echo took."""
    await asyncio.sleep(delay)
    return await seat.echo(key)


async def _echo_ramp(port: int, clients: int) -> list[tuple[int, float]]:
    """Add ``clients`` warm seats at a time; at each step every seat presses keys: ``(seats, p95 echo seconds)``."""
    import random

    shuffle = random.Random(2026)
    seats: list[Client] = []
    steps: list[tuple[int, float]] = []
    try:
        for _ in range(RAMP_STEPS):
            joined = await asyncio.gather(*(Client.connect(port, FIRST_SIZE, COVEN_MARKER) for _ in range(clients)))
            seats += joined
            await asyncio.gather(*(seat.until_shown() for seat in joined))
            await asyncio.gather(*(seat.quiet() for seat in seats))
            echoes: list[float] = []
            for number in range(RAMP_ROUNDS):
                key = DOWN if number % 2 == 0 else UP
                echoes += await asyncio.gather(*(_press_later(seat, key, shuffle.random()) for seat in seats))
                await asyncio.gather(*(seat.quiet() for seat in seats))
            steps.append((len(seats), statistics.quantiles(echoes, n=20)[-1]))
            if steps[-1][1] > ECHO_LIMIT_SECONDS:
                break
    finally:
        await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
    return steps


async def _until_no_connections(state: Any) -> None:
    """Wait until every client has hung up and the server has seen it."""
    deadline = time.monotonic() + LIMIT_SECONDS
    while state.connections and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


# -- the report ---------------------------------------------------------------------------------------


def _ratio(coven: float, bare: float) -> str:
    return f"{coven / bare:.2f}x" if bare else "n/a"


Row = tuple[str, dict[str, float], str]


def _rows(figures: dict[str, Figures], clients: int) -> list[Row]:
    """(measure, value by mode, unit) rows of the report."""
    from tui.cli.bench.memory import seats_per_gb

    def each(pick: Callable[[Figures], float]) -> dict[str, float]:
        return {mode: pick(figures[mode]) for mode in MODES}

    return [
        (f"first frame {FIRST_SIZE[0]}x{FIRST_SIZE[1]}", each(lambda f: f.first_bytes), "B"),
        ("key press (down)", each(lambda f: f.key_bytes), "B"),
        (f"resize to {RESIZED[0]}x{RESIZED[1]}", each(lambda f: f.resize_bytes), "B"),
        (f"first frame {RESIZED[0]}x{RESIZED[1]}", each(lambda f: f.first_resized_bytes), "B"),
        (f"resize / first frame {RESIZED[0]}x{RESIZED[1]}", each(lambda f: f.resize_bytes / f.first_resized_bytes),
         "x"),
        (f"connect to menu, 1 client (median of {CONNECT_TRIES})", each(lambda f: f.connect_one * 1e3), "ms"),
        (f"connect, {clients} at once, median", each(lambda f: statistics.median(f.connect_many) * 1e3), "ms"),
        (f"connect, {clients} at once, slowest", each(lambda f: max(f.connect_many) * 1e3), "ms"),
        ("seat at the menu, RSS", each(lambda f: f.rss_mb), "MB"),
        ("seat at the menu, USS", each(lambda f: f.uss_mb), "MB"),
        ("seat at the menu, PSS", each(lambda f: f.pss_mb), "MB"),
        ("seats at the menu per GB (by PSS)", each(lambda f: seats_per_gb(f.pss_mb)), "seats"),
    ]


def _shown(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}x"
    return f"{value:.1f} {unit}" if unit == "MB" else f"{value:,.0f} {unit}"


def run(clients: int = CONCURRENT) -> int:
    """Serve Coven warm, Coven fresh and the bare app; measure all three and print the figures with ratios."""
    import asyncssh

    from tui.cli.bench.progress import Progress
    from tui.server.warm_link import WarmUnavailable

    clients = max(1, clients)
    figures: dict[str, Figures] = {}
    with tempfile.TemporaryDirectory(prefix="coven-bench-serve-") as folder:
        data_dir = Path(folder)
        data_dir.chmod(0o700)
        progress = Progress("coven bench serve")
        try:
            for mode in MODES:
                served = "the bare app" if mode == "bare" else f"Coven {mode}"
                progress.stage(f"serving {served}, up to {clients} clients at once", 0)
                figures[mode] = asyncio.run(_measure(mode, clients, data_dir))
        except (BenchError, WarmUnavailable, OSError, asyncssh.Error) as error:
            print(f"coven: bench serve could not measure: {error}", file=sys.stderr)
            return 1
    table = Table(title=f"coven bench serve: SSH clients at {FIRST_SIZE[0]}x{FIRST_SIZE[1]}; Coven forked from its "
                        f"warm parent, Coven as a fresh process (--no-warm), a bare Textual app (fresh)")
    table.add_column("measure")
    for name in ("warm", "fresh", "bare app", "warm/bare", "fresh/bare"):
        table.add_column(name, justify="right")
    for name, values, unit in _rows(figures, clients):
        table.add_row(name, *(_shown(values[mode], unit) for mode in MODES),
                      _ratio(values["warm"], values["bare"]), _ratio(values["fresh"], values["bare"]))
    Console().print(table)
    from tui.server.warm import ksm_runs

    merged = "on: identical pages of the seats may be merged meanwhile" if ksm_runs() else "off: no page is merged"
    print(f"The warm parent itself: {figures['warm'].warm_parent_mb:.1f} MB PSS, shared by every warm seat. "
          f"The host's KSM is {merged}.")
    floor = figures["warm"].floor
    if floor is not None:
        bare_one = figures["bare"].connect_one
        floor_one = statistics.median(floor.connect_tries)
        print(f"The floor, the bare app forked from the same warm parent: connect {floor_one * 1e3:,.0f} ms "
              f"({_ratio(floor_one, bare_one)} the fresh bare app, warm Coven "
              f"{_ratio(figures['warm'].connect_one, floor_one)} it; medians of {len(floor.connect_tries)}, "
              f"alternating), a seat at rest {floor.uss_mb:.1f} MB USS, {floor.pss_mb:.1f} MB PSS.")
    steps = figures["warm"].echo_steps
    print("Key echo with every warm seat pressing keys, 95th percentile: "
          + ", ".join(f"{seats} seats {p95 * 1e3:,.0f} ms" for seats, p95 in steps))
    held = [seats for seats, p95 in steps if p95 <= ECHO_LIMIT_SECONDS]
    most = f"{held[-1]}" if held else f"fewer than {steps[0][0]}" if steps else "?"
    if held and len(held) == len(steps):
        most = f"at least {held[-1]}"
    print(f"Active seats this machine holds before a key's echo passes {ECHO_LIMIT_SECONDS * 1e3:.0f} ms at the "
          f"95th percentile: {most} ({os.cpu_count()} cores).")
    return 0


if __name__ == "__main__":  # a served connection's child, for the baseline
    _bare_app().run()
