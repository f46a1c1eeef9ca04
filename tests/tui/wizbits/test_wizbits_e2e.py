"""Wizbits through the real game screen: a turn against the bot, the curtain, and the replay's pillar.

The session is real (a store in the test's data folder) and the keys go
through the game screen, so these tests cover the generic hooks too: the
table's checker, its step requests, the steps that play by themselves and
the pause before each bot action.
"""

from __future__ import annotations

import asyncio
import time

from engine import get_game
from engine.wizbits.state import Phase
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.tui_fakes import play_until
from tests.helpers.waiting import until
from tests.helpers.wizbits_e2e import HeldPauses, Host, game_screen, wait_for
from tui.games.wizbits.cost import CostDialog
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.games.wizbits.prompt import WizbitsDiceLog
from tui.games.wizbits.table import WizbitsTable
from tui.screens.curtain import CurtainScreen
from tui.screens.game.screen import GameScreen
from tui.screens.replay import ReplayScreen

SEED = 3
"""Ana (seat 1) starts with this seed."""
OPTIONS = {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}


def test_play_a_turn_against_the_bot_through_to_a_resolved_pillar() -> None:
    async def scenario() -> None:
        with SessionStore() as store:
            live = LiveSession.create(store, "wizbits", OPTIONS, SEED, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
            app = Host(lambda: GameScreen(live, auto_delay=0.01))
            async with app.run_test(size=(100, 30)) as pilot:
                screen = game_screen(app)
                table = screen.query_one(WizbitsTable)
                # Reconcile and the Test Phase play by themselves: Ana is asked without a key pressed.
                await wait_for(pilot, lambda: live.to_act == (0,) and table.stage == "hand", "Ana's Priority")
                assert live.state.phase == Phase.ELEMENTS
                assert [event.kind for event in table.query_one(WizbitsDiceLog).checks] == ["check"]  # the Test Phase
                playable = [index for index, entry in enumerate(table.entries)
                            if entry.playable and entry.ability is None]
                assert playable, "the opening hand has an Element to play"
                for _ in range(playable[0]):
                    await pilot.press("down")
                name = live.state.card(table.entries[playable[0]].iid).name
                await pilot.press("enter")
                if table.stage == "compose":
                    await pilot.press("enter")
                if isinstance(app.screen, CostDialog):
                    dialog = app.screen
                    for _ in range(10):
                        if dialog.verdict is None:
                            break
                        await pilot.press("1")
                    await pilot.press("enter")
                await wait_for(pilot, lambda: live.state.pillar is not None and any(
                    unit.name == name for unit in live.state.pillar.units()), "the card on the pillar")
                # Pass until both have passed; the bot answers after its pause (in a worker: slow when busy).
                deadline = time.monotonic() + 60
                while not live.state.resolving:
                    assert time.monotonic() < deadline, f"never resolving; to act: {live.to_act}"
                    if live.to_act == (0,):
                        await pilot.press("x")
                    await pilot.pause(0.05)
                assert not live.to_act
                tree = table.query_one(PillarTree)
                assert tree.mode == "step" and tree.next_group
                await until(pilot, lambda: live.state.resolving, 'live.state.resolving')
                assert live.state.resolving, "in step mode resolution waits for n"
                deadline = time.monotonic() + 60
                while live.state.resolving:
                    assert time.monotonic() < deadline, "n never finished the resolution"
                    await pilot.press("n")
                    await pilot.pause(0.05)
                steps = [entry.action for entry in live.log if entry.seat is None]
                assert {"type": "step", "step": "resolve"} in steps
                assert any(live.state.card(iid).name == name for iid in live.state.players[0].discard)

    asyncio.run(scenario())


def test_the_curtain_hides_hands_between_two_people() -> None:
    async def scenario() -> None:
        with SessionStore() as store:
            live = LiveSession.create(store, "wizbits", OPTIONS, SEED, [SeatInfo("Ana"), SeatInfo("Bo")])
            app = Host(lambda: GameScreen(live, auto_delay=0.01))
            async with app.run_test(size=(100, 30)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, CurtainScreen), "the curtain")
                table = game_screen(app).query_one(WizbitsTable)
                assert table.view is not None and table.view.seat is None  # a spectator view under the curtain
                await pilot.press("enter")
                await wait_for(pilot, lambda: table.stage == "hand", "Ana's hand")
                assert table.view is not None and table.view.seat == 0

    asyncio.run(scenario())


def test_a_seat_has_secrets_only_while_it_holds_cards() -> None:
    rules = get_game("wizbits").rules
    state = rules.new_state(OPTIONS, SEED, 2, ["Ana", "Bo"])
    assert not rules.seat_has_secrets(state, 0)  # nothing drawn yet
    state.players[0].hand.append(state.players[0].deck.pop())
    assert rules.seat_has_secrets(state, 0) and not rules.seat_has_secrets(state, 1)


def test_n_in_the_replay_steps_the_pillar_one_resolution_step_at_a_time() -> None:
    async def scenario() -> None:
        with SessionStore() as store:
            live = LiveSession.create(store, "wizbits", OPTIONS, SEED, [SeatInfo("Ana"), SeatInfo("Bo")])
            play_until(live, 120)
            resolves = [index for index, entry in enumerate(live.log)
                        if entry.seat is None and entry.action.get("step") == "resolve"]
            assert resolves, "the bots built and resolved a pillar"
            before = resolves[0]  # the replay shows the state after `before` actions: the step is next
            app = Host(lambda: ReplayScreen(live, start=before))
            async with app.run_test(size=(100, 30)) as pilot:
                await until(pilot, lambda: (app.screen.query_one(PillarTree).mode == 'step'),
                            'tree.mode == "step" and tree.pillar is not None')
                tree = app.screen.query_one(PillarTree)
                assert tree.mode == "step" and tree.pillar is not None
                units = len(list(tree.pillar.units()))
                group = {unit.uid for unit in tree.next_group}
                await pilot.press("n")  # the pillar's own key steps the replay, as in a game
                await until(pilot, lambda: (isinstance(app.screen, ReplayScreen) and app.screen.step == before + 1),
                            'isinstance(replay, ReplayScreen) and replay.step == befor...')
                replay = app.screen
                assert isinstance(replay, ReplayScreen) and replay.step == before + 1
                after = set() if tree.pillar is None else {unit.uid for unit in tree.pillar.units()}
                assert not group & after and len(after) < units

    asyncio.run(scenario())


def test_the_bot_pauses_before_each_action() -> None:
    async def scenario() -> None:
        with SessionStore() as store:
            live = LiveSession.create(store, "wizbits", OPTIONS, SEED, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
            held: list[HeldPauses] = []

            def make() -> GameScreen:
                screen = GameScreen(live, auto_delay=0.6)
                held.append(HeldPauses(screen))
                return screen

            app = Host(make)
            async with app.run_test(size=(100, 30)) as pilot:
                (pauses,) = held

                def ana_has_priority() -> bool:
                    pauses.end_one()  # any bot turn before it goes ahead at once
                    return live.to_act == (0,)

                await wait_for(pilot, ana_has_priority, "Ana's Priority")
                before, asked = len(live.log), len(pauses.delays)
                await pilot.press("x")  # Bo has Priority now
                await wait_for(pilot, lambda: len(pauses.waiting) == 1, "the pause before Bo's action")
                assert pauses.delays[asked:] == [0.6], "the pause is the screen's auto delay"
                assert len(live.log) == before + 1 and "thinking" in str(game_screen(app).status_text)
                for _ in range(10):  # however long the pause lasts, the bot does not act before it ends
                    await pilot.pause()
                assert len(live.log) == before + 1, "the bot waits the pause before acting"
                pauses.end_one()
                await wait_for(pilot, lambda: len(live.log) > before + 1, "the bot's action")

    asyncio.run(scenario())
