"""Behaviour tests for the Wizards Cup table: team builder, lineup, swaps, results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from engine import Event, Result, get_game
from engine.wizards_cup.actions import Action, ChooseTeam, SetLineup
from engine.wizards_cup.cards import WIZARDS
from engine.wizards_cup.state import Phase, WizardsCupView
from tui.games import game_ui
from tui.games.base import GameTable
from tui.games.wizards_cup.duel_zone import DuelZone
from tui.games.wizards_cup.lineup import LineupEditor
from tui.games.wizards_cup.swap_picker import SwapPicker
from tui.games.wizards_cup.table import WizardsCupTable, WizardsCupUI
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui_fakes import ScreenApp

SPEC = get_game("wizards-cup")
RULES = SPEC.rules
SEED = 7
"""Seat 0 (Ana) displays Pyre Lord, seat 1 (Bo) displays Echo Warden."""

ANA_TEAM = ["dawn-acolyte", "tide-caller", "thornmother", "lantern-knight", "mist-warden"]
BO_TEAM = ["ember-adept", "umbral-tyrant", "starless-oracle", "thornmother", "moss-hermit"]


class Game:
    """Drives the engine with fixed actions and records every event."""

    def __init__(self, tokens_to_win: int = 2) -> None:
        self.state = SPEC.new_state({"tokens_to_win": tokens_to_win}, SEED, 2, ["Ana", "Bo"])
        self.events: list[Event] = []

    def act(self, seat: int | None, action: dict[str, Any]) -> list[Event]:
        self.state, events = RULES.apply(self.state, seat, action)
        self.events += events
        return events

    def view(self, seat: int | None) -> WizardsCupView:
        return RULES.view(self.state, seat)  # type: ignore[no-any-return]

    def legal(self, seat: int | None) -> list[Any]:
        return RULES.legal_actions(self.state, seat)

    def teams(self) -> None:
        self.act(0, {"type": "team", "cards": ANA_TEAM})
        self.act(1, {"type": "team", "cards": BO_TEAM})

    def lineups(self) -> None:
        for seat in (0, 1):
            team = list(self.state.players[seat].team)
            self.act(seat, {"type": "lineup", "order": team[:5]})

    def duels(self, count: int | None = None) -> list[Event]:
        events: list[Event] = []
        while RULES.table_action(self.state) is not None and (count is None or count > 0):
            events += self.act(None, {"type": "duel"})
            count = None if count is None else count - 1
        return events


class TableApp(App[None]):
    """Mounts one table the way the game screen does: status line, table, 6-line log, footer.

    With ``log=False`` the table gets the rows the log would take (the game screen's ``l`` key).
    """

    CSS = """
    #status { height: 1; background: $panel; padding: 0 1; }
    #area { height: 1fr; }
    #log { height: 7; border-top: solid $accent; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, view: Any, seat: int | None, legal: Sequence[Any] = (),
                 events: Sequence[Event] = (), log: bool = True) -> None:
        super().__init__()
        self.table = WizardsCupTable()
        self.start = (view, seat, list(legal), list(events))
        self.log_shown = log
        self.chosen: list[tuple[int, dict[str, Any]]] = []

    def compose(self) -> ComposeResult:
        yield Static("Wizards Cup · a test table", id="status")
        with Vertical(id="area"):
            yield self.table
        if self.log_shown:
            yield Static("\n".join(event.text for event in self.start[3][-6:]), id="log")
        yield Footer()

    def on_mount(self) -> None:
        view, seat, legal, events = self.start
        self.table.show_events(events)
        self.table.show(view, seat, legal)

    def on_game_table_action_chosen(self, message: GameTable.ActionChosen[Action]) -> None:
        self.chosen.append((message.seat, RULES.action_to_json(message.action)))


def team_app() -> TableApp:
    game = Game()
    return TableApp(game.view(0), 0, game.legal(0))


def lineup_app() -> TableApp:
    game = Game()
    game.teams()
    return TableApp(game.view(0), 0, game.legal(0), game.events)


def lineup_round2_app() -> TableApp:
    game = swap_game()
    game.act(0, {"type": "keep"})
    game.act(1, {"type": "keep"})
    return TableApp(game.view(0), 0, game.legal(0), game.events)


def duel_app(duels: int = 3, log: bool = True) -> TableApp:
    game = Game()
    game.teams()
    game.lineups()
    game.duels(duels)
    return TableApp(game.view(0), None, (), game.events, log=log)


def swap_game() -> Game:
    game = Game()
    game.teams()
    game.lineups()
    game.duels()
    return game


def swap_app() -> TableApp:
    game = swap_game()
    return TableApp(game.view(0), 0, game.legal(0), game.events)


COMMON = ["mist-warden", "deepwater-regent", "brine-witch", "cinder-duelist", "lantern-knight"]
"""Both players field the same five: every duel discards both, so both win every round."""


def tiebreak_game() -> tuple[Game, Result]:
    """A game where both reach 2 Cup Tokens together and the lower team total wins."""
    game = Game()
    for seat in (0, 1):
        game.act(seat, {"type": "team", "cards": sorted(COMMON)})
    while RULES.result(game.state) is None:
        if game.view(0).phase is Phase.SWAP:
            game.act(0, {"type": "keep"})
            game.act(1, {"type": "keep"})
        for seat in (0, 1):
            game.act(seat, {"type": "lineup", "order": COMMON})
        game.duels()
    result = RULES.result(game.state)
    assert result is not None
    return game, result


# --- behaviour -------------------------------------------------------------------------------


def test_registered() -> None:
    assert isinstance(game_ui("wizards-cup"), WizardsCupUI)
    assert isinstance(WizardsCupUI().make_table(), WizardsCupTable)


async def test_team_builder_posts_team_after_five_picks() -> None:
    app = team_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
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
        await pilot.pause()
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
        await pilot.pause()
        assert app.table.mode == "duel"
        assert app.query_one(DuelZone).status == "Your choice is in. Waiting for Bo…"


async def test_duel_reason_line_and_round_summary() -> None:
    app = duel_app(3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        reason = str(app.query_one("#dz-reason").render())
        assert "Ember Adept (Bo) beats" in reason and "Fire beats Light" in reason
        game = swap_game()
        ui = WizardsCupUI()
        screen = ui.round_result(game.view(0), game.events)
        assert screen is not None
        app.push_screen(screen)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not screen


async def test_game_result_dismisses() -> None:
    game, result = tiebreak_game()
    screen = WizardsCupUI().game_result(game.view(None), result, game.events)
    app = ScreenApp(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "lower total wins" in str(screen.query_one("#gr-reason").render())
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
            assert type(app.screen).__name__ == "RoundResultScreen"
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
        await pilot.pause()
        from textual.geometry import Region

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
            await pilot.pause()
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
            await pilot.pause()
            reason = str(app.screen.query_one("#dz-reason").render())
            assert "Duel 2" in reason and "about to begin" not in reason
            assert "Ana's Dawn Acolyte makes the lower value win" in reason
