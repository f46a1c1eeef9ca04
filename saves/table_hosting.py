"""The host's side of a shared table: opening it, starting its game, closing it, and handing seats to bots.

:class:`TableHosting` is the base of :class:`saves.tables.TableStore`, which
adds what any player at a table does (finding it, taking and reclaiming
seats, noticing who left). Both share one :class:`SessionStore`'s
transactions and this process's presence claim.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from math import ceil
from typing import Any

from engine import get_game
from engine.core import InvalidOptionsError
from saves import table_tokens
from saves.presence import Presence
from saves.records import SeatInfo
from saves.session import check_bot_levels, status_of
from saves.store import SessionStore
from saves.table_records import (
    RECLAIM_WINDOW_SECONDS,
    Hosted,
    SeatPlan,
    TableError,
    TableInfo,
    TableNotFoundError,
    TableSeat,
    as_utc,
    normalise_code,
    parse_time,
)
from saves.table_rows import LIVE, clean_name, free_code, planned_seats, read_table, seat_label, session_seats
from saves.table_tokens import hash_token


class TableHosting:
    """The shared tables in a :class:`SessionStore`'s database, seen by one process: the host's commands.

    Attributes:
        store: The session store whose transactions every change uses.
        presence: This process's liveness marker; its claim is what this process holds.
        clock: Returns the current UTC time; tests replace it instead of waiting.
    """

    def __init__(self, store: SessionStore, presence: Presence) -> None:
        self.store = store
        self.presence = presence
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    @property
    def claim(self) -> str:
        """This process's presence claim."""
        return self.presence.claim

    def _now(self) -> str:
        return as_utc(self.clock()).isoformat(timespec="microseconds")

    # -- what both sides read -------------------------------------------------

    def _live(self, conn: sqlite3.Connection, code: str) -> TableInfo:
        normal = normalise_code(code)
        info = None if normal is None else read_table(conn, f"t.code = ? AND ({LIVE})", (normal,))
        if info is None:
            raise TableNotFoundError(normal or code.strip())
        return info

    @staticmethod
    def _seat(info: TableInfo, seat: int) -> TableSeat:
        if not 0 <= seat < len(info.seats):
            raise TableError(f"Table {info.code} has no seat {seat + 1}.")
        return info.seats[seat]

    # -- hosting ---------------------------------------------------------------

    def host(
        self,
        game_id: str,
        options: Mapping[str, Any],
        seed: int,
        plan: Sequence[SeatPlan],
        *,
        host_name: str,
        allow_spectators: bool = False,
        allow_coach: bool = False,
    ) -> Hosted:
        """Open a new table in the lobby, hosted by this process.

        Local and bot seats are held by the host's claim; remote seats wait for players. ``allow_coach``
        lets the seated players ask a game's coach during play (off unless the host says so).

        Returns:
            The table and the host's token (shown once; only its hash is kept).

        Raises:
            UnknownGameError: no game has ``game_id``.
            InvalidOptionsError: bad options, seat count or bot level.
            TableError: a blank or overlong name.
        """
        spec = get_game(game_id)
        resolved = spec.resolve_options(options)
        if len(plan) not in spec.seat_counts:
            counts = ", ".join(str(count) for count in spec.seat_counts)
            raise InvalidOptionsError(f"{spec.title} is played with {counts} seats, not {len(plan)}")
        host_name = clean_name(host_name, "the host's name")
        seats = planned_seats(plan)
        check_bot_levels(spec, session_seats(seats))
        # Local and bot seats are the host's from the start; remote ones wait for players.
        rows = [(s.seat, s.role, s.name, s.bot_level, None if s.role == "remote" else self.claim) for s in seats]
        token = table_tokens.new_token()  # looked up at call time, so tests can fix the token
        now = self._now()
        with self.store._write() as conn:
            # Tables whose game ended or whose session was deleted give back their codes.
            conn.execute(
                "UPDATE tables SET status = 'closed', updated = ? WHERE status = 'playing' AND id NOT IN"
                f" (SELECT t.id FROM tables t WHERE {LIVE})",
                (now,),
            )
            code = free_code(conn)
            cursor = conn.execute(
                "INSERT INTO tables (code, game_id, options, seed, status, host_claim, host_name, host_token_hash,"
                " allow_spectators, coach, created, updated) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                (code, game_id, json.dumps(resolved, sort_keys=True), seed, self.claim, host_name,
                 hash_token(token), int(allow_spectators), int(allow_coach), now, now),
            )  # fmt: skip
            table_id = cursor.lastrowid
            conn.executemany(
                "INSERT INTO table_seats (table_id, seat, role, name, bot_level, claim) VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, *row) for row in rows],
            )
            info = read_table(conn, "t.id = ?", (table_id,))
        assert info is not None
        return Hosted(info=info, token=token)

    def _hosted(self, conn: sqlite3.Connection, code: str) -> TableInfo:
        info = self._live(conn, code)
        if info.host_claim != self.claim:
            raise TableError(f"Only the host of table {info.code} can do that.")
        return info

    def start(self, code: str) -> int:
        """Start the waiting table's game: create its session and link it.

        Returns:
            The new session's id.

        Raises:
            TableError: not the host, not waiting, or a remote seat is not held.
        """
        with self.store._write() as conn:
            info = self._hosted(conn, code)
            if info.status != "lobby":
                raise TableError(f"Table {info.code} has already started.")
            for seat in info.seats:
                if seat.role == "remote" and (seat.claim is None or not self.presence.alive(seat.claim)):
                    raise TableError(f"{seat_label(seat.seat)} ({seat.name}) is not connected yet.")
            spec = get_game(info.game_id)
            seats = session_seats(info.seats)
            state = spec.new_state(info.options, info.seed, len(seats), [seat.name for seat in seats])
            status, progress, result_text = status_of(spec.rules, state, seats)
            session_id = self.store._insert_session(
                conn, info.game_id, info.options, info.seed, seats,
                status=status, progress=progress, result_text=result_text, rules_version=spec.rules.rules_version,
            )  # fmt: skip
            conn.execute(
                "UPDATE tables SET status = 'playing', session_id = ?, updated = ? WHERE id = ?",
                (session_id, self._now(), info.table_id),
            )
        return session_id

    def close(self, code: str) -> None:
        """Close the table (the host cancelling it); its code is free again.

        A started game's session stays stored and becomes an ordinary session.

        Raises:
            TableError: not the host.
        """
        with self.store._write() as conn:
            info = self._hosted(conn, code)
            conn.execute(
                "UPDATE tables SET status = 'closed', updated = ? WHERE id = ?", (self._now(), info.table_id)
            )

    def reopen_dropped(self, code: str) -> list[int]:
        """Open again, for anyone, the lobby's remote seats whose players left (host only).

        Before the game starts nothing is lost by sitting down afresh, so a seat is
        not kept for its token there. Returns the seats opened.

        Raises:
            TableError: not the host.
        """
        with self.store._write() as conn:
            info = self._hosted(conn, code)
            if info.status != "lobby":
                return []
            dropped = [seat.seat for seat in info.seats if seat.role == "remote" and seat.claim is None
                       and seat.has_token]
            conn.executemany(
                "UPDATE table_seats SET name = ?, token_hash = NULL, dropped_at = NULL"
                " WHERE table_id = ? AND seat = ? AND claim IS NULL",
                [(seat_label(seat), info.table_id, seat) for seat in dropped],
            )
        return dropped

    def hand_to_bot(self, code: str, seat: int, bot_level: str) -> None:
        """Give a remote seat nobody holds to a bot played by the host's process.

        A seat someone sat in can be handed over only once its player has been
        gone for :data:`RECLAIM_WINDOW_SECONDS`; an open seat at once.

        Raises:
            TableError: not the host, not a remote seat, still held or still kept for its player.
            InvalidOptionsError: the game has no such bot level.
        """
        now = as_utc(self.clock())
        with self.store._write() as conn:
            info = self._hosted(conn, code)
            target = self._seat(info, seat)
            label = f"{seat_label(seat)} ({target.name})"
            if target.role != "remote":
                raise TableError(f"{label} is not a remote seat.")
            seats = session_seats(info.seats)
            seats[seat] = SeatInfo(target.name, "bot", bot_level)
            check_bot_levels(get_game(info.game_id), seats)
            if target.claim is not None and self.presence.alive(target.claim):
                raise TableError(f"{label} is still connected.")
            if target.has_token:
                # A holder found gone just now dropped now, as far as anyone knows.
                dropped = parse_time(target.dropped_at) if target.dropped_at and target.claim is None else now
                left = timedelta(seconds=RECLAIM_WINDOW_SECONDS) - (now - dropped)
                if left > timedelta(0):
                    minutes = ceil(left.total_seconds() / 60)
                    raise TableError(
                        f"{label} is kept for its player for {minutes} more minute{'s' if minutes != 1 else ''}."
                    )
            conn.execute(
                "UPDATE table_seats SET role = 'bot', bot_level = ?, claim = NULL WHERE table_id = ? AND seat = ?",
                (bot_level, info.table_id, seat),
            )
            if info.session_id is not None:
                conn.execute(
                    "UPDATE seats SET kind = 'bot', bot_level = ? WHERE session_id = ? AND seat = ?",
                    (bot_level, info.session_id, seat),
                )
            conn.execute("UPDATE tables SET updated = ? WHERE id = ?", (self._now(), info.table_id))
