"""WitchDraft card data: counts, coverage and well-formed cards."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.witchdraft.cards import (
    APPRENTICE_A,
    APPRENTICES_B,
    CARDS,
    COMPANIONS,
    INGREDIENT_CARDS,
    RECIPES,
    Animal,
    Card,
    Colour,
    Half,
    Ingredient,
    parse_card,
)


def test_35_companions_with_every_animal_and_colour_on_at_least_5() -> None:
    assert len(COMPANIONS) == 35
    animals = Counter(card.animal for card in COMPANIONS)
    colours = Counter(card.colour for card in COMPANIONS)
    assert set(animals) == set(Animal) and min(animals.values()) >= 5
    assert set(colours) == set(Colour) and min(colours.values()) >= 5


def test_enough_recipes_ingredient_cards_and_b_apprentices() -> None:
    assert len(RECIPES) >= 8
    assert len(INGREDIENT_CARDS) >= 8
    assert len(APPRENTICES_B) >= 5
    assert len({(card.halves, card.edges) for card in APPRENTICES_B}) == len(APPRENTICES_B)


def test_ids_are_unique_across_every_kind_of_card() -> None:
    ids = [c.card_id for c in (*COMPANIONS, APPRENTICE_A, *APPRENTICES_B)]
    ids += [r.card_id for r in RECIPES] + [i.card_id for i in INGREDIENT_CARDS]
    assert len(ids) == len(set(ids))
    assert len(CARDS) == len(COMPANIONS) + 1 + len(APPRENTICES_B)
    assert len({c.name for c in COMPANIONS}) == 35


def test_every_card_has_six_edges_and_two_halves() -> None:
    for card in CARDS.values():
        assert len(card.edges) == 6, card.card_id
        assert len(card.halves) == 2, card.card_id
        assert all(e is None or isinstance(e, Ingredient) for e in card.edges)


def test_apprentices_show_no_animal_or_colour_and_companions_do() -> None:
    for card in (APPRENTICE_A, *APPRENTICES_B):
        assert card.animal is None and card.colour is None
    assert all(card.animal is not None and card.colour is not None for card in COMPANIONS)


def test_the_set_has_gems_circles_and_every_edge_symbol() -> None:
    halves = [half for card in COMPANIONS for half in card.halves]
    assert sum(half.gem for half in halves) >= 10
    assert {half.circle for half in halves} >= set(Ingredient)
    assert {edge for card in COMPANIONS for edge in card.edges} == {*Ingredient, None}


def test_recipes_name_distinct_colours_in_each_pair() -> None:
    for recipe in RECIPES:
        assert recipe.colour_pair[0] != recipe.colour_pair[1]
        assert recipe.monochrome[0] != recipe.monochrome[1]
        assert min(recipe.companion_points, recipe.colour_pair_points, recipe.monochrome_points,
                   recipe.gem_pair_points) >= 1


def test_parse_card_reads_the_compact_code() -> None:
    card = parse_card("t", "Test", Animal.OWL, Colour.JADE, "gR", "D.F..R")
    assert card.halves == (Half(gem=True), Half(circle=Ingredient.FIRE_ROOT))
    assert card.edges == (Ingredient.DRAGON_SCALE, None, Ingredient.FLEA_GRASS, None, None,
                          Ingredient.FIRE_ROOT)


def test_a_card_must_have_six_edges() -> None:
    with pytest.raises(ValueError):
        Card("bad", "Bad", None, None, (Half(), Half()), (None,) * 5)
