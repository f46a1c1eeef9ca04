"""A turn-based Wizards Cup table left with nobody connected, for the table keeper's tests.

Ana (account ``ana``) hosts a 1-day table, Bea (``bea``) takes the other seat, Bea chooses her team, and both
processes are gone. The game's start is then moved back in the database, so Ana's clock has run as long as the
test says without anyone waiting: the clock counts from the session's start (:mod:`saves.turn_based`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from saves import LiveSession, Presence, SessionStore
from saves.tables import SeatPlan, TableStore

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class LeftTable:
    """The table as the test left it: its code, its session and the host's token."""

    code: str
    session_id: int
    host_token: str


def left_table(ana_waited: timedelta) -> LeftTable:
    """Host and start the table, let Bea choose her team, leave it with Ana asked since ``ana_waited`` ago."""
    with SessionStore() as store, Presence() as ana, Presence() as bea:
        host = TableStore(store, ana)
        host.account = "ana"
        hosted = host.host("wizards-cup", {}, 7, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                           host_name="Ana", pace_days=1, timeout_bot="easy")
        guest = TableStore(store, bea)
        guest.account = "bea"
        guest.take_seat(hosted.info.code, 1, "Bea")  # the table is full: the game starts
        session_id = host.find(hosted.info.code).session_id
        assert session_id is not None
        live = LiveSession.load(store, session_id, claim=bea.claim)
        bot = live.spec.bots["easy"]
        import random

        live.apply(1, bot(live.rules.view(live.state, 1), live.rules.legal_actions(live.state, 1), random.Random(1)))
        start = datetime.now(UTC) - ana_waited
        with store._write() as conn:
            conn.execute("UPDATE sessions SET created = ? WHERE id = ?",
                         (start.isoformat(timespec="microseconds"), session_id))
    return LeftTable(hosted.info.code, session_id, hosted.token)


def keep_once(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``coven tables keep`` once as its own process (as cron would); what it printed."""
    return subprocess.run([sys.executable, "-m", "tui.cli", "tables", "keep", *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, env=dict(os.environ), check=False)


def moves_by_seat(session_id: int) -> list[int | None]:
    """The seat of each entry of the session's log, in order (the log replays, or this raises)."""
    with SessionStore() as store:
        return [entry.seat for entry in LiveSession.load(store, session_id).log]
