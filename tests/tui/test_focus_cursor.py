"""The real terminal cursor follows focus: the list row, the tree line, the grid cell (for screen readers)."""

from __future__ import annotations

import re

import pytest
from textual.app import App, ComposeResult
from textual.drivers.headless_driver import HeadlessDriver
from textual.geometry import Offset
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label, ListItem, ListView, OptionList, Select, TextArea, Tree

from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import Host, game_screen
from tests.helpers.waiting import until
from tui.focus_cursor import FocusCursor
from tui.games.witchdraft.potion_grid import PotionGrid

MOVE_TO = re.compile(r"\x1b\[(\d+);(\d+)H$")


class Lists(FocusCursor, App[None]):
    """A list, a tree and a field, with the terminal cursor following focus."""

    CSS = "OptionList { height: 6; } Tree { height: 6; }"

    def compose(self) -> ComposeResult:
        yield OptionList(*(f"Option {number}" for number in range(20)), id="options")
        tree: Tree[None] = Tree("Root", id="tree")
        for number in range(8):
            tree.root.add_leaf(f"Leaf {number}")
        tree.root.expand()
        yield tree
        yield Input(id="field")


class Tables(FocusCursor, App[None]):
    """A table, a text area and a list view, with the terminal cursor following focus."""

    CSS = "DataTable { height: 6; } TextArea { height: 5; } ListView { height: 4; }"

    def compose(self) -> ComposeResult:
        table: DataTable[str] = DataTable(id="table")
        table.add_columns("Name", "Game", "Status")
        for number in range(6):
            table.add_row(f"Ana {number}", "Wizards Cup", "playing")
        yield table
        yield TextArea("first line\nsecond line", id="text")
        yield ListView(*(ListItem(Label(f"Item {number}")) for number in range(5)), id="items")


class Choices(FocusCursor, App[None]):
    """A field and a drop-down under it, with the terminal cursor following focus."""

    def compose(self) -> ComposeResult:
        yield Input("Ana", id="name")
        yield Select([("Human", "human"), ("Bot – normal", "bot")], value="human", allow_blank=False, id="kind")


class Form(Screen[None]):
    """A screen that gives its field the focus as it mounts, before it is laid out (as Coven's new-game form)."""

    def compose(self) -> ComposeResult:
        yield Label("New game")
        yield Label("\n\n\nSeat 1")
        yield Input("Ana", id="name")

    def on_mount(self) -> None:
        self.query_one(Input).focus()


class FormOpener(FocusCursor, App[None]):
    """An app whose first screen opens the form (a pushed screen, as the main menu's n does)."""

    def on_mount(self) -> None:
        self.push_screen(Form())


@pytest.mark.parametrize("name", ["OptionList", "Tree", "DataTable", "Input", "TextArea", "ListView", "Select"])
def test_each_widget_kind_is_looked_up_in_the_module_textual_defines_it_in(name: str) -> None:
    import textual.widgets

    from tui.focus_cursor import WIDGET_MODULES

    # focus_cursor finds these classes by module name, so that start-up need not import them.
    assert getattr(textual.widgets, name).__module__ == f"textual.widgets.{WIDGET_MODULES[name]}"


async def test_the_cursor_sits_on_the_table_cell_the_text_cursor_and_the_list_item() -> None:
    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        table = app.query_one(DataTable)
        table.focus()
        await pilot.press("down", "right")
        await until(pilot, lambda: table.cursor_coordinate == (1, 1), 'table.cursor_coordinate == (1, 1)')
        cell = table._get_cell_region(table.cursor_coordinate)
        assert table.cursor_coordinate == (1, 1)
        assert app.cursor_position == Offset(table.content_region.x + cell.x, table.content_region.y + cell.y)
        text = app.query_one(TextArea)
        text.focus()
        await pilot.press("down", "end")
        await until(pilot, lambda: (
            app.cursor_position == text.cursor_screen_offset and text.cursor_location == (1, 11)
        ), 'app.cursor_position == text.cursor_screen_offset and text...')
        items = app.query_one(ListView)
        items.focus()
        await pilot.press("down", "down")
        await until(pilot, lambda: (items.highlighted_child is not None),
                    'child is not None and items.index == 2 and app.cursor_pos...')
        child = items.highlighted_child
        assert child is not None and items.index == 2 and app.cursor_position == child.region.offset


async def test_the_cursor_sits_on_a_drop_down_s_value_not_on_the_edge_of_its_box() -> None:
    app = Choices()
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.press("tab")  # from the name field to the drop-down, as a player moves through a form

        def under_cursor() -> str:
            x, y = app.cursor_position
            return app.screen._compositor.render_strips()[y].text[x:]

        await until(pilot, lambda: isinstance(app.focused, Select) and under_cursor().startswith("Human"),
                    "the cursor on the drop-down's value")
        await pilot.press("enter", "down", "enter")  # open it, pick the bot, close it: the cursor reads the new value
        await until(pilot, lambda: isinstance(app.focused, Select) and under_cursor().startswith("Bot – normal"),
                    "the cursor on the value picked")


async def test_a_field_focused_as_its_screen_opens_has_the_cursor_before_any_key() -> None:
    app = FormOpener()
    async with app.run_test(size=(60, 12)) as pilot:
        await until(pilot, lambda: isinstance(app.focused, Input) and bool(app.focused.region), "the form")
        field = app.focused
        assert isinstance(field, Input)
        # The field's own row, where the typing goes: not the screen's top left.
        await until(pilot, lambda: app.cursor_position == field.cursor_screen_offset and app.cursor_position.y > 3,
                    f"the cursor at the end of Ana (it is at {app.cursor_position})")


class CursorHost(FocusCursor, Host):
    """The game screen with the cursor following focus, as in Coven's app."""


async def test_the_cursor_sits_on_the_highlighted_row_and_follows_focus(monkeypatch: pytest.MonkeyPatch) -> None:
    app = Lists()
    async with app.run_test(size=(60, 20)) as pilot:
        options = app.query_one(OptionList)
        options.focus()
        await until(pilot, lambda: (app.cursor_position == Offset(options.content_region.x, options.content_region.y)),
                    'app.cursor_position == Offset(top.x, top.y)')
        top = options.content_region
        assert app.cursor_position == Offset(top.x, top.y)  # the first option is highlighted
        # What the terminal is sent: each frame ends by moving the cursor there.
        sent: list[str] = []
        monkeypatch.setattr(HeadlessDriver, "is_headless", property(lambda self: False))
        monkeypatch.setattr(HeadlessDriver, "write", lambda self, data: sent.append(data))
        await pilot.press("down", "down", "down")
        await until(pilot, lambda: (app.cursor_position == Offset(top.x, top.y + 3)),
                    'app.cursor_position == Offset(top.x, top.y + 3)')
        moves = [match.groups() for chunk in sent if (match := MOVE_TO.search(chunk))]
        assert moves and moves[-1] == (str(top.y + 3 + 1), str(top.x + 1))
        # Past the bottom the list scrolls: the cursor stays on the highlighted row, in view.
        await pilot.press(*["down"] * 10)
        await until(pilot, lambda: ((options.scroll_offset.y > 0 and app.cursor_position == Offset(
                                  top.x, top.y + 13 - options.scroll_offset.y))),
                    'options.scroll_offset.y > 0 and app.cursor_position == Of...')
        monkeypatch.undo()
        # Tab moves focus to the tree: the cursor goes to its cursor line.
        tree = app.query_one(Tree)
        tree.focus()
        await pilot.press("down", "down")
        await until(pilot, lambda: (
            app.cursor_position == Offset(tree.content_region.x, tree.content_region.y + tree.cursor_line)
            and tree.cursor_line == 2
        ), 'app.cursor_position == Offset(tree.content_region.x, tree...')
        assert app.cursor_position == Offset(tree.content_region.x, tree.content_region.y + tree.cursor_line)
        assert tree.cursor_line == 2
        # A field places the cursor itself, where the typing goes.
        field = app.query_one(Input)
        field.focus()
        await pilot.press("a", "b")
        await until(pilot, lambda: (app.cursor_position == field.cursor_screen_offset),
                    'app.cursor_position == field.cursor_screen_offset')


async def test_the_cursor_follows_the_potion_grid_s_ghost(store: SessionStore) -> None:
    live = LiveSession.create(store, "witchdraft", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    app = CursorHost(live)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        await until(pilot, lambda: 0 in live.to_act, "Ana's pick")
        screen._apply(0, live.rules.legal_actions(live.state, 0)[0])
        grid = screen.query_one(PotionGrid)
        await until(pilot, lambda: grid.cursor is not None and grid.has_focus, "the placement grid")
        await until(pilot, lambda: grid.focus_cursor() is not None, 'local is not None')
        before = app.cursor_position
        local = grid.focus_cursor()
        assert local is not None
        region = grid.content_region
        assert before == Offset(region.x + local[0], region.y + local[1])
        await pilot.press("right")
        await until(pilot, lambda: (app.cursor_position.x > before.x and app.cursor_position.y == before.y),
                    'after.x > before.x and after.y == before.y')
        after = app.cursor_position
        assert after.x > before.x and after.y == before.y
