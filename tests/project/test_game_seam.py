"""The game seam: generic screens name no game, and a new game needs only its own GameUI.

The first half reads every module under tui/screens and tui/widgets, at any
depth (their code, not their comments or docstrings), and fails when one names
a bundled game, imports one game's modules, or compares an event's kind or a
string with a game's event kind. A game's own screens and widgets live in its
wing, tui/games/<game>/, so the rule has no allow-list.
The second half plays the test-only "count-to-ten" game through the real
new-game form and game screen with a GameUI written here, with its own round
rule and option labels: adding a game needs no generic screen.
"""

from __future__ import annotations

import ast
import re
import time
from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import RichLog, Select, Static

import tui.games
from engine import Event, GameSpec, Result, game_entries
from engine.core.registry import OptionSpec, OptionValue
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.fake_game import Action, Add
from tests.helpers.waiting import BOUND, until
from tui.app import CovenApp
from tui.games.base import ROUND_RULE, GameTable, GameUI

REPO = Path(__file__).resolve().parents[2]
GENERIC_FOLDERS = (REPO / "tui" / "screens", REPO / "tui" / "widgets")
"""Folders that hold only generic code: every module in them, at any depth, must name no game."""


def generic_modules() -> list[Path]:
    """Every module of the generic folders, and the seam's own base module."""
    found = [path for folder in GENERIC_FOLDERS for path in sorted(folder.rglob("*.py"))]
    return [*found, REPO / "tui" / "games" / "base.py"]


def squash(text: str) -> str:
    """``"Wizards Cup"``, ``"wizards-cup"`` and ``WizardsCupUI`` all contain ``"wizardscup"``."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def game_words() -> set[str]:
    """Every bundled game's id and title, squashed."""
    return {squash(word) for entry in game_entries() for word in (entry.game_id, entry.title)}


def game_modules() -> list[str]:
    """Module prefixes that belong to one game: its engine package and its wing."""
    prefixes = []
    for entry in game_entries():
        package = entry.game_id.replace("-", "_")
        prefixes += [f"engine.{package}", f"tui.games.{package}"]
    return prefixes


def game_event_kinds() -> set[str]:
    """The kinds of event the bundled games' engines create (``Event("duel", ...)``)."""
    kinds: set[str] = set()
    for entry in game_entries():
        for path in (REPO / "engine" / entry.game_id.replace("-", "_")).rglob("*.py"):
            kinds |= set(re.findall(r"\bEvent\(\s*\"([a-z_]+)\"", path.read_text(encoding="utf-8")))
    return kinds


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.add(id(first.value))
        if isinstance(node, (ast.Module, ast.ClassDef)):  # attribute docstrings: a string after an assignment
            for before, after in zip(node.body, node.body[1:], strict=False):
                if isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(after, ast.Expr) \
                        and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str):
                    found.add(id(after.value))
    return found


def game_specific_code(source: str) -> list[str]:
    """What in ``source`` (code only: comments and docstrings may give examples) is one game's.

    Returns one line per finding, e.g. ``"line 40: compares an event's kind"``.
    """
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    words, kinds, modules = game_words(), game_event_kinds(), game_modules()
    found: list[str] = []

    def named(line: int, text: str) -> None:
        for word in words:
            if word in squash(text):
                found.append(f"line {line}: {text!r} names a game")

    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            named(line, node.value)
        elif isinstance(node, ast.Name):
            named(line, node.id)
        elif isinstance(node, ast.Attribute):
            named(line, node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            named(line, node.name)
        elif isinstance(node, ast.alias):
            named(line, node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            if isinstance(node, ast.ImportFrom) and node.module:
                names += [f"{node.module}.{alias.name}" for alias in node.names]
            for name in names:
                if any(name == module or name.startswith(module + ".") for module in modules):
                    found.append(f"line {line}: imports {name}, one game's module")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(side, ast.Attribute) and side.attr == "kind" for side in sides):
                found.append(f"line {line}: compares an event's kind")
            # A kind compared through another name; only in comparisons, as words like "enter" are also keys.
            for side in sides:
                for constant in ast.walk(side):
                    if isinstance(constant, ast.Constant) and constant.value in kinds:
                        found.append(f"line {line}: {constant.value!r} is a game's event kind")
    return found


def test_the_scan_knows_the_bundled_games_and_their_event_kinds() -> None:
    assert {"wizardscup", "witchdraft", "wizbits"} <= game_words()
    assert {"round_end", "duel", "picked"} <= game_event_kinds()
    assert {"engine.wizbits", "tui.games.wizbits", "tui.games.wizards_cup"} <= set(game_modules())


def test_the_generic_folders_are_read_whole() -> None:
    names = {path.relative_to(REPO).as_posix() for path in generic_modules()}
    assert {"tui/screens/menu.py", "tui/screens/game/screen.py", "tui/widgets/confirm.py"} <= names


@pytest.mark.parametrize("source, finding", [
    ('if event.kind == "round_end":\n    pass\n', "compares an event's kind"),
    ('lines = [e for e in events if "duel" != e.kind]\n', "compares an event's kind"),
    ('if kind in ("duel", "swap"):\n    pass\n', "'duel' is a game's event kind"),
    ('title = "Wizards Cup"\n', "names a game"),
    ('ui = game_ui("witchdraft")\n', "names a game"),
    ("from tui.games.wizbits.table import WizbitsUI\n", "imports tui.games.wizbits.table"),
    ("from tui.games.wizbits.decks.picker import deck_option_choices\n", "imports tui.games.wizbits.decks.picker"),
    ("import engine.wizards_cup.state\n", "imports engine.wizards_cup.state"),
])
def test_the_scan_finds_game_specific_code(source: str, finding: str) -> None:
    assert any(finding in line for line in game_specific_code(source))


def test_the_scan_lets_comments_and_docstrings_give_examples() -> None:
    source = '"""Like the Wizbits pillar tree."""\n\n# e.g. Wizards Cup\nX = 1\n"""Not round_end."""\n'
    assert game_specific_code(source) == []


@pytest.mark.parametrize("path", generic_modules(), ids=lambda path: path.name)
def test_generic_screens_name_no_game(path: Path) -> None:
    assert game_specific_code(path.read_text(encoding="utf-8")) == []


# -- a fourth game through its GameUI alone -------------------------------------------------------

CountView = dict[str, Any]
"""The count-to-ten game's view: its state as JSON."""


class CountTable(GameTable[CountView, Action]):
    """Shows the total; ``1`` or ``2`` adds that much for the deciding seat."""

    BINDINGS = [Binding("1", "add(1)", "Add 1"), Binding("2", "add(2)", "Add 2")]
    can_focus = True

    def __init__(self) -> None:
        super().__init__()
        self.seat: int | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="count-total")

    def show(self, view: CountView, deciding_seat: int | None, legal: Any) -> None:
        self.seat = deciding_seat
        self.query_one("#count-total", Static).update(f"Total {view['total']} of {view['target']}")
        if deciding_seat is not None:
            self.focus()

    def action_add(self, amount: int) -> None:
        if self.seat is not None:
            self.post_message(self.ActionChosen(self.seat, Add(amount)))


class CountRound(ModalScreen[None]):
    """The round summary: how many things happened since the last one."""

    BINDINGS = [Binding("escape", "dismiss", "Close")]

    def __init__(self, view: CountView, events: Any) -> None:
        super().__init__()
        self.total = view["total"]
        self.count = len(events)

    def compose(self) -> ComposeResult:
        yield Static(f"Round over at {self.total} after {self.count} events")


class CountOver(Screen[None]):
    """The final screen."""

    def __init__(self, result: Result) -> None:
        super().__init__()
        self.result = result

    def compose(self) -> ComposeResult:
        yield Static(f"Over: {self.result.reason}")


class CountUI(GameUI[CountView]):
    """Count-to-ten's screen parts: a round ends with the table's bump; targets read as sentences."""

    def make_table(self) -> CountTable:
        return CountTable()

    def ends_round(self, event: Event) -> bool:
        return event.text.startswith("The table bumps")

    def round_result(self, view: CountView, events: Any) -> Screen[None] | None:
        return CountRound(view, events)

    def game_result(self, view: CountView, result: Result, events: Any) -> Screen[None]:
        return CountOver(result)

    def option_choices(self, option: OptionSpec, store: SessionStore | None) -> list[tuple[str, OptionValue]]:
        return [(f"First to {choice}", choice) for choice in option.choices]


@pytest.fixture
def count_ui(fake_spec: GameSpec, monkeypatch: pytest.MonkeyPatch) -> CountUI:
    """Count-to-ten registered with its UI for one test."""
    monkeypatch.setattr(tui.games, "_GAME_UIS", dict(tui.games._GAME_UIS))
    ui = CountUI()
    tui.games.register_ui(fake_spec.game_id, ui)
    return ui


async def test_the_new_game_form_offers_a_new_games_options_through_its_ui(count_ui: CountUI) -> None:
    from tui.screens.new_game import NewGameScreen

    with SessionStore() as store:
        app = CovenApp(store=store)
        async with app.run_test(size=(100, 40)) as pilot:
            app.push_screen(NewGameScreen())
            await until(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.query("#option-rows"),
                        "the new-game form")
            app.screen.query_one("#game-select", Select).value = "count-to-ten"
            await until(pilot, lambda: app.screen.query("#option-target"), "count-to-ten's option")
            target = app.screen.query_one("#option-target", Select)
            assert [str(label) for label, _ in target._options] == ["First to 10", "First to 15", "First to 1000"]


async def test_a_new_game_plays_on_the_generic_game_screen_through_its_ui_alone(count_ui: CountUI) -> None:
    from tui.screens.game.screen import GameScreen

    with SessionStore() as store:
        live = LiveSession.create(store, "count-to-ten", {"target": 10}, 3,
                                  [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "easy")])
        app = CovenApp(store=store, auto_delay=0.01)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = GameScreen(live, auto_delay=0.01)
            app.push_screen(screen)
            table = screen.table
            assert isinstance(table, CountTable)
            summaries: list[CountRound] = []
            pressed_at = -1  # the log's length when a move was last asked for: one key per move
            deadline = time.monotonic() + BOUND
            while not isinstance(app.screen, CountOver):
                assert time.monotonic() < deadline, f"the game got stuck at {live.log[-1:]} on {app.screen}"
                shown = app.screen
                if isinstance(shown, CountRound) and shown not in summaries:
                    summaries.append(shown)
                    assert shown.total == live.state.total
                    await pilot.press("escape")
                elif shown is screen and len(live.log) != pressed_at:
                    if live.to_act == (0,) and table.seat == 0 and screen.focused is table:
                        pressed_at = len(live.log)
                        await pilot.press("1")
                    elif live.table_action is not None and not live.to_act and "Space" in screen.status_text:
                        pressed_at = len(live.log)
                        await pilot.press("space")
                await pilot.pause(0.02)
            assert app.screen.result == live.result and live.result is not None and live.result.winners
            assert "Total" in str(table.query_one("#count-total", Static).render())
            bumps = sum(1 for entry in live.log if entry.seat is None)
            assert bumps >= 1 and len(summaries) == bumps  # every bump ended a round and put up its summary
            log_lines = [strip.text for strip in screen.query_one("#game-log", RichLog).lines]
            assert log_lines.count(ROUND_RULE) == bumps
