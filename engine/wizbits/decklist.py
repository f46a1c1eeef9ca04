"""Decks and deck lists: the :class:`Deck` value, the plain-text format, and the deck rules.

A deck list is plain text, one card per line::

    # Ember Dawn (comments start with "#"; blank lines are ignored)
    2 Cinderwing Archmage *
    4 Sparkswarm Volley

Each line is a count from 1 to 4, a space, and the card's name (any letter
case). A trailing ``*`` marks the Main Character: exactly one line carries it,
and its count includes the copy that starts in play. A card may appear on
several lines; the counts add up.

Lines end at a line feed, a carriage return or both (``\r\n``), exactly
where an editor breaks them. Other Unicode separators (form feed, vertical
tab, NEL, U+2028, U+2029 and the file/group/record separators) are refused
on their line instead of silently starting a new one, so line numbers always
match what the player sees.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.core.words import plural
from engine.wizbits.cards.card_set import CARDS_BY_ID, card_by_name
from engine.wizbits.terms import Category

MIN_DECK_SIZE = 60
MAX_COPIES = 4
MAX_DECKLIST_BYTES = 64 * 1024
"""The longest deck list accepted anywhere (a game option, a file, the store); a full one is under 4 KiB."""

_BREAK = re.compile(r"\r\n|\r|\n")
_REFUSED_SEPARATORS = {"\x0b": "a vertical tab", "\x0c": "a form feed", "\x1c": "a file separator (U+001C)",
                       "\x1d": "a group separator (U+001D)", "\x1e": "a record separator (U+001E)",
                       "\x85": "a next-line character (NEL, U+0085)", "\u2028": "a line separator (U+2028)",
                       "\u2029": "a paragraph separator (U+2029)"}
_MAX_COUNT_DIGITS = 6

_LINE = re.compile(r"(?P<count>\d+)\s+(?P<name>.*?)\s*(?P<main>\*)?")
_CATEGORY_ORDER = (Category.CHARACTER, Category.ELEMENT, Category.NON_ELEMENT)
_HEADINGS = {Category.CHARACTER: "Characters", Category.ELEMENT: "Elements", Category.NON_ELEMENT: "Non-Elements"}


@dataclass(frozen=True)
class DeckProblem:
    """One thing wrong with a deck or deck list.

    Attributes:
        message: What is wrong, in a sentence without the line number.
        line: The 1-based line of the deck list it is about, if any.
    """

    message: str
    line: int | None = None

    def __str__(self) -> str:
        return self.message if self.line is None else f"line {self.line}: {self.message}"


class DeckListError(ValueError):
    """A deck list could not be read, or describes a deck the rules don't allow.

    Attributes:
        problems: Every problem found, in line order, deck-wide ones last.
    """

    def __init__(self, problems: list[DeckProblem] | tuple[DeckProblem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


@dataclass(frozen=True)
class Deck:
    """A deck: how many copies of each card, and which Character is the Main Character.

    Attributes:
        counts: ``(card id, copies)`` pairs, sorted by id so equal decks compare equal.
        main: The Main Character's card id, or None if none is marked yet.
    """

    counts: tuple[tuple[str, int], ...]
    main: str | None

    def __post_init__(self) -> None:
        merged: dict[str, int] = {}
        for card_id, copies in self.counts:
            if card_id not in CARDS_BY_ID:
                raise ValueError(f"unknown card id {card_id!r}")
            if copies < 1:
                raise ValueError(f"{card_id!r} needs at least 1 copy, not {copies}")
            merged[card_id] = merged.get(card_id, 0) + copies
        object.__setattr__(self, "counts", tuple(sorted(merged.items())))

    @classmethod
    def of(cls, counts: Mapping[str, int], main: str | None) -> Deck:
        """Build a deck from a mapping of card id to copies."""
        return cls(tuple(counts.items()), main)

    @property
    def size(self) -> int:
        """The number of cards, the Main Character included."""
        return sum(copies for _, copies in self.counts)

    def copies(self, card_id: str) -> int:
        """How many copies of a card the deck holds."""
        return dict(self.counts).get(card_id, 0)

    def card_ids(self) -> list[str]:
        """Every card id, repeated once per copy, in id order."""
        return [card_id for card_id, copies in self.counts for _ in range(copies)]


def validate_deck(deck: Deck) -> list[DeckProblem]:
    """Check a deck against the deck rules; return every problem (empty when legal).

    The rules: at least 60 cards, at most 4 copies of a card, and exactly one
    Main Character, a Character that is in the deck.
    """
    problems = [DeckProblem(f"{copies} copies of {CARDS_BY_ID[card_id].name}; at most {MAX_COPIES}")
                for card_id, copies in deck.counts if copies > MAX_COPIES]
    if deck.size < MIN_DECK_SIZE:
        problems.append(DeckProblem(f"the deck has {plural(deck.size, 'card')}; it needs at least {MIN_DECK_SIZE}"))
    if deck.main is None:
        problems.append(DeckProblem("no Main Character is marked"))
    elif deck.main not in CARDS_BY_ID:
        problems.append(DeckProblem(f"unknown Main Character {deck.main!r}"))
    elif CARDS_BY_ID[deck.main].category is not Category.CHARACTER:
        problems.append(DeckProblem("the Main Character must be a Character"))
    elif deck.copies(deck.main) == 0:
        problems.append(DeckProblem("the Main Character must be in the deck"))
    return problems


def split_lines(text: str) -> list[str]:
    """Split a deck list into lines as an editor shows them: at ``\\n``, ``\\r\\n`` and ``\\r`` only.

    Unlike :meth:`str.splitlines`, a form feed or U+2028 stays inside its line,
    so line numbers match the editor's.
    """
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # a final line break ends the last line; it starts no new one
    return lines


def separator_problem(line: str) -> str | None:
    """Why ``line`` holds a separator a deck list may not use, or None."""
    for char in line:
        name = _REFUSED_SEPARATORS.get(char)
        if name is not None:
            return f"{name} is not a line break here; deck lists break lines only with a line feed, " \
                   f"a carriage return or both"
    return None


def _read(text: str) -> tuple[Deck, list[DeckProblem]]:
    """Read every line, collecting line-numbered problems instead of stopping at the first."""
    problems: list[DeckProblem] = []
    counts: dict[str, int] = {}
    main: str | None = None
    main_line = 0
    for number, raw in enumerate(split_lines(text), start=1):
        separator = separator_problem(raw)
        if separator is not None:
            problems.append(DeckProblem(separator, number))
            continue
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _LINE.fullmatch(line)
        if match is None or not match["name"]:
            problems.append(DeckProblem(f"expected a count and a card name, like \"4 Card Name\": {_short(line)!r}",
                                        number))
            continue
        digits = match["count"]
        # Bounded before int(): Python refuses to convert more than 4300 digits, and no count needs 7.
        count = int(digits) if len(digits) <= _MAX_COUNT_DIGITS else MAX_COPIES + 1
        card = card_by_name(match["name"])
        if card is None:
            problems.append(DeckProblem(f"unknown card {_short(match['name'])!r}", number))
        elif not 1 <= count <= MAX_COPIES:
            problems.append(DeckProblem(f"count must be 1-{MAX_COPIES}", number))
        else:
            counts[card.card_id] = counts.get(card.card_id, 0) + count
            if match["main"]:
                if main is not None and main != card.card_id:
                    problems.append(DeckProblem(f"a second Main Character is marked (the first is on line "
                                                f"{main_line})", number))
                else:
                    main, main_line = card.card_id, number
    return Deck.of(counts, main), problems


def _short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a message (a line may be 64 KiB long)."""
    return text if len(text) <= limit else f"{text[:limit]}..."


def parse_decklist(text: str, *, check_rules: bool = True) -> Deck:
    """Read a deck list.

    Args:
        text: The deck list, in the format of the module docstring.
        check_rules: Also apply :func:`validate_deck`; turn off to read an unfinished deck.

    Raises:
        DeckListError: With every problem found, each line-numbered where it has a line.
    """
    deck, problems = _read(text)
    if check_rules and not problems:
        problems = validate_deck(deck)
    if problems:
        raise DeckListError(problems)
    return deck


def check_decklist(text: str) -> list[DeckProblem]:
    """Every problem of a deck list, reading and rules alike (what ``coven deck check`` prints)."""
    deck, problems = _read(text)
    if problems:
        return problems
    return validate_deck(deck)


def decklist(deck: Deck, title: str | None = None) -> str:
    """Write a deck as a deck list: grouped by category, sorted by name, the Main Character marked."""
    lines = [f"# {title}"] if title else []
    for category in _CATEGORY_ORDER:
        cards = sorted((CARDS_BY_ID[card_id] for card_id, _ in deck.counts
                        if CARDS_BY_ID[card_id].category is category), key=lambda card: card.name)
        if not cards:
            continue
        if lines:
            lines.append("")
        lines.append(f"# {_HEADINGS[category]}")
        for card in cards:
            mark = " *" if card.card_id == deck.main else ""
            lines.append(f"{deck.copies(card.card_id)} {card.name}{mark}")
    return "\n".join(lines) + "\n"
