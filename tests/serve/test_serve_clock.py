"""A live table's clock over real SSH: a seat's time runs out, the bot takes it, and both players are told.

The clock is tiny, not the time faked: before the game starts, the test gives Bea's seat one second on a 10+0
clock (written into the table's stored clock, as the host form's choice would be), then waits for what follows
by the screens and the store, never by the wall clock.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path

from engine.core.clock import Fischer, TableClock
from saves import SessionStore
from saves.presence import Presence
from saves.table_clock import StoredClock
from saves.tables import TableStore
from tests.helpers.serve_game import choose_team, open_table
from tests.helpers.ssh_client import ServeProcess, wait_until


def tiny_clock(code: str) -> None:
    """Table ``code`` gets a 10+0 clock on which Bea's seat (2) has one second left."""
    stored = StoredClock(TableClock(Fischer(10, 0), left={1: 1.0}, since=time.time()))
    store = SessionStore()
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE tables SET clock = ? WHERE code = ?", (stored.to_text(), code))
    store.close()


def test_a_seat_whose_time_runs_out_over_ssh_goes_to_the_bot_and_everyone_is_told() -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, env=env) as server:
        asyncio.run(run_out(server))


async def run_out(server: ServeProcess) -> None:
    ana, bea, code, _ = await open_table(server, before_start=tiny_clock)
    # A toast wraps its sentence over lines inside its border: its start is enough to know it is there.
    await bea.wait_for(lambda text: "Bea's time ran out" in " ".join(text.split()), timeout=60)
    await bea.wait_for("B Take seat back", timeout=20)  # the key to take it back shows in Bea's Footer only
    await ana.wait_for(lambda text: "Bea's time ran out" in " ".join(text.split()), timeout=60)
    await ana.wait_for("Bea: bot (time out)", timeout=20)
    assert "Take seat back" not in ana.text()
    store = SessionStore()
    with Presence() as presence:
        seat = TableStore(store, presence).find(code).seats[1]
    store.close()
    assert seat.role == "bot" and seat.bot_level == "normal"
    await choose_team(ana)  # the bot, played by Ana's Coven, chose Bea's team: the game moves on to the lineups
    await ana.wait_for("Waiting Card", timeout=60)
    await ana.close()
    await bea.close()
    wait_until(lambda: not server.children(), "both players' processes to end", 60)
