"""The words of the Open tables screen: a listed table as a row of columns, or as one sentence.

Columns suit a sighted player at 80 columns; linear mode and the narrator read the sentence. Names come
from other players and options from the database, so every text is cut by terminal cells (never inside a
wide character) and drawn as plain text by the screen, never as markup.
"""

from __future__ import annotations

from datetime import datetime

from rich.cells import cell_len

from engine import get_game
from engine.core import UnknownGameError
from saves.table_listing import ListedTable
from saves.turn_pace import pace_words
from tui.fit_text import cut_words

STANDARD = "standard"
"""The options of a table whose host kept every default."""

CUSTOM = "custom"
"""How a free-text option (a deck list's text) reads: its text is the host's, not everyone's."""

COLUMNS: tuple[tuple[str, int], ...] = (
    ("Game", 12), ("Options", 19), ("Pace", 8), ("Seats", 6), ("Watch", 5), ("Host", 13), ("Age", 8),
)
"""(heading, width in cells) of each column; with a space between, they fit an 80-column terminal."""

NO_CLOCK = "no clock"
"""How a live table without a clock reads."""


def pace_cell(table: ListedTable) -> str:
    """The Pace column: days per move at a turn-based table ("3d"), else the live table's clock: minutes plus
    seconds a move ("5+10") or "no clock" (a clock in minutes is only ever a live table's)."""
    if table.pace_days > 0:
        return table.pace
    return NO_CLOCK if table.clock is None else table.clock.label


def clock_words(table: ListedTable) -> str:
    """The clock in the sentence: "no clock", "a clock of 5 minutes plus 10 seconds a move"; "" when turn-based."""
    if table.pace_days > 0:
        return ""
    return NO_CLOCK if table.clock is None else f"a clock of {table.clock.words}"


def options_text(table: ListedTable) -> str:
    """The options that differ from the game's defaults, e.g. "Cup Tokens to win 3", "Faster Game"; "standard" if none do.

    Only what the new-game form offers as a choice is spelled out: a free text (a deck list) reads "custom".
    """
    try:
        spec = get_game(table.game_id)
    except UnknownGameError:
        return STANDARD
    changed = []
    for option in spec.options:
        value = table.options.get(option.name, option.default)
        if value == option.default and type(value) is type(option.default):
            continue
        if isinstance(value, bool) and isinstance(option.default, bool):
            changed.append(option.label if value else f"no {option.label}")  # "Faster Game", not "... Yes"
            continue
        shown = option.choice_label(value) if value in option.choices and type(value) is type(option.default) \
            else CUSTOM
        changed.append(f"{option.label} {shown}")
    return ", ".join(changed) or STANDARD


def age_text(table: ListedTable, now: datetime) -> str:
    """How long the table has been open: "just now", "5 min", "2 h"."""
    minutes = max(0, int((now - table.created).total_seconds() // 60))
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h"


def game_title(table: ListedTable) -> str:
    """The game's display name (its id if no game has it)."""
    try:
        return get_game(table.game_id).title
    except UnknownGameError:
        return table.game_id


def _cell(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells and padded to exactly that many."""
    fitted = cut_words(" ".join(text.split()), width)
    return fitted + " " * (width - cell_len(fitted))


def heading_row() -> str:
    """The column headings, as wide as the rows."""
    return " ".join(_cell(heading, width) for heading, width in COLUMNS).rstrip()


def table_row(table: ListedTable, now: datetime) -> str:
    """``table`` as one row under :func:`heading_row`."""
    cells = (game_title(table), options_text(table), pace_cell(table), f"{table.free} of {table.seats}",
             "yes" if table.allow_spectators else "no", table.host_name, age_text(table, now))
    return " ".join(_cell(text, width) for text, (_, width) in zip(cells, COLUMNS, strict=True)).rstrip()


def table_sentence(table: ListedTable, now: datetime) -> str:
    """``table`` as a sentence for linear mode and the narrator."""
    seats = f"{table.free} of {table.seats} seat{'s' if table.seats != 1 else ''} free"
    watch = "spectators may watch" if table.allow_spectators else "no spectators"
    age = age_text(table, now)
    pace = f"live play, {clock_words(table)}" if table.pace_days <= 0 else f"turn-based, {pace_words(table.pace_days)}"
    opened = "opened just now" if age == "just now" else f"open for {age}"
    return (f"{game_title(table)} hosted by {table.host_name}: {seats}, {pace}, "
            f"options {options_text(table)}, {watch}, {opened}.")
