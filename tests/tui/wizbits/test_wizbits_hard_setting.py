"""The Hard bots' thinking time setting reaches a bot that takes a clock, through the generic game screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine import GameSpec
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.tui_fakes import FakeUI
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.player_settings import think_time, write_setting


class ClockedBot:
    """A bot that notes each clock it is given and plays the first legal action."""

    def __init__(self, clocks: list[float]) -> None:
        self.clocks = clocks

    def with_think_time(self, seconds: float) -> ClockedBot:
        self.clocks.append(seconds)
        return self

    def __call__(self, view: Any, legal: Sequence[Any], rng: Any) -> Any:
        return legal[0]


def test_the_setting_reads_back_as_seconds_and_defaults_to_one(store: SessionStore) -> None:
    assert think_time(store, None) == 1.0
    write_setting(store, None, "bots.think_time", "0.25")
    assert think_time(store, None) == 0.25
    with pytest.raises(ValueError):
        write_setting(store, None, "bots.think_time", "9")


async def test_the_game_screen_gives_a_bot_the_players_thinking_time(
    fake_spec: GameSpec, fake_ui: FakeUI, monkeypatch: pytest.MonkeyPatch
) -> None:
    clocks: list[float] = []
    monkeypatch.setitem(fake_spec.bots, "hard", ClockedBot(clocks))  # type: ignore[index]
    with SessionStore() as store:
        write_setting(store, None, "bots.think_time", "4")
        live = LiveSession.create(store, "count-to-ten", {"target": 10}, 5,
                                  [SeatInfo("Hal", "bot", "hard"), SeatInfo("Bea", "bot", "hard")])
        app = CovenApp(store=store, auto_delay=0.01)
        async with app.run_test(size=(100, 30)) as pilot:
            app.start_game(live)
            await until(pilot, lambda: len(clocks) >= 2, "the bots to be asked")
            assert set(clocks) == {4.0}
