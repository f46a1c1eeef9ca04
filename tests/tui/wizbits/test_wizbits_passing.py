"""Passing without being asked in Wizbits, through the real game screen: auto-pass, yields and curtains.

Two people share the keyboard (pass-and-play), so every Priority a seat is
asked for raises a curtain when the other seat looked last: counting the
curtains counts the hand-overs auto-pass and the yields spare.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import Event
from engine.wizbits import actions as act
from saves import LiveSession, SeatInfo, SessionStore
from saves.preferences import get_preference, set_preference
from tests.helpers.tui_fakes import game_screen
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import BattleApp, conflict, run
from tests.helpers.wizbits_game import RULES
from tests.helpers.wizbits_passing import (
    DEFAULT_DECKS,
    SEED,
    SIZE,
    Curtains,
    asked,
    lift,
    log_text,
    table_of,
    two_people,
)
from tui.app import CovenApp
from tui.games.base import GameTable
from tui.games.wizbits.yields import AUTO_PASS_KEY, Yield, auto_pass_setting, keep_auto_pass
from tui.screens.curtain import CurtainScreen

MIRROR = {"deck_1": "ember-dawn", "deck_2": "ember-dawn"}


def phase_of(live: LiveSession) -> tuple[int, str, int]:
    return live.state.turn, live.state.phase, live.state.play_round


# -- auto-pass -----------------------------------------------------------------------------------


async def test_auto_pass_skips_priorities_with_nothing_but_passing_and_logs_them() -> None:
    with SessionStore() as store:
        live = two_people(store, MIRROR)
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=SIZE) as pilot:
            curtains = Curtains(app)
            app.start_game(live)
            await lift(pilot, app, "Ana")
            await asked(pilot, app, 0)
            assert phase_of(live) == (1, "elements", 1)
            await pilot.press("x")
            # Bo could only pass: no curtain for him, and Ana is asked at once on the next pillar.
            await until(pilot, lambda: phase_of(live) == (1, "non_elements", 1) and live.to_act == (0,),
                        "the Non-Elements pillar")
            await asked(pilot, app, 0)
            assert curtains.names == ["Ana"]
            assert "Bo passes (auto)." in log_text(app) and "Ana passes." in log_text(app)
            assert "Ana passes (auto)." not in log_text(app)
            # The passes are ordinary actions in the log: no trace of how they were made.
            stored = store.load(live.session_id).log  # as saved
            assert [(entry.seat, entry.action) for entry in stored[-2:]] == [(0, {"type": "pass"}), (1, {"type": "pass"})]


async def test_switching_auto_pass_off_makes_it_ask_and_is_kept_for_the_account() -> None:
    with SessionStore() as store:
        live = two_people(store, MIRROR)
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=SIZE) as pilot:
            curtains = Curtains(app)
            app.start_game(live)
            await lift(pilot, app, "Ana")
            table = await asked(pilot, app, 0)
            assert table.auto_pass and table.check_action("switch_auto_pass", (1,))
            await pilot.press("P")
            assert not table.auto_pass and table.check_action("switch_auto_pass", (0,))
            assert get_preference(store, None, AUTO_PASS_KEY) is False
            await pilot.press("x")
            bo = await asked(pilot, app, 1)  # Bo can only pass, and is asked all the same (no secrets: no curtain)
            assert bo.legal == [act.Pass()] and bo.priority_note() == "Auto-pass off (P)."
            await pilot.press("x")
            await lift(pilot, app, "Ana")
            assert curtains.names == ["Ana", "Ana"]
            assert "Bo passes." in log_text(app) and "Bo passes (auto)." not in log_text(app)


async def test_the_stored_setting_is_read_for_the_next_game() -> None:
    with SessionStore() as store:
        set_preference(store, None, AUTO_PASS_KEY, False)
        live = two_people(store, MIRROR)
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await lift(pilot, app, "Ana")
            await asked(pilot, app, 0)
            await pilot.press("x")
            assert not (await asked(pilot, app, 1)).auto_pass


# -- yields ----------------------------------------------------------------------------------------


async def test_yield_until_the_end_of_this_pillar() -> None:
    with SessionStore() as store:
        live = two_people(store, DEFAULT_DECKS, turn=3)
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=SIZE) as pilot:
            curtains = Curtains(app)
            app.start_game(live)
            await lift(pilot, app, "Ana")
            table = await asked(pilot, app, 0)
            await pilot.press("y")  # Ana passes and yields until this Elements pillar ends
            await lift(pilot, app, "Bo")
            await asked(pilot, app, 1)
            assert 0 in table.yields and 1 not in table.yields
            play = next(a for a in live.rules.legal_actions(live.state, 1) if a != act.Pass())
            table.post_message(GameTable.ActionChosen(1, play))
            await until(pilot, lambda: live.state.passes == 0, "Bo's unit on the pillar")
            await asked(pilot, app, 1)
            await pilot.press("x")  # Bo passes: Ana's Priority on the same pillar passes by itself
            await until(pilot, lambda: "Ana passes (yielding)." in log_text(app), "Ana's yielded pass")
            screen = game_screen(app)
            while not live.to_act:  # the pillar resolves, a step at a time
                screen.action_step()
                await pilot.pause()
            # The next pillar asks Ana again: her yield ended with the pillar.
            await lift(pilot, app, "Ana")
            await asked(pilot, app, 0)
            assert live.state.phase == "non_elements" and table.yields == {}
            assert curtains.names == ["Ana", "Bo", "Ana"]


async def test_yield_until_my_turn_spares_most_curtains_of_a_turn_with_no_card_played() -> None:
    async def ana_turn(yields: bool) -> tuple[list[str], list[str]]:
        """Ana passes every Priority of turn 3 and declares no attack; Bo yields at once, or passes each time."""
        with SessionStore() as store:
            live = two_people(store, DEFAULT_DECKS, turn=3)
            app = CovenApp(store=store, auto_delay=0.05)
            async with app.run_test(size=SIZE) as pilot:
                curtains = Curtains(app)
                app.start_game(live)
                while live.state.turn == 3:
                    await until(pilot, lambda: live.state.turn > 3 or (
                        live.to_act and (isinstance(app.screen, CurtainScreen) or table_of(app).seat is not None)),
                        "someone to be asked")
                    if live.state.turn > 3:
                        break
                    if isinstance(app.screen, CurtainScreen):
                        await lift(pilot, app, app.screen.player_name)
                    seat = live.to_act[0]
                    table = await asked(pilot, app, seat, "attack" if live.state.phase == "attack" else "hand")
                    log_length = len(live.log)
                    if table.stage == "attack":
                        await pilot.press("enter")
                    else:
                        await pilot.press("Y" if seat == 1 and yields else "x")
                    await until(pilot, lambda n=log_length: len(live.log) > n, "the choice to be applied")
                await lift(pilot, app, "Bo")  # turn 4 is Bo's: his yield is over
                await asked(pilot, app, 1)
                assert table_of(app).yields == {}
                return curtains.names, log_text(app)

    asking, _ = await ana_turn(yields=False)
    yielding, lines = await ana_turn(yields=True)
    assert len(asking) >= 10  # every one of Bo's seven Priorities, and Ana's after each
    assert yielding == ["Ana", "Bo", "Ana", "Bo"]  # Ana's first, Bo's first, Ana's after it, Bo's turn
    assert sum(line == "Bo passes (yielding)." for line in lines) >= 6
    assert "Ana passes (yielding)." not in lines  # a yield is one seat's own


async def test_a_yield_watched_from_its_own_seat_can_be_stopped() -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizbits", DEFAULT_DECKS, SEED,
                                  [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
        app = CovenApp(store=store, auto_delay=60.0)  # the bot waits: Ana watches meanwhile
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await pilot.pause()
            screen = game_screen(app)
            await until(pilot, lambda: screen.is_mounted and screen.table.view is not None, "the battlefield")
            while not live.to_act:  # Reconcile and Test
                screen.action_step()
                await pilot.pause()
            table = await asked(pilot, app, 0)
            await pilot.press("Y")
            await until(pilot, lambda: live.to_act == (1,) and table.stage == "watch", "Bo's turn to choose")
            assert table.yields[0].until == "turn"
            assert table.check_action("stop_yield", ()) and not table.check_action("yield_priority", ("turn",))
            prompt = table.query_one("#wb-prompt")
            assert "Yielding until your next turn (y stops)." in str(prompt.render())
            await pilot.press("y")
            assert table.yields == {} and "Auto-pass on (P)." in str(prompt.render())
            assert not table.check_action("yield_priority", ("pillar",)) and not table.check_action("stop_yield", ())


# -- the table's own rules for yields ------------------------------------------------------------


def test_a_yield_stops_at_any_other_decision_belongs_to_one_seat_and_ends_with_the_game() -> None:
    game, attackers, _ = conflict()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        table = app.table
        bo_view = RULES.view(game.state, 1)
        table.yields[1] = Yield.start("turn", bo_view)
        # Ana is not yielding: her attack is hers to declare, whatever Bo chose.
        assert table.automatic_choice(0, RULES.view(game.state, 0), RULES.legal_actions(game.state, 0)) is None
        game.act(0, act.Attack((attackers[0],)))
        blocks = RULES.legal_actions(game.state, 1)
        assert act.Pass() not in blocks
        assert table.automatic_choice(1, RULES.view(game.state, 1), blocks) is None  # Bo is asked to block
        assert table.yields == {}
        table.yields[1] = Yield.start("turn", bo_view)
        table.present(0, replace(RULES.view(game.state, 0), over=True), None, [])
        assert table.yields == {}
        # A seat that takes back a move wants to choose: its yield ends; another seat's stays.
        table.yields[0], table.yields[1] = Yield.start("pillar", bo_view), Yield.start("turn", bo_view)
        table.show_events([Event("undo", "Ana took back a move.", {"seat": 0, "step": 3})])
        assert list(table.yields) == [1]

    run(app, scenario)


def test_a_stored_setting_that_is_not_true_or_false_reads_as_on() -> None:
    with SessionStore() as store:
        assert auto_pass_setting(store, None) is True  # nothing stored: on
        for hostile in ("off", 0, None, {"on": False}, [False]):
            set_preference(store, None, AUTO_PASS_KEY, hostile)
            assert auto_pass_setting(store, None) is True
        set_preference(store, "bo", AUTO_PASS_KEY, False)
        assert auto_pass_setting(store, "bo") is False and auto_pass_setting(store, None) is True  # per account
        assert keep_auto_pass(store, None, False) is None and auto_pass_setting(store, None) is False
        assert keep_auto_pass(None, None, True) == "No session database is open, so the setting lasts until Coven closes"
    assert keep_auto_pass(store, None, True) == \
        "The setting could not be saved (The session store is closed); it lasts until Coven closes"


async def test_a_served_account_reads_and_keeps_its_own_setting() -> None:
    with SessionStore() as store:
        set_preference(store, "bo", AUTO_PASS_KEY, False)
        live = two_people(store, MIRROR)
        app = CovenApp(store=store, auto_delay=0.05, serve_port=2222, account="bo", player_name="bo", signed_in=True)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await lift(pilot, app, "Ana")
            table = await asked(pilot, app, 0)
            assert not table.auto_pass
            await pilot.press("P")
            assert table.auto_pass and get_preference(store, "bo", AUTO_PASS_KEY) is True
            assert get_preference(store, None, AUTO_PASS_KEY) is None  # the machine's own player is untouched
