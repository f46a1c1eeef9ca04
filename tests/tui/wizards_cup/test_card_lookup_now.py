"""The card lookup's current values at Wizards Cup, from an engine-driven duel: where a wizard stands for the seat
looking (Duel zone, Waiting Card, lineup, discard), never the other seat's hidden team or lineup."""

from __future__ import annotations

from engine.wizards_cup.state import Phase
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import bot_move
from tui.games import game_ui

UI = game_ui("wizards-cup")


def in_the_duels(store: SessionStore) -> LiveSession:
    """A game by two bots, stopped in a duel with Ana's wizard in the Duel zone, a lineup left and Bo's discard."""
    live = LiveSession.create(store, "wizards-cup", None, 11, [SeatInfo("Ana"), SeatInfo("Bo")])
    for _ in range(400):
        state = live.state
        ana, bo = state.players
        if state.phase == Phase.DUEL and ana.zone and ana.deck and bo.discard and bo.deck:
            return live
        bot_move(live)
    raise AssertionError("the bots never reached a duel with a discard")


def test_the_duel_zone_waiting_card_lineup_and_discard_for_the_seat_looking(store: SessionStore) -> None:
    live = in_the_duels(store)
    state, rules = live.state, live.rules
    ana = state.players[0]
    view = rules.view(state, 0)
    zone = UI.card_now(view, 0, ana.zone)
    assert zone is not None and f"Now: In your Duel zone, duel {state.duel} of round {state.round}" in zone
    assert ana.waiting is not None
    waiting = UI.card_now(view, 0, ana.waiting)
    assert waiting is not None and "your Waiting Card" in waiting
    lineup = UI.card_now(view, 0, ana.deck[0])
    assert lineup is not None and f"your lineup, number 1 of {len(ana.deck)} still to duel" in lineup
    top = UI.card_now(view, 0, state.players[1].discard[-1])  # Bo's beaten wizards are face up for Ana
    assert top is not None and "on top of bo's discard pile" in top.lower()


def test_the_other_seat_s_lineup_and_waiting_card_stay_hidden(store: SessionStore) -> None:
    live = in_the_duels(store)
    state, rules = live.state, live.rules
    bo = state.players[1]
    # His displayed wizard is public (everyone knows it is in his team); the rest of his lineup is his alone.
    hidden = [card for card in (*bo.deck, bo.waiting) if card is not None and card != bo.displayed]
    assert hidden
    for seat in (0, None):
        view = rules.view(state, seat)
        for card in hidden:
            text = UI.card_now(view, seat, card) or ""
            assert "Bo's" not in text, text
    mine = UI.card_now(rules.view(state, 1), 1, hidden[-1])
    assert mine is not None and "your" in mine.lower()  # Bo himself sees where it is
