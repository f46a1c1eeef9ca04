"""What the process driving a shared table does besides showing it: bots' choices and notices to absent players.

Two kinds of process drive a table: a player's Coven with the table open (:mod:`tui.screens.table_game`), and
the table keeper of a server or a cron job (:mod:`tui.keeper`), which has no screen. Both pick a bot's move,
remind an away player at half time and tell a newly asked one through these functions, so the two never
decide differently. None of it is a game rule: the rules are the engine's, the clocks :mod:`saves.turn_based`'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from engine.core import seeded_rng
from saves import LiveSession, StoreError, TableInfo
from saves.tables import TableStore
from saves.turn_based import seat_clocks, seat_deadline
from tui.notify.half_time import tell_half_time
from tui.notify.seat_asked import tell_seat_asked

Bot = Callable[[Any, Any, random.Random], Any]
"""A game's bot: (view, legal actions, rng) -> the action it chooses."""


def bot_for(live: LiveSession, seat: int) -> Bot | None:
    """The bot that plays ``seat`` (its level's, else the game's first), or None when the game has none."""
    bots = live.spec.bots
    found: Bot | None = bots.get(live.seats[seat].bot_level or "") or next(iter(bots.values()), None)
    return found


def bot_rng(live: LiveSession, seat: int) -> random.Random:
    """The random source of ``seat``'s bot for the move it makes now: the same in every process that drives."""
    return seeded_rng(live.seed, "bot", seat, len(live.log))


def bot_choice(live: LiveSession, seat: int, bot: Bot) -> Any:
    """``bot``'s action for ``seat`` as the game stands (it may think a while: call it off the screen's thread)."""
    return bot(live.rules.view(live.state, seat), live.rules.legal_actions(live.state, seat), bot_rng(live, seat))


def notice_deadline(tables: TableStore, info: TableInfo, live: LiveSession, seat: int) -> datetime | None:
    """When ``seat``'s time to choose runs out, for its notice; None at a live table or when it cannot be read."""
    if not info.turn_based:
        return None
    try:
        return seat_deadline(tables, info, live, seat)
    except StoreError:
        return None  # the notice still goes, without its deadline


def tell_asked(tables: TableStore, info: TableInfo, live: LiveSession, seats: Iterable[int], told: set[int],
               plays_here: Callable[[int], bool]) -> list[int]:
    """Send a notice for each of ``seats`` (asked now) that no player here and no bot plays, once per ask.

    ``told`` holds the seats already told of the ask that stands; it is updated (seats no longer asked leave it,
    seats told now join it). ``info`` is the table as read after the move that asked them.

    Returns:
        The seats told now.
    """
    told.intersection_update(live.to_act)
    sent = []
    for seat in seats:
        if seat in told or plays_here(seat) or live.seats[seat].is_bot:
            continue
        if tell_seat_asked(tables.store, tables.presence, info, seat, live.spec.title,
                           notice_deadline(tables, info, live, seat)):
            told.add(seat)
            sent.append(seat)
    return sent


def remind_half_time(tables: TableStore, info: TableInfo, live: LiveSession,
                     plays_here: Callable[[int], bool]) -> list[int]:
    """Remind each asked seat's player who is away that half their time is gone (once per seat and move).

    Returns:
        The seats reminded now.

    Raises:
        StoreError: the clocks could not be read (a reminder is a courtesy: the next look tries again).
    """
    if live.result is not None:
        return []
    now = tables.clock()
    reminded = []
    for clock in seat_clocks(tables, info, live):
        if not plays_here(clock.seat) and tell_half_time(tables.store, tables.presence, info, clock,
                                                         live.spec.title, now + clock.left):
            reminded.append(clock.seat)
    return reminded
