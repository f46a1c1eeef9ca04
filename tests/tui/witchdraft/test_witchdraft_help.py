"""WitchDraft's help and hand as a newcomer reads them: one row per key family, Areas said in words, a legend."""

from __future__ import annotations

import random

from textual.widgets import OptionList

from engine.witchdraft.bots import normal_bot
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.witchdraft.draft_hand import DraftHand
from tui.screens.game.screen import GameScreen
from tui.screens.help import HelpScreen


def picking(store: SessionStore) -> LiveSession:
    """Ana against the normal bot, one round in: Ana picks from her hand."""
    live = LiveSession.create(store, "witchdraft", {}, 21, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
    rng = random.Random(21)
    for _stage in ("pick", "place"):
        for seat in live.to_act:
            legal = live.rules.legal_actions(live.state, seat)
            live.apply(seat, normal_bot(live.rules.view(live.state, seat), legal, rng))
    return live


def screen_text(app: CovenApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_the_help_lists_areas_and_pan_once_each_and_says_what_an_area_is() -> None:
    with SessionStore() as store:
        live = picking(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_game(live)
            await until(pilot, lambda: isinstance(app.screen, GameScreen)
                        and app.screen.focused is app.screen.query_one(DraftHand).query_one("#dh-hand"),
                        "Ana's hand")
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen)
            labels = [label.plain for _, _, label in help_screen.rows]
            areas = [label for label in labels if "area" in label.lower()]
            assert len(areas) == 1 and areas[0].split()[:2] == ["[", "]"]
            assert "another seat's play area" in areas[0]  # what an area is, in words
            pans = [label for label in labels if "Pan" in label]
            assert len(pans) == 1 and all(arrow in pans[0] for arrow in "←→↑↓")
            # The folded row still presses a key of its family.
            keys = [key for _, key, label in help_screen.rows if label.plain in areas]
            assert keys and keys[0] in ("left_square_bracket", "right_square_bracket")
            assert len(help_screen.query_one(OptionList).options) == len(labels)


async def test_the_hand_reads_with_a_legend_while_picking() -> None:
    with SessionStore() as store:
        live = picking(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_game(live)
            await until(pilot, lambda: isinstance(app.screen, GameScreen) and "Your hand" in screen_text(app),
                        "Ana's hand")
            await until(pilot, lambda: "[left|right half] ½ symbols" in screen_text(app), "the hand's legend")
