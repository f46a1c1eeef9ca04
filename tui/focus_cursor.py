"""The real terminal cursor on the focused item, so screen readers and braille displays follow focus.

Textual moves the terminal's (hidden) cursor to ``App.cursor_position``
whenever it paints, and only a focused Input sets that position. Screen
readers and braille displays track that cursor, so here every paint first
puts it on the focused widget's item: the highlighted row of a list or tree,
the cursor cell of a table or text area, a drop-down's value, or a widget's own cursor cell
(a widget says where with a ``focus_cursor()`` method returning an offset
within its content, as the potion grid does), else the widget's top left.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

from rich.console import RenderableType
from textual.app import App
from textual.geometry import Offset
from textual.screen import Screen
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.widgets import DataTable, Input, ListView, OptionList, TextArea, Tree


WIDGET_MODULES = {"OptionList": "_option_list", "Tree": "_tree", "DataTable": "_data_table", "Input": "_input",
                  "TextArea": "_text_area", "ListView": "_list_view", "Select": "_select"}
"""The module of ``textual.widgets`` that defines each widget class looked at here (a test checks them)."""


def _is(widget: Widget, name: str) -> bool:
    """``isinstance(widget, textual.widgets.<name>)``, without importing that widget's module.

    A widget of a class exists only once the class's module is loaded, so a module not
    loaded yet means "no": start-up does not pay for the text area, table and tree.
    """
    loaded = sys.modules.get(f"textual.widgets.{WIDGET_MODULES[name]}")
    kind = getattr(loaded, name, None)
    return isinstance(kind, type) and isinstance(widget, kind)


def _in_content(widget: Widget, x: int, y: int) -> Offset:
    """Screen offset of ``(x, y)`` in ``widget``'s scrollable content, kept inside what it shows."""
    region = widget.content_region
    scroll_x, scroll_y = widget.scroll_offset
    screen_x = region.x + x - scroll_x
    screen_y = region.y + y - scroll_y
    right = region.x + max(region.width - 1, 0)
    bottom = region.y + max(region.height - 1, 0)
    return Offset(min(max(screen_x, region.x), right), min(max(screen_y, region.y), bottom))


def item_offset(widget: Widget) -> tuple[int, int] | None:
    """Where ``widget``'s cursor item is within its content (virtual, before scrolling), if it has one."""
    own = getattr(widget, "focus_cursor", None)
    if callable(own):
        found = own()
        return None if found is None else (int(found[0]), int(found[1]))
    if _is(widget, "OptionList"):
        options = cast("OptionList", widget)
        if options.highlighted is None:
            return None
        line = options._index_to_line.get(options.highlighted)  # Textual keeps each option's first line here
        return None if line is None else (0, line)
    if _is(widget, "Tree"):
        tree = cast("Tree[Any]", widget)
        return None if tree.cursor_line < 0 else (0, tree.cursor_line)
    if _is(widget, "DataTable"):
        table = cast("DataTable[Any]", widget)
        if table.row_count == 0:
            return None
        cell = table._get_cell_region(table.cursor_coordinate)
        return cell.x, cell.y
    return None


def focus_offset(widget: Widget | None) -> Offset | None:
    """The screen offset the terminal cursor should take for ``widget`` having focus (None: leave it be).

    A field's is where its typing goes. A field sets that itself as it is typed in, but also when it takes the
    focus, which a screen's ``on_mount`` gives it before the screen is laid out: the cursor then stayed at the
    screen's top left until the first key, so it is put on the field here too.
    """
    if widget is None or not widget.region:
        return None
    if _is(widget, "Input"):
        return cast("Input", widget).cursor_screen_offset
    if _is(widget, "TextArea"):
        return cast("TextArea", widget).cursor_screen_offset
    if _is(widget, "ListView"):
        child = cast("ListView", widget).highlighted_child
        if child is not None and child.region:
            return child.region.offset
    if _is(widget, "Select"):
        # A closed Select's own top left is the top edge of the box its value is drawn in: a screen reader
        # there reads a line of box drawing. The value's first cell is what it should read.
        current = next(iter(widget.query("SelectCurrent")), None)
        if current is not None and current.region:
            return current.content_region.offset
    found = item_offset(widget)
    if found is not None:
        return _in_content(widget, *found)
    return widget.content_region.offset


def follow_focus(app: App[Any]) -> None:
    """Put ``app``'s terminal cursor on the focused item of the screen in front."""
    try:
        offset = focus_offset(app.screen.focused)
    except Exception:  # noqa: BLE001 - a widget mid-layout must never stop a paint; the cursor stays put
        return
    if offset is not None:
        app.cursor_position = offset


class FocusCursor:
    """An App mixin: before each paint the terminal cursor moves to the focused item (:func:`follow_focus`)."""

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        if isinstance(self, App):
            follow_focus(self)
        super()._display(screen, renderable)  # type: ignore[misc]
