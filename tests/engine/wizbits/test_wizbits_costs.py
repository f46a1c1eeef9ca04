"""What a Wizbits play costs besides its points (engine/wizbits/costs.py), read from a seat's view."""

from __future__ import annotations

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.costs import secede_effects, side_costs
from engine.wizbits.text import ability_text
from tests.helpers.wizbits_game import RULES, Game

DECKS = {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}


def game() -> Game:
    found = Game(1, DECKS)
    found.settle()
    return found


def test_the_archmage_ping_costs_a_random_discard_and_a_card_play_costs_points_only() -> None:
    table = game()
    ana = table.state.players[0]
    assert table.state.cards[ana.main] == "cinderwing-archmage"
    view = RULES.view(table.state, 0)
    ping = side_costs(view, 0, ana.main, 1)  # the Archmage's second ability: 2 points and a random discard
    assert ping == (f"Discard 1 card at random from your hand ({len(ana.hand)} cards in hand).",)
    assert side_costs(view, 0, ana.main, 0) == ()  # its Income: no Trigger cost
    assert side_costs(view, 0, ana.hand[0], None) == ()  # a card from hand costs points only


def test_secede_this_names_the_card_and_its_flip_and_a_secession_sets_off_grim_music_box() -> None:
    table = game()
    wand = table.give(0, "flickerwand", "play")
    box = table.give(0, "grim-music-box", "play")
    view = RULES.view(table.state, 0)
    flip = ability_text(CARDS_BY_ID["flickerwand"].flip_abilities[0])
    music = ability_text(CARDS_BY_ID["grim-music-box"].abilities[0])
    costs = side_costs(view, 0, wand, 0)
    assert costs[0] == "Secede Flickerwand (it gives no points)."
    assert f"As it flips: {flip}" in costs and f"Sets off Grim Music Box: {music}" in costs
    assert "Its own ability stops while seceded." in costs
    # Seceding the box itself sets nothing off: only another card's secession does.
    assert not any(line.startswith("Sets off") for line in secede_effects(view, box))
    box_flip = ability_text(CARDS_BY_ID["grim-music-box"].flip_abilities[0])
    assert secede_effects(view, box)[0] == f"As it flips: {box_flip}"


def test_a_spectator_gets_the_same_public_answer_and_an_unknown_card_none() -> None:
    table = game()
    wand = table.give(0, "flickerwand", "play")
    seat_view, spectator = RULES.view(table.state, 0), RULES.view(table.state, None)
    assert secede_effects(seat_view, wand) == secede_effects(spectator, wand) != ()
    assert secede_effects(spectator, table.state.players[0].hand[0]) == ()  # in hand, not in play
    assert side_costs(spectator, 0, wand, 7) == ()  # no such ability
