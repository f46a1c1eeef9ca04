"""The ask key's answers in WitchDraft, as text: each question, from the asking seat's view only."""

from __future__ import annotations

from engine.core.words import plural
from engine.witchdraft.scoring import score_so_far, total
from saves import LiveSession, SessionStore
from tests.helpers.questions import narrated_until, one_move
from tui.games.narration import WATCHING_HAND, Question
from tui.games.witchdraft.narration import card_name
from tui.narration import sentence


def hidden_hand(live: LiveSession, seat: int, of: int) -> list[str]:
    """The names of the cards in ``of``'s hand that ``seat``'s view does not show."""
    mine = repr(live.rules.view(live.state, seat))
    return [card_name(card) for card in live.state.players[of].hand if card not in mine]


def test_while_placing_each_question_answers_from_ana_s_seat(store: SessionStore) -> None:
    live, screen, narrator = narrated_until(store, "witchdraft", lambda view: view.phase == 2 and view.stage == "place")
    view = live.rules.view(live.state, 0)
    me, bo = view.players
    hand = narrator.answer(Question.HAND)
    assert hand.startswith("Your hand: ") and all(card_name(card) in hand for card in me.hand or ())
    assert f"You are placing {card_name(me.picked)}." in hand
    others = narrator.answer(Question.OPPONENTS)
    assert others.startswith(f"Bo's potion holds {plural(len(bo.area), 'card')}: ")
    assert f"Bo holds {plural(bo.hand_count, 'card')} and is placing {card_name(bo.picked)}." in others
    scores = score_so_far(view, 0)
    assert scores is not None
    assert narrator.answer(Question.SCORE) == (
        f"Your score so far: {plural(total(scores), 'brew point')}. Bo's potion shows "
        f"{plural(len(bo.area), 'card')}; its score stays hidden until the recipe cards are shown.")
    assert narrator.answer(Question.BOARD).startswith(f"Your potion, {plural(len(me.area), 'card')}: Row 1: ")
    assert narrator.answer(Question.TURN) == "Ana and Bo choose at the same time: " \
        f"place {card_name(me.picked)} on your potion."
    assert narrator.answer(Question.CLOCK) == "This table has no clock."
    secret = hidden_hand(live, 0, 1)
    assert secret
    for question in Question:
        text = narrator.answer(question)
        assert not any(name in text for name in secret), (question, text)
    lines = screen.ui.log_lines(one_move(live), 0)
    narrator.events(lines)
    said = [text for text in map(sentence, lines) if text]
    assert said and narrator.answer(Question.LAST) == " ".join(said)


def test_behind_the_curtain_nobody_s_hand_or_pick_is_answered(store: SessionStore) -> None:
    live, screen, narrator = narrated_until(store, "witchdraft", lambda view: view.pick == 2, here=(0, 1))
    secret = hidden_hand(live, 1, 0) + hidden_hand(live, 0, 1)
    assert narrator.answer(Question.HAND) == WATCHING_HAND
    assert narrator.answer(Question.BOARD).startswith("You are watching: you have no potion")
    assert narrator.answer(Question.OPPONENTS).startswith("Ana's potion holds ")  # a spectator: every potion
    for question in Question:
        text = narrator.answer(question)
        assert not any(name in text for name in secret), (question, text)
    screen.revealed_seat = 0
    assert narrator.answer(Question.HAND).startswith("Your hand: ")
    assert not any(name in narrator.answer(Question.HAND) for name in hidden_hand(live, 0, 1))
