"""A live table's Fischer clock as stored in the ``tables.clock`` column, and its changes.

The rules are :class:`engine.core.clock.TableClock`'s; :mod:`saves.clock_record` keeps one per table as JSON,
with the seats its time-outs handed to bots (so their players can take them back). Every process at the table calls
:meth:`saves.tables.TableStore.clock_follow` after its game moved: the first to see a new log entry charges
the time and adds the movers' increments, the others find nothing to change. A stopped clock (a curtain up at
the host's terminal, a seat dropped) charges nobody. Nothing here opens a transaction of its own.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine.core.clock import ClockAsk, TableClock
from saves.clock_record import StoredClock, TimedOut, parse_clock
from saves.table_records import TableError, TableInfo

if TYPE_CHECKING:
    from saves.store import SessionStore


def _write(conn: sqlite3.Connection, info: TableInfo, stored: StoredClock) -> None:
    conn.execute("UPDATE tables SET clock = ? WHERE id = ?", (stored.to_text(), info.table_id))


def _dropped(info: TableInfo) -> bool:
    """A seat some person plays has nobody connected: the clock stops while the game waits for them."""
    return info.status == "playing" and any(seat.role != "bot" and seat.claim is None for seat in info.seats)


def followed(conn: sqlite3.Connection, info: TableInfo, seq: int, asked: Iterable[int], now: float,
             curtain: bool | None) -> StoredClock | None:
    """``info``'s clock after following the game to log entry ``seq`` asking ``asked`` (None: no clock).

    Bots have no clock, so bot seats asked are left out. ``curtain`` None leaves the curtain stop as it is.
    Writes the clock back only when something changed; the caller's transaction decides whether it may write.
    """
    stored = info.clock
    if stored is None or info.session_id is None:
        return stored
    people = [seat for seat in asked if info.seats[seat].role != "bot"]
    clock = stored.clock
    movers: list[tuple[int, int]] = []
    if seq > clock.seq:
        movers = [(int(entry), int(seat)) for entry, seat in conn.execute(
            "SELECT seq, seat FROM actions WHERE session_id = ? AND seq > ? AND seq <= ? AND seat IS NOT NULL"
            " ORDER BY seq", (info.session_id, clock.seq, seq))]
    changed = clock.follow(seq, people, movers, now)
    changed = clock.stop_for(curtain=curtain, dropped=_dropped(info), now=now) or changed
    if changed:
        _write(conn, info, stored)
    return stored


def would_change(info: TableInfo, seq: int, asked: Iterable[int], now: float, curtain: bool | None) -> bool:
    """Whether :func:`followed` would write anything (read first, so an unchanged clock costs no write)."""
    if info.clock is None or info.session_id is None:
        return False
    clock = copy.deepcopy(info.clock.clock)
    people = [seat for seat in asked if info.seats[seat].role != "bot"]
    if clock.follow(seq, people, [], now):
        return True
    return clock.stop_for(curtain=curtain, dropped=_dropped(info), now=now)


def set_asks(conn: sqlite3.Connection, info: TableInfo, seats: Iterable[int], ask: ClockAsk, now: float) -> None:
    """Take up a player's clock request for their ``seats``."""
    stored = info.clock
    if stored is None:
        return
    if any([stored.clock.set_ask(seat, ask, now) for seat in seats]):
        _write(conn, info, stored)


def time_out(conn: sqlite3.Connection, info: TableInfo, seat: int, claim: str, now: float) -> None:
    """Take ``seat``, whose time ran out, off the clock and remember who held it (the caller hands it to a bot).

    Raises:
        TableError: no clock, the seat is not ``claim``'s, or its time is not up.
    """
    stored = info.clock
    target = info.seats[seat]
    if stored is None:
        raise TableError(f"Table {info.code} has no clock.")
    if target.role == "bot" or target.claim != claim:
        raise TableError(f"{target.name}'s seat is not played from this connection.")
    if seat not in stored.clock.out_of_time(now):
        raise TableError(f"{target.name} still has time.")
    stored.clock.take_off(seat, now)
    stored.out[seat] = TimedOut(target.role, claim)
    _write(conn, info, stored)


def take_back(conn: sqlite3.Connection, info: TableInfo, seat: int, claim: str, now: float, stamp: str, *,
              by_token: bool = False, account: str | None = None) -> None:
    """Give ``seat``, which a time-out handed to a bot, back to ``claim`` with a fresh minute on its clock.

    Only the connection it was taken from may take it back, or (``by_token``) a player who proved with the
    seat's token that it is theirs, on a later visit. ``stamp`` is the table's ``updated`` time; ``account`` the
    signed-in account of a player coming back by token.

    Raises:
        TableError: the seat was not timed out, or from another connection.
    """
    stored = info.clock
    gone = None if stored is None else stored.out.get(seat)
    if stored is None or gone is None or info.seats[seat].role != "bot":
        raise TableError(f"{info.seats[seat].name}'s seat was not handed to a bot by the clock.")
    if gone.claim != claim and not by_token:
        raise TableError(f"Only the player whose time ran out can take {info.seats[seat].name}'s seat back.")
    del stored.out[seat]
    stored.clock.put_back(seat, now)
    _write(conn, info, stored)
    conn.execute(
        "UPDATE table_seats SET role = ?, bot_level = NULL, claim = ?, dropped_at = NULL, chose_to_leave = 0"
        " WHERE table_id = ? AND seat = ?", (gone.role, claim, info.table_id, seat))
    if by_token:  # a later visit may be signed in as someone else: the seat counts for whoever plays it now
        conn.execute("UPDATE table_seats SET account = ? WHERE table_id = ? AND seat = ?",
                     (account, info.table_id, seat))
    if info.session_id is not None:
        conn.execute("UPDATE seats SET kind = 'human', bot_level = NULL WHERE session_id = ? AND seat = ?",
                     (info.session_id, seat))
    conn.execute("UPDATE tables SET updated = ? WHERE id = ?", (stamp, info.table_id))


def read_clock(code: str, text: object, seats: int) -> StoredClock | None:
    """The stored clock of table ``code`` (None: no clock).

    Raises:
        TableError: the stored clock is not readable (the database may be damaged).
    """
    try:
        return parse_clock(text, seats)
    except ValueError:
        raise TableError(f"Table {code} has an unreadable clock; the database may be damaged.") from None


def session_clock(store: SessionStore, session_id: int) -> TableClock | None:
    """The clock of the table that played ``session_id`` (None: no such table, no clock, or one that cannot be
    read: the game replays without it). A game a rematch followed kept its clock by its session."""
    with store._read() as conn:
        row = conn.execute(
            "SELECT c.clock, (SELECT COUNT(*) FROM seats s WHERE s.session_id = c.session_id) FROM session_clocks c"
            " WHERE c.session_id = ?", (session_id,)).fetchone()
        if row is None:
            row = conn.execute(
                "SELECT t.clock, (SELECT COUNT(*) FROM table_seats ts WHERE ts.table_id = t.id) FROM tables t"
                " WHERE t.session_id = ? ORDER BY t.id DESC LIMIT 1", (session_id,)).fetchone()
    if row is None:
        return None
    try:
        stored = parse_clock(row[0], int(row[1]))
    except ValueError:
        return None
    return None if stored is None else stored.clock


def fresh_for_rematch(conn: sqlite3.Connection, info: TableInfo, finished: int, now: float) -> None:
    """A rematch starts at ``info``'s table: keep the finished game's clock by its session and give the table a
    fresh one (the same time control and every player's request; nobody off the clock)."""
    stored = info.clock
    if stored is None:
        return
    conn.execute("INSERT OR REPLACE INTO session_clocks (session_id, clock) VALUES (?, ?)",
                 (finished, stored.to_text()))
    fresh = StoredClock(TableClock(stored.clock.fischer, asks=dict(stored.clock.asks), since=now))
    _write(conn, info, fresh)


def handover_level(levels: Iterable[str]) -> str | None:
    """The bot level a live table hands a seat to: "normal" where the game has it, else its first (None: no bots)."""
    levels = list(levels)
    return "normal" if "normal" in levels else (levels[0] if levels else None)
