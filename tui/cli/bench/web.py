"""``coven bench web``: a browser session beside an SSH session, through one ``coven web --ssh-port`` in one run.

One door process serves both ways (the warm parent, one session cap). For each door the bench
opens ``sessions`` players one after another and then all at once, and measures the time from
connecting to the main menu's first frame (the WebSocket client is the page's protocol without a
browser: it counts what the page receives, not Chromium's drawing) and each player's Coven's memory
at the menu (median USS and PSS: what one more player costs the machine), and the door process's
own growth per open session, in MB of 1,000,000 bytes (:mod:`tui.cli.bench.memory`).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from tui.cli.bench.serve import COVEN_MARKER, FIRST_SIZE, LIMIT_SECONDS, BenchError, Client, memory_mb

SESSIONS = 4
"""Players per door by default (--games): enough for a median, under a minute of CPU."""
MAX_SESSIONS = 16


@dataclass
class DoorFigures:
    """What the bench measured for one door."""

    to_menu: list[float] = field(default_factory=list)
    together: list[float] = field(default_factory=list)
    uss_mb: float = 0.0
    pss_mb: float = 0.0
    door_growth_mb: float = 0.0


class WebClient:
    """One browser visit as the page makes it: a login, then the WebSocket, counting the screen's bytes."""

    def __init__(self, session: Any, ws: Any, started: float) -> None:
        self.session, self.ws, self.started = session, ws, started
        self.received = bytearray()
        self.shown_at: float | None = None
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, port: int, name: str) -> WebClient:
        """Log in as ``name`` (``--auth none``), then open the socket at the bench's size."""
        import aiohttp

        base = f"http://127.0.0.1:{port}"
        session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        await session.post(f"{base}/login", data={"name": name}, headers={"Origin": base})
        started = time.monotonic()
        ws = await session.ws_connect(f"{base}/ws?width={FIRST_SIZE[0]}&height={FIRST_SIZE[1]}",
                                      headers={"Origin": base}, max_msg_size=0)
        return cls(session, ws, started)

    async def _read(self) -> None:
        """Count binary messages, noting when the menu's marker arrived."""
        import aiohttp

        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.received += message.data
                if self.shown_at is None and COVEN_MARKER in self.received:
                    self.shown_at = time.monotonic()
            elif message.type == aiohttp.WSMsgType.TEXT and json.loads(message.data)[0] == "refused":
                break

    async def until_shown(self) -> float:
        """Wait for the menu; the seconds from opening the socket to it."""
        deadline = time.monotonic() + LIMIT_SECONDS
        while self.shown_at is None:
            if self.reader.done() or time.monotonic() > deadline:
                raise BenchError("the browser door never showed the menu")
            await asyncio.sleep(0.01)
        return self.shown_at - self.started

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()
        await asyncio.gather(self.reader, return_exceptions=True)


def _children(parent: int, skip: int | None) -> list[int]:
    """The processes whose parent is ``parent`` (the door: it adopts warm-forked players), but ``skip``."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields and fields[1] == str(parent) and fields[0] != "Z" and int(stat.parent.name) != skip:
            pids.append(int(stat.parent.name))
    return pids


async def _until_no_players(state: Any) -> None:
    """Wait until every player's place is free again."""
    deadline = time.monotonic() + LIMIT_SECONDS
    while state.counter.count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


async def _measure(sessions: int, data_dir: Path) -> dict[str, DoorFigures]:
    import asyncssh
    from aiohttp import web

    from tui.server.config import ServeConfig
    from tui.server.connection import SOURCE_ROOT
    from tui.server.server import ServerState, start_server, stop_server
    from tui.server.warm_link import WarmParent, become_subreaper
    from tui.web.site import Door

    if not become_subreaper():
        raise BenchError("no warm parent on this system (it needs Linux's pidfd and child subreapers)")
    warm = WarmParent(data_dir, SOURCE_ROOT)
    await warm.start()
    await warm.until_ready()
    config = ServeConfig(host="127.0.0.1", port=0, max_sessions=2 * sessions + 4, rate_burst=8 * sessions + 16)
    state = ServerState(config, data_dir, warm=warm)
    acceptor = await start_server(state, asyncssh.generate_private_key("ssh-ed25519"))
    door = Door(state)
    runner = web.AppRunner(door.application(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    web_port = int(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
    figures = {"browser": DoorFigures(), "ssh": DoorFigures()}
    me = os.getpid()

    async def open_one(kind: str, number: int) -> Any:
        if kind == "browser":
            return await WebClient.connect(web_port, f"web{number}")
        return await Client.connect(state.port, FIRST_SIZE, COVEN_MARKER)

    try:
        for kind in ("browser", "ssh"):
            measured = figures[kind]
            for number in range(sessions):  # one at a time: the time to the menu alone
                client = await open_one(kind, number)
                measured.to_menu.append(await client.until_shown())
                await client.close()
                await _until_no_players(state)
            before = memory_mb(me)[0]
            crowd = [await open_one(kind, number) for number in range(sessions)]
            measured.together = list(await asyncio.gather(*(each.until_shown() for each in crowd)))
            await asyncio.sleep(1.0)  # every menu settled
            sizes = [memory_mb(pid) for pid in _children(me, warm.pid)]
            measured.uss_mb = statistics.median(size[1] for size in sizes)
            measured.pss_mb = statistics.median(size[2] for size in sizes)
            measured.door_growth_mb = (memory_mb(me)[0] - before) / sessions
            await asyncio.gather(*(each.close() for each in crowd))
            await _until_no_players(state)
    finally:
        await door.close_all("The bench is over.")
        await stop_server(state, acceptor)
        await runner.cleanup()
        await warm.stop()
    return figures


def run(sessions: int = SESSIONS) -> int:
    """Measure a browser session beside an SSH session through one door process; print the figures."""
    import asyncssh

    from tui.cli.bench.progress import Progress
    from tui.server.warm_link import WarmUnavailable

    sessions = max(1, min(sessions, MAX_SESSIONS))
    with tempfile.TemporaryDirectory(prefix="coven-bench-web-") as folder:
        data_dir = Path(folder)
        data_dir.chmod(0o700)
        Progress("coven bench web").stage(f"{sessions} browser and {sessions} SSH players, warm", 0)
        try:
            figures = asyncio.run(_measure(sessions, data_dir))
        except (BenchError, WarmUnavailable, OSError, asyncssh.Error) as error:
            print(f"coven: bench web could not measure: {error}", file=sys.stderr)
            return 1
    table = Table(title=f"coven bench web: one coven web --ssh-port, players forked warm, {FIRST_SIZE[0]}x"
                        f"{FIRST_SIZE[1]}, {sessions} a door")
    table.add_column("measure")
    table.add_column("browser", justify="right")
    table.add_column("SSH", justify="right")
    rows: list[tuple[str, Callable[[DoorFigures], str]]] = [
        ("to the first menu frame, alone, median", lambda f: f"{statistics.median(f.to_menu) * 1e3:,.0f} ms"),
        (f"to the first menu frame, {sessions} at once, slowest", lambda f: f"{max(f.together) * 1e3:,.0f} ms"),
        ("a player's Coven at the menu, USS", lambda f: f"{f.uss_mb:.1f} MB"),
        ("a player's Coven at the menu, PSS", lambda f: f"{f.pss_mb:.1f} MB"),
        ("the door process, per open session (RSS)", lambda f: f"{f.door_growth_mb:.2f} MB"),
    ]
    for name, shown in rows:
        table.add_row(name, shown(figures["browser"]), shown(figures["ssh"]))
    Console().print(table)
    return 0
