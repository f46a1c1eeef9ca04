"""The ask key's answers in Wizards Cup, as text: each question, from the asking seat's view only."""

from __future__ import annotations

from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.state import Phase
from saves import LiveSession, SessionStore
from tests.helpers.questions import narrated_until, one_move
from tui.games.narration import WATCHING_HAND, Question
from tui.narration import sentence


def hidden_names(live: LiveSession, seat: int, of: int) -> list[str]:
    """The names of ``of``'s wizards that ``seat``'s view does not show."""
    mine = repr(live.rules.view(live.state, seat))
    return [CARDS[card].name for card in live.state.players[of].team if card not in mine]


def test_at_the_lineups_the_turn_names_what_both_seats_are_asked_and_nothing_hidden_is_said(
        store: SessionStore) -> None:
    live, _, narrator = narrated_until(store, "wizards-cup", lambda view: view.phase is Phase.LINEUP)
    assert narrator.answer(Question.TURN) == "Ana and Bo choose at the same time: set the lineup for round 1."
    assert narrator.answer(Question.CLOCK) == "This table has no clock."
    me = live.rules.view(live.state, 0).players[0]
    hand = narrator.answer(Question.HAND)
    assert hand.startswith("Your team: ") and all(CARDS[card].name in hand for card in me.team or ())
    bo = live.state.players[1]
    assert narrator.answer(Question.OPPONENTS).startswith(f"Bo's displayed wizard is {CARDS[bo.displayed].name} (")
    secret = hidden_names(live, 0, 1)
    assert secret  # Bo's team is his own until the duels show it
    for question in Question:
        text = narrator.answer(question)
        assert not any(name in text for name in secret), (question, text)


def test_in_the_duels_each_question_answers_from_ana_s_seat(store: SessionStore) -> None:
    live, screen, narrator = narrated_until(
        store, "wizards-cup", lambda view: view.phase is Phase.DUEL and view.duel >= 2 and view.players[0].zone)
    view = live.rules.view(live.state, 0)
    hand = narrator.answer(Question.HAND)
    assert "Still to duel, in order: " in hand and CARDS[(view.players[0].deck or ("",))[0]].name in hand
    first, second = view.players
    assert narrator.answer(Question.SCORE) == f"Cup Tokens: Ana {first.tokens}, Bo {second.tokens} (first to 2)."
    board = narrator.answer(Question.BOARD)
    assert board.startswith(f"Round {view.round}, duel {view.duel}. In the Duel zone: {CARDS[str(first.zone)].name}")
    assert "your lineup still to come: " in board and f"Bo has {second.deck_count} wizard" in board
    others = narrator.answer(Question.OPPONENTS)
    assert f"{second.deck_count} wizard" in others and "Ana's" not in others
    lines = screen.ui.log_lines(one_move(live), 0)
    narrator.events(lines)
    said = [text for text in map(sentence, lines) if text]
    assert said and narrator.answer(Question.LAST) == " ".join(said)
    assert narrator.transcript.lines[-1] == " ".join(said)  # every answer is said in the transcript too


def test_behind_the_curtain_nobody_s_hand_is_answered(store: SessionStore) -> None:
    live, screen, narrator = narrated_until(store, "wizards-cup", lambda view: view.phase is Phase.LINEUP,
                                            here=(0, 1))
    secret = hidden_names(live, 0, 1) + hidden_names(live, 1, 0)
    assert narrator.answer(Question.HAND) == WATCHING_HAND
    assert narrator.answer(Question.TURN) == "Ana and Bo choose at the same time."
    for question in Question:
        text = narrator.answer(question)
        assert not any(name in text for name in secret), (question, text)
    screen.revealed_seat = 0  # Ana's curtain lifted: her team, never Bo's
    assert narrator.answer(Question.HAND).startswith("Your team: ")
    assert not any(name in narrator.answer(Question.HAND) for name in hidden_names(live, 0, 1))
