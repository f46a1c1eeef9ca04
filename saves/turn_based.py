"""Turn-based tables: each seat's clock, vacations, running out of time, and coming back days later.

A turn-based table (``TableInfo.pace_days`` of 1, 3 or 7) lives on in the store while nobody is connected.
Its players are signed-in accounts (see :mod:`saves.turn_pace`), so a seat knows whose it is without a token.

**The rule, the same for every game.** A seat's clock runs while the game asks it to act and its player
is not on vacation. It starts when the seat was last asked: the earliest log entry after which the seat has
been asked all along without acting (a secret choice the others make meanwhile does not restart it), or the
start of the game, or the moment its player took it back from the bot, whichever is latest. Past half its time
the seat is *reminded* (its player reads so in their list of tables). When the time is all used, the seat
passes to a bot at the level the host chose when creating the table; everyone at the table reads who ran
out, and the player may take the seat back from the bot at their next visit (the bot's moves stand).

Nothing waits for a timer: whoever looks at a table (a player's list, a table screen) applies the rule as of
:func:`now <saves.tables.TableStore.clock>`, in one write transaction that changes nothing if someone moved
meanwhile, so several processes looking at once hand a seat over once.

**Vacations.** Each account has :data:`VACATION_DAYS` days a calendar year. Turning vacation on spends its
first day at once and every day it stays on after that (a day begun is a day used); it ends when turned off or
when the bank is empty. While it is on, none of the account's clocks run. Days are counted in the year the
vacation started.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil

from saves.errors import StoreError
from saves.records import LogEntry
from saves.session import LiveSession
from saves.table_records import TableError, TableInfo, as_utc, parse_time
from saves.table_rows import LIVE, read_table, seat_label
from saves.tables import TableStore

VACATION_DAYS = 14
"""Days of vacation each account has in a calendar year."""

DAY = timedelta(days=1)


# -- vacations --------------------------------------------------------------------


@dataclass(frozen=True)
class Vacation:
    """An account's vacation bank as of a moment.

    Attributes:
        on: Whether a vacation is running now (its clocks are paused).
        days_used: Days spent this calendar year (a day begun counts whole).
        days_left: Days still in this year's bank.
        until: When the running vacation ends by itself (the bank runs dry); None while off.
    """

    on: bool
    days_used: int
    days_left: int
    until: datetime | None


def _stamp(moment: datetime) -> str:
    return as_utc(moment).isoformat(timespec="microseconds")


def _periods(conn: sqlite3.Connection, account: str, now: datetime) -> list[tuple[datetime, datetime, bool]]:
    """Each vacation of ``account`` begun by ``now``: (start, end so far, still on)."""
    periods = []
    for started, until, ended in conn.execute(
        "SELECT started, until, ended FROM vacations WHERE account = ? ORDER BY started", (account,)
    ):
        try:
            start, cap = parse_time(started), parse_time(until)
            stop = cap if ended is None else min(cap, parse_time(ended))
        except (TypeError, ValueError):
            continue  # a damaged row pauses nothing
        if start > now:
            continue
        periods.append((start, min(stop, now), ended is None and now < cap))
    return periods


def _days(start: datetime, end: datetime) -> int:
    """Days a vacation from ``start`` to ``end`` spent: its first at once, then each one begun."""
    return max(1, ceil((end - start) / DAY))


def _vacation(conn: sqlite3.Connection, account: str, now: datetime) -> Vacation:
    periods = _periods(conn, account, now)
    used = sum(_days(start, end) for start, end, _ in periods if start.year == now.year)
    left = max(0, VACATION_DAYS - used)
    running = [start for start, _, on in periods if on]
    until = None
    if running:
        # The running vacation's own end: where the bank it was given at its start runs dry.
        row = conn.execute("SELECT until FROM vacations WHERE account = ? AND ended IS NULL ORDER BY started DESC"
                           " LIMIT 1", (account,)).fetchone()
        until = parse_time(row[0]) if row is not None else None
    return Vacation(on=bool(running), days_used=used, days_left=left, until=until)


def vacation(tables: TableStore, account: str) -> Vacation:
    """``account``'s vacation bank now (by the table store's clock)."""
    now = as_utc(tables.clock())
    with tables.store._read() as conn:
        return _vacation(conn, account, now)


def start_vacation(tables: TableStore, account: str) -> Vacation:
    """Turn ``account``'s vacation on: its clocks stop until it is turned off or the year's bank runs dry.

    Raises:
        TableError: already on, or no days left this year.
    """
    with tables.store._write() as conn:
        # The time is read once the write lock is held: a terminal that read it earlier but wrote later would
        # not see a vacation begun after its reading, and would start a second one.
        now = as_utc(tables.clock())
        bank = _vacation(conn, account, now)
        if bank.on:
            raise TableError("Your vacation is already on.")
        if bank.days_left <= 0:
            raise TableError(f"You have used all {VACATION_DAYS} vacation days of {now.year}.")
        # An old row left "on" past its end is closed, so only one is ever open.
        conn.execute("UPDATE vacations SET ended = until WHERE account = ? AND ended IS NULL", (account,))
        conn.execute("INSERT INTO vacations (account, started, until) VALUES (?, ?, ?)",
                     (account, _stamp(now), _stamp(now + bank.days_left * DAY)))
        return _vacation(conn, account, now)


def end_vacation(tables: TableStore, account: str) -> Vacation:
    """Turn ``account``'s vacation off: its clocks run again from now.

    Raises:
        TableError: no vacation is on.
    """
    with tables.store._write() as conn:
        now = as_utc(tables.clock())  # under the write lock, as start_vacation reads it
        if not _vacation(conn, account, now).on:
            raise TableError("Your vacation is not on.")
        conn.execute("UPDATE vacations SET ended = ? WHERE account = ? AND ended IS NULL", (_stamp(now), account))
        return _vacation(conn, account, now)


def _paused(periods: Sequence[tuple[datetime, datetime, bool]], since: datetime, now: datetime) -> timedelta:
    """How much of ``since``..``now`` the vacations ``periods`` cover."""
    total = timedelta(0)
    for start, end, _ in periods:
        overlap = min(end, now) - max(start, since)
        if overlap > timedelta(0):
            total += overlap
    return total


# -- clocks -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatClock:
    """One asked seat's time for its move.

    Attributes:
        seat: The seat (from 0).
        name: Who sits there.
        account: Its player's account.
        since: When its clock started (UTC).
        allowed: The table's time per move.
        used: How much of it is gone (vacations not counted).
    """

    seat: int
    name: str
    account: str | None
    since: datetime
    allowed: timedelta
    used: timedelta

    @property
    def left(self) -> timedelta:
        """Time still left (never below nothing)."""
        return max(timedelta(0), self.allowed - self.used)

    @property
    def reminded(self) -> bool:
        """Half the time or more is gone: the player is reminded."""
        return self.used * 2 >= self.allowed

    @property
    def overdue(self) -> bool:
        """All the time is gone: the seat passes to the bot."""
        return self.used >= self.allowed


def asked_since(log: Sequence[LogEntry], states_to_act: Sequence[Sequence[int]], seat: int, started: datetime) -> datetime:
    """When ``seat``, asked now, was asked: the earliest entry after which it stayed asked without acting.

    ``states_to_act[i]`` is who was asked after log entry ``i`` (0: the opening), so it is one longer than ``log``.
    """
    index = len(states_to_act) - 1
    while index > 0 and seat in states_to_act[index - 1] and log[index - 1].seat != seat:
        index -= 1
    if index == 0:
        return started
    return parse_time(log[index - 1].created)


def _started(conn: sqlite3.Connection, session_id: int) -> datetime:
    row = conn.execute("SELECT created FROM sessions WHERE id = ?", (session_id,)).fetchone()
    if row is None:
        raise TableError(f"Session {session_id} is gone.")
    return parse_time(row[0])


def clocks(conn: sqlite3.Connection, info: TableInfo, live: LiveSession, now: datetime) -> list[SeatClock]:
    """The clocks of ``info``'s asked human seats at ``now`` (inside a transaction); [] at a live table."""
    if not info.turn_based or info.session_id is None or live.result is not None:
        return []
    now = as_utc(now)
    asked = [seat for seat in live.to_act if 0 <= seat < len(info.seats) and info.seats[seat].role != "bot"]
    if not asked:
        return []
    to_act = live.to_act_history()
    log = live.log
    started = _started(conn, info.session_id)
    found = []
    for seat in asked:
        table_seat = info.seats[seat]
        since = asked_since(log, to_act, seat, started) if len(to_act) == len(log) + 1 else started
        if table_seat.clock_from is not None:
            since = max(since, parse_time(table_seat.clock_from))
        paused = _paused(_periods(conn, table_seat.account, now), since, now) if table_seat.account else timedelta(0)
        used = max(timedelta(0), now - since - paused)
        found.append(SeatClock(seat, table_seat.name, table_seat.account, since, info.pace_days * DAY, used))
    return found


def seat_deadline(tables: TableStore, info: TableInfo, live: LiveSession, seat: int) -> datetime | None:
    """When ``seat``'s time for its move runs out, as of ``tables.clock`` (a vacation from now on moves it later).

    None at a live table, or when the game does not ask ``seat``. Meant for a notice that tells an absent
    player a turn-based table asks them (``coven serve --notify-url``).
    """
    now = as_utc(tables.clock())
    with tables.store._read() as conn:
        for clock in clocks(conn, info, live, now):
            if clock.seat == seat:
                return now + clock.left
    return None


def seat_clocks(tables: TableStore, info: TableInfo, live: LiveSession) -> list[SeatClock]:
    """The clocks of ``info``'s asked human seats as of ``tables.clock`` ([] at a live table)."""
    now = as_utc(tables.clock())
    with tables.store._read() as conn:
        return clocks(conn, info, live, now)


# -- running out, coming back -------------------------------------------------------


def run_out(tables: TableStore, info: TableInfo, live: LiveSession) -> list[int]:
    """Give every seat of ``info`` whose time ran out (by ``tables.clock``) to the table's time-out bot.

    ``live`` is the table's game as this process last read it; when someone moved since, nothing is changed
    (the next look decides again). Run by every process that looks, so only the first hands a seat over.

    Returns:
        The seats handed over now.
    """
    if not info.turn_based or info.session_id is None or info.timeout_bot is None:
        return []
    now = as_utc(tables.clock())
    with tables.store._read() as conn:
        overdue = [clock.seat for clock in clocks(conn, info, live, now) if clock.overdue]
    if not overdue:
        return []
    handed = []
    with tables.store._write() as conn:
        moves = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE session_id = ?",
                                 (info.session_id,)).fetchone()[0])
        if moves != len(live.log):
            return []
        for seat in overdue:
            cursor = conn.execute(
                "UPDATE table_seats SET role = 'bot', bot_level = ?, claim = NULL, timed_out_at = ?,"
                " dropped_at = COALESCE(dropped_at, ?) WHERE table_id = ? AND seat = ? AND role != 'bot'"
                " AND timed_out_at IS NULL",
                (info.timeout_bot, _stamp(now), _stamp(now), info.table_id, seat),
            )
            if cursor.rowcount == 1:
                conn.execute("UPDATE seats SET kind = 'bot', bot_level = ? WHERE session_id = ? AND seat = ?",
                             (info.timeout_bot, info.session_id, seat))
                handed.append(seat)
        if handed:
            conn.execute("UPDATE tables SET updated = ? WHERE id = ?", (_stamp(now), info.table_id))
    return handed


def take_back(tables: TableStore, code: str) -> list[int]:
    """Take back, for this process's account, every seat of table ``code`` a bot took when its time ran out.

    The seat is this process's again; its clock starts afresh now.

    Returns:
        The seats taken back ([] when no bot plays one of the account's seats).

    Raises:
        TableError: no signed-in account, or no live table has the code.
    """
    account = _signed_in(tables)
    now = _stamp(tables.clock())
    with tables.store._write() as conn:
        info = _turn_table(conn, code)
        mine = [seat.seat for seat in info.seats
                if seat.role == "bot" and seat.timed_out_at is not None and seat.account == account]
        taken = []
        for seat in mine:
            cursor = conn.execute(
                "UPDATE table_seats SET role = 'remote', bot_level = NULL, claim = ?, timed_out_at = NULL,"
                " clock_from = ?, dropped_at = NULL, chose_to_leave = 0 WHERE table_id = ? AND seat = ?"
                " AND role = 'bot' AND timed_out_at IS NOT NULL AND account = ?",
                (tables.claim, now, info.table_id, seat, account),
            )
            if cursor.rowcount == 1 and info.session_id is not None:
                conn.execute("UPDATE seats SET kind = 'human', bot_level = NULL WHERE session_id = ? AND seat = ?",
                             (info.session_id, seat))
                taken.append(seat)
        if taken:
            conn.execute("UPDATE tables SET updated = ? WHERE id = ?", (now, info.table_id))
    return taken


def resume(tables: TableStore, code: str) -> list[int]:
    """Sit again, without a token, in every seat of turn-based table ``code`` that this process's account holds.

    A seat held by a connection that is still alive is left to it. When nobody drives the table (its host's
    Coven is gone), this process takes that role too, so bots and automatic steps play while it is here.

    Returns:
        The seats now held.

    Raises:
        TableError: no signed-in account, no live turn-based table has the code, or no seat there is the account's.
    """
    account = _signed_in(tables)
    now = _stamp(tables.clock())
    with tables.store._write() as conn:
        info = _turn_table(conn, code)
        mine = [seat for seat in info.seats if seat.account == account and seat.role != "bot"]
        if not mine and not any(seat.account == account for seat in info.seats):
            raise TableError(f"You have no seat at table {info.code}.")
        held = []
        for seat in mine:
            if seat.claim is not None and seat.claim != tables.claim and tables.presence.alive(seat.claim):
                continue  # the same account in another terminal plays it now
            conn.execute("UPDATE table_seats SET claim = ?, dropped_at = NULL, chose_to_leave = 0"
                         " WHERE table_id = ? AND seat = ? AND account = ?",
                         (tables.claim, info.table_id, seat.seat, account))
            held.append(seat.seat)
        if held:  # only a process that sits there drives; one whose seats all went to bots only looks
            _take_helm(conn, tables, info, now)
        if not held and mine:
            names = ", ".join(f"{seat_label(seat.seat)} ({seat.name})" for seat in mine)
            raise TableError(f"{names} is played from another terminal now.")
    return held


def take_helm(tables: TableStore, code: str) -> bool:
    """Drive turn-based table ``code`` (play its bots and automatic steps) when its driver is gone.

    Only a process holding a seat there may. Returns whether this process drives it now.
    """
    with tables.store._write() as conn:
        try:
            info = _turn_table(conn, code)
        except TableError:
            return False
        if not info.seats_of(tables.claim):
            return info.host_claim == tables.claim
        return _take_helm(conn, tables, info, _stamp(tables.clock()))


def keep_helm(tables: TableStore, table_id: int) -> bool:
    """Drive turn-based table ``table_id`` for a keeper that holds no seat there (``coven tables keep``).

    Taken the same way a player's Coven takes it (:func:`take_helm`): only when no live process drives the
    table, in one write transaction, so a player opening the table meanwhile and the keeper never both drive
    it. The keeper gives it up again with :func:`release_helm` once its pass is over.

    Returns:
        Whether this process drives the table now (False: someone else does, or it is no live turn-based table).
    """
    with tables.store._write() as conn:
        info = read_table(conn, f"t.id = ? AND ({LIVE})", (table_id,))
        if info is None or not info.turn_based:
            return False
        return _take_helm(conn, tables, info, _stamp(tables.clock()))


def release_helm(tables: TableStore, table_id: int) -> None:
    """Stop driving table ``table_id`` (if this process does), so the next player who opens it drives it."""
    with tables.store._write() as conn:
        conn.execute("UPDATE tables SET host_claim = NULL WHERE id = ? AND host_claim = ?", (table_id, tables.claim))


def _take_helm(conn: sqlite3.Connection, tables: TableStore, info: TableInfo, now: str) -> bool:
    holder = info.host_claim
    if holder == tables.claim:
        return True
    if holder is not None and tables.presence.alive(holder):
        return False
    cursor = conn.execute("UPDATE tables SET host_claim = ?, updated = ? WHERE id = ? AND host_claim IS ?",
                          (tables.claim, now, info.table_id, holder))
    return cursor.rowcount == 1


def _signed_in(tables: TableStore) -> str:
    if tables.account is None:
        raise TableError("Turn-based tables are for signed-in players only.")
    return tables.account


def _turn_table(conn: sqlite3.Connection, code: str) -> TableInfo:
    info = read_table(conn, f"t.code = ? AND ({LIVE})", (code.strip().upper(),))
    if info is None:
        raise TableError(f"No open table has the code {code.strip().upper()}.")
    if not info.turn_based:
        raise TableError(f"Table {info.code} is a live table, not a turn-based one.")
    return info


# -- a player's tables ----------------------------------------------------------------


@dataclass(frozen=True)
class TurnTable:
    """One of a player's turn-based tables, as their list shows it.

    Attributes:
        code: The join code.
        game_id: The game.
        pace_days: Days per move.
        my_seats: The player's seats there (a bot may play some of them for now).
        my_clock: The player's asked seat with the least time left; None when the game asks none of them.
        waiting_for: The names of the other asked seats ("a bot" for a bot's move, "the table" for a step).
        timed_out: (seat, name) of every seat a bot took when its time ran out, the player's own included.
        handed_now: The seats this look handed to the bot.
    """

    code: str
    game_id: str
    pace_days: int
    my_seats: tuple[int, ...]
    my_clock: SeatClock | None
    waiting_for: tuple[str, ...]
    timed_out: tuple[tuple[int, str], ...]
    handed_now: tuple[int, ...] = ()

    @property
    def my_move(self) -> bool:
        """The game waits for one of the player's own seats."""
        return self.my_clock is not None

    def mine_timed_out(self) -> list[str]:
        """The names of the player's seats a bot plays since their time ran out."""
        return [name for seat, name in self.timed_out if seat in self.my_seats]


def my_turn_tables(tables: TableStore) -> list[TurnTable]:
    """The live turn-based tables where this process's account has a seat, those awaiting it first.

    Looking applies the time-out rule first (:func:`run_out`), as of ``tables.clock``.

    Raises:
        StoreError: the store could not be read.
    """
    account = tables.account
    if account is None:
        return []
    with tables.store._read() as conn:
        ids = [int(row[0]) for row in conn.execute(
            f"SELECT t.id FROM tables t WHERE t.pace_days > 0 AND t.status = 'playing' AND ({LIVE}) AND EXISTS"
            " (SELECT 1 FROM table_seats ts WHERE ts.table_id = t.id AND ts.account = ?) ORDER BY t.id", (account,))]
    found = []
    for table_id in ids:
        try:
            found.append(_turn_table_of(tables, table_id, account))
        except (StoreError, ValueError):
            continue  # a table that cannot be read now is left out of the list, not the whole list
    return sorted(found, key=lambda table: (not table.my_move, table.my_clock.left if table.my_clock else DAY * 99))


def _turn_table_of(tables: TableStore, table_id: int, account: str) -> TurnTable:
    with tables.store._read() as conn:
        info = read_table(conn, "t.id = ?", (table_id,))
    if info is None or info.session_id is None:
        raise TableError("gone")
    live = LiveSession.load(tables.store, info.session_id)
    handed = run_out(tables, info, live)
    if handed:
        live.sync()
        with tables.store._read() as conn:
            info = read_table(conn, "t.id = ?", (table_id,)) or info
    now = as_utc(tables.clock())
    with tables.store._read() as conn:
        asked = clocks(conn, info, live, now)
    mine = tuple(seat.seat for seat in info.seats if seat.account == account)
    my_clocks = sorted((clock for clock in asked if clock.seat in mine), key=lambda clock: clock.left)
    waiting = []
    for seat in live.to_act:
        if seat in mine and info.seats[seat].role != "bot":
            continue
        waiting.append(f"a bot for {info.seats[seat].name}" if info.seats[seat].role == "bot"
                       else info.seats[seat].name)
    if not live.to_act and live.table_action is not None:
        waiting.append("the table's next step")
    timed_out = tuple((seat.seat, seat.name) for seat in info.seats if seat.timed_out_at is not None)
    return TurnTable(info.code, info.game_id, info.pace_days, mine, my_clocks[0] if my_clocks else None,
                     tuple(waiting), timed_out, tuple(handed))


def time_text(left: timedelta) -> str:
    """``left`` in words a player plans by: "2 days 3 h", "5 h", "40 min"."""
    minutes = int(left.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} day{'s' if days != 1 else ''}" + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h"
    return f"{max(mins, 1)} min"
