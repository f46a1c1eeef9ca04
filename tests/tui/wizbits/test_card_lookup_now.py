"""The card lookup's current values at Wizbits: a character's Main Points and damage as they stand, from one seat's
view, and nothing of a card in the other seat's hand (:func:`tui.games.wizbits.lookup.card_now`)."""

from __future__ import annotations

from engine.wizbits.cards.card_set import CARDS_BY_ID
from tests.helpers.wizbits_battle import opening, resolving
from tests.helpers.wizbits_game import RULES
from tui.games import game_ui
from tui.games.wizbits.side import points_text

UI = game_ui("wizbits")


def test_a_damaged_character_in_play_shows_its_current_points_beside_the_printed_ones() -> None:
    game = opening()
    view = RULES.view(game.state, 0)
    free = next(card_id for card_id, card in CARDS_BY_ID.items()
                if card.main_points is not None and UI.card_now(view, 0, card_id) is None)
    iid = game.give(0, free, "play", damage=2)
    for seat, who in ((0, "in play for you"), (1, "in play for Ana"), (None, "in play for Ana")):
        view = RULES.view(game.state, seat)
        permanent = next(p for p in view.players[0].in_play if p.iid == iid)
        text = UI.card_now(view, seat, free)
        assert text is not None and text.startswith(f"Now: {who[0].upper()}{who[1:]}"), (seat, text)
        assert "(2 dmg)" in text and points_text(permanent) in text
        printed = CARDS_BY_ID[free].main_points
        assert printed is not None and f"printed S d{printed.strength}" in text and f"SCN {printed.scn})" in text


def test_a_card_in_the_other_hand_is_never_named_nor_hinted() -> None:
    game = opening()
    unseen = [card_id for card_id in CARDS_BY_ID
              if UI.card_now(RULES.view(game.state, 0), 0, card_id) is None
              and UI.card_now(RULES.view(game.state, 1), 1, card_id) is None]
    secret = unseen[0]
    game.give(1, secret)  # into Bo's hand
    assert UI.card_now(RULES.view(game.state, 0), 0, secret) is None  # as if it were nowhere
    assert UI.card_now(RULES.view(game.state, None), None, secret) is None
    assert UI.card_now(RULES.view(game.state, 1), 1, secret) == "Now: In your hand."


def test_a_card_standing_on_the_pillar_says_so_for_both_seats() -> None:
    game = resolving()
    unit = next(u for u in game.pillar().units() if game.state.cards[u.payload["iid"]] == "sparkswarm-volley")
    for seat in (0, 1, None):
        text = UI.card_now(RULES.view(game.state, seat), seat, "sparkswarm-volley")
        assert text is not None and f"on the pillar: {unit.name.lower()}" in text.lower() and "by Ana" in text
        assert f"height {unit.height}" in text
