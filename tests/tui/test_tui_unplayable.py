"""A registered game without screens is never offered or opened (WitchDraft stands in)."""

from __future__ import annotations

import asyncio

import pytest

import tui.games
from engine import all_games
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games import has_ui, playable_games
from tui.games.wizards_cup.table import WizardsCupUI
from tui.screens.menu import MainMenu


@pytest.fixture(autouse=True)
def only_wizards_cup_has_screens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tui.games, "_GAME_UIS", {"wizards-cup": WizardsCupUI()})


def test_only_games_with_screens_are_playable() -> None:
    assert "witchdraft" in [spec.game_id for spec in all_games()]
    assert not has_ui("witchdraft")
    assert [spec.game_id for spec in playable_games()] == ["wizards-cup"]


def test_every_bundled_game_has_screens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tui.games, "_GAME_UIS", dict(tui.games._BUNDLED))
    assert [spec.game_id for spec in playable_games()] == ["wizards-cup", "witchdraft", "wizbits"]
    for game_id in ("wizards-cup", "witchdraft", "wizbits"):
        assert tui.games.game_ui(game_id).make_table() is not None


def test_opening_a_session_of_a_game_without_screens_says_so() -> None:
    async def scenario() -> None:
        with SessionStore() as store:
            live = LiveSession.create(store, "witchdraft", {}, 3, [SeatInfo("Ana"), SeatInfo("Bo")])
            app = CovenApp(store=store)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                app.open_session(live.session_id)
                app.open_replay(live.session_id)
                await until(pilot, lambda: isinstance(app.screen, MainMenu), 'isinstance(app.screen, MainMenu)')
                messages = [n.message for n in app._notifications]
                assert sum("WitchDraft can't be shown" in m for m in messages) == 2

    asyncio.run(scenario())
