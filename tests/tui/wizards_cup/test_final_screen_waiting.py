"""The final Wizards Cup screen marks each side's Waiting Card, which the end of the game turns up."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Static

from engine.wizards_cup.cards import CARDS
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import bot_move
from tests.helpers.waiting import until
from tui.games.wizards_cup.results import WizardsCupResultScreen


async def test_each_teams_waiting_card_is_marked_in_words() -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 9, [SeatInfo("Ana", "bot", "easy"),
                                                                 SeatInfo("Bo", "bot", "easy")])
        while live.result is None:
            bot_move(live)
        view = live.rules.view(live.state, None)
        result = live.result
        events = [event for step in live.history() for event in step.events]

    class Final(App[None]):
        def on_mount(self) -> None:
            self.push_screen(WizardsCupResultScreen(view, result, events))

    app = Final()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WizardsCupResultScreen)
                    and len(app.screen.query(".gr-team")) == 2, "the final screen")
        blocks = [str(block.render()) for block in app.screen.query(".gr-team").results(Static)]
    for player, block in zip(view.players, blocks, strict=True):
        assert player.waiting is not None  # the game is over: both Waiting Cards are public
        marked = [line for line in block.splitlines() if line.rstrip().endswith("waiting")]
        assert len(marked) == 1 and CARDS[player.waiting].name in marked[0]
