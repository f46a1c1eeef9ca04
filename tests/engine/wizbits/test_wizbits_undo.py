"""Wizbits undo: a move that showed a hidden card, or used chance, can't be taken back.

The barrier reads what became known (engine.wizbits.reveals), never hand sizes.
Every card whose abilities draw, mill, search, discard or roll is found from the
card data, so a new card of the kind is covered without touching this file.
"""

from __future__ import annotations

import copy

import pytest

from engine import state_digest
from engine.core.undo import Timeline, undo_entry
from engine.wizbits import reveals
from engine.wizbits.actions import ChooseTargets, Payment, PlayCard
from engine.wizbits.cards.card_set import CARDS, CARDS_BY_ID
from engine.wizbits.continuous import cost_of, target_options
from engine.wizbits.effects import EFFECT_TYPES, Discard, DiscardMode, Effect, Target, iter_effects
from engine.wizbits.interpret import Resolution, chosen_slots, run_effects
from engine.wizbits.model import Ability, AbilityType, Card, Category
from engine.wizbits.payment import secede_value
from engine.wizbits.state import Phase
from tests.helpers.wizbits_game import NAMES, RULES, Game

REVEALING_KINDS = frozenset({"draw", "mill", "search", "discard", "check"})
"""Effects that take cards from a deck or a hand, or roll dice."""

QUIET_KINDS = frozenset({"damage", "heal", "gain_points", "change_stat", "grant_attribute", "secede", "destroy",
                         "return_to_hand", "counter"})
"""Effects that move only cards everyone can see (a secession's own flip Incomes are judged on their own)."""

REFUSALS = frozenset(reveals.REASONS) - {reveals.REORDERED}


def reveals_something(effect: Effect) -> bool:
    """Whether ``effect`` shows a card the mover did not know, or uses chance.

    Discarding your own lowest-cost card shows only what you already held, as a play from hand does.
    """
    if effect.KIND not in REVEALING_KINDS:
        return False
    return not (isinstance(effect, Discard) and effect.target is Target.YOU and effect.mode is DiscardMode.LOWEST_COST)


def revealing_abilities() -> list[tuple[Card, bool, int, Ability]]:
    """Every (card, is a flip ability, index, ability) whose effects reveal something."""
    found = []
    for card in CARDS:
        for flip, abilities in ((False, card.abilities), (True, card.flip_abilities)):
            for index, ability in enumerate(abilities):
                if any(reveals_something(effect) for effect in iter_effects(ability.effects)):
                    found.append((card, flip, index, ability))
    return found


ABILITIES = revealing_abilities()
FLIP_INCOME_CARDS = sorted({card.card_id for card, flip, _, ability in ABILITIES
                            if flip and ability.type is AbilityType.INCOME})


def ability_id(entry: tuple[Card, bool, int, Ability]) -> str:
    card, flip, index, _ = entry
    return f"{card.card_id}-{'flip' if flip else 'ability'}{index}"


def test_every_effect_kind_is_judged_and_the_card_data_has_the_cards_this_file_covers() -> None:
    # A new kind of effect must be put on one side or the other here, so its cards are tested.
    assert set(EFFECT_TYPES) == REVEALING_KINDS | QUIET_KINDS
    assert not REVEALING_KINDS & QUIET_KINDS
    assert "prism-kite" in FLIP_INCOME_CARDS and len(ABILITIES) >= 20


def elements_game(seat_cards: tuple[str, ...] = ()) -> tuple[Game, int, list[int]]:
    """A game in the active seat's Elements pillar, with ``seat_cards`` put in play for that seat.

    The other player holds three cards from their deck, so an effect on their hand has some to show.
    """
    game = Game(seed=5)
    game.to_phase(Phase.ELEMENTS)
    seat = game.state.active
    other = game.state.players[1 - seat]
    other.hand.extend(other.deck.pop() for _ in range(3))
    placed = [game.give(seat, card_id, "play") for card_id in seat_cards]
    return game, seat, placed


def an_element_to_pay_for(game: Game, seat: int) -> int:
    """The cheapest Element (at least 1 point, so a payment is owed) that chooses no targets, put in ``seat``'s hand."""
    payable = [card for card in CARDS if card.category is Category.ELEMENT and not chosen_slots(card.incomes)
               and cost_of(game.state, seat, card) >= 1]
    assert payable, "no Element to pay for"
    cheapest = min(payable, key=lambda card: cost_of(game.state, seat, card))
    assert cost_of(game.state, seat, cheapest) <= 2  # one secession pays for it
    return game.give(seat, cheapest.card_id)


@pytest.mark.parametrize("card_id", FLIP_INCOME_CARDS)
def test_seceding_a_card_to_pay_whose_flip_income_reveals_cannot_be_taken_back(card_id: str) -> None:
    game, seat, (seceded,) = elements_game((card_id,))
    element = an_element_to_pay_for(game, seat)
    assert secede_value(game.state, seceded) >= 1
    timeline = Timeline(RULES, game.state, NAMES)
    timeline.play(seat, PlayCard(element, None, (), Payment(0, (seceded,))))
    while timeline.state.pending:  # a flip Income with a target to choose is carried out by the choice
        options = RULES.legal_actions(timeline.state, seat)
        assert options and isinstance(options[0], ChooseTargets)
        timeline.play(seat, options[0])
    assert seat in RULES.to_act(timeline.state)  # Priority stays: only the barrier can refuse
    reason = timeline.undo_refusal(seat)
    assert reason in REFUSALS, reason


@pytest.mark.parametrize("entry", ABILITIES, ids=ability_id)
def test_every_revealing_ability_is_a_barrier_wherever_it_runs(entry: tuple[Card, bool, int, Ability]) -> None:
    """Each ability carried out as part of a move (as a flip Income is): the barrier names what it showed."""
    card, flip, _, ability = entry
    game, seat, placed = elements_game(() if card.category is Category.ELEMENT else (card.card_id,))
    source = placed[0] if placed else game.give(seat, card.card_id)
    if flip:
        game.permanent(source).seceded = True
    before = copy.deepcopy(game.state)
    after = copy.deepcopy(game.state)
    targets: list[int | None] = [next(iter(target_options(after, seat, effect)), None)
                                 for effect in chosen_slots((ability,))]
    context = Resolution(seat, source, targets=targets)
    run_effects(after, context, ability.effects)
    assert RULES.undo_barrier(before, after, seat, context.events) in REFUSALS


def test_prism_kite_seceded_to_pay_draws_without_the_hand_growing_and_stays() -> None:
    game, seat, (kite,) = elements_game(("prism-kite",))
    element = an_element_to_pay_for(game, seat)
    next_card = game.state.players[seat].deck[-1]
    timeline = Timeline(RULES, game.state, NAMES)
    timeline.play(seat, PlayCard(element, None, (), Payment(0, (kite,))))
    after = timeline.state.players[seat]
    assert len(after.hand) == len(game.state.players[seat].hand) and next_card in after.hand
    assert timeline.undo_refusal(seat) == reveals.DRAWN
    # The rule of rules versions 1 and 2 went by hand size, and let this draw be taken back.
    assert reveals.hand_growth_barrier(game.state, timeline.state) is None


def test_a_session_under_rules_version_2_keeps_its_own_undo_rule() -> None:
    game, seat, (kite,) = elements_game(("prism-kite",))
    element = an_element_to_pay_for(game, seat)
    game.state.rules_version = 2
    timeline = Timeline(RULES, game.state, NAMES)
    timeline.play(seat, PlayCard(element, None, (), Payment(0, (kite,))))
    assert timeline.undo_refusal(seat) is None  # its logged undos replay as they were played


def test_a_payment_from_the_top_of_the_deck_cannot_be_taken_back() -> None:
    game, seat, _ = elements_game()
    element = an_element_to_pay_for(game, seat)
    cost = cost_of(game.state, seat, game.state.card(element))
    top = game.state.players[seat].deck[-cost:]
    timeline = Timeline(RULES, game.state, NAMES)
    timeline.play(seat, PlayCard(element, None, (), Payment(cost, ())))
    assert set(top) <= set(timeline.state.players[seat].discard)
    assert timeline.undo_refusal(seat) == reveals.SHOWN_FROM_DECK
    opponent = 1 - seat
    assert timeline.undo_refusal(opponent) == "nothing of yours to take back"


def test_a_play_from_hand_that_shows_nothing_hidden_is_taken_back_exactly() -> None:
    quiet = next(card.card_id for card in CARDS if card.category is Category.NON_ELEMENT and not card.flip_abilities)
    assert not CARDS_BY_ID[quiet].flip_abilities
    game, seat, (seceded,) = elements_game((quiet,))
    element = an_element_to_pay_for(game, seat)
    before = state_digest(RULES, game.state)
    timeline = Timeline(RULES, game.state, NAMES)
    timeline.play(seat, PlayCard(element, None, (), Payment(0, (seceded,))))
    # Bo now sees the Element on the Pillar; it came from Ana's own hand, so it may go back.
    assert element in RULES.view(timeline.state, 1 - seat).cards
    assert timeline.undo_refusal(seat) is None
    timeline.play(seat, undo_entry())
    assert state_digest(RULES, timeline.state) == before
    assert element in timeline.state.players[seat].hand


def test_a_deck_in_a_new_order_is_a_barrier_even_with_nothing_shown() -> None:
    game, seat, _ = elements_game()
    after = copy.deepcopy(game.state)
    deck = after.players[1 - seat].deck
    deck[0], deck[-1] = deck[-1], deck[0]
    assert RULES.undo_barrier(game.state, after, seat, []) == reveals.REORDERED


def test_a_card_from_the_other_hand_shown_is_a_barrier_and_ones_own_is_not() -> None:
    game, seat, _ = elements_game()
    state = game.state
    theirs, mine = state.players[1 - seat].hand[0], state.players[seat].hand[0]
    shown_theirs = copy.deepcopy(state)
    shown_theirs.players[1 - seat].hand.remove(theirs)
    shown_theirs.players[1 - seat].discard.append(theirs)
    assert RULES.undo_barrier(state, shown_theirs, seat, []) == reveals.SHOWN_FROM_HAND
    shown_mine = copy.deepcopy(state)
    shown_mine.players[seat].hand.remove(mine)
    shown_mine.players[seat].discard.append(mine)
    assert RULES.undo_barrier(state, shown_mine, seat, []) is None


def test_every_reason_fits_the_footer_as_the_core_rules_own_do() -> None:
    longest_core = max(len("the table has played since"), len("all secret choices are shown"))
    assert all(0 < len(reason) <= longest_core for reason in reveals.REASONS)
