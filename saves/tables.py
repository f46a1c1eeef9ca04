"""Tables shared by several Coven processes through the session store.

A host opens a table with a join code; other processes (one per SSH
connection, usually) take its remote seats. Who holds what is a presence
claim (see :mod:`saves.presence`) written into the table's rows, and the
store refuses any action for a seat the acting connection does not hold.
Every change is one short write transaction of the shared
:class:`saves.store.SessionStore`, so two processes racing for a seat cannot
both win.
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
from engine.core.clock import ClockAsk, Fischer
from engine.core.text import clean_text
from saves import table_tokens
from saves.clock_record import new_clock_text
from saves.integrity import lenient_text
from saves.presence import Presence
from saves.records import SeatInfo
from saves.session import check_bot_levels, status_of
from saves.store import SessionStore
from saves.table_chat import (
    CHAT_COLUMNS,
    RATE_LINES,
    RATE_SECONDS,
    ChatError,
    ChatLine,
    ChatThrottledError,
    line_problem,
    lines_of,
    said_time,
)
from saves.table_clock import followed, handover_level, set_asks, take_back, time_out
from saves.table_clock import would_change as clock_changes
from saves.table_listing import Listing, listed_tables
from saves.table_records import (
    JOIN_CODE_ALPHABET,
    RECLAIM_WINDOW_SECONDS,
    BadTokenError,
    Hosted,
    ReclaimLimitError,
    SeatClaimError,
    SeatPlan,
    SeatRole,
    SeatTakenError,
    StillConnectedError,
    TableError,
    TableInfo,
    TableNotFoundError,
    TableSeat,
    TableStatus,
    TableWatcher,
    as_utc,
    normalise_code,
    parse_time,
)
from saves.table_rows import LIVE, clean_name, free_code, planned_seats, read_table, seat_label, session_seats
from saves.table_tokens import MAX_RECLAIM_TRIES, check_token, hash_token, reclaim_in
from saves.turn_pace import SIGNED_IN_ONLY, check_pace

__all__ = [
    "JOIN_CODE_ALPHABET", "MAX_RECLAIM_TRIES", "RECLAIM_WINDOW_SECONDS", "BadTokenError", "Hosted",
    "ReclaimLimitError", "SeatClaimError", "SeatPlan", "SeatRole", "SeatTakenError", "StillConnectedError", "TableError", "TableInfo",
    "TableNotFoundError", "TableSeat", "TableStatus", "TableStore", "TableWatcher", "normalise_code",
    "ChatError", "ChatLine", "ChatThrottledError",
]


class TableStore:
    """The shared tables in a :class:`SessionStore`'s database, seen by one process.

    The host's commands (opening a table, starting its game, closing it, handing seats
    to bots), what any player does (finding a table, taking and reclaiming seats,
    noticing who left), and talking at a table and watching it.

    Attributes:
        store: The session store whose transactions every change uses.
        presence: This process's liveness marker; its claim is what this process holds.
        clock: Returns the current UTC time; tests replace it instead of waiting.
        account: The signed-in account of this process's player (a password or key account under
            ``coven serve``), stored with the seats it takes so a rated game knows whose ratings move;
            None for a visit or a player at this machine, whose games are never rated.
    """

    def __init__(self, store: SessionStore, presence: Presence) -> None:
        self.store = store
        self.presence = presence
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        self._wrong_tokens = 0
        self.account: str | None = None

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

    # -- reading ---------------------------------------------------------------

    def find(self, code: str) -> TableInfo:
        """The live table (waiting, or playing an unfinished game) with join code ``code``.

        Raises:
            TableNotFoundError: no live table has the code.
        """
        with self.store._read() as conn:
            return self._live(conn, code)

    def is_live(self, code: str) -> bool:
        """True when a live table has join code ``code`` (any letter case, spaces around it allowed)."""
        try:
            self.find(code)
        except TableNotFoundError:
            return False
        return True

    def table_of_session(self, session_id: int) -> TableInfo | None:
        """The table (in any status) that plays session ``session_id``, or None."""
        with self.store._read() as conn:
            return read_table(conn, "t.session_id = ? ORDER BY t.id DESC", (session_id,))

    def listed(self) -> Listing:
        """The open-table list now (by :attr:`clock`): listed tables anyone may join, oldest first."""
        with self.store._read() as conn:
            return listed_tables(conn, self.clock())

    def my_tables(self) -> list[TableInfo]:
        """Live tables this process hosts or holds a seat at, newest first."""
        with self.store._read() as conn:
            ids = [
                int(row[0])
                for row in conn.execute(
                    f"SELECT t.id FROM tables t WHERE ({LIVE}) AND (t.host_claim = ? OR EXISTS"
                    " (SELECT 1 FROM table_seats ts WHERE ts.table_id = t.id AND ts.claim = ?)) ORDER BY t.id DESC",
                    (self.claim, self.claim),
                )
            ]
            tables = [read_table(conn, "t.id = ?", (table_id,)) for table_id in ids]
        return [info for info in tables if info is not None]

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
        listed: bool = False,
        rated: bool = False,
        pace_days: int = 0,
        timeout_bot: str | None = None,
        clock: Fischer | None = None,
    ) -> Hosted:
        """Open a new table in the lobby, hosted by this process.

        Local and bot seats are held by the host's claim; remote seats wait for players. ``allow_coach``
        lets the seated players ask a game's coach during play (off unless the host says so); ``listed``
        puts the table on the open-table list (:mod:`saves.table_listing`), else it is reachable by code only;
        ``rated`` makes a game there between signed-in players move their ratings (:mod:`saves.ratings`);
        ``pace_days`` (1, 3 or 7) makes it turn-based (:mod:`saves.turn_based`), with ``timeout_bot`` the bot
        level that takes a seat whose time runs out (the game's "normal" level, or its first, when None).
        ``clock`` gives a live table a Fischer clock (:mod:`saves.table_clock`), None: no clock; its time-outs go
        to ``timeout_bot`` too.

        Returns:
            The table and the host's token (shown once; only its hash is kept).

        Raises:
            UnknownGameError: no game has ``game_id``.
            InvalidOptionsError: bad options, seat count or bot level.
            TableError: a blank or overlong name, or a turn-based table hosted without a signed-in account.
        """
        spec = get_game(game_id)
        if pace_days and clock is not None:
            raise TableError("A clock is for a live table: a turn-based table gives each seat its days per move.")
        if pace_days or clock is None:
            timeout_bot = check_pace(spec, self.account, pace_days, timeout_bot)
        elif timeout_bot is not None and timeout_bot not in spec.bot_levels:  # a live table's clock: its time-out bot
            raise TableError(f"{spec.title} has no {timeout_bot!r} bot; its levels are {', '.join(spec.bot_levels)}.")
        resolved = spec.resolve_options(options)
        if len(plan) not in spec.seat_counts:
            counts = ", ".join(str(count) for count in spec.seat_counts)
            raise InvalidOptionsError(f"{spec.title} is played with {counts} seats, not {len(plan)}")
        host_name = clean_name(host_name, "the host's name")
        seats = planned_seats(plan)
        check_bot_levels(spec, session_seats(seats))
        # Local and bot seats are the host's from the start; remote ones wait for players.
        rows = [(s.seat, s.role, s.name, s.bot_level, None if s.role == "remote" else self.claim,
                 self.account if s.role == "local" else None) for s in seats]
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
                " allow_spectators, coach, listed, rated, pace_days, timeout_bot, clock, created, updated)"
                " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (code, game_id, json.dumps(resolved, sort_keys=True), seed, self.claim, host_name,
                 hash_token(token), int(allow_spectators), int(allow_coach), int(listed), int(rated), pace_days,
                 timeout_bot, None if clock is None else new_clock_text(clock, self._seconds()), now, now),
            )  # fmt: skip
            table_id = cursor.lastrowid
            conn.executemany(
                "INSERT INTO table_seats (table_id, seat, role, name, bot_level, claim, account) VALUES (?, ?, ?, ?, ?, ?, ?)",
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

        A live table starts when every remote seat's player is connected. A turn-based one needs only every
        seat taken (each by a signed-in account), whoever is connected now: it starts by itself when its last
        seat is taken (:meth:`take_seat`), and its players may be days apart.

        Returns:
            The new session's id.

        Raises:
            TableError: not the host, not waiting, or a remote seat is not held (not taken, at a turn-based table).
        """
        with self.store._write() as conn:
            info = self._hosted(conn, code)
            if info.status != "lobby":
                raise TableError(f"Table {info.code} has already started.")
            for seat in info.seats:
                if seat.role != "remote":
                    continue
                if info.turn_based and seat.account is None:
                    raise TableError(f"{seat_label(seat.seat)} ({seat.name}) is not taken yet.")
                if not info.turn_based and (seat.claim is None or not self.presence.alive(seat.claim)):
                    raise TableError(f"{seat_label(seat.seat)} ({seat.name}) is not connected yet.")
            return self._start(conn, info)

    def _start(self, conn: sqlite3.Connection, info: TableInfo) -> int:
        """Create ``info``'s session and mark the table playing (inside the caller's write transaction)."""
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
            # At a turn-based table a seat stays its player's while they are away, unless they chose to leave.
            dropped = [seat.seat for seat in info.seats if seat.role == "remote" and seat.claim is None
                       and seat.has_token and (seat.left or not info.turn_based)]
            conn.executemany(
                "UPDATE table_seats SET name = ?, token_hash = NULL, dropped_at = NULL, chose_to_leave = 0,"
                " account = NULL WHERE table_id = ? AND seat = ? AND claim IS NULL",
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
            self._to_bot(conn, info, seat, bot_level)

    def _to_bot(self, conn: sqlite3.Connection, info: TableInfo, seat: int, bot_level: str) -> None:
        """Seat ``seat`` is a bot's from now on, played by the host's process (in the table and its session).

        The one hand-over every path shares: a dropped seat after its wait, and a seat whose clock ran out.
        """
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

    # -- the clock (saves.table_clock) -------------------------------------------

    def _seconds(self) -> float:
        """Now by :attr:`clock`, in seconds: the time the table's Fischer clock counts in."""
        return as_utc(self.clock()).timestamp()

    def clock_follow(self, code: str, seq: int, asked: Sequence[int], curtain: bool | None = None) -> TableInfo:
        """Bring the table's clock to log entry ``seq``, where ``asked`` are asked to choose.

        ``curtain``: a curtain is up (True) or down (False) at the host's terminal; None leaves that as it is.
        Writes only when the clock changes (a new move, a seat dropped or back, a curtain), so calling it after
        every look at the game costs a read. Returns the table as it is now.

        The game's last move closes the table; following it still records that move's time (the table read is
        then the newest with the code).

        Raises:
            TableNotFoundError: no table has the code.
        """
        now = self._seconds()
        with self.store._read() as conn:
            info = self._followed_table(conn, code)
        if not clock_changes(info, seq, asked, now, curtain):
            return info
        with self.store._write() as conn:
            info = self._followed_table(conn, code)
            followed(conn, info, seq, asked, now, curtain)
            return self._followed_table(conn, code)

    def _followed_table(self, conn: sqlite3.Connection, code: str) -> TableInfo:
        """The live table ``code``, else the newest with that code (its game may have just ended)."""
        try:
            return self._live(conn, code)
        except TableNotFoundError:
            info = read_table(conn, "t.code = ? AND t.session_id IS NOT NULL ORDER BY t.id DESC",
                              (normalise_code(code) or "",))
            if info is None:
                raise
            return info

    def clock_ask(self, code: str, seats: Sequence[int], ask: ClockAsk) -> None:
        """Take up this player's clock request (their Settings) for the seats they hold here.

        Raises:
            TableNotFoundError: no live table has the code.
            TableError: a seat this connection does not hold.
        """
        with self.store._write() as conn:
            info = self._live(conn, code)
            if any(self._seat(info, seat).claim != self.claim for seat in seats):
                raise TableError("A clock request is only for your own seats.")
            set_asks(conn, info, seats, ask, self._seconds())

    def clock_time_out(self, code: str, seat: int) -> str:
        """This connection's ``seat`` ran out of time: a bot at the table's level plays it from now on.

        The player may take it back with :meth:`clock_take_back`. Returns the bot's level.

        Raises:
            TableError: no clock, not this connection's seat, or its time is not up.
        """
        with self.store._write() as conn:
            info = self._live(conn, code)
            spec = get_game(info.game_id)
            # The level the host chose under "Time runs out", as at a turn-based table; else the usual one.
            level = info.timeout_bot if info.timeout_bot in spec.bot_levels else handover_level(spec.bot_levels)
            if level is None:
                raise TableError(f"{spec.title} has no bots to take a seat.")
            time_out(conn, info, self._seat(info, seat).seat, self.claim, self._seconds())
            self._to_bot(conn, info, seat, level)
        return level

    def clock_take_back(self, code: str, seat: int) -> None:
        """Take back ``seat`` from the bot its time-out gave it to (only the player it was taken from).

        Raises:
            TableError: the seat was not timed out from this connection.
        """
        with self.store._write() as conn:
            info = self._live(conn, code)
            take_back(conn, info, self._seat(info, seat).seat, self.claim, self._seconds(), self._now())

    # -- joining ---------------------------------------------------------------

    def take_seat(self, code: str, seat: int, name: str) -> str:
        """Sit in an open remote seat under ``name``.

        Returns:
            The seat's token, to show its player once; only its hash is kept.

        Raises:
            TableNotFoundError: no live table has the code.
            SeatTakenError: the seat is not open (someone took it first).
            TableError: no such seat, an unusable name, or a turn-based table and no signed-in account.
        """
        name = clean_name(name, "your name")
        token = table_tokens.new_token()  # looked up at call time, so tests can fix the token
        with self.store._write() as conn:
            info = self._live(conn, code)
            target = self._seat(info, seat)
            if target.role != "remote":
                raise SeatTakenError(f"{seat_label(seat)} is not open to players joining.")
            if info.turn_based and self.account is None:
                raise TableError(SIGNED_IN_ONLY)  # the seat must know whose it is for days
            if target.claim is None and target.has_token:
                raise SeatTakenError(f"{seat_label(seat)} is kept for {target.name}, who may come back with a token.")
            if not target.is_open:
                raise SeatTakenError(f"{seat_label(seat)} was just taken by {target.name}.")
            # The WHERE repeats the checks so the row changes only if it is still open.
            cursor = conn.execute(
                "UPDATE table_seats SET name = ?, claim = ?, token_hash = ?, dropped_at = NULL, chose_to_leave = 0,"
                " account = ? WHERE table_id = ? AND seat = ? AND role = 'remote' AND claim IS NULL"
                " AND token_hash IS NULL AND account IS NULL",
                (name, self.claim, hash_token(token), self.account, info.table_id, seat),
            )
            if cursor.rowcount != 1:
                raise SeatTakenError(f"{seat_label(seat)} was just taken.")
            now = self._now()  # a join keeps a listed table on the open-table list for another hour
            conn.execute("UPDATE tables SET updated = ?, last_joined = ? WHERE id = ?", (now, now, info.table_id))
            if info.turn_based and info.status == "lobby":
                # As on Board Game Arena, a turn-based game starts once its table is full, whoever is connected.
                seated = read_table(conn, "t.id = ?", (info.table_id,))
                if seated is not None and seated.ready:
                    self._start(conn, seated)
        return token

    def reclaim(self, code: str, token: str) -> list[int]:
        """Take back a seat (or the host role) with its token after a drop.

        Each wrong token counts against this connection; after
        :data:`MAX_RECLAIM_TRIES` of them every further reclaim is refused, so
        tokens cannot be guessed. A typo that is not shaped like a token is not counted.

        Returns:
            The seats now held: the token's seat, or for the host's token the local seats.

        Raises:
            ReclaimLimitError: this connection already tried too many wrong tokens.
            TableNotFoundError: no live table has the code.
            BadTokenError: not a token, the token matches nothing here, or its seat went to a bot.
            StillConnectedError: the seat's (or host's) holder is still connected.
        """
        if self.reclaim_tries_left <= 0:
            raise ReclaimLimitError(
                f"{MAX_RECLAIM_TRIES} wrong seat tokens were tried from this connection, so it may not try more."
                " Check your token and connect again."
            )
        wanted = hash_token(check_token(token))
        with self.store._write() as conn:
            info = self._live(conn, code)
            seats = reclaim_in(conn, info, wanted, self.claim, self.presence.alive, self._now(), self.account)
        if seats is None:
            self._wrong_tokens += 1
            left = self.reclaim_tries_left
            raise BadTokenError(
                f"That seat token does not match any seat at table {info.code}"
                f" ({left} {'try' if left == 1 else 'tries'} left from this connection)."
            )
        return seats

    @property
    def reclaim_tries_left(self) -> int:
        """How many more wrong tokens this connection may try (0: reclaims are refused)."""
        return max(0, MAX_RECLAIM_TRIES - self._wrong_tokens)

    # -- presence --------------------------------------------------------------

    def refresh(self, code: str) -> TableInfo:
        """Like :meth:`find`, after clearing every claim at the table whose process is gone.

        A cleared seat gets ``dropped_at`` = now. Nothing is written when every holder is alive.

        Raises:
            TableNotFoundError: no live table has the code.
        """
        info = self.find(code)
        claims = {seat.claim for seat in info.seats if seat.claim is not None}
        if info.host_claim is not None:
            claims.add(info.host_claim)
        claims.update(watcher.claim for watcher in info.watchers)
        gone = sorted(claim for claim in claims if not self.presence.alive(claim))
        if not gone:
            return info
        now = self._now()
        with self.store._write() as conn:
            for claim in gone:
                # Matching the claim again means a seat re-taken meanwhile is left alone.
                conn.execute(
                    "UPDATE tables SET host_claim = NULL, updated = ? WHERE id = ? AND host_claim = ?",
                    (now, info.table_id, claim),
                )
                conn.execute(
                    "UPDATE table_seats SET claim = NULL, dropped_at = ?, chose_to_leave = 0"
                    " WHERE table_id = ? AND claim = ?",
                    (now, info.table_id, claim),
                )
                conn.execute("DELETE FROM table_watchers WHERE table_id = ? AND claim = ?", (info.table_id, claim))
            return self._live(conn, code)

    def release_mine(self, *, left: bool = False) -> None:
        """Let go of every seat and host role this process holds (a clean exit).

        ``left``: the player chose to leave (the others read "Bea left"); otherwise Coven is ending
        under them, which the others read as a drop.
        """
        now = self._now()
        with self.store._write() as conn:
            conn.execute("UPDATE tables SET host_claim = NULL, updated = ? WHERE host_claim = ?", (now, self.claim))
            conn.execute("UPDATE table_seats SET claim = NULL, dropped_at = ?, chose_to_leave = ? WHERE claim = ?",
                         (now, int(left), self.claim))
            conn.execute("DELETE FROM table_watchers WHERE claim = ?", (self.claim,))

    # -- talking and watching ---------------------------------------------------

    def _table(self, conn: sqlite3.Connection, table_id: int) -> TableInfo:
        """Table ``table_id`` while people may talk there: live, or its game just ended (a "good game")."""
        info = read_table(conn, "t.id = ?", (table_id,))
        if info is None:
            raise TableNotFoundError(str(table_id))
        if info.status == "closed":
            finished = info.session_id is not None and conn.execute(
                "SELECT 1 FROM sessions WHERE id = ? AND status = 'finished'", (info.session_id,)
            ).fetchone()
            if not finished:
                raise ChatError(f"Table {info.code} is closed; nobody is there to hear it.")
        return info

    def say(self, table_id: int, text: str) -> ChatLine:
        """Say ``text`` at table ``table_id`` as whoever this connection is there.

        Returns:
            The line as stored (cleaned).

        Raises:
            ChatError: nothing left once cleaned, too long, not at the table, or a spectator
                while the host keeps spectators quiet.
            ChatThrottledError: too many lines too quickly.
            TableNotFoundError: no such table.
        """
        line = clean_text(text) if isinstance(text, str) else ""
        if not line:
            raise ChatError("Nothing to say: the line is empty once control characters are taken out.")
        too_long = line_problem(line)
        if too_long is not None:
            raise ChatError(too_long)
        now = as_utc(self.clock())
        with self.store._write() as conn:
            info = self._table(conn, table_id)
            seat, name = self._speaker(conn, info)
            recent = [str(row[0]) for row in conn.execute(
                "SELECT said FROM table_chat WHERE table_id = ? AND claim = ? ORDER BY id DESC LIMIT ?",
                (info.table_id, self.claim, RATE_LINES))]
            if len(recent) >= RATE_LINES:
                oldest = said_time(recent[-1])
                free_at = now if oldest is None else oldest + timedelta(seconds=RATE_SECONDS)
                if free_at > now:
                    raise ChatThrottledError(max(1, ceil((free_at - now).total_seconds())))
            after = 0
            if info.session_id is not None:
                after = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE session_id = ?",
                                         (info.session_id,)).fetchone()[0])
            said = now.isoformat(timespec="microseconds")
            cursor = conn.execute(
                "INSERT INTO table_chat (table_id, session_id, after_seq, seat, claim, name, line, said)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (info.table_id, info.session_id, after, seat, self.claim, name, line, said),
            )
            line_id = int(cursor.lastrowid or 0)
        return ChatLine(line_id, name, line, seat, self.claim, after, said)

    def _speaker(self, conn: sqlite3.Connection, info: TableInfo) -> tuple[int | None, str]:
        """This connection's seat (None: watching) and name at ``info``, or refuse it a voice."""
        held = info.seats_of(self.claim)
        if held:
            return held[0], info.seats[held[0]].name
        if info.host_claim == self.claim:
            return None, info.host_name
        for watcher in info.watchers:
            if watcher.claim == self.claim:
                if not info.spectator_chat:
                    raise ChatError(f"{info.host_name}, the host, has turned spectators' chat off.")
                return None, watcher.name
        raise ChatError(f"Only the players and spectators at table {info.code} can talk there.")

    def chat_since(self, table_id: int, after_id: int = 0) -> list[ChatLine]:
        """The readable lines said at table ``table_id`` after line ``after_id``, in order."""
        with self.store._read() as conn, lenient_text(conn):
            rows = conn.execute(f"SELECT {CHAT_COLUMNS} FROM table_chat WHERE table_id = ? AND id > ? ORDER BY id",
                                (table_id, after_id)).fetchall()
        return lines_of(rows)

    def watch(self, code: str, name: str) -> TableInfo:
        """List this connection as watching the live table ``code`` under ``name``.

        Raises:
            TableNotFoundError: no live table has the code.
            TableError: the host allows no spectators, or an unusable name.
        """
        name = clean_name(name, "your name")
        with self.store._write() as conn:
            info = self._live(conn, code)
            if not info.allow_spectators:
                raise TableError(f"The host of table {info.code} allows no spectators.")
            conn.execute(
                "INSERT OR REPLACE INTO table_watchers (table_id, claim, name, since) VALUES (?, ?, ?, ?)",
                (info.table_id, self.claim, name, self._now()),
            )
            return self._live(conn, code)

    def set_spectator_chat(self, code: str, allowed: bool) -> TableInfo:
        """Let spectators talk at table ``code``, or keep them quiet (host only).

        Raises:
            TableError: not the host, or no live table has the code.
        """
        with self.store._write() as conn:
            info = self._hosted(conn, code)
            conn.execute("UPDATE tables SET spectator_chat = ?, updated = ? WHERE id = ?",
                         (int(allowed), self._now(), info.table_id))
            return self._live(conn, code)
