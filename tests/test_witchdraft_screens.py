"""WitchDraft on the app's own screens: the draft table, the curtain and the replay.

Sessions are played forward through the engine with the normal bot and a
fixed seed, so the pictures only change when the screens do.
"""

from __future__ import annotations

import random
from typing import Any

from textual.pilot import Pilot

from engine.witchdraft.bots import normal_bot
from saves import LiveSession, SeatInfo, SessionStore
from tui.app import CovenApp
from tui.screens.curtain import CurtainScreen
from tui.screens.game import GameScreen
from tui.screens.replay import ReplayScreen
from tui.widgets.draft_hand import DraftHand
from tui.widgets.potion_grid import PotionGrid
from tui_fakes import sync

SIZE = (80, 24)
SEED = 21


def play_rounds(live: LiveSession, rounds: int, seed: int = SEED) -> None:
    """Every seat picks with the normal bot, ``rounds`` times."""
    rng = random.Random(seed)
    for _ in range(rounds):
        for seat in live.to_act:
            legal = live.rules.legal_actions(live.state, seat)
            action = normal_bot(live.rules.view(live.state, seat), legal, rng)
            live.apply(seat, live.rules.action_to_json(action))


def against_merlin(store: SessionStore, rounds: int = 3) -> LiveSession:
    """Ana against the normal bot, a few picks in."""
    live = LiveSession.create(store, "witchdraft", {}, SEED, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
    play_rounds(live, rounds)
    return live


def pass_and_play(store: SessionStore, rounds: int = 2) -> LiveSession:
    """Two people on one keyboard, a few picks in."""
    live = LiveSession.create(store, "witchdraft", {}, SEED, [SeatInfo("Ann"), SeatInfo("Bob")])
    play_rounds(live, rounds)
    return live


def test_draft_table_with_a_ghost(snap_compare: Any) -> None:
    store = SessionStore()
    live = against_merlin(store)
    app = CovenApp(store=store, auto_delay=60.0)

    async def pick_up_a_card(pilot: Pilot[None]) -> None:
        app.start_game(live)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("down", "space")

    assert snap_compare(app, run_before=pick_up_a_card, terminal_size=SIZE)


def test_witchdraft_curtain(snap_compare: Any) -> None:
    store = SessionStore()
    live = pass_and_play(store)
    app = CovenApp(store=store, auto_delay=60.0)

    async def ann_picks(pilot: Pilot[None]) -> None:
        app.start_game(live)
        await pilot.pause()
        await pilot.press("enter", "space", "enter")  # lift Ann's curtain, pick a card, place it
        await pilot.pause()

    assert snap_compare(app, run_before=ann_picks, terminal_size=SIZE)


@sync
async def test_pass_and_play_hides_each_hand_behind_the_curtain() -> None:
    with SessionStore() as store:
        live = pass_and_play(store)
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await pilot.pause()
            assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"
            assert "WitchDraft · Phase 1, pick 3" in str(app.screen.query_one("#curtain-text").render())
            game = app.screen_stack[-2]
            assert isinstance(game, GameScreen)
            hand = game.query_one(DraftHand)
            assert hand.cards == ()  # only the spectator's view is drawn under the curtain
            await pilot.press("enter")
            await pilot.pause()
            ann_hand = hand.cards
            assert ann_hand == tuple(live.state.players[0].hand)
            await pilot.press("space", "enter")
            await pilot.pause()
            assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
            assert hand.cards == ()
            assert live.state.players[0].pending is not None  # Ann's pick is saved, still secret
            await pilot.press("enter")
            await pilot.pause()
            assert hand.cards == tuple(live.state.players[1].hand)
            assert hand.cards != ann_hand


@sync
async def test_replay_steps_through_a_finished_game() -> None:
    with SessionStore() as store:
        live = against_merlin(store, rounds=50)
        assert live.result is not None
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            app.open_replay(live.session_id)
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            grid = screen.query_one(PotionGrid)
            hand = screen.query_one(DraftHand)
            assert len(grid.area) == 1  # only the apprentice card at the start
            await pilot.press("end")
            await pilot.pause()
            assert len(grid.area) == 12
            assert [card for card, *_ in grid.area] == [card for card, *_ in live.state.players[0].area]
            await pilot.press("left", "left")
            await pilot.pause()
            assert len(grid.area) == 11  # the last round's two picks are undone
            assert not grid.placing and hand.cards == ()  # nobody decides in a replay
            await pilot.press("home")
            await pilot.pause()
            for _ in range(4):
                await pilot.press("right")
            await pilot.pause()
            assert "recipe hidden" in str(hand.query_one("#dh-table").render())
            await pilot.press("v")  # Ana's viewpoint: her hand and recipe, not Merlin's
            await pilot.pause()
            assert hand.cards == tuple(screen.states[screen.step].players[0].hand)
            table = str(hand.query_one("#dh-table").render())
            assert "recipe hidden" in table and "(you)" in table


@sync
async def test_new_game_shows_on_off_options_as_yes_and_no() -> None:
    from textual.widgets import Select, Static

    from engine import get_game

    face_up = next(option for option in get_game("witchdraft").options if option.name == "face_up")
    assert [face_up.choice_label(choice) for choice in face_up.choices] == ["No", "Yes"]
    with SessionStore() as store:
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            await pilot.pause()
            app.screen.query_one("#game-select", Select).value = "witchdraft"
            await pilot.pause()
            select = app.screen.query_one("#option-face_up", Select)
            assert str(select.query_one("#label", Static).render()) == "No"
