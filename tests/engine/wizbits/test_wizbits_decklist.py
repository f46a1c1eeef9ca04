"""Wizbits decks: the starter decks, the deck-list text format, and every deck-rule error."""

from __future__ import annotations

import pytest

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.cards.starter_decks import EMBER_DAWN, STARTER_DECKS, TIDAL_DUSK, StarterDeck
from engine.wizbits.decklist import (
    Deck,
    DeckListError,
    DeckProblem,
    check_decklist,
    decklist,
    parse_decklist,
    validate_deck,
)
from engine.wizbits.model import Category, Element


def problems_of(text: str) -> list[str]:
    with pytest.raises(DeckListError) as caught:
        parse_decklist(text)
    return [str(problem) for problem in caught.value.problems]


def legal_text(replace: dict[str, str] | None = None, add: str = "") -> str:
    """The Ember Dawn list with some text replaced and some lines added at the end."""
    text = decklist(EMBER_DAWN.deck)
    for old, new in (replace or {}).items():
        assert old in text
        text = text.replace(old, new)
    return text + add


# Starter decks ---------------------------------------------------------------------------------


@pytest.mark.parametrize("starter", STARTER_DECKS.values(), ids=lambda starter: starter.deck_id)
def test_starter_decks_are_legal_60_card_decks(starter: StarterDeck) -> None:
    deck = starter.deck
    assert deck.size == 60
    assert validate_deck(deck) == []
    assert deck.main is not None and CARDS_BY_ID[deck.main].category is Category.CHARACTER
    assert deck.copies(deck.main) >= 1
    assert max(copies for _, copies in deck.counts) <= 4
    assert len(deck.card_ids()) == 60


@pytest.mark.parametrize("starter", STARTER_DECKS.values(), ids=lambda starter: starter.deck_id)
def test_starter_decks_round_trip_through_text(starter: StarterDeck) -> None:
    text = decklist(starter.deck, starter.name)
    assert text.startswith(f"# {starter.name}\n")
    assert parse_decklist(text) == starter.deck
    assert decklist(parse_decklist(text), starter.name) == text


def test_starter_decks_keep_to_their_elements() -> None:
    def elements(deck: Deck) -> set[Element]:
        return {CARDS_BY_ID[card_id].element for card_id, _ in deck.counts}

    assert elements(EMBER_DAWN.deck) == {Element.FIRE, Element.LIGHT, Element.VOID}
    assert elements(TIDAL_DUSK.deck) == {Element.WATER, Element.SHADOW, Element.VOID}


# The format ------------------------------------------------------------------------------------


def test_the_main_character_line_is_marked_with_a_star() -> None:
    text = decklist(TIDAL_DUSK.deck)
    assert "2 Tidewhisper Sage *\n" in text
    assert text.count("*") == 1


def test_names_match_without_case_and_comments_and_blank_lines_are_ignored() -> None:
    text = legal_text({"Sparkswarm Volley": "  SPARKSWARM   volley  # the burn"}, add="\n\n# the end\n")
    assert parse_decklist(text) == EMBER_DAWN.deck


def test_a_card_split_over_lines_adds_up() -> None:
    text = legal_text({"4 Prism Kite": "2 Prism Kite\n2 prism kite"})
    assert parse_decklist(text) == EMBER_DAWN.deck


def test_deck_equality_ignores_order_and_merges_repeats() -> None:
    assert Deck((("prism-kite", 1), ("flickerwand", 2), ("prism-kite", 1)), None) == Deck.of(
        {"flickerwand": 2, "prism-kite": 2}, None)
    with pytest.raises(ValueError):
        Deck.of({"fireball": 1}, None)
    with pytest.raises(ValueError):
        Deck.of({"prism-kite": 0}, None)


def test_an_unfinished_deck_can_be_read_without_the_rules() -> None:
    deck = parse_decklist("1 Flickerwand\n", check_rules=False)
    assert deck == Deck.of({"flickerwand": 1}, None)
    assert [str(problem) for problem in validate_deck(deck)] == [
        "the deck has 1 card; it needs at least 60", "no Main Character is marked"]


# Errors ----------------------------------------------------------------------------------------


def test_an_unknown_card_is_reported_with_its_line() -> None:
    assert problems_of("# my deck\n\n4 Fireball\n") == ["line 3: unknown card 'Fireball'"]


@pytest.mark.parametrize("count", ["5", "0", "12"])
def test_counts_must_be_1_to_4(count: str) -> None:
    text = "\n".join(["#"] * 6) + f"\n{count} Flickerwand\n"
    assert problems_of(text) == ["line 7: count must be 1-4"]


@pytest.mark.parametrize("line", ["Flickerwand", "four Flickerwand", "-1 Flickerwand", "4", "4 *"])
def test_lines_without_a_count_and_a_name_are_refused(line: str) -> None:
    problems = problems_of(f"{line}\n")
    assert len(problems) == 1 and problems[0].startswith("line 1: expected a count and a card name")


def test_every_reading_problem_is_reported_at_once() -> None:
    assert problems_of("4 Fireball\n9 Flickerwand\nnonsense\n") == [
        "line 1: unknown card 'Fireball'",
        "line 2: count must be 1-4",
        "line 3: expected a count and a card name, like \"4 Card Name\": 'nonsense'",
    ]


def test_a_short_deck_is_refused() -> None:
    text = legal_text({"4 Prism Kite": "2 Prism Kite"})
    assert problems_of(text) == ["the deck has 58 cards; it needs at least 60"]


def test_a_deck_needs_a_marked_main_character() -> None:
    text = legal_text({"2 Cinderwing Archmage *": "2 Cinderwing Archmage"})
    assert problems_of(text) == ["no Main Character is marked"]


def test_the_main_character_must_be_a_character() -> None:
    text = legal_text({"2 Cinderwing Archmage *": "2 Cinderwing Archmage", "4 Prism Kite": "4 Prism Kite *"})
    assert problems_of(text) == ["the Main Character must be a Character"]


def test_only_one_main_character_may_be_marked() -> None:
    text = "2 Cinderwing Archmage *\n3 Dawnfly Oracle *\n"
    assert problems_of(text) == ["line 2: a second Main Character is marked (the first is on line 1)"]


def test_more_than_4_copies_over_several_lines_are_refused() -> None:
    text = legal_text(add="1 Flickerwand\n")
    assert problems_of(text) == ["5 copies of Flickerwand; at most 4"]


def test_the_error_is_a_value_error_listing_each_problem() -> None:
    with pytest.raises(ValueError) as caught:
        parse_decklist("4 Fireball\n5 Prism Kite\n")
    assert str(caught.value) == "line 1: unknown card 'Fireball'\nline 2: count must be 1-4"


def test_check_decklist_lists_problems_without_raising() -> None:
    assert check_decklist(decklist(EMBER_DAWN.deck)) == []
    assert check_decklist("4 Fireball\n") == [DeckProblem("unknown card 'Fireball'", 1)]
    assert [str(problem) for problem in check_decklist("4 Flickerwand *\n")] == [
        "the deck has 4 cards; it needs at least 60", "the Main Character must be a Character"]


def test_validate_deck_names_a_main_character_missing_from_the_deck() -> None:
    deck = Deck.of(dict(EMBER_DAWN.deck.counts), main="tidewhisper-sage")
    assert [str(problem) for problem in validate_deck(deck)] == ["the Main Character must be in the deck"]
