"""coven-high-contrast as drawn: every text at least 7:1 against its own background, in every styled state.

The theme's pairs are proved in test_settings.py; these tests render real
screens in the theme and read the colours of the drawn segments, after the
widgets' tints, fades, dims and highlights: a discarded wizard, dimmed hints,
disabled keys and widgets, a selected row.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Button, OptionList
from textual.widgets.option_list import Option

from saves import LiveSession, SessionStore
from tests.helpers.drawn_contrast import drawn_texts, too_faint
from tests.helpers.layout_audit import rows
from tests.helpers.tui_fakes import play_until, seats
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizards_cup.wizard_card import WizardCard
from tui.player_settings import write_setting
from tui.screens.game.screen import GameScreen
from tui.themes import HIGH_CONTRAST
from tui.widgets.fitting_footer import FittingFooter

SIZE = (100, 30)


@pytest.fixture
def store() -> Any:
    with SessionStore() as opened:
        write_setting(opened, None, "theme", HIGH_CONTRAST.name)
        yield opened


async def open_game(pilot: Any, app: CovenApp, session_id: int) -> GameScreen:
    await until(pilot, lambda: app.theme == HIGH_CONTRAST.name, "the high-contrast theme")
    app.open_session(session_id)
    await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen



async def test_a_discarded_wizard_reads_at_7_to_1(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 5, seats("Ana", "Merlin:normal"))
    play_until(live, 5)  # teams, lineups, then duels: a beaten wizard lies discarded in the duel zone
    app = CovenApp(store=store, auto_delay=600.0)
    async with app.run_test(size=SIZE) as pilot:
        game = await open_game(pilot, app, live.session_id)
        await until(pilot, lambda: any(card.has_class("-discarded") for card in game.query(WizardCard))
                    and any("✗ discarded" in row for row in rows(app)), "a discarded wizard drawn")
        discarded = next(card for card in game.query(WizardCard) if card.has_class("-discarded"))
        inside = [drawn for drawn in drawn_texts(app)
                  if discarded.region.y <= drawn.row < discarded.region.bottom and drawn.text]
        assert any("discarded" in drawn.text for drawn in inside)
        assert all(drawn.ratio >= 7.0 for drawn in inside), [(d.text, round(d.ratio, 2)) for d in inside]
        assert too_faint(app) == []


async def test_dimmed_hints_and_the_selected_row_of_the_team_builder_read_at_7_to_1(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 5, seats("Ana", "Merlin:normal"))
    app = CovenApp(store=store, auto_delay=600.0)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, app, live.session_id)
        await until(pilot, lambda: any("Choose your team" in row for row in rows(app)), "the team builder")
        await pilot.press("down", "down", "space", "down")  # a wizard picked, the cursor on another
        await until(pilot, lambda: any("1/6" in row or "✓" in row for row in rows(app)), "a pick shown")
        assert too_faint(app) == []


async def test_the_witchdraft_table_with_a_card_selected_reads_at_7_to_1(store: SessionStore) -> None:
    live = LiveSession.create(store, "witchdraft", None, 5, seats("Ana", "Merlin:normal"))
    app = CovenApp(store=store, auto_delay=600.0)
    async with app.run_test(size=SIZE) as pilot:
        game = await open_game(pilot, app, live.session_id)
        await until(pilot, lambda: game.status_text == "Ana to choose", "Ana's pick")
        await pilot.press("down", "right")
        await until(pilot, lambda: any("Your hand" in row for row in rows(app)), "the hand drawn")
        assert too_faint(app) == []


class Disabled(Screen[None]):
    """A disabled button, a disabled key in the Footer, a highlighted and a disabled option."""

    BINDINGS = [Binding("x", "nothing", "Never now"), Binding("y", "something", "Always")]

    def compose(self) -> ComposeResult:
        yield Button("Can't press", disabled=True)
        yield OptionList(Option("Highlighted"), Option("Out of reach", disabled=True), Option("Plain"), id="options")
        yield FittingFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "nothing" else True  # dimmed in the Footer

    def action_something(self) -> None:
        """A key that always works."""


async def test_disabled_keys_and_widgets_read_at_7_to_1(store: SessionStore) -> None:
    app = CovenApp(store=store, auto_delay=600.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.theme == HIGH_CONTRAST.name, "the high-contrast theme")
        await app.push_screen(Disabled())
        app.screen.query_one("#options", OptionList).focus()
        await until(pilot, lambda: any("Never now" in row for row in rows(app))
                    and any("Out of reach" in row for row in rows(app)), "the screen drawn")
        assert too_faint(app) == []


async def test_the_floor_is_the_high_contrast_themes_own(store: SessionStore) -> None:
    # Other themes keep their designers' fades: the floor would flatten them for no one who asked.
    write_setting(store, None, "theme", "textual-dark")
    live = LiveSession.create(store, "wizards-cup", None, 5, seats("Ana", "Merlin:normal"))
    app = CovenApp(store=store, auto_delay=600.0)
    async with app.run_test(size=SIZE) as pilot:
        app.open_session(live.session_id)
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        await until(pilot, lambda: any("Choose your team" in row for row in rows(app)), "the team builder")
        assert too_faint(app) != []
