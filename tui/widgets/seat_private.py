"""Small helpers for the state a seat keeps to itself at a shared keyboard: list cursors and scrolls.

Tables remember these per seat (:meth:`tui.games.base.GameTable.remember`) so
the next person finds the lists at their start, or where they left them,
never where the last person's cursor stopped. A cursor is kept by option id
(or by a line's key) rather than by position, since the next time a seat
looks the list may hold other lines.
"""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import OptionDoesNotExist


def cursor_id(option_list: OptionList) -> str | None:
    """The id of the option under ``option_list``'s cursor, if it has one."""
    option = option_list.highlighted_option
    return option.id if option is not None else None


def put_cursor(option_list: OptionList, option_id: str | None) -> None:
    """Move the cursor onto the option ``option_id``; None (or an id not listed) puts it on the first line."""
    if not option_list.option_count:
        return
    index = 0
    if option_id is not None:
        try:
            index = option_list.get_option_index(option_id)
        except OptionDoesNotExist:  # the line has left the list since
            index = 0
    if index == 0:
        option_list.scroll_home(animate=False, immediate=True)
    option_list.highlighted = index


def put_index(option_list: OptionList, index: int | None) -> None:
    """Move the cursor to line ``index`` (None or past the end: the first line)."""
    count = option_list.option_count
    if not count:
        return
    if index is None or not 0 <= index < count:
        index = 0
    if index == 0:
        option_list.scroll_home(animate=False, immediate=True)
    option_list.highlighted = index


def scroll_home(*widgets: Widget) -> None:
    """Scroll each of ``widgets`` back to its top (a fresh seat reads from the start)."""
    for widget in widgets:
        widget.scroll_home(animate=False, immediate=True)
