"""Behaviour tests for the Wizards Cup table: team builder, lineup, swaps, results."""

from __future__ import annotations

from textual.widgets import Static

from engine.wizards_cup.actions import ChooseTeam, SetLineup
from engine.wizards_cup.cards import WIZARDS
from engine.wizards_cup.state import Phase
from tests.helpers.tui_fakes import ScreenApp
from tests.helpers.waiting import until
from tests.helpers.wizards_cup_tui import (
    ANA_TEAM,
    BO_TEAM,
    RULES,
    SEED,
    Game,
    TableApp,
    duel_app,
    swap_game,
    team_app,
    tiebreak_game,
)
from tui.games import game_ui
from tui.games.wizards_cup.duel_zone import DuelZone
from tui.games.wizards_cup.lineup import LineupEditor
from tui.games.wizards_cup.swap_picker import SwapPicker
from tui.games.wizards_cup.table import WizardsCupTable, WizardsCupUI
from tui.games.wizards_cup.team_builder import TeamBuilder


def lineup_app() -> TableApp:
    game = Game()
    game.teams()
    return TableApp(game.view(0), 0, game.legal(0), game.events)


def swap_app() -> TableApp:
    game = swap_game()
    return TableApp(game.view(0), 0, game.legal(0), game.events)


# --- behaviour -------------------------------------------------------------------------------


def test_registered() -> None:
    assert isinstance(game_ui("wizards-cup"), WizardsCupUI)
    assert isinstance(WizardsCupUI().make_table(), WizardsCupTable)


async def test_team_builder_posts_team_after_five_picks() -> None:
    app = team_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (app.query_one(TeamBuilder).displayed == 'pyre-lord'),
                    'builder.displayed == "pyre-lord"')
        builder = app.query_one(TeamBuilder)
        assert builder.displayed == "pyre-lord"
        await pilot.press("c")
        assert builder.message == "Pick 5 more"
        # Dawn Acolyte, Hollow Sage, Moss Hermit, Night Whisper (space) and Tide Caller (enter).
        await pilot.press("space", "down", "space", "down", "space", "down", "space", "down", "enter")
        assert builder.picks == ["dawn-acolyte", "hollow-sage", "moss-hermit", "night-whisper", "tide-caller"]
        assert app.chosen == []
        await pilot.press("c")
        await pilot.pause()
    expected = ["dawn-acolyte", "hollow-sage", "moss-hermit", "night-whisper", "tide-caller"]
    assert app.chosen == [(0, {"type": "team", "cards": expected})]
    RULES.parse_action(app.chosen[0][1])  # the engine accepts the JSON


async def test_team_builder_refuses_a_sixth_pick() -> None:
    app = team_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        builder = app.query_one(TeamBuilder)
        for _ in range(5):
            await pilot.press("space", "down")
        await pilot.press("space")
        assert len(builder.picks) == 5
        assert "You have 5" in builder.message
        assert "unpick one first" in builder.message
        await pilot.press("up", "space")  # unpick the fifth
        assert len(builder.picks) == 4
        assert builder.message == ""


async def test_team_builder_keeps_the_displayed_card() -> None:
    app = team_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        builder = app.query_one(TeamBuilder)
        await pilot.press(*["down"] * 15)  # Pyre Lord, value 16, is the displayed card
        assert builder.highlighted_card == "pyre-lord"
        await pilot.press("space")
        assert builder.picks == []
        assert builder.message == "Your displayed card stays in"
        await pilot.press("enter")
        assert builder.picks == []


async def test_lineup_reorder_and_waiting_card() -> None:
    app = lineup_app()
    team = list(app.start[0].players[0].team)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.query_one(LineupEditor).slots == team, 'editor.slots == team')
        editor = app.query_one(LineupEditor)
        assert editor.slots == team  # positions 1-5, then the Waiting Card
        await pilot.press("shift+down")  # the first wizard moves to position 2
        await pilot.press("down", "down", "w")  # position 4 waits; the old Waiting Card takes position 4
        await pilot.press("c")
        await pilot.pause()
    assert editor.waiting == team[3]
    assert app.chosen == [(0, {"type": "lineup", "order": [team[1], team[0], team[2], team[5], team[4]]})]


async def test_lineup_bracket_keys_move() -> None:
    app = lineup_app()
    team = list(app.start[0].players[0].team)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "[", "[", "c")
        await pilot.pause()
    assert app.chosen == [(0, {"type": "lineup", "order": [team[2], team[0], team[1], team[3], team[4]]})]


async def test_swap_posts_swap_and_keep() -> None:
    game = swap_game()
    view = game.view(0)
    team = list(view.players[0].team or ())
    unused = [w.card_id for w in WIZARDS if w.card_id not in team]
    app = TableApp(view, 0, game.legal(0), game.events)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        picker = app.query_one(SwapPicker)
        await pilot.press("space")  # the displayed card (first) can't leave
        assert picker.out is None and "displayed card" in picker.message
        await pilot.press("c")
        assert app.chosen == [] and "swap out" in picker.message
        await pilot.press("down", "space")  # out: the second team wizard; the keyboard stays on the team
        await pilot.press("tab", "down", "space", "c")  # in: the second unused wizard
        await pilot.pause()
        await pilot.press("k")
        await pilot.pause()
    assert app.chosen == [(0, {"type": "swap", "out": team[1], "in": unused[1]}), (0, {"type": "keep"})]


async def test_waiting_status_without_a_decision() -> None:
    game = Game()
    game.act(0, {"type": "team", "cards": ANA_TEAM})
    app = TableApp(game.view(0), None, ())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (app.table.mode == "duel"
                                    and app.query_one(DuelZone).status == "Your choice is in. Waiting for Bo…"),
                    'app.table.mode == "duel"')
        assert app.table.mode == "duel"
        assert app.query_one(DuelZone).status == "Your choice is in. Waiting for Bo…"


async def test_duel_reason_line_and_round_summary() -> None:
    app = duel_app(3)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: ('Ember Adept (Bo) beats' in str(app.query_one('#dz-reason').render())),
                    '"Ember Adept (Bo) beats" in reason and "Fire beats Light"...')
        reason = str(app.query_one("#dz-reason").render())
        assert "Ember Adept (Bo) beats" in reason and "Fire beats Light" in reason
        game = swap_game()
        ui = WizardsCupUI()
        screen = ui.round_result(game.view(0), game.events)
        assert screen is not None
        app.push_screen(screen)
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is not screen, 'app.screen is not screen')


async def test_game_result_dismisses() -> None:
    game, result = tiebreak_game()
    screen = WizardsCupUI().game_result(game.view(None), result, game.events)
    app = ScreenApp(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: ("lower total wins" in str(screen.query_one("#gr-reason").render())),
                    '"lower total wins" in str(screen.query_one("#gr-reason")....')
        await pilot.press("escape")
        await pilot.pause()
    assert app.dismissed


async def test_plays_a_round_on_the_real_game_screen() -> None:
    """Team, lineup, duels, round summary and swap through the app's own game screen."""
    import saves
    import tui.app as app_module

    with saves.SessionStore() as store:
        live = saves.LiveSession.create(store, "wizards-cup", None, SEED,
                                        [saves.SeatInfo("Ana"), saves.SeatInfo("Merlin", "bot", "easy")])
        app = app_module.CovenApp(store=store, auto_delay=0.01)
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_game(live)

            async def settle() -> None:
                await pilot.pause()
                await app.workers.wait_for_complete()
                await pilot.pause()

            await settle()
            for _ in range(5):
                await pilot.press("space", "down")
            await pilot.press("c")
            await settle()
            assert RULES.view(live.state, 0).phase is Phase.LINEUP
            await pilot.press("down", "w", "c")
            await settle()
            assert RULES.view(live.state, 0).phase is Phase.DUEL
            for _ in range(12):
                if type(app.screen).__name__ != "GameScreen":
                    break
                await pilot.press("space")
                await pilot.pause()
            await until(pilot, lambda: type(app.screen).__name__ == "RoundResultScreen", "the round's result")
            await pilot.press("enter")
            await settle()
            if RULES.view(live.state, 0).phase is Phase.SWAP:
                await pilot.press("k")
                await settle()
                assert RULES.view(live.state, 0).phase is Phase.LINEUP


async def test_piles_keep_three_lines_with_long_names() -> None:
    """A long "next" or "top" wizard is cut short; the Waiting line stays in view at 80x24."""
    import dataclasses

    game = Game()
    game.teams()
    game.lineups()
    game.duels(1)
    view = game.view(0)
    me = view.players[0]
    long_me = dataclasses.replace(me, deck=("deepwater-regent", *(me.deck or ())[1:]),
                                  discard=("sunforged-saint",))
    view = dataclasses.replace(view, players=(long_me, view.players[1]))
    app = TableApp(view, None, (), game.events)
    async with app.run_test(size=(80, 24)) as pilot:
        from textual.geometry import Region

        await until(pilot, lambda: app.query_one("#dz-side-0 .dz-piles", Static).region.height == 3, "the piles")
        piles = app.query_one("#dz-side-0 .dz-piles", Static)
        assert piles.region.height == 3
        lines = [strip.text.strip() for strip in piles.render_lines(Region(0, 0, *piles.size))]
        assert lines[0].startswith("Deck") and "next ≈ Deepwater R" in lines[0]  # cut with "…", not wrapped
        assert lines[1].startswith("Discard") and "top ☼ Sunforged" in lines[1]
        assert lines[2] == "Waiting ♣ Mist Warden"  # Ana's own Waiting Card stays in view


async def test_replay_shows_its_own_keys_in_the_duel_zone() -> None:
    import saves
    import tui.app as app_module
    from tui.screens.replay import ReplayScreen

    with saves.SessionStore() as store:
        live = saves.LiveSession.create(store, "wizards-cup", None, SEED,
                                        [saves.SeatInfo("Ana"), saves.SeatInfo("Bo")])
        live.apply(0, ChooseTeam(tuple(ANA_TEAM)))
        live.apply(1, ChooseTeam(tuple(BO_TEAM)))
        for seat in (0, 1):
            live.apply(seat, SetLineup(tuple(live.state.players[seat].team)[:5]))
        live.play_table()
        live.play_table()
        app = app_module.CovenApp(store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_replay(live.session_id)
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), 'isinstance(screen, ReplayScreen)')
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("end")
            zone = screen.query_one(DuelZone)
            assert zone.status == ReplayScreen.KEYS_HINT and "space" not in zone.status
            assert "Duel 2" in str(zone.query_one("#dz-reason").render())
            await pilot.press("left", "left")  # back before the first duel: no reason from later duels
            assert "first duel is about to begin" in str(zone.query_one("#dz-reason").render())
            await pilot.press("right")
            assert "Duel 1" in str(zone.query_one("#dz-reason").render())


async def test_resumed_game_shows_why_the_last_duel_ended() -> None:
    import saves
    import tui.app as app_module

    with saves.SessionStore() as store:
        live = saves.LiveSession.create(store, "wizards-cup", None, SEED,
                                        [saves.SeatInfo("Ana"), saves.SeatInfo("Bo")])
        live.apply(0, ChooseTeam(tuple(ANA_TEAM)))
        live.apply(1, ChooseTeam(tuple(BO_TEAM)))
        for seat in (0, 1):
            live.apply(seat, SetLineup(tuple(live.state.players[seat].team)[:5]))
        live.play_table()
        live.play_table()
        app = app_module.CovenApp(store=store, auto_delay=60)
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_session(live.session_id)  # loads the session afresh, as after a restart
            await until(pilot, lambda: ('Duel 2' in str(app.screen.query_one('#dz-reason').render())),
                        '"Duel 2" in reason and "about to begin" not in reason')
            reason = str(app.screen.query_one("#dz-reason").render())
            assert "Duel 2" in reason and "about to begin" not in reason
            assert "Ana's Dawn Acolyte makes the lower value win" in reason
