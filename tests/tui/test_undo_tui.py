"""The undo key on the game screen: u (or ctrl+z) takes back a move the rule allows, and the Footer says why not."""

from __future__ import annotations

from textual.app import App
from textual.widgets import RichLog, Static

from engine.wizbits.actions import Pass, PlayCard
from saves import LiveSession, SessionStore
from tests.helpers.undo_tui import Host, to_a_play, to_an_undoable_play, undo_key, undoable_plays
from tests.helpers.waiting import until
from tests.helpers.wizbits_e2e import HeldPauses
from tui.screens.game.screen import GameScreen
from tui.screens.game.undo import take_back


async def test_u_takes_back_a_unit_and_the_footer_says_when_it_cannot(store: SessionStore) -> None:
    live, play = to_a_play(store)
    app = Host(live)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        held = HeldPauses(screen)  # Bo's bot acts when the test says, not when a timer does
        await until(pilot, lambda: undo_key(screen) is None, 'undo_key(screen) is None')
        before, log_length = live.digest, len(live.log)
        screen._apply(0, play)
        await until(pilot, lambda: undo_key(screen) == "Undo", "the undo key after Ana's play")
        await pilot.press("u")
        await until(pilot, lambda: live.digest == before, "the play taken back")
        assert len(live.log) == log_length + 2 and live.log[-1].action == {"type": "undo"}
        assert any("Ana took back a move." in str(line) for line in screen.query_one("#game-log").lines)
        # Passing gives Priority to Bo: the pass cannot be taken back, and the key says why.
        screen._apply(0, Pass())
        await until(pilot, lambda: undo_key(screen) == "Undo: the turn has moved on", "the dimmed undo key")
        await until(pilot, lambda: bool(held.waiting), "Bo's bot to wait for its pause")
        held.end_one()
        await until(pilot, lambda: live.last_mover != 0, "Bo's answer")
        await until(pilot, lambda: undo_key(screen) is None, "the undo key hidden: Bo has moved since")
        await pilot.press("ctrl+z")
        await until(pilot, lambda: ([entry.action for entry in live.log].count({"type": "undo"}) == 1),
                    '[entry.action for entry in live.log].count({"type": "undo...')


async def test_a_replay_strikes_through_moves_taken_back_or_leaves_them_out(store: SessionStore) -> None:
    from tui.screens.replay import ReplayScreen

    live, play = to_a_play(store)
    live.apply(0, play)
    taken = len(live.log)
    live.undo(0)
    live.apply(0, Pass())

    class Replay(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ReplayScreen(LiveSession.load(store, live.session_id)))

    app = Replay()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end")
        await until(pilot, lambda: any(line.text == "Ana took back a move."
                                       for line in screen.query_one("#replay-log", RichLog).lines), "the undo logged")
        lines = [line.text for line in screen.query_one("#replay-log", RichLog).lines]
        struck = [line for line in lines if line.endswith("(taken back)")]
        assert any("Ana plays" in line for line in struck) and "Ana took back a move." in lines
        screen.step = taken  # the move taken back can still be looked at
        await until(pilot, lambda: ("taken back" in str(screen.query_one("#replay-status", Static).render())),
                    '"taken back" in str(screen.query_one("#replay-status", St...')
        await pilot.press("u")
        await until(pilot, lambda: not screen.show_undone, "the toggle")
        assert screen.step == taken - 1  # it left the hidden step for the one before
        lines = [line.text for line in screen.query_one("#replay-log", RichLog).lines]
        assert not any("taken back" in line or "took back" in line for line in lines)
        await pilot.press("right")
        await until(pilot, lambda: screen.step == taken + 2, 'screen.step == taken + 2')


async def test_at_one_keyboard_the_seat_behind_the_curtain_takes_back_its_own_unit() -> None:
    from tests.helpers.tui_fakes import game_screen
    from tests.helpers.wizbits_passing import DEFAULT_DECKS, Curtains, asked, lift, two_people
    from tui.app import CovenApp

    with SessionStore() as store:
        live = two_people(store, DEFAULT_DECKS, turn=2)  # Bo (seat 1) acts first, both hold cards
        to_an_undoable_play(live, 1)  # on to where Bo can play a card he may take back (none paid from the deck)
        app = CovenApp(store=store, auto_delay=0.05)
        async with app.run_test(size=(100, 30)) as pilot:
            curtains = Curtains(app)
            app.start_game(live)
            await lift(pilot, app, "Bo")
            await asked(pilot, app, 1)
            plays = undoable_plays(live, 1)
            assert plays, "Bo has a card he can play and take back"
            before = live.digest
            screen = game_screen(app)
            screen._apply(1, plays[0])
            await until(pilot, lambda: undo_key(screen) == "Undo", "Bo's undo key")
            await pilot.press("u")
            await until(pilot, lambda: live.digest == before, "Bo's unit taken back")
            await asked(pilot, app, 1)  # still Bo's choice, with no curtain in between
            assert curtains.names == ["Bo"]


async def test_a_play_paid_from_the_deck_stays_and_the_footer_says_why(store: SessionStore) -> None:
    live, _ = to_a_play(store)
    from_deck = next(action for action in live.rules.legal_actions(live.state, 0)
                     if isinstance(action, PlayCard) and action.pay.deck)
    app = Host(live)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        HeldPauses(screen)
        await pilot.pause()
        screen._apply(0, from_deck)
        await until(pilot, lambda: undo_key(screen) == "Undo: deck cards were shown",
                    "the dimmed undo key naming the shown cards")
        log_length = len(live.log)
        take_back(screen)  # what the key runs: a refusal is told in words, and nothing is saved
        await until(pilot, lambda: any("Nothing was taken back: deck cards were shown." == str(note.message)
                                       for note in app._notifications), "the refusal said in words")
        assert len(live.log) == log_length and live.undo_refusal(0) == "deck cards were shown"
