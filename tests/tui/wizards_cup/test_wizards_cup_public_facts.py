"""Wizards Cup screens show every public fact: the opponent's displayed card, last round's order, the end."""

from __future__ import annotations

from textual.geometry import Region
from textual.widgets import OptionList, Static

from engine.wizards_cup.actions import ChooseTeam, SetLineup
from tests.helpers.waiting import until
from tests.helpers.wizards_cup_tui import ANA_TEAM, BO_TEAM, SEED, Game, TableApp, team_app
from tui.games.wizards_cup.duel_zone import DuelZone
from tui.games.wizards_cup.lineup import LineupEditor
from tui.games.wizards_cup.team_builder import TeamBuilder


def lines_of(widget: Static) -> list[str]:
    """The widget's lines as drawn on screen (cut to its size)."""
    return [strip.text.strip() for strip in widget.render_lines(Region(0, 0, *widget.size))]


async def test_team_builder_shows_the_opponents_displayed_card_at_80x24() -> None:
    """Bo's Echo Warden is public from the start: named beside the team and marked in the list."""
    app = team_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        builder = app.query_one(TeamBuilder)
        for _ in range(5):  # a full team, then a refused sixth pick: the longest the right column gets
            await pilot.press("space", "down")
        await pilot.press("space")
        await until(pilot, lambda: builder.message, 'builder.message')
        shown = builder.query_one("#tb-opponent", Static)
        assert lines_of(shown) == ["Bo's displayed card", "◇ ◌ Echo Warden 17"]
        assert shown.region.bottom <= app.table.region.bottom  # in view, above the footer
        row = builder.query_one("#tb-list", OptionList).get_option("echo-warden").prompt
        assert "◇ Bo" in str(row)
        assert "◇" not in str(builder.query_one("#tb-list", OptionList).get_option("pyre-lord").prompt)


async def test_round_two_lineup_opens_in_last_rounds_order() -> None:
    game = Game()
    game.teams()
    ana_order = ["mist-warden", "lantern-knight", "pyre-lord", "dawn-acolyte", "thornmother"]
    game.act(0, {"type": "lineup", "order": ana_order})
    game.act(1, {"type": "lineup", "order": list(game.state.players[1].team)[:5]})
    game.duels()
    game.act(0, {"type": "swap", "out": "lantern-knight", "in": "sunforged-saint"})
    game.act(1, {"type": "keep"})
    app = TableApp(game.view(0), 0, game.legal(0), game.events)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.query_one(LineupEditor).slots[:1] == ["mist-warden"], "the lineup's slots")
        editor = app.query_one(LineupEditor)
        assert editor.slots == ["mist-warden", "sunforged-saint", "pyre-lord", "dawn-acolyte", "thornmother",
                                "tide-caller"]


async def test_a_finished_games_replay_shows_both_waiting_cards_at_the_end() -> None:
    import saves
    import tui.app as app_module
    from tui.screens.replay import ReplayScreen

    with saves.SessionStore() as store:
        live = saves.LiveSession.create(store, "wizards-cup", {"tokens_to_win": 1}, SEED,
                                        [saves.SeatInfo("Ana"), saves.SeatInfo("Bo")])
        live.apply(0, ChooseTeam(tuple(ANA_TEAM)))
        live.apply(1, ChooseTeam(tuple(BO_TEAM)))
        for seat in (0, 1):  # the sixth wizard of each team waits
            live.apply(seat, SetLineup(tuple(live.state.players[seat].team)[:5]))
        while live.table_action is not None:
            live.play_table()
        assert live.finished
        waiting = [live.state.players[seat].team[5] for seat in (0, 1)]
        assert waiting == ["mist-warden", "moss-hermit"]
        app = app_module.CovenApp(store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_replay(live.session_id)
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), 'isinstance(app.screen, ReplayScreen)')
            await pilot.press("end")
            await until(pilot, lambda: (
                app.screen.query_one(DuelZone).view is not None and app.screen.query_one(DuelZone).view.seat is None
            ), 'zone.view is not None and zone.view.seat is None')
            zone = app.screen.query_one(DuelZone)
            assert zone.view is not None and zone.view.seat is None  # the spectator's view
            piles = [lines_of(zone.query_one(f"#dz-side-{seat} .dz-piles", Static)) for seat in (0, 1)]
            assert piles[0][2] == "Waiting ♣ Mist Warden"
            assert piles[1][2] == "Waiting ♣ Moss Hermit"
