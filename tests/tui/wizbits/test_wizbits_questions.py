"""The ask key's answers in Wizbits, as text: each question, from the asking seat's view only."""

from __future__ import annotations

from typing import Any

from saves import LiveSession, SessionStore
from tests.helpers.questions import narrated_until, one_move
from tui.games.narration import WATCHING_HAND, Question
from tui.games.wizbits.narration import card_name, pillar_units
from tui.narration import sentence


def targeted_top(view: Any) -> bool:
    units = [unit for unit in pillar_units(view) if unit.height >= 1]
    return bool(units) and bool(view.targets.get(units[-1].uid))


def hidden_hand(live: LiveSession, seat: int, of: int) -> list[str]:
    """The names of the cards in ``of``'s hand whose card ``seat``'s view does not show anywhere."""
    mine = repr(live.rules.view(live.state, seat))
    cards = live.rules.view(live.state, of).cards
    hand = live.rules.view(live.state, of).players[of].hand or ()
    return [card_name(cards[iid]) for iid in hand if cards[iid] not in mine]


def test_with_a_pillar_open_each_question_answers_from_ana_s_seat(store: SessionStore) -> None:
    live, screen, narrator = narrated_until(store, "wizbits", targeted_top)
    view = live.rules.view(live.state, 0)
    me, bo = view.players
    hand = narrator.answer(Question.HAND)
    assert hand.startswith("Your hand: ") and all(card_name(view.cards[iid]) in hand for iid in me.hand or ())
    others = narrator.answer(Question.OPPONENTS)
    assert others.startswith(f"Bo: {bo.hand_count} card") and "In play: " in others and "Your hand" not in others
    mains = [next(card for card in player.in_play if card.iid == player.main) for player in view.players]
    score = narrator.answer(Question.SCORE)
    for whose, main in zip(("Your", "Bo's"), mains, strict=True):
        assert main.points is not None
        assert (f"{whose} Main Character {card_name(main.card_id)}: Strength d{main.points.strength}, "
                f"Will d{main.points.will}, Magic d{main.points.magic}, SCN {main.points.scn}") in score
    top = [unit for unit in pillar_units(view) if unit.height >= 1][-1]
    board = narrator.answer(Question.BOARD)
    assert "pillar, top first: " in board and top.name in board and ", targets " in board
    assert narrator.answer(Question.CLOCK) == "This table has no clock."
    assert live.to_act == (0,)  # Ana holds Priority with her play on the Pillar
    assert narrator.answer(Question.TURN) == "It is Ana's turn: play a card or an ability, or pass Priority."
    lines = screen.ui.log_lines(one_move(live), 0)
    narrator.events(lines)
    said = [text for text in map(sentence, lines) if text]
    assert said and narrator.answer(Question.LAST) == " ".join(said)


def test_bo_hears_his_own_hand_and_never_ana_s(store: SessionStore) -> None:
    live, _, narrator = narrated_until(store, "wizbits", targeted_top, here=(1,))
    assert narrator.answer(Question.TURN) == "It is Ana's turn."  # not Bo's to choose: no prompt
    assert narrator.answer(Question.OPPONENTS).startswith("Ana: ")
    assert narrator.answer(Question.SCORE).startswith("Ana's Main Character ")
    assert narrator.answer(Question.HAND).startswith("Your hand")  # Bo's own, empty or not
    secret = hidden_hand(live, 1, 0)
    assert secret  # Ana holds cards Bo cannot see
    for question in Question:
        text = narrator.answer(question)
        assert not any(name in text for name in secret), (question, text)


def test_a_spectator_hears_no_hand(store: SessionStore) -> None:
    live, _, narrator = narrated_until(store, "wizbits", targeted_top, here=(0, 1))
    assert narrator.answer(Question.HAND) == WATCHING_HAND
    others = narrator.answer(Question.OPPONENTS)
    assert others.startswith("Ana: ") and " Bo: " in others  # a spectator: every side
    assert "by Ana, height" in narrator.answer(Question.BOARD) or "by Bo, height" in narrator.answer(Question.BOARD)
    secret = hidden_hand(live, 1, 0)
    assert secret
    for question in Question:
        text = narrator.answer(question)
        assert not any(name in text for name in secret), (question, text)
