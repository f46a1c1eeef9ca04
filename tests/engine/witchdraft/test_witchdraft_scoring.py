"""WitchDraft scoring: each category alone, the rulebook's 55-point example, score_gain."""

from __future__ import annotations

import random

import pytest

from engine.witchdraft.cards import (
    APPRENTICE_A,
    CARDS,
    COMPANIONS,
    INGREDIENT_CARDS,
    RECIPES,
    Animal,
    Card,
    Colour,
    IngredientCard,
    Recipe,
    parse_card,
)
from engine.witchdraft.geometry import Placement, PlayArea
from engine.witchdraft.rules import WitchDraftRules
from engine.witchdraft.scoring import CategoryScore, Counts, count, score, score_gain, score_so_far, total
from engine.witchdraft.state import WitchDraftState

A, C = Animal, Colour
RECIPE = Recipe("r", "Test Recipe", A.OWL, 2, (C.CRIMSON, C.AMBER), 4, (C.CRIMSON, C.JADE), 1, 2)
INGREDIENTS = IngredientCard("i", "Test Ingredients", 3, 2, 3, 1)
BLANK = parse_card("blank", "Blank", None, None, "--", "......")


def build(*placed: tuple[Card, Placement], apprentice: Card = BLANK) -> tuple[PlayArea, dict[str, Card]]:
    """A legal area from the apprentice and cards in order, with their lookup table."""
    cards = {apprentice.card_id: apprentice}
    area = PlayArea.start(apprentice.card_id)
    for card, p in placed:
        cards[card.card_id] = card
        area = area.with_card(card.card_id, p)
    return area, cards


def plain(card_id: str, animal: Animal | None = None, colour: Colour | None = None,
          halves: str = "--", edges: str = "......") -> Card:
    return parse_card(card_id, card_id.title(), animal, colour, halves, edges)


# Three vertical cards hanging under/beside the apprentice at (0,0)-(1,0).
BELOW_LEFT = Placement(0, 1, 90)  # (0,1),(0,2)
BELOW_RIGHT = Placement(1, 1, 90)  # (1,1),(1,2)
RIGHT_END = Placement(2, 0, 90)  # (2,0),(2,1)


def test_companions_count_cards_showing_the_animal() -> None:
    area, cards = build((plain("a", A.OWL), BELOW_LEFT), (plain("b", A.CAT), BELOW_RIGHT),
                        (plain("c", A.OWL), RIGHT_END))
    assert count(area, RECIPE, cards) == Counts(companions=2)


def test_colour_pairs_are_the_smaller_colour_count() -> None:
    area, cards = build((plain("a", colour=C.CRIMSON), BELOW_LEFT), (plain("b", colour=C.CRIMSON), BELOW_RIGHT),
                        (plain("c", colour=C.AMBER), RIGHT_END))
    recipe = Recipe("r", "R", A.NEWT, 1, (C.CRIMSON, C.AMBER), 4, (C.AZURE, C.VIOLET), 1, 1)
    assert count(area, recipe, cards) == Counts(colour_pairs=1)


def test_monochrome_counts_cards_of_either_colour() -> None:
    area, cards = build((plain("a", colour=C.JADE), BELOW_LEFT), (plain("b", colour=C.VIOLET), BELOW_RIGHT),
                        (plain("c", colour=C.AZURE), RIGHT_END))
    recipe = Recipe("r", "R", A.NEWT, 1, (C.CRIMSON, C.AMBER), 4, (C.JADE, C.AZURE), 1, 1)
    assert count(area, recipe, cards) == Counts(monochrome=2)


def test_three_gems_in_a_row_are_two_pairs() -> None:
    area, cards = build((plain("a", halves="gg"), BELOW_LEFT), (plain("b", halves="g-"), Placement(0, 3, 0)),
                        (plain("c", halves="g-"), RIGHT_END))  # (2,0) is next to no gem
    assert count(area, RECIPE, cards) == Counts(gem_pairs=2)


def test_a_square_of_four_gems_is_four_pairs() -> None:
    area, cards = build((plain("a", halves="gg"), BELOW_LEFT), (plain("b", halves="gg"), BELOW_RIGHT))
    assert count(area, RECIPE, cards) == Counts(gem_pairs=4)


def test_gems_on_the_apprentice_pair_with_a_card() -> None:
    apprentice = plain("app", halves="g-")
    area, cards = build((plain("a", halves="g-"), BELOW_LEFT), apprentice=apprentice)
    assert count(area, RECIPE, cards) == Counts(gem_pairs=1)


def test_bonds_need_symbols_on_both_sides_but_not_matching_ones() -> None:
    # Apprentice: A bottom = flea grass, B bottom = fire root. The left card's
    # A left end (north at 90) shows dragon scale; the right card's is blank.
    apprentice = plain("app", edges="..F..R")
    area, cards = build((plain("a", edges=".D...."), BELOW_LEFT), (plain("b"), BELOW_RIGHT),
                        apprentice=apprentice)
    assert count(area, RECIPE, cards) == Counts(bonds=1)


def test_a_matching_bond_collects_one_ingredient() -> None:
    apprentice = plain("app", edges="..F...")
    area, cards = build((plain("a", edges=".F...."), BELOW_LEFT), apprentice=apprentice)
    assert count(area, RECIPE, cards) == Counts(bonds=1, flea_grass=1)


def test_side_by_side_cards_bond_along_their_long_sides() -> None:
    # Left card at 90: its A bottom faces west, A top faces east, B top faces east.
    left = plain("a", edges="R..D..")
    right = plain("b", edges="..R..F")  # at 90, A bottom and B bottom face west
    area, cards = build((left, BELOW_LEFT), (right, BELOW_RIGHT))
    assert count(area, RECIPE, cards) == Counts(bonds=2, fire_root=1)  # D against F still bonds


def test_circles_collect_their_ingredient() -> None:
    area, cards = build((plain("a", halves="DR"), BELOW_LEFT), (plain("b", halves="R-"), BELOW_RIGHT),
                        apprentice=plain("app", halves="F-"))
    assert count(area, RECIPE, cards) == Counts(dragon_scale=1, flea_grass=1, fire_root=2)


def test_unmatched_half_symbols_at_the_border_collect_nothing() -> None:
    area, cards = build((plain("a", edges="DFRDFR"), BELOW_LEFT))
    assert count(area, RECIPE, cards) == Counts()


def rulebook_example() -> tuple[PlayArea, dict[str, Card]]:
    """Seven cards scoring the rulebook's example counts.

    Layout (cells): apprentice (0,0)-(1,0); c1 (0,1)-(0,2); c2 (1,1)-(1,2);
    c3 (0,3)-(1,3); c4 (2,0)-(2,1); c5 (2,2)-(2,3); c6 (3,0)-(4,0).
    Bonds: apprentice/c4 fire root, c1/c3 fire root, c2/c3 dragon scale,
    apprentice/c1 flea grass against fire root.
    """
    apprentice = plain("app", halves="RR", edges="..F.R.")
    return build(
        (plain("c1", A.OWL, C.CRIMSON, "RR", ".R..R."), Placement(0, 1, 90)),
        (plain("c2", A.CAT, C.CRIMSON, "RD", "....D."), Placement(1, 1, 90)),
        (plain("c3", A.TOAD, C.AMBER, "DD", "R..D.."), Placement(0, 3, 0)),
        (plain("c4", A.RAVEN, C.AMBER, "gg", "..R..."), Placement(2, 0, 90)),
        (plain("c5", A.OWL, C.JADE, "gF"), Placement(2, 2, 90)),
        (plain("c6", A.NEWT, C.VIOLET, "FF"), Placement(3, 0, 0)),
        apprentice=apprentice,
    )


def test_the_rulebook_scoring_example() -> None:
    area, cards = rulebook_example()
    assert count(area, RECIPE, cards) == Counts(2, 2, 3, 2, 4, 4, 3, 7)
    lines = score(area, RECIPE, INGREDIENTS, cards)
    assert [f"{number}. {line.line}" for number, line in enumerate(lines, start=1)] == RULEBOOK_EXAMPLE
    assert total(lines) == 55


RULEBOOK_EXAMPLE = """\
1. Companions (2 x 2 = 4 BP)
2. Color Pairs (2 x 4 = 8 BP)
3. Monochrome (3 x 1 = 3 BP)
4. Gems (2 x 2 = 4 BP)
5. Bonds (4 x 3 = 12 BP)
6. Dragon Scale (4 x 2 = 8 BP)
7. Flea Grass (3 x 3 = 9 BP)
8. Fire Root (7 x 1 = 7 BP)""".splitlines()
"""The rulebook's scoring example, copied line for line (numbering, spelling and spacing included)."""


def test_category_score_line_and_brew() -> None:
    line = CategoryScore("Bonds", 4, 3)
    assert line.brew == 12 and line.line == "Bonds (4 x 3 = 12 BP)"


def test_an_empty_area_scores_nothing_with_real_cards() -> None:
    area = PlayArea.start(APPRENTICE_A.card_id)
    assert total(score(area, RECIPES[0], INGREDIENT_CARDS[0])) == 0


def test_score_gain_on_the_rulebook_example_matches_rescoring() -> None:
    area, cards = rulebook_example()
    before = PlayArea(area.cards[:-1])
    gain = score_gain(before, "c6", area.cards[-1].placement, RECIPE, INGREDIENTS, cards)
    assert gain == 55 - total(score(before, RECIPE, INGREDIENTS, cards))


@pytest.mark.parametrize("seed", range(8))
def test_score_gain_equals_the_change_in_total(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(COMPANIONS)
    rng.shuffle(deck)
    recipe, ingredients = rng.choice(RECIPES), rng.choice(INGREDIENT_CARDS)
    area = PlayArea.start(APPRENTICE_A.card_id)
    for card in deck[:12]:
        base = total(score(area, recipe, ingredients))
        options = area.legal_placements(card.card_id)
        for p in options:
            after = total(score(area.with_card(card.card_id, p), recipe, ingredients))
            assert score_gain(area, card.card_id, p, recipe, ingredients) == after - base
        area = area.with_card(card.card_id, rng.choice(options))
    assert set(CARDS) >= {placed.card_id for placed in area.cards}


# --- the score so far, read from a seat's view ------------------------------------------------


def _mid_game(face_up: bool) -> tuple[WitchDraftRules, WitchDraftState]:
    """Three apprentices four rounds in, played with random legal actions."""
    rules = WitchDraftRules()
    state = rules.new_state({"face_up": face_up}, 9, 3)
    rng = random.Random(9)
    for _ in range(8):  # four picks and four placements each
        for seat in rules.to_act(state):
            state, _ = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    return rules, state


def test_score_so_far_matches_the_rules_for_your_own_seat() -> None:
    rules, state = _mid_game(face_up=False)
    for seat in range(3):
        so_far = score_so_far(rules.view(state, seat), seat)
        assert so_far == rules.scores(state, seat)
        assert total(so_far or []) > 0


def test_score_so_far_hides_other_seats_with_secret_recipes() -> None:
    rules, state = _mid_game(face_up=False)
    view = rules.view(state, 0)
    assert score_so_far(view, 1) is None and score_so_far(view, 2) is None
    spectator = rules.view(state, None)
    assert all(score_so_far(spectator, seat) is None for seat in range(3))


def test_score_so_far_shows_every_seat_when_recipes_are_face_up() -> None:
    rules, state = _mid_game(face_up=True)
    spectator = rules.view(state, None)
    for seat in range(3):
        assert score_so_far(spectator, seat) == rules.scores(state, seat)
        assert score_so_far(rules.view(state, (seat + 1) % 3), seat) == rules.scores(state, seat)
