"""Linear mode: the duel zone, the potions and the Pillar as lines of words, shown in the log's place."""

from __future__ import annotations

import pytest

from engine.witchdraft.cards import CARDS
from engine.wizards_cup.state import Phase as CupPhase
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.announce import play_until
from tests.helpers.narration import Host, game_screen
from tests.helpers.waiting import until
from tui.games import game_ui
from tui.games.witchdraft.narration import area_rows
from tui.games.wizbits.narration import pillar_units
from tui.player_settings import setting
from tui.widgets.linear_view import LinearView


def test_a_potion_reads_row_by_row_with_columns_as_letters() -> None:
    owl = CARDS["owl-1"]
    assert owl.name == "Lantern Owl"
    assert owl.colour is not None and CARDS["cat-1"].colour is not None
    crimson, amber = owl.colour.value, CARDS["cat-1"].colour.value  # Colour Pairs and Monochrome score them
    assert area_rows([("owl-1", 0, 0, 0)]) == [
        f"Row 1: Lantern Owl ({crimson}), half A, a gem at A1; Lantern Owl ({crimson}), half B, flea grass in a "
        "circle at B1."]
    # Half B below half A (rotation 90), to the left of another card: rows and columns count from the top left.
    rows = area_rows([("owl-1", 0, 0, 90), ("cat-1", -2, 0, 0)])
    assert rows == [f"Row 1: Sootpaw Cat ({amber}), half A, a gem at A1; Sootpaw Cat ({amber}), half B at B1; "
                    f"Lantern Owl ({crimson}), half A, a gem at C1.",
                    f"Row 2: Lantern Owl ({crimson}), half B, flea grass in a circle at C2."]
    assert area_rows([]) == ["The potion is empty."]


def test_the_duel_zone_reads_as_sides(store: SessionStore) -> None:
    live = play_until(store, "wizards-cup", lambda view: view.phase is CupPhase.DUEL and view.duel >= 1
                      and any(player.zone for player in view.players))
    view = live.rules.view(live.state, 0)
    lines = game_ui("wizards-cup").linear_text(view, 0)
    assert lines is not None
    rows = lines.splitlines()
    assert rows[0].startswith(f"Round 1, duel {view.duel}, first to 2 Cup Tokens.")
    assert rows[1].startswith("In the Duel zone: ")
    assert rows[2].startswith("Ana (you): 0 Cup Tokens, ") and rows[4].startswith("Bo: 0 Cup Tokens, ")
    for row, player in ((rows[2], view.players[0]), (rows[4], view.players[1])):
        assert row.endswith("no wizard in the Duel zone.") if player.zone is None else "in the Duel zone " in row
    assert ", next " in rows[3] and ", next " not in rows[5]  # only the viewer's next card


def test_the_pillar_reads_top_first_with_owners_heights_and_targets(store: SessionStore) -> None:
    def two_units(view: object) -> bool:
        return len([unit for unit in pillar_units(view) if unit.height >= 1]) >= 2  # type: ignore[arg-type]

    live = play_until(store, "wizbits", two_units)
    view = live.rules.view(live.state, 0)
    text = game_ui("wizbits").linear_text(view, 0)
    assert text is not None
    units = [unit for unit in pillar_units(view) if unit.height >= 1 and unit.branch == 0]
    main = next(line for line in text.splitlines() if line.startswith("Main pillar, top first: "))
    top = units[-1]
    owner = "you" if top.owner == 0 else "Bo"
    assert main.startswith(f"Main pillar, top first: {top.name} by {owner}, height {top.height}")
    assert "Your hand: " in text and "Bo: " in text
    spectator = game_ui("wizbits").linear_text(live.rules.view(live.state, None), None)
    assert spectator is not None and "Your hand" not in spectator and "by you" not in spectator


async def test_linear_mode_shows_the_table_in_words_in_the_log_s_place_and_keys_still_play(
        store: SessionStore) -> None:
    assert setting("linear").default is False
    live = LiveSession.create(store, "witchdraft", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    app = Host(live, linear=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        pane = screen.query_one(LinearView)
        await until(pilot, lambda: 0 in live.to_act and pane.display and not pane.has_class("-off"),
                    "the table in words")
        assert pane.text.startswith("Phase 1, pick 1.\nYour potion, 1 card:\nRow 1: Apprentice's Bench, half A at A1")
        assert not screen.query_one("#game-log").display
        assert screen.focused is not None and screen.focused is not pane  # the game keeps the first focus
        await pilot.press("space")  # the hand's key still picks
        await until(pilot, lambda: len(live.log) >= 1, "Ana's pick")
        await until(pilot, lambda: "placing pick 1" in pane.text, "the words to follow the game")
    off = Host(LiveSession.load(store, live.session_id))
    async with off.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: (not game_screen(off).query_one(LinearView).display),
                    'not game_screen(off).query_one(LinearView).display')


async def test_the_replay_shows_the_table_in_words_when_the_player_chose_linear_mode(store: SessionStore) -> None:
    from tui.app import CovenApp
    from tui.player_settings import write_setting
    from tui.screens.replay import ReplayScreen

    live = play_until(store, "witchdraft", lambda view: view.pick == 3)
    write_setting(store, None, "linear", True)
    app = CovenApp(store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(ReplayScreen(live, start=2))
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        pane = app.screen.query_one(LinearView)
        await until(pilot, lambda: pane.display and pane.text.startswith("Phase 1, placing pick 1."), "the words")
        assert not app.screen.query_one("#replay-log").display
        await pilot.press("right", "right", "right", "right")
        await until(pilot, lambda: pane.text.startswith("Phase 1, placing pick 2."), "the words to follow the steps")


async def test_turning_linear_mode_on_during_a_game_takes_effect_on_returning_to_it(store: SessionStore) -> None:
    from tui.app import CovenApp
    from tui.player_settings import write_setting
    from tui.screens.game.screen import GameScreen
    from tui.screens.transcript import TranscriptScreen

    live = LiveSession.create(store, "wizards-cup", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    app = CovenApp(store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(GameScreen(live, auto_delay=0.01))
        screen = app.screen
        assert isinstance(screen, GameScreen)
        pane = screen.query_one(LinearView)
        await until(pilot, lambda: (not pane.display and screen.query_one("#game-log").display),
                    'not pane.display and screen.query_one("#game-log").display')
        await app.push_screen(TranscriptScreen("Transcript", "", "t.txt"))  # any screen in front, as Settings would be
        write_setting(store, None, "linear", True)
        app.pop_screen()
        await until(pilot, lambda: pane.display and "Choosing teams" in pane.text, "the table in words")
        assert not screen.query_one("#game-log").display
        await app.push_screen(TranscriptScreen("Transcript", "", "t.txt"))
        write_setting(store, None, "linear", False)
        app.pop_screen()
        await until(pilot, lambda: not pane.display and screen.query_one("#game-log").display, "the log back")


async def test_the_pillar_lab_shows_its_pillar_in_words_in_linear_mode(store: SessionStore) -> None:
    from engine.wizbits.lab.json_form import shipped_scenarios
    from engine.wizbits.lab.table import build
    from tui.app import CovenApp
    from tui.games.wizbits.lab.screen import PillarLabScreen
    from tui.player_settings import write_setting

    scenario = shipped_scenarios()[0]
    units = sorted((unit for unit in build(scenario).pillar.units() if unit.height >= 1), key=lambda unit: unit.order)
    assert units
    write_setting(store, None, "linear", True)
    app = CovenApp(store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(PillarLabScreen(scenario, auto_pause=0.05, store=store))
        pane = app.screen.query_one(LinearView)
        await until(pilot, lambda: pane.display and bool(pane.text), "the pillar in words")
        main = pane.text.splitlines()[0]
        assert main.startswith(f"Main pillar, top first: {units[-1].name} by ") if units[-1].branch == 0 \
            else main.startswith("Main pillar, top first: ")
        for unit in units:
            assert unit.name in pane.text


async def test_linear_mode_asked_at_start_holds_for_the_run_until_the_player_changes_it(
        store: SessionStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # `coven play --linear` (the browser door's ?linear=1): on for this run, over the stored choice, which it
    # leaves alone; the player's own choice in Settings then wins.
    from tui import player_settings
    from tui.app import CovenApp
    from tui.cli import build_parser
    from tui.player_settings import read_settings, set_for_this_run, write_setting
    from tui.screens.game.screen import GameScreen
    from tui.screens.transcript import TranscriptScreen

    monkeypatch.setattr(player_settings, "_FOR_THIS_RUN", {})
    assert build_parser().parse_args(["play", "--linear"]).linear is True
    set_for_this_run("linear", True)
    live = LiveSession.create(store, "wizards-cup", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    app = CovenApp(store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.push_screen(GameScreen(live, auto_delay=0.01))
        screen = app.screen
        assert isinstance(screen, GameScreen)
        pane = screen.query_one(LinearView)
        await until(pilot, lambda: pane.display and "Choosing teams" in pane.text, "the table in words")
        await app.push_screen(TranscriptScreen("Transcript", "", "t.txt"))
        write_setting(store, None, "linear", False)
        app.pop_screen()
        await until(pilot, lambda: not pane.display and screen.query_one("#game-log").display, "the log back")
    assert read_settings(store, None)["linear"] is False
