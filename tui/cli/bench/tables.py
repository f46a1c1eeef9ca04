"""``coven bench tables``: how soon one process sees another's action at a shared table.

Two connections to a throw-away store play a Wizards Cup table: the "player"
saves its seat's actions; the "watcher" polls ``PRAGMA data_version`` at the
table screens' own interval in a thread that sleeps between polls (as the
screens' timers do), then catches up with ``LiveSession.sync``. The figure is
the time from a commit returning to the watcher holding the new state.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import threading
import time

from rich.console import Console
from rich.table import Table

from engine import get_game
from saves import LiveSession, SessionStore
from saves.presence import Presence
from saves.tables import SeatPlan, TableStore
from tui.table_link import POLL_SECONDS

TARGET_SECONDS = 0.3
"""The issue's bound: other processes see an action within 300 ms."""


def _watch(live: LiveSession, seen: dict[int, float], stop: threading.Event) -> None:
    """Poll like a table screen; note when each log length is first reached."""
    version = live.store.data_version()
    while not stop.is_set():
        current = live.store.data_version()
        if current != version:
            version = current
            live.sync()
            seen.setdefault(len(live.log), time.perf_counter())
        stop.wait(POLL_SECONDS)


def _one_table(store: SessionStore, watcher_store: SessionStore, presence: Presence, seed: int,
               wanted: int) -> list[float]:
    """Play one table game (or ``wanted`` actions of it); each action's commit-to-watcher latency."""
    spec = get_game("wizards-cup")
    tables = TableStore(store, presence)
    plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]
    code = tables.host("wizards-cup", {}, seed, plan, host_name="Ana").info.code
    tables.take_seat(code, 1, "Bea")
    session_id = tables.start(code)
    player = LiveSession.load(store, session_id, claim=presence.claim)
    watcher = LiveSession.load(watcher_store, session_id)
    seen: dict[int, float] = {}
    stop = threading.Event()
    thread = threading.Thread(target=_watch, args=(watcher, seen, stop), daemon=True)
    thread.start()
    rng = random.Random(seed)
    committed: dict[int, float] = {}
    while len(committed) < wanted and player.result is None:
        time.sleep(rng.uniform(0.0, POLL_SECONDS))  # actions come at any moment of a poll
        seats = player.to_act
        if seats:
            legal = player.rules.legal_actions(player.state, seats[0])
            player.apply(seats[0], spec.bots["easy"](player.rules.view(player.state, seats[0]), legal, rng))
        else:
            player.play_table()
        committed[len(player.log)] = time.perf_counter()
        deadline = time.perf_counter() + 2.0
        while len(player.log) not in seen and time.perf_counter() < deadline:
            time.sleep(0.001)
    stop.set()
    thread.join()
    return [seen[n] - at if n in seen else float("inf") for n, at in committed.items()]


def measure(samples: int) -> tuple[list[float], float]:
    """Latencies (s) from commit to the watcher's state, and the time to reload a whole session (s)."""
    latencies: list[float] = []
    before = os.environ.get("COVEN_DATA_DIR")
    with tempfile.TemporaryDirectory(prefix="coven-bench-tables-") as folder:
        os.environ["COVEN_DATA_DIR"] = folder  # presence files too, never in the player's own folder
        store, watcher_store = SessionStore(), SessionStore()
        with Presence() as presence:
            seed = 0
            while len(latencies) < samples:
                seed += 1
                latencies += _one_table(store, watcher_store, presence, seed, samples - len(latencies))
        finished = store.list_sessions()[0].session_id
        started = time.perf_counter()
        for _ in range(20):
            LiveSession.load(watcher_store, finished)
        reload = (time.perf_counter() - started) / 20
        store.close()
        watcher_store.close()
    if before is None:
        os.environ.pop("COVEN_DATA_DIR", None)
    else:
        os.environ["COVEN_DATA_DIR"] = before
    return latencies, reload


def run(samples: int = 100) -> int:
    """Print the latency figures; exit status 1 if any action took longer than the target."""
    latencies, reload = measure(samples)
    ordered = sorted(latencies)
    table = Table(title="coven bench tables")
    table.add_column("measure")
    table.add_column("figure", justify="right")
    table.add_row("actions measured", str(len(ordered)))
    table.add_row("poll interval", f"{POLL_SECONDS * 1000:.0f} ms")
    table.add_row("commit → other process, median", f"{statistics.median(ordered) * 1000:.0f} ms")
    table.add_row("95th percentile", f"{ordered[int(0.95 * (len(ordered) - 1))] * 1000:.0f} ms")
    table.add_row("max", f"{ordered[-1] * 1000:.0f} ms (target {TARGET_SECONDS * 1000:.0f} ms)")
    table.add_row("reloading a whole session", f"{reload * 1000:.1f} ms")
    Console().print(table)
    return 0 if ordered[-1] <= TARGET_SECONDS else 1
