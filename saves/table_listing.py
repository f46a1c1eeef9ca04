"""The open-table lobby: which shared tables are listed for anyone to join, read for the Tables screen.

A host may mark a table *listed*. It is on the list while it waits in the lobby with its host there, has a
seat anyone may take, and someone sat down or opened it less than :data:`LISTED_FOR` ago. Only what every
player may see is read: never the seed, a token, a claim or a seat's hand. Rows come from a database other
processes (or damage) wrote, so each is checked, and one that cannot be read is counted, not shown.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from engine import get_game
from engine.core import UnknownGameError
from engine.core.clock import Fischer
from engine.core.text import UnsafeTextError, check_name
from saves.clock_record import parse_clock
from saves.integrity import lenient_text
from saves.records import MAX_NAME_LENGTH
from saves.table_records import PACE_DAYS, as_utc, normalise_code, parse_time
from saves.turn_pace import pace_cell

LISTED_FOR = timedelta(hours=1)
"""A listed table that nobody opened or joined for this long drops off the list."""

LIVE_PACE = "live"
"""The pace of a live table: everyone plays at once (a turn-based table's reads "3d", days per move)."""

_LISTED_ROWS = (
    "SELECT t.code, t.game_id, t.options, t.allow_spectators, t.host_name, t.created, t.last_joined,"
    " (SELECT count(*) FROM table_seats ts WHERE ts.table_id = t.id),"
    " (SELECT count(*) FROM table_seats ts WHERE ts.table_id = t.id AND ts.role = 'remote'"
    "  AND ts.claim IS NULL AND ts.token_hash IS NULL AND ts.account IS NULL), t.pace_days, t.clock"
    " FROM tables t WHERE t.status = 'lobby' AND t.listed = 1 AND t.host_claim IS NOT NULL ORDER BY t.id"
)
"""Listed tables waiting with their host, oldest first, with their seat count and open seats."""


@dataclass(frozen=True)
class ListedTable:
    """A table on the open-table list: only what anyone may know before sitting down.

    Attributes:
        code: The join code.
        game_id: Registry id of the game.
        options: The game's resolved options (the screen says only which differ from the defaults).
        allow_spectators: Whether someone without a seat may watch.
        host_name: The host's name, checked as a seat's name is.
        created: When the table opened (UTC).
        last_joined: When a player last took a seat (UTC); None while nobody has.
        seats: How many seats the table has.
        free: How many seats anyone may take now.
        pace: ``"live"`` (everyone plays at once) or days per move at a turn-based table, such as ``"3d"``.
        pace_days: 0 at a live table, else the days each seat has per move.
        clock: A live table's Fischer clock (5 minutes plus 10 s a move, say); None: no clock.
    """

    code: str
    game_id: str
    options: dict[str, Any]
    allow_spectators: bool
    host_name: str
    created: datetime
    last_joined: datetime | None
    seats: int
    free: int
    pace: str = LIVE_PACE
    pace_days: int = 0
    clock: Fischer | None = None

    def fresh_until(self) -> datetime:
        """When the table drops off the list unless someone joins: an hour after it opened or was last joined."""
        last = self.created if self.last_joined is None else max(self.created, self.last_joined)
        return last + LISTED_FOR


@dataclass(frozen=True)
class Listing:
    """The open-table list as read now.

    Attributes:
        tables: The listed tables, oldest first.
        unreadable: How many listed rows were damaged and left out.
    """

    tables: tuple[ListedTable, ...]
    unreadable: int = 0


def _listed(row: tuple[Any, ...]) -> ListedTable | None:
    """One row as a listed table, or None when any part of it is damaged."""
    code, game_id, options, spectators, host_name, created, last_joined, seats, free, pace_days, clock = row
    if not isinstance(code, str) or normalise_code(code) != code or not isinstance(game_id, str):
        return None
    try:
        get_game(game_id)
        loaded = json.loads(options) if isinstance(options, str) else None
        host = check_name(host_name, "The host's name", max_length=MAX_NAME_LENGTH) \
            if isinstance(host_name, str) else None
        opened = parse_time(created) if isinstance(created, str) else None
        joined = parse_time(last_joined) if isinstance(last_joined, str) else None
        stored = parse_clock(clock, seats if isinstance(seats, int) else 0)
    except (UnknownGameError, UnsafeTextError, ValueError, TypeError, OverflowError):
        return None
    if not isinstance(loaded, dict) or host is None or opened is None or not isinstance(seats, int) \
            or not isinstance(free, int) or (last_joined is not None and joined is None) \
            or (pace_days != 0 and pace_days not in PACE_DAYS):
        return None
    return ListedTable(code=code, game_id=game_id, options=loaded, allow_spectators=bool(spectators),
                       host_name=host, created=opened, last_joined=joined, seats=seats, free=free,
                       pace=pace_cell(pace_days), pace_days=pace_days,
                       clock=None if stored is None else stored.clock.fischer)


def listed_tables(conn: sqlite3.Connection, now: datetime) -> Listing:
    """The tables on the open-table list at ``now`` (inside a read transaction).

    Listed, waiting in the lobby with the host there, at least one seat open, and opened or last
    joined less than :data:`LISTED_FOR` before ``now``.
    """
    now = as_utc(now)
    with lenient_text(conn):
        rows = conn.execute(_LISTED_ROWS).fetchall()
    tables: list[ListedTable] = []
    unreadable = 0
    for row in rows:
        table = _listed(tuple(row))
        if table is None:
            unreadable += 1
        elif table.free > 0 and now < table.fresh_until():
            tables.append(table)
    return Listing(tuple(tables), unreadable)
