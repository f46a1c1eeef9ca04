"""One pass of the table keeper over a save folder: every turn-based table nobody drives moves on as it would
if a player had opened it.

For each such table the keeper takes its helm the way a player's Coven does (:func:`saves.turn_based.keep_helm`),
hands each seat whose time ran out to the host's *Time runs out* bot (:func:`saves.turn_based.run_out`, which
stamps the seat so every list and table screen tells who ran out), plays the bots' moves and the table's steps
until a person is asked or the game ends, sends each newly asked seat its notice and each away player their
half-time reminder (:mod:`tui.table_turns`), then lets go of the helm so the next player who opens the table
drives it. A table whose helm a live process holds is left to it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import ActionError
from saves import LiveSession, LogConflictError, StoreError
from saves.ratings import rate_finished
from saves.table_records import SeatClaimError, TableInfo
from saves.table_rows import read_table, seat_label
from saves.tables import TableStore
from saves.turn_based import keep_helm, release_helm, run_out
from tui.table_turns import bot_choice, bot_for, remind_half_time, tell_asked

log = logging.getLogger("coven.keeper")

MAX_MOVES = 2000
"""The most moves one pass plays at one table (far more than any game of the three; a guard, not a rule)."""


def _nobody_here(seat: int) -> bool:
    """The keeper plays no person's seat."""
    return False


@dataclass
class Tended:
    """What one pass did at one table.

    Attributes:
        code: The table's join code.
        game: The game's title.
        timed_out: The names of the seats handed to the bot now.
        moves: Bot moves and table steps played.
        told: The names of the seats told they are asked.
        reminded: The names of the seats reminded at half time.
        finished: The game ended in this pass.
    """

    code: str
    game: str
    timed_out: list[str] = field(default_factory=list)
    moves: int = 0
    told: list[str] = field(default_factory=list)
    reminded: list[str] = field(default_factory=list)
    finished: bool = False

    @property
    def touched(self) -> bool:
        """Whether anything changed or was sent."""
        return bool(self.timed_out or self.moves or self.told or self.reminded or self.finished)

    def line(self) -> str:
        """One line for the log or the terminal, e.g. ``table ABCD (Wizards Cup): Bea ran out of time; ...``."""
        parts = [f"{', '.join(self.timed_out)} ran out of time (a bot plays for them)"] if self.timed_out else []
        if self.moves:
            parts.append(f"{self.moves} move{'s' if self.moves != 1 else ''} played by bots or the table")
        if self.finished:
            parts.append("the game is over")
        if self.told:
            parts.append(f"told {', '.join(self.told)} it is their move")
        if self.reminded:
            parts.append(f"reminded {', '.join(self.reminded)} at half time")
        return f"table {self.code} ({self.game}): " + "; ".join(parts or ["nothing to do"])


def turn_tables(tables: TableStore) -> list[int]:
    """The ids of the turn-based tables whose game is being played, oldest first."""
    with tables.store._read() as conn:
        return [int(row[0]) for row in conn.execute(
            "SELECT t.id FROM tables t JOIN sessions s ON s.id = t.session_id WHERE t.pace_days > 0"
            " AND t.status = 'playing' AND s.status = 'active' ORDER BY t.id")]


def keep_tables(tables: TableStore, stopping: Callable[[], bool] = lambda: False) -> list[Tended]:
    """One pass over every turn-based table of ``tables``' folder; what was done at each table it tended.

    A table that cannot be read or played now is logged and left for the next pass; ``stopping`` is asked
    between tables (a keeper told to stop ends its pass there).
    """
    done = []
    for table_id in turn_tables(tables):
        if stopping():
            break
        try:
            tended = tend(tables, table_id)
        except (StoreError, ValueError) as error:
            log.warning("table %d left for the next pass: %s", table_id, error)
            continue
        except Exception:  # noqa: BLE001 - a bot or a damaged game at one table must not stop every other table
            log.exception("table %d left for the next pass: the keeper failed there", table_id)
            continue
        if tended is not None:
            done.append(tended)
    return done


def _read(tables: TableStore, table_id: int) -> TableInfo | None:
    with tables.store._read() as conn:
        return read_table(conn, "t.id = ?", (table_id,))


def tend(tables: TableStore, table_id: int) -> Tended | None:
    """Move turn-based table ``table_id`` on as a visiting player's Coven would; None when another process drives it.

    Raises:
        StoreError: the table or its game could not be read or written.
    """
    info = _read(tables, table_id)
    if info is None or info.session_id is None or not info.turn_based:
        return None
    if info.host_claim is not None and info.host_claim != tables.claim and tables.presence.alive(info.host_claim):
        return None  # a player's Coven drives it now
    if not keep_helm(tables, table_id):
        return None  # a player opened it meanwhile: theirs to drive
    try:
        tended, live, newly = _drive(tables, table_id, info.session_id)
    finally:
        release_helm(tables, table_id)
    if live.result is None:
        # Told once the helm is let go and the table read again: who sits where now, after every move of the pass.
        info = _read(tables, table_id) or info
        asked = [seat for seat in live.to_act if seat in newly]
        tended.told = [info.seats[seat].name for seat in tell_asked(tables, info, live, asked, set(), _nobody_here)]
        tended.reminded = [info.seats[seat].name for seat in remind_half_time(tables, info, live, _nobody_here)]
    return tended


def _drive(tables: TableStore, table_id: int, session_id: int) -> tuple[Tended, LiveSession, set[int]]:
    """The keeper's moves at a table whose helm it holds; what it did, the game, and the seats its moves asked."""
    live = LiveSession.load(tables.store, session_id, claim=tables.claim)
    info = _read(tables, table_id)
    if info is None:
        raise StoreError(f"Table {table_id} is gone.")
    tended = Tended(info.code, live.spec.title)
    handed = run_out(tables, info, live)
    # Read again whatever run_out found: another process (a player's list) may have handed a seat meanwhile.
    live.sync()
    info = _read(tables, table_id) or info
    if handed:
        tended.timed_out = [info.seats[seat].name for seat in handed]
        for seat in handed:
            log.info("table %s: %s (%s) ran out of time; the host's %s bot plays it", info.code,
                     seat_label(seat), info.seats[seat].name, info.timeout_bot)
    newly: set[int] = set()
    tended.moves = _play(live, newly)
    if live.result is not None:
        tended.finished = True
        rate_finished(tables.store, session_id)  # as a screen that sees the end does: the first one rates
    return tended, live, newly


def _next_move(live: LiveSession) -> tuple[int | None, Any] | None:
    """The move the driver of a table makes now, as a table screen's driver does: a bot's (the first bot asked),
    else the table's step when nobody is asked; None while a person is asked (or the game is over)."""
    if live.result is not None:
        return None
    to_act = live.to_act
    bots = [seat for seat in to_act if live.seats[seat].is_bot]
    if bots:
        bot = bot_for(live, bots[0])
        return None if bot is None else (bots[0], bot_choice(live, bots[0], bot))
    if not to_act and live.table_action is not None:
        return None, live.table_action
    return None


def _play(live: LiveSession, newly: set[int]) -> int:
    """Play bots and steps until a person is asked; the seats asked by these moves are added to ``newly``."""
    moves = 0
    while moves < MAX_MOVES:
        move = _next_move(live)
        if move is None:
            break
        before = set(live.to_act)
        try:
            live.apply(*move)
        except LogConflictError:
            live.sync()  # a person moved meanwhile (a secret choice): decide again
            continue
        except (SeatClaimError, ActionError) as error:
            log.warning("session %d: the keeper stopped: %s", live.session_id, error)
            break
        moves += 1
        newly.difference_update(before - set(live.to_act))
        newly.update(seat for seat in live.to_act if seat not in before)
    return moves
