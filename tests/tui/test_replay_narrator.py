"""Announce (``;``) and the questions (``'``) in a replay, at 80x24: about the step shown, from the replay's eyes.

A spectator is never told a hand; once the game is over, ``v`` lends a seat's eyes and its hand is answered.
What is said shows as a toast and on the status line, and goes into the replay's transcript (``T``).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import OptionList, Static

from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import GAMES, bot_move
from tests.helpers.waiting import new_toast, toast_ids, until
from tui.app import CovenApp
from tui.games.narration import WATCHING_HAND
from tui.screens.help import HelpScreen
from tui.screens.replay import ReplayScreen
from tui.screens.replay_narrator import REPLAY_CLOCK
from tui.screens.transcript import TranscriptScreen
from tui.widgets.ask import AskScreen

SIZE = (80, 24)


def finished(store: SessionStore, game_id: str) -> LiveSession:
    """A bots' game of ``game_id`` played to its end."""
    live = LiveSession.create(store, game_id, GAMES[game_id], 5,
                              [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")])
    for _ in range(5000):
        if live.result is not None:
            return live
        bot_move(live)
    raise AssertionError("the game never ended")


def status(screen: ReplayScreen) -> str:
    return str(screen.query_one("#replay-status", Static).render())


def toasts(app: CovenApp) -> list[str]:
    return [str(note.message) for note in app._notifications]


async def said(pilot: Any, screen: ReplayScreen, keys: tuple[str, ...], start: str = "") -> str:
    """Press ``keys`` (``;``, or ``'`` and a letter) and wait for the words said: toast and status line."""
    app = screen.app
    before = toast_ids(app)
    await pilot.press(keys[0])
    if len(keys) > 1:
        await until(pilot, lambda: isinstance(app.screen, AskScreen), "the questions")
        await pilot.press(keys[1])
        await until(pilot, lambda: app.screen is screen, "the questions to close")
    text = await new_toast(pilot, before, "the toast")
    assert text.startswith(start), text
    await until(pilot, lambda: text[:15] in status(screen), "the words on the status line")
    return text


def hand_names(live: LiveSession, step: int, seat: int) -> list[str]:
    """The names of ``seat``'s hand after ``step`` (WitchDraft)."""
    from engine.witchdraft.cards import CARDS

    return [CARDS[card].name for card in live.history()[step].state.players[seat].hand]


async def test_a_witchdraft_replay_answers_from_the_spectator_then_from_a_seat_s_eyes(store: SessionStore) -> None:
    live = finished(store, "witchdraft")
    middle = len(live.log) // 2
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = ReplayScreen(live, start=middle)
        await app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen, "the replay")
        ui, rules = screen.ui, live.rules
        state = screen.states[middle]
        announced = await said(pilot, screen, ("semicolon",), "Phase ")
        assert announced == ui.announce(rules.view(state, None), None, False)  # the step shown, not the end
        assert await said(pilot, screen, ("apostrophe", "h")) == WATCHING_HAND
        others = await said(pilot, screen, ("apostrophe", "o"))
        assert "Your hand" not in others and "hand:" not in others.lower()
        move = await said(pilot, screen, ("apostrophe", "l"))
        step_lines = ui.log_lines(screen.step_events[middle], None)
        assert step_lines and move.startswith(str(step_lines[0]).rstrip("."))  # this step's move
        assert (await said(pilot, screen, ("apostrophe", "t"))).startswith(("It is", "Ana and Bo", "Ana", "Bo"))
        assert await said(pilot, screen, ("apostrophe", "c")) == REPLAY_CLOCK
        await pilot.press("T")
        await until(pilot, lambda: isinstance(app.screen, TranscriptScreen), "the transcript")
        transcript = app.screen
        assert isinstance(transcript, TranscriptScreen)
        for words in (announced, WATCHING_HAND, REPLAY_CLOCK):
            assert words in transcript.text
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back at the replay")

        await pilot.press("v")  # the game is over: Ana's eyes
        await until(pilot, lambda: screen.viewpoint == 0, "Ana's eyes")
        assert screen.said_now() is None  # what was said as a spectator has left the status line
        hand = await said(pilot, screen, ("apostrophe", "h"), "Your hand")
        names = hand_names(live, middle, 0)
        assert names and all(name in hand for name in names)
        through_ana = await said(pilot, screen, ("semicolon",))
        assert through_ana == ui.announce(rules.view(state, 0), 0, False)
        await pilot.press("v")  # Bo's eyes, then the spectator's again
        await until(pilot, lambda: screen.viewpoint == 1, "Bo's eyes")
        await pilot.press("v")
        await until(pilot, lambda: screen.viewpoint is None, "the spectator's eyes")
        await pilot.press("T")
        await until(pilot, lambda: isinstance(app.screen, TranscriptScreen), "the transcript")
        assert isinstance(app.screen, TranscriptScreen)
        assert hand not in app.screen.text  # what Ana's eyes were told stays out of the spectator's transcript
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back at the replay")
        await pilot.press("f1")  # the help lists both keys
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        keys = " ".join(str(option.prompt) for lists in app.screen.query(OptionList) for option in lists.options)
        assert "Announce" in keys and "Ask" in keys


async def test_a_wizbits_replay_announces_the_step_shown_and_says_its_pillar(store: SessionStore) -> None:
    live = finished(store, "wizbits")
    app = CovenApp(store=store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = ReplayScreen(live, start=3)
        await app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen, "the replay")
        first = await said(pilot, screen, ("semicolon",), "Turn ")
        assert first == screen.ui.announce(live.rules.view(screen.states[3], None), None, False)
        await pilot.press("right")
        await until(pilot, lambda: screen.step > 3 and screen.said_now() is None, "the next step, said text gone")
        await said(pilot, screen, ("apostrophe", "b"))
        assert await said(pilot, screen, ("apostrophe", "h")) == WATCHING_HAND
        scores = await said(pilot, screen, ("apostrophe", "s"))
        assert "Main Character" in scores


async def test_the_replay_s_palette_offers_announce_and_ask(store: SessionStore) -> None:
    from textual.command import CommandPalette

    live = finished(store, "witchdraft")
    app = CovenApp(store=store)

    def offered() -> list[str]:
        palette = app.screen
        if not isinstance(palette, CommandPalette):
            return []
        return [str(option.prompt).splitlines()[0] for option in palette.query_one(OptionList).options]

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = ReplayScreen(live, start=4)
        await app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen, "the replay")
        await pilot.press("ctrl+p")
        await until(pilot, lambda: "Announce" in offered() and "Ask" in offered(), "the replay's commands")
        before = toast_ids(app)
        await pilot.press(*"announce")

        def highlighted() -> bool:
            palette = app.screen
            if not isinstance(palette, CommandPalette):
                return False
            option = palette.query_one(OptionList).highlighted_option
            return option is not None and str(option.prompt).startswith("Announce")

        await until(pilot, highlighted, "Announce highlighted")
        await pilot.press("enter")
        assert await new_toast(pilot, before, "the announcement") == screen.ui.announce(live.rules.view(screen.states[4], None), None, False)


async def replay_said(store: SessionStore, live: LiveSession, level: str) -> tuple[str, str, str]:
    """At ``level``: the announce key pressed twice at the middle step, and the transcript's text there."""
    from tui.player_settings import write_setting

    write_setting(store, None, "verbosity", level)
    app = CovenApp(store=SessionStore())  # the app closes its store when it ends
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = ReplayScreen(live, start=len(live.log) // 2)
        await app.push_screen(screen)
        await until(pilot, lambda: app.screen is screen, "the replay")
        first = await said(pilot, screen, ("semicolon",))
        again = await said(pilot, screen, ("semicolon",))
        await pilot.press("T")
        await until(pilot, lambda: isinstance(app.screen, TranscriptScreen), "the transcript")
        transcript = app.screen
        assert isinstance(transcript, TranscriptScreen)
        return first, again, transcript.text


async def test_a_replay_says_as_much_as_the_verbosity_setting_asks(store: SessionStore) -> None:
    from tui.verbosity import first_sentence

    live = finished(store, "wizards-cup")
    normal, detail, normal_text = await replay_said(store, live, "normal")
    assert detail != normal and detail.startswith(normal)  # pressed again: the detail
    terse, terse_again, terse_text = await replay_said(store, live, "terse")
    assert terse == terse_again == first_sentence(normal) and len(terse) < len(normal)
    full, _, full_text = await replay_said(store, live, "full")
    assert full == detail  # the detail at the first press
    turns = [line for line in normal_text.splitlines() if line.startswith(("It is ", "Ana and Bo "))]
    assert turns and not [line for line in terse_text.splitlines() if line in turns]
    assert len(terse_text) < len(normal_text) < len(full_text)
