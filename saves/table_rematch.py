"""Rematch at a shared table: every seated player agrees, then the same table plays again.

The offer lives on the table's row (``tables.rematch``, schema 7) as JSON
about one finished session: who asked, which seats said yes, and how it
ended. Bots agree at once; a process answers for every seat it holds (the
host's local seats go with the host). The write that completes the yeses
also starts the rematch (:mod:`saves.rematch`'s rule: same game, options and
seats, a new seed, the next seat starting, the same series): the table goes
back to ``playing`` under the same code with the new session, so seats,
tokens and spectators stay. A refusal, or a seat (or the host) that left,
ends the offer, in words every screen can show. The JSON is checked on
reading; anything else reads as no offer.
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass
from typing import Literal

from engine import get_game
from saves.rematch import next_first, rematch_seed
from saves.session import status_of
from saves.table_clock import fresh_for_rematch
from saves.table_records import TableError, TableInfo, as_utc
from saves.table_rows import read_table, session_seats
from saves.tables import TableStore

RematchEnd = Literal["refused", "left", "started", "code"]
_ENDS = ("refused", "left", "started", "code")


@dataclass(frozen=True)
class RematchOffer:
    """A rematch asked for at a table, about one finished session.

    Attributes:
        finished: The finished session it would follow.
        by: The seat that asked.
        yes: The seats that agreed (bots included).
        end: None while players are asked; else how it ended.
        who: The seat that refused or left (None otherwise).
        session: The rematch's session once started.
    """

    finished: int
    by: int
    yes: frozenset[int]
    end: RematchEnd | None = None
    who: int | None = None
    session: int | None = None

    def to_json(self) -> str:
        """The stored form."""
        return json.dumps({"for": self.finished, "by": self.by, "yes": sorted(self.yes), "end": self.end,
                           "who": self.who, "session": self.session}, sort_keys=True)

    def words(self, names: list[str]) -> str:
        """What a screen says about it ("Bo does not want to play again.")."""
        def name(seat: int | None) -> str:
            return names[seat] if seat is not None and 0 <= seat < len(names) else "A player"

        if self.end == "refused":
            return f"{name(self.who)} does not want to play again."
        if self.end == "left":
            return f"{name(self.who)} left the table, so there is no rematch."
        if self.end == "code":
            return "The table's code went to another table meanwhile, so there is no rematch here."
        if self.end == "started":
            return "Everyone agreed: the rematch begins."
        waiting = [names[seat] for seat in range(len(names)) if seat not in self.yes]
        return f"{name(self.by)} wants to play again. Waiting for {' and '.join(waiting)}…"


def parse_offer(text: object, seats: int) -> RematchOffer | None:
    """The offer stored as ``text`` for a table of ``seats`` seats, or None when it is none or not well formed."""
    if not isinstance(text, str) or len(text) > 1000:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    finished, by, yes, end = data.get("for"), data.get("by"), data.get("yes"), data.get("end")
    who, session = data.get("who"), data.get("session")

    def seat_ok(value: object) -> bool:
        return type(value) is int and 0 <= value < seats

    if type(finished) is not int or type(by) is not int or not seat_ok(by) or not isinstance(yes, list) or not all(map(seat_ok, yes)):
        return None
    if end is not None and end not in _ENDS or who is not None and not seat_ok(who):
        return None
    if session is not None and type(session) is not int:
        return None
    return RematchOffer(finished, by, frozenset(yes), end, who, session)


def _table(conn: sqlite3.Connection, session_id: int) -> tuple[TableInfo, RematchOffer | None] | None:
    # After a rematch began, the table plays the new session; its offer still names the finished one.
    info = read_table(conn, "t.session_id = ? OR (CASE WHEN json_valid(t.rematch) THEN"
                      " json_extract(t.rematch, '$.for') END) = ? ORDER BY t.id DESC", (session_id, session_id))
    if info is None:
        return None
    row = conn.execute("SELECT rematch FROM tables WHERE id = ?", (info.table_id,)).fetchone()
    offer = parse_offer(row[0] if row else None, len(info.seats))
    return info, offer if offer is not None and offer.finished == session_id else None


def rematch_offer(tables: TableStore, session_id: int) -> RematchOffer | None:
    """The rematch offer about finished session ``session_id`` (its table's), or None."""
    with tables.store._read() as conn:
        found = _table(conn, session_id)
    return None if found is None else found[1]


def ask_rematch(tables: TableStore, session_id: int, agree: bool = True) -> RematchOffer:
    """Ask for a rematch (or answer the open offer) for every seat this process holds.

    ``agree=False`` refuses the open offer. The write that completes the yeses starts the rematch.

    Raises:
        TableError: no table played it, it is not over, or this process holds no seat there.
    """
    with tables.store._write() as conn:
        found = _table(conn, session_id)
        if found is None:
            raise TableError(f"Session {session_id} was not played at a table.")
        info, offer = found
        status = conn.execute("SELECT status FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if info.session_id != session_id or status is None or status[0] != "finished":
            raise TableError("Only a finished table's game can be played again.")
        mine = set(info.seats_of(tables.claim))
        if not mine:
            raise TableError("Only a player seated at the table can ask to play again.")
        bots = {seat.seat for seat in info.seats if seat.role == "bot"}
        if offer is None or offer.end is not None:
            if not agree:
                raise TableError("Nobody has asked to play again.")
            offer = RematchOffer(session_id, min(mine), frozenset(mine | bots))
        elif agree:
            offer = RematchOffer(session_id, offer.by, offer.yes | mine | bots)
        else:
            offer = RematchOffer(session_id, offer.by, offer.yes, "refused", min(mine))
        return _settle(tables, conn, info, offer, found[1])


def settle_rematch(tables: TableStore, session_id: int) -> RematchOffer | None:
    """End the open offer when a seat (or the host) left; start it if every seat agreed. None: no offer."""
    with tables.store._write() as conn:
        found = _table(conn, session_id)
        if found is None:
            return None
        info, offer = found
        if offer is None:
            return None
        return offer if offer.end is not None else _settle(tables, conn, info, offer, offer)


def leave_finished(tables: TableStore, session_id: int) -> None:
    """Give up this process's seats at the table that finished ``session_id`` (an open offer then ends)."""
    with tables.store._write() as conn:
        found = _table(conn, session_id)
        if found is None or found[0].session_id != session_id:
            return
        table_id, now = found[0].table_id, tables._now()
        conn.execute("UPDATE tables SET host_claim = NULL, updated = ? WHERE id = ? AND host_claim = ?",
                     (now, table_id, tables.claim))
        # Leaving a finished table is a choice: the others read "Bea left", not that she dropped.
        conn.execute("UPDATE table_seats SET claim = NULL, dropped_at = ?, chose_to_leave = 1"
                     " WHERE table_id = ? AND claim = ?", (now, table_id, tables.claim))


def _settle(tables: TableStore, conn: sqlite3.Connection, info: TableInfo, offer: RematchOffer,
            stored: RematchOffer | None) -> RematchOffer:
    """Store ``offer`` after ending it for a player who left, or starting the rematch when all agreed.

    Nothing is written when it is the ``stored`` offer unchanged: every screen settles on its polls, and a
    write would wake all the others.
    """
    if offer.end is None:
        gone = [seat.seat for seat in info.seats if seat.role != "bot"
                and (seat.claim is None or not tables.presence.alive(seat.claim))]
        host_gone = info.host_claim is None or not tables.presence.alive(info.host_claim)
        if gone or host_gone:
            held = [seat.seat for seat in info.seats if seat.claim is not None and seat.claim == info.host_claim]
            who = gone[0] if gone else (held[0] if held else None)
            offer = RematchOffer(offer.finished, offer.by, offer.yes, "left", who)
        elif offer.yes >= set(range(len(info.seats))):
            offer = _start(tables, conn, info, offer)
    if offer != stored:
        conn.execute("UPDATE tables SET rematch = ?, updated = ? WHERE id = ?",
                     (offer.to_json(), tables._now(), info.table_id))
    return offer


def _start(tables: TableStore, conn: sqlite3.Connection, info: TableInfo, offer: RematchOffer) -> RematchOffer:
    """Start the rematch at the same table and code (inside the caller's write)."""
    try:
        # First, so a code another live table took meanwhile stops everything before a session exists.
        conn.execute("UPDATE tables SET status = 'playing' WHERE id = ?", (info.table_id,))
    except sqlite3.IntegrityError:
        return RematchOffer(offer.finished, offer.by, offer.yes, "code")
    spec = get_game(info.game_id)
    seats = session_seats(info.seats)
    names = [seat.name for seat in seats]
    row = conn.execute("SELECT seed FROM sessions WHERE id = ?", (offer.finished,)).fetchone()
    last_seed = row[0] if row is not None and type(row[0]) is int else info.seed
    opening = spec.new_state(info.options, last_seed, len(seats), names)
    seed, _ = rematch_seed(spec, info.options, names, next_first(spec, opening, len(seats)), random.SystemRandom())
    state = spec.new_state(info.options, seed, len(seats), names)
    status, progress, result_text = status_of(spec.rules, state, seats)
    series = _series_in(conn, offer.finished)
    session_id = tables.store._insert_session(
        conn, info.game_id, info.options, seed, seats, status=status, progress=progress, result_text=result_text,
        rules_version=spec.rules.rules_version, series=series,
    )  # fmt: skip
    conn.execute("UPDATE tables SET session_id = ?, seed = ? WHERE id = ?", (session_id, seed, info.table_id))
    fresh_for_rematch(conn, info, offer.finished, as_utc(tables.clock()).timestamp())
    return RematchOffer(offer.finished, offer.by, offer.yes, "started", None, session_id)


def _series_in(conn: sqlite3.Connection, session_id: int) -> int:
    row = conn.execute("SELECT series FROM sessions WHERE id = ?", (session_id,)).fetchone()
    if row is None or type(row[0]) is not int or not 0 < row[0] <= session_id:
        return session_id
    return int(row[0])


__all__ = ["RematchOffer", "ask_rematch", "leave_finished", "parse_offer", "rematch_offer", "settle_rematch"]
