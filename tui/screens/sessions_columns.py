"""How the sessions list fits its width: which columns are shortened, how far, and where a cut falls.

ID, Status and Last played always show whole; Progress, Seats and Game give way
in that order, each cut after a word with "…" (the line under the list says the
highlighted session's game and progress in full).
"""

from __future__ import annotations

from tui.fit_text import cut_words

TABLE_MARGIN = 1
"""Columns of the screen the table's cells leave free (a spare one; its scrollbar's are added when it has one)."""

SCROLLBAR = 2
"""Columns of the table's vertical scrollbar, drawn when there are more rows than lines."""

SHRINKS = ("Progress", "Seats", "Game")
"""Columns shortened when a row is wider than the screen, first shortened first; the detail line under the table
says each in full. ID, Status and Last played always show whole."""

SHRINK_FLOOR = {"Progress": 12, "Seats": 16, "Game": 11}
"""How narrow a shortened column may become (a two-word game name of 11 letters stays whole)."""


def column_widths(columns: tuple[str, ...], rows: list[list[str]], width: int) -> list[int]:
    """Each column's width so the table fits ``width`` columns, shortening :data:`SHRINKS` in order.

    A DataTable draws each cell with one column of padding on each side.
    """
    widths = [max([len(column)] + [len(row[index]) for row in rows]) for index, column in enumerate(columns)]
    over = sum(widths) + 2 * len(columns) - width
    for name in SHRINKS:
        if over <= 0 or name not in columns:
            continue
        index = columns.index(name)
        cut = min(over, max(widths[index] - max(SHRINK_FLOOR[name], len(name)), 0))
        widths[index] -= cut
        over -= cut
    return widths


def fit_rows(columns: tuple[str, ...], rows: list[list[str]], width: int) -> list[list[str]]:
    """``rows`` with cells too wide for :func:`column_widths` cut after a word with "…".

    A cut after a word leaves a column narrower than it was given; what that frees goes to Progress.
    """
    widths = column_widths(columns, rows, width)
    fitted = [[cut_words(cell, widths[index]) for index, cell in enumerate(row)] for row in rows]
    if "Progress" in columns and rows:
        index = columns.index("Progress")
        used = [max([len(column)] + [len(row[n]) for row in fitted]) for n, column in enumerate(columns)]
        spare = width - sum(used) - 2 * len(columns)
        if spare > 0:
            room = used[index] + spare
            for row, whole in zip(fitted, rows, strict=True):
                row[index] = cut_words(whole[index], room)
    return fitted
