"""WitchDraft on the app's own screens: the draft table, the curtain and the replay.

Sessions are played forward through the engine with the normal bot and a
fixed seed, so the pictures only change when the screens do.
"""

from __future__ import annotations

import random
from typing import Any

from textual.pilot import Pilot
from textual.widget import Widget

from engine.witchdraft.actions import Pick
from engine.witchdraft.bots import normal_bot
from engine.witchdraft.cards import CARDS
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.witchdraft.draft_hand import DraftHand
from tui.games.witchdraft.potion_grid import PotionGrid
from tui.screens.curtain import CurtainScreen
from tui.screens.game.screen import GameScreen
from tui.screens.replay import ReplayScreen

SIZE = (80, 24)
SEED = 21


def play_rounds(live: LiveSession, rounds: int, seed: int = SEED) -> None:
    """Every seat picks, then places, with the normal bot, ``rounds`` times."""
    rng = random.Random(seed)
    for _ in range(rounds):
        for _stage in ("pick", "place"):
            for seat in live.to_act:
                legal = live.rules.legal_actions(live.state, seat)
                action = normal_bot(live.rules.view(live.state, seat), legal, rng)
                live.apply(seat, action)


def against_merlin(store: SessionStore, rounds: int = 3) -> LiveSession:
    """Ana against the normal bot, a few picks in."""
    live = LiveSession.create(store, "witchdraft", {}, SEED, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
    play_rounds(live, rounds)
    return live


def pass_and_play(store: SessionStore, rounds: int = 2, **options: object) -> LiveSession:
    """Two people on one keyboard, a few picks in."""
    live = LiveSession.create(store, "witchdraft", options, SEED, [SeatInfo("Ann"), SeatInfo("Bob")])
    play_rounds(live, rounds)
    return live


def test_draft_table_with_a_ghost(snap_compare: Any) -> None:
    store = SessionStore()
    live = against_merlin(store)
    app = CovenApp(store=store, auto_delay=0.05)  # Merlin answers Ana's pick after a short pause

    async def pick_up_a_card(pilot: Pilot[None]) -> None:
        app.start_game(live)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("down", "space")  # Ana picks first; Merlin picks, the picks are revealed, Ana places
        await until(pilot, lambda: live.state.stage == "place" and isinstance(app.screen, GameScreen)
                    and app.screen.status_text == "Ana to choose", "Ana to place her pick")
        await app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, run_before=pick_up_a_card, terminal_size=SIZE)


def _fully_shown(widget: Widget, frame: Widget) -> bool:
    """True when every row and column of ``widget`` lies inside ``frame``'s region on screen."""
    return widget.region.height > 0 and frame.region.contains_region(widget.region)


async def test_score_card_and_seats_stay_above_the_fold_with_the_log_open() -> None:
    """A hand of six, the log open: the running score (ingredient points included) and every seat are on screen."""
    for size in (SIZE, (120, 40)):
        with SessionStore() as store:
            live = against_merlin(store, rounds=0)
            app = CovenApp(store=store, auto_delay=60.0)
            async with app.run_test(size=size) as pilot:
                app.start_game(live)
                await pilot.pause()
                await app.workers.wait_for_complete()
                await until(pilot, lambda app=app: isinstance(app.screen, GameScreen), 'isinstance(screen, GameScreen)')
                screen = app.screen
                assert isinstance(screen, GameScreen)
                log = screen.query_one("#game-log")
                assert log.display and log.region.height >= 4, "the log is open"
                hand = screen.query_one(DraftHand)
                assert len(hand.cards) == 6
                info, score = hand.query_one("#dh-info"), hand.query_one("#dh-score")
                for _watch in ("yours", "Merlin's, hidden"):
                    assert _fully_shown(score, info), f"running score cut at {size}"
                    assert score.region.height == 5, "a row of the running score wraps"
                    assert "root" in str(score.render()).splitlines()[-1]  # the ingredient card's last line
                    await pilot.press("right_square_bracket")
                    await pilot.pause()
                seats = screen.query_one("#dh-table")
                assert _fully_shown(seats, screen) and seats.region.bottom <= log.region.y, f"seats cut at {size}"
                assert len(str(seats.render()).splitlines()) == 2
                for row in str(seats.render()).splitlines():
                    assert len(row) <= seats.region.width - 2, "a seat's line is cut"


def test_witchdraft_curtain(snap_compare: Any) -> None:
    store = SessionStore()
    live = pass_and_play(store)
    app = CovenApp(store=store, auto_delay=60.0)

    async def ann_picks(pilot: Pilot[None]) -> None:
        app.start_game(live)
        await pilot.pause()
        await pilot.press("enter", "space")  # lift Ann's curtain and pick a card
        await pilot.pause()

    assert snap_compare(app, run_before=ann_picks, terminal_size=SIZE)


async def test_pass_and_play_hides_each_hand_behind_the_curtain() -> None:
    with SessionStore() as store:
        live = pass_and_play(store)
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await until(pilot, lambda: (
                isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"
                and "WitchDraft · Phase 1, pick 3" in str(app.screen.query_one("#curtain-text").render())
            ), 'isinstance(app.screen, CurtainScreen) and app.screen.play...')
            assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"
            assert "WitchDraft · Phase 1, pick 3" in str(app.screen.query_one("#curtain-text").render())
            game = app.screen_stack[-2]
            assert isinstance(game, GameScreen)
            hand = game.query_one(DraftHand)
            assert hand.cards == ()  # only the spectator's view is drawn under the curtain
            await pilot.press("enter")
            await until(pilot, lambda: (hand.cards == tuple(live.state.players[0].hand)),
                        'ann_hand == tuple(live.state.players[0].hand)')
            ann_hand = hand.cards
            assert ann_hand == tuple(live.state.players[0].hand)
            await pilot.press("space")
            await until(pilot, lambda: (isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
                                        and hand.cards == ()
                                        and live.state.players[0].pending is not None),
                        'isinstance(app.screen, CurtainScreen) and app.screen.play...')
            assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
            assert hand.cards == ()
            assert live.state.players[0].pending is not None  # Ann's pick is saved, still secret
            await pilot.press("enter")
            await until(pilot, lambda: (hand.cards == tuple(live.state.players[1].hand)
                                        and hand.cards != ann_hand
                                        and "Your hand" in str(hand.query_one("#dh-hand").border_title)),
                        'hand.cards == tuple(live.state.players[1].hand)')
            assert hand.cards == tuple(live.state.players[1].hand)
            assert hand.cards != ann_hand
            assert "Your hand" in str(hand.query_one("#dh-hand").border_title)
            await pilot.press("space")
            await until(pilot, lambda: (live.state.stage == "place"
                                        and isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"
                                        and "Phase 1, place 3" in str(app.screen.query_one("#curtain-text").render())),
                        'live.state.stage == "place"')
            # Both picks are revealed; with secret recipes each placement is behind the curtain too.
            assert live.state.stage == "place"
            assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"
            assert "Phase 1, place 3" in str(app.screen.query_one("#curtain-text").render())
            await pilot.press("enter")
            await until(pilot, lambda: (game.query_one(PotionGrid).placing),
                        'grid.placing and grid.card_id == live.state.players[0].pi...')
            grid = game.query_one(PotionGrid)
            assert grid.placing and grid.card_id == live.state.players[0].picked
            assert hand.cards == ()  # the rest of the hand stays out of sight while placing
            table = str(game.query_one("#dh-table").render()).splitlines()
            for line, player in zip(table, live.state.players, strict=True):  # both revealed picks, beside their owners
                assert player.picked is not None and str(CARDS[player.picked].animal) in line
            assert "Ann's potion (you)" in str(game.query_one("#wd-grid-title").render())
            await pilot.press("enter")
            await until(pilot, lambda: (len(live.state.players[0].area) == 4
                                        and isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"),
                        'len(live.state.players[0].area) == 4')
            assert len(live.state.players[0].area) == 4
            assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"


async def test_face_up_placing_passes_the_keyboard_without_a_curtain() -> None:
    with SessionStore() as store:
        live = pass_and_play(store, face_up=True)
        for seat in (0, 1):
            live.apply(seat, Pick(live.state.players[seat].hand[0]))
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await until(pilot, lambda: isinstance(app.screen, GameScreen), 'isinstance(screen, GameScreen)')
            screen = app.screen
            assert isinstance(screen, GameScreen)  # nothing secret is on show while placing
            grid = screen.query_one(PotionGrid)
            assert grid.placing and grid.card_id == live.state.players[0].picked
            await pilot.press("enter")
            await until(pilot, lambda: (
                app.screen is screen and grid.placing and grid.card_id == live.state.players[1].picked
                and "Bob's potion (you)" in str(screen.query_one("#wd-grid-title").render())
            ), 'app.screen is screen and grid.placing and grid.card_id ==...')
            assert app.screen is screen and grid.placing and grid.card_id == live.state.players[1].picked
            assert "Bob's potion (you)" in str(screen.query_one("#wd-grid-title").render())
            await pilot.press("enter")
            await until(pilot, lambda: (live.state.stage == "pick"
                                        and isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"),
                        'live.state.stage == "pick"')
            assert live.state.stage == "pick"
            assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"


async def test_replay_steps_through_a_finished_game() -> None:
    with SessionStore() as store:
        live = against_merlin(store, rounds=50)
        assert live.result is not None
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            app.open_replay(live.session_id)
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), 'isinstance(screen, ReplayScreen)')
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            grid = screen.query_one(PotionGrid)
            hand = screen.query_one(DraftHand)
            assert len(grid.area) == 1  # only the apprentice card at the start
            await pilot.press("end")
            await until(pilot, lambda: (
                len(grid.area) == 12
                and [card for card, *_ in grid.area] == [card for card, *_ in live.state.players[0].area]
            ), 'len(grid.area) == 12')
            assert len(grid.area) == 12
            assert [card for card, *_ in grid.area] == [card for card, *_ in live.state.players[0].area]
            await pilot.press("left", "left")
            await until(pilot, lambda: (len(grid.area) == 11
                                        and not grid.placing and hand.cards == ()),
                        'len(grid.area) == 11')
            assert len(grid.area) == 11  # the last two placements are undone
            assert not grid.placing and hand.cards == ()  # nobody decides in a replay
            await pilot.press("home")
            await pilot.pause()
            for _ in range(4):
                await pilot.press("right")
            await until(pilot, lambda: ("hidden" in str(screen.query_one("#dh-table").render())),
                        '"hidden" in str(screen.query_one("#dh-table").render())')
            await pilot.press("v")  # Ana's viewpoint: her hand and recipe, not Merlin's
            await until(pilot, lambda: (hand.cards == tuple(screen.states[screen.step].players[0].hand)),
                        'hand.cards == tuple(screen.states[screen.step].players[0]...')
            table = str(screen.query_one("#dh-table").render())
            assert "hidden" in table and "(you)" in table


async def test_new_game_shows_on_off_options_as_yes_and_no() -> None:
    from textual.widgets import Select, Static

    from engine import get_game

    face_up = next(option for option in get_game("witchdraft").options if option.name == "face_up")
    assert [face_up.choice_label(choice) for choice in face_up.choices] == ["No", "Yes"]
    with SessionStore() as store:
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            await until(pilot, lambda: bool(app.screen.query("#game-select")), "the New game form")
            app.screen.query_one("#game-select", Select).value = "witchdraft"

            def face_up_label() -> str | None:  # None while the options are still being built
                labels = app.screen.query("#option-face_up #label")
                return str(labels.first(Static).render()) if labels else None

            await until(pilot, lambda: face_up_label() == "No", "the Face up option reading No")
            select = app.screen.query_one("#option-face_up", Select)
            assert str(select.query_one("#label", Static).render()) == "No"


async def test_sessions_list_keeps_every_column_with_five_seats() -> None:
    from textual.widgets import DataTable, Static

    from tui.screens.sessions import SEATS_WIDTH, SessionsScreen

    names = ["Rosalind", "Bartholomew", "Cassiopeia", "Dorothea", "Evangeline"]
    with SessionStore() as store:
        live = LiveSession.create(store, "witchdraft", {}, 3, [SeatInfo(names[0])] + [
            SeatInfo(name, "bot", "normal") for name in names[1:]])
        reason = "Rosalind, Bartholomew and Cassiopeia share the victory with 104 brew points each."
        store.update_status(live.session_id, "finished", "Scored", reason)
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, SessionsScreen), 'isinstance(screen, SessionsScreen)')
            screen = app.screen
            assert isinstance(screen, SessionsScreen)
            table = screen.query_one(DataTable)
            row = [str(cell) for cell in table.get_row_at(0)]
            assert row[1] == "Rosalind vs 4 others" and len(row[1]) <= SEATS_WIDTH
            assert [str(column.label) for column in table.ordered_columns] == [
                "ID", "Seats", "Status", "Progress", "Last played"]
            # Every column, padding included, inside the 80 columns.
            assert sum(column.get_render_width(table) for column in table.ordered_columns) <= SIZE[0]
            detail = screen.query_one("#session-detail", Static)
            lines = [line.text.strip() for line in detail.render_lines(detail.region.reset_offset)]
            assert " ".join(" ".join(lines).split()).endswith(reason)


async def test_zoom_pan_and_areas_work_whatever_has_focus() -> None:
    with SessionStore() as store:
        live = against_merlin(store)
        app = CovenApp(store=store)
        async with app.run_test(size=SIZE) as pilot:
            app.start_game(live)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await until(pilot, lambda: isinstance(app.screen, GameScreen), 'isinstance(screen, GameScreen)')
            screen = app.screen
            assert isinstance(screen, GameScreen)
            grid, hand = screen.query_one(PotionGrid), screen.query_one(DraftHand)
            assert screen.focused is hand.query_one("#dh-hand")  # Ana picks from her hand
            shown = {binding.key: binding.description for _, binding, enabled, _ in screen.active_bindings.values()
                     if binding.show}
            assert {"z": "Zoom", "shift+left": "Pan", "right_square_bracket": "Areas"}.items() <= shown.items()
            title = screen.query_one("#wd-grid-title")
            assert "Ana's potion (you)" in str(title.render())
            await pilot.press("z")
            assert grid.zoom == "detailed"
            before = grid._viewport()
            await pilot.press("shift+right", "shift+down")
            assert grid._viewport()[:2] != before[:2]
            await pilot.press("right_square_bracket")
            await until(pilot, lambda: (
                "Merlin's potion" in str(title.render()) and "(you)" not in str(title.render())
                and [card for card, *_ in grid.area] == [card for card, *_ in live.state.players[1].area]
            ), '"Merlin\'s potion" in str(title.render()) and "(you)" not ...')
            assert "Merlin's potion" in str(title.render()) and "(you)" not in str(title.render())
            assert [card for card, *_ in grid.area] == [card for card, *_ in live.state.players[1].area]
            await pilot.press("left_square_bracket")
            await until(pilot, lambda: ("Ana's potion (you)" in str(title.render())),
                        '"Ana\'s potion (you)" in str(title.render())')

            app.open_replay(live.session_id)
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), 'isinstance(replay, ReplayScreen)')
            replay = app.screen
            assert isinstance(replay, ReplayScreen)
            grid = replay.query_one(PotionGrid)
            await pilot.press("end", "z", "right_square_bracket")
            await until(pilot, lambda: (grid.zoom == "detailed"
                                        and "Merlin's potion" in str(replay.query_one("#wd-grid-title").render())),
                        'grid.zoom == "detailed"')
            assert grid.zoom == "detailed"
            assert "Merlin's potion" in str(replay.query_one("#wd-grid-title").render())
            before = grid._viewport()
            await pilot.press("shift+left")
            assert grid._viewport()[:2] != before[:2]
