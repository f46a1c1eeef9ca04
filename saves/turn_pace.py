"""The pace a host gives a shared table: live, or turn-based with 1, 3 or 7 days per move.

Apart from :mod:`saves.turn_based` (the clocks and vacations) so that :mod:`saves.tables` can check a new
table's pace without importing the module that imports it.
"""

from __future__ import annotations

from engine import GameSpec
from saves.table_records import PACE_DAYS, TableError

SIGNED_IN_ONLY = ("Turn-based tables are for signed-in players only (a password or key account): a seat must "
                  "wait days for its player, so it has to know who they are. Choose Live, or sign in.")
"""Why a turn-based table is refused to a visit (``coven serve --auth none``) or a player at this machine."""


def check_pace(spec: GameSpec, account: str | None, pace_days: int, timeout_bot: str | None) -> str | None:
    """The bot level that takes a timed-out seat (None at a live table), after checking the host's choice.

    Raises:
        TableError: an unknown pace, a turn-based table without a signed-in account, or a bot level the game lacks.
    """
    if pace_days == 0:
        return None
    if pace_days not in PACE_DAYS:
        days = ", ".join(str(day) for day in PACE_DAYS)
        raise TableError(f"A turn-based table gives {days} days per move, not {pace_days!r}.")
    if account is None:
        raise TableError(SIGNED_IN_ONLY)
    levels = spec.bot_levels
    if not levels:
        raise TableError(f"{spec.title} has no bots to take a seat whose time runs out, so it cannot be turn-based.")
    if timeout_bot is None:
        return "normal" if "normal" in levels else levels[0]
    if timeout_bot not in levels:
        raise TableError(f"{spec.title} has no {timeout_bot!r} bot; its levels are {', '.join(levels)}.")
    return timeout_bot


def pace_words(pace_days: int) -> str:
    """"live" or "3 days per move"."""
    if pace_days <= 0:
        return "live"
    return f"{pace_days} day{'s' if pace_days != 1 else ''} per move"


def pace_cell(pace_days: int) -> str:
    """The pace in five cells for the open-table list: "live" or "3d"."""
    return "live" if pace_days <= 0 else f"{pace_days}d"
