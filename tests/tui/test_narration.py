"""The table narrator: the transcript of whole games, the transcript screen and saving it, and the announce key."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Static, TextArea

from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import GAMES, Host, bot_move, game_screen
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games import game_ui
from tui.narration import Transcript, sentence, turn_sentence
from tui.screens.game.narrator import history_transcript, step_turn_line
from tui.screens.transcript import TranscriptScreen
from tui.served import NO_FILES

ART = set("─│┌┐└┘├┤┬┴┼═║╔╗╚╝▮█▀▄")


def whole_game(store: SessionStore, game_id: str, humans: int = 0) -> LiveSession:
    """A game of ``game_id`` played to its end by easy bots; then the first ``humans`` seats are people's."""
    seats = [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")]
    live = LiveSession.create(store, game_id, GAMES[game_id], 5, seats)
    for _ in range(5000):
        if live.result is not None:
            break
        bot_move(live)
    assert live.result is not None
    if humans:
        live = LiveSession.load(store, live.session_id)
    return live


@pytest.mark.parametrize("game_id", list(GAMES))
async def test_the_transcript_of_a_whole_game_is_sentences_in_order(store: SessionStore, game_id: str) -> None:
    live = whole_game(store, game_id)
    ui = game_ui(game_id)
    app = Host(live)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        await until(pilot, lambda: screen._result_shown, "the final screen")
        lines = screen.narrator.transcript.lines
    assert lines[0] == "The game begins."
    assert lines[-1] == "The game is over."
    # Every log line of every move is there, in order, as a sentence.
    expected = [text for step in live.history()[1:] for line in ui.log_lines(list(step.events), None)
                if (text := sentence(line)) is not None]
    said = iter(lines)
    assert all(any(line == wanted for line in said) for wanted in expected)
    # Whose turn it is is said as it changes, naming the seats.
    assert any(line.startswith(("It is Ana's turn", "It is Bo's turn", "Ana and Bo choose")) for line in lines)
    assert live.result is not None and live.result.reason in " ".join(lines)
    # Free of box-drawing art and of empty lines.
    assert not any(ART & set(line) for line in lines)
    assert all(any(character.isalnum() for character in line) for line in lines)
    # The same sentences come from the history alone (the replay's transcript).
    again = history_transcript(ui, live.rules, live.history(), ["Ana", "Bo"], None)
    assert again.lines == lines


async def test_turn_lines_say_what_the_seat_here_may_do_and_the_log_follows(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", {}, 7, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    app = Host(live)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        wanted = "Ana and Bo choose at the same time: choose five wizards to join your displayed one, a team of six."
        await until(pilot, lambda: wanted in screen.narrator.transcript.lines, "Ana's prompt in the transcript")
        # The opening's turn line and Ana's prompt are one turn: said once.
        opening = screen.narrator.transcript.lines[:screen.narrator.transcript.lines.index(wanted) + 1]
        assert sum("choose at the same time" in line for line in opening) == 1
        team = next(a for a in live.rules.legal_actions(live.state, 0))
        screen._apply(0, team)
        await until(pilot, lambda: any("lineup" in line for line in screen.narrator.transcript.lines),
                    "the lineup prompt")
        lines = screen.narrator.transcript.lines
        assert lines.index(wanted) < len(lines) - 1
        # Bo's secret team is never named before it is shown: only what Ana may read.
        bo_team = live.state.players[1].team or []
        names = {card for card in bo_team}
        assert not any(card in line for line in lines for card in names)


async def test_t_opens_the_transcript_and_s_saves_it_as_a_regular_file_only(store: SessionStore,
                                                                            tmp_path: Path) -> None:
    live = whole_game(store, "wizards-cup")
    app = Host(live)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game_screen(app)
        await until(pilot, lambda: screen._result_shown, "the final screen")
        app.pop_screen()
        await pilot.pause()
        await pilot.press("T")
        await until(pilot, lambda: isinstance(app.screen, TranscriptScreen), "the transcript screen")
        shown = app.screen
        assert isinstance(shown, TranscriptScreen)
        area = shown.query_one(TextArea)
        # The title is shown once, above the text, not again in it.
        title = str(shown.query_one("#transcript-title", Static).render())
        assert title == "Wizards Cup: transcript"
        assert area.text.splitlines() == screen.narrator.transcript.lines and title not in area.text
        assert area.has_focus and area.cursor_location[0] == len(screen.narrator.transcript.lines) - 1  # the latest
        await pilot.press("s")
        await pilot.pause()
        target = tmp_path / "table.txt"
        field = app.screen.query_one("#prompt-input")
        field.value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: target.exists(), "the transcript file")
        saved = target.read_text(encoding="utf-8").splitlines()
        assert saved[:2] == [title, ""] and saved[2:] == screen.narrator.transcript.lines  # a file keeps its title
        # A pipe is refused in words, never opened (that would wait for a reader forever).
        pipe = tmp_path / "pipe"
        os.mkfifo(pipe)
        assert isinstance(app.screen, TranscriptScreen)
        app.screen.save_to(pipe, overwrite=True)
        await until(pilot, lambda: (any("not a regular file" in note.message for note in app._notifications)),
                    'any("not a regular file" in note.message for note in app....')
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back at the table")


async def test_over_ssh_the_transcript_is_not_saved(store: SessionStore) -> None:
    app = CovenApp(store=store, serve_port=2222, account="ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(TranscriptScreen("Transcript", "The game begins.\n", "t.txt"))
        await pilot.pause()
        await pilot.press("s")
        await until(pilot, lambda: (isinstance(app.screen, TranscriptScreen)
                                    and any(note.message == NO_FILES for note in app._notifications)),
                    'isinstance(app.screen, TranscriptScreen)')
        assert isinstance(app.screen, TranscriptScreen)  # no prompt for a path
        assert any(note.message == NO_FILES for note in app._notifications)


def test_sentences_drop_art_and_turn_lines_read_as_english() -> None:
    assert sentence("────────────────────────") is None
    assert sentence("Deck ▮▮▮ 3") == "Deck 3"
    assert sentence("Bo plays Sunder → your Pup.") == "Bo plays Sunder targeting your Pup."
    assert turn_sentence(["Ana", "Jules"], [1], over=False, table_step=False) == "It is Jules' turn."
    assert turn_sentence(["Ana", "Bo"], [0], over=False, table_step=False, prompt="pick a card",
                         waiting=[]) == "It is Ana's turn: pick a card."
    assert turn_sentence(["Ana", "Bo"], [1], over=False, table_step=False,
                         waiting=[1]) == "Waiting for Bo to choose."
    assert turn_sentence(["Ana", "Bo"], [0, 1], over=False, table_step=False, prompt="choose a team",
                         waiting=[1]) == "Ana and Bo choose at the same time: choose a team. Waiting for Bo."
    assert turn_sentence(["Ana", "Bo"], [], over=False, table_step=True) == "The table plays its next step."
    transcript = Transcript(limit=3)
    for number in range(5):
        transcript.add(f"Line {number}.")
    assert transcript.lines == ["Line 2.", "Line 3.", "Line 4."]
    assert transcript.turn("It is Ana's turn.") and not transcript.turn("It is Ana's turn.")


def test_a_turn_line_that_adds_the_prompt_to_the_one_just_said_takes_its_place() -> None:
    transcript = Transcript()
    transcript.turn("Ana and Bo choose at the same time.")
    transcript.turn("Ana and Bo choose at the same time: pick a card.")
    assert transcript.lines == ["Ana and Bo choose at the same time: pick a card."]
    # Once something else was said between them, the turn is said again in full.
    transcript.add("Bo has picked.")
    transcript.turn("It is Ana's turn.")
    transcript.add("Ana waits.")
    transcript.turn("It is Ana's turn: pick a card.")
    assert transcript.lines[-3:] == ["It is Ana's turn.", "Ana waits.", "It is Ana's turn: pick a card."]


async def test_the_replay_s_transcript_runs_to_the_step_shown(store: SessionStore) -> None:
    from tui.screens.replay import ReplayScreen

    live = whole_game(store, "witchdraft")

    class Replay(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ReplayScreen(live, start=6))

    app = Replay()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("T")
        await until(pilot, lambda: isinstance(app.screen, TranscriptScreen), "the transcript screen")
        lines = app.screen.query_one(TextArea).text.splitlines()
        title = str(app.screen.query_one("#transcript-title", Static).render())
    assert title == "WitchDraft: transcript to step 6 of " + str(len(live.log))
    expected = history_transcript(game_ui("witchdraft"), live.rules, live.history()[:7], ["Ana", "Bo"], None)
    assert lines == expected.lines
    assert "Picks revealed: " in " ".join(lines) and "The game is over." not in lines


def test_a_wizbits_priority_pass_in_another_players_turn_is_not_called_their_turn(store: SessionStore) -> None:
    live = whole_game(store, "wizbits")
    ui, names = game_ui("wizbits"), ["Ana", "Bo"]
    inside = 0
    for step in live.history():
        to_act = list(live.rules.to_act(step.state))
        if len(to_act) != 1 or live.rules.result(step.state) is not None:
            continue
        line = step_turn_line(live.rules, step.state, names, ui)
        seat, active = to_act[0], step.state.active
        if seat == active:
            assert line.startswith(f"It is {names[seat]}'s turn"), line
        else:
            inside += 1
            assert line.startswith((f"{names[seat]} holds Priority in {names[active]}'s turn",
                                    f"{names[seat]} chooses in {names[active]}'s turn")), line
    assert inside, "the game had Priority passes inside a turn"
    lines = history_transcript(ui, live.rules, live.history(), names, None).lines
    assert any(line.startswith(("Bo holds Priority in Ana's turn", "Ana holds Priority in Bo's turn"))
               for line in lines)
