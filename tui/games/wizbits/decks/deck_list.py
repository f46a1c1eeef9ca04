"""The deck being edited: :class:`DeckDraft` (the editable deck and its rules) and :class:`DeckList` (its list).

The draft knows nothing of the screen: it adds and removes copies, marks the
Main Character, and says in plain words what keeps the deck from being legal,
using the engine's own :func:`~engine.wizbits.decklist.validate_deck`. The
summary helpers count the deck by category, element and cost.
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.decklist import MAX_COPIES, MIN_DECK_SIZE, Deck, decklist, validate_deck
from engine.wizbits.terms import Category, Element
from tui.games.wizbits.card import CATEGORY_SHORT, ELEMENT_COLOURS, ELEMENT_GLYPHS, card_name
from tui.widgets.styles import load_css

CATEGORY_HEADINGS: dict[Category, str] = {Category.CHARACTER: "Characters", Category.ELEMENT: "Elements",
                                          Category.NON_ELEMENT: "Non-Elements"}


class DeckDraft:
    """A deck under construction: copies per card and the Main Character, legal or not yet."""

    def __init__(self, deck: Deck | None = None) -> None:
        """Start from ``deck`` (a copy of it), or empty."""
        self.counts: dict[str, int] = dict(deck.counts) if deck is not None else {}
        self.main: str | None = deck.main if deck is not None else None

    @property
    def size(self) -> int:
        """The number of cards, the Main Character included."""
        return sum(self.counts.values())

    def copies(self, card_id: str) -> int:
        """How many copies of ``card_id`` the deck holds."""
        return self.counts.get(card_id, 0)

    def deck(self) -> Deck:
        """The draft as a :class:`Deck` value."""
        return Deck.of(self.counts, self.main)

    def text(self, title: str | None = None) -> str:
        """The draft as a deck list (the stored and exported form)."""
        return decklist(self.deck(), title)

    def add(self, card_id: str) -> str | None:
        """Add one copy; return why not (the copy limit) or None when added."""
        card = CARDS_BY_ID[card_id]
        if self.copies(card_id) >= MAX_COPIES:
            return f"At most {MAX_COPIES} copies of {card.name} in a deck."
        self.counts[card_id] = self.copies(card_id) + 1
        return None

    def remove(self, card_id: str) -> str | None:
        """Take one copy out; return a note (none to remove, or the Main Character unmarked) or None."""
        copies = self.copies(card_id)
        name = CARDS_BY_ID[card_id].name
        if copies == 0:
            return f"The deck has no {name} to remove."
        if copies == 1:
            del self.counts[card_id]
            if self.main == card_id:
                self.main = None
                return f"{name} left the deck, so no Main Character is marked."
        else:
            self.counts[card_id] = copies - 1
        return None

    def toggle_main(self, card_id: str) -> str | None:
        """Mark ``card_id`` as the Main Character (adding a copy if needed), or unmark it; return why not."""
        card = CARDS_BY_ID[card_id]
        if card.category is not Category.CHARACTER:
            return f"Only a Character can be the Main Character; {card.name} is {_a(card.category.label)}."
        if self.main == card_id:
            self.main = None
            return None
        if self.copies(card_id) == 0:
            refused = self.add(card_id)
            if refused:
                return refused
        self.main = card_id
        return None

    def problems(self) -> list[str]:
        """What keeps the deck from being legal, in sentences with a hint each (empty: legal)."""
        messages = []
        for problem in validate_deck(self.deck()):
            text = str(problem)
            if "needs at least" in text:
                text += f" (add {MIN_DECK_SIZE - self.size} more)"
            elif "no Main Character" in text:
                text += ": highlight a Character and press m"
            messages.append(text[:1].upper() + text[1:] + ".")
        return messages


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def by_category(draft: DeckDraft) -> dict[Category, int]:
    """Cards per category, every category present."""
    counts = Counter({category: 0 for category in Category})
    for card_id, copies in draft.counts.items():
        counts[CARDS_BY_ID[card_id].category] += copies
    return dict(counts)


def by_element(draft: DeckDraft) -> dict[Element, int]:
    """Cards per element, every element present."""
    counts = Counter({element: 0 for element in Element})
    for card_id, copies in draft.counts.items():
        counts[CARDS_BY_ID[card_id].element] += copies
    return dict(counts)


def by_cost(draft: DeckDraft) -> dict[int, int]:
    """Cards per cost, from 0 to the highest cost in the deck (at least 5)."""
    counts: Counter[int] = Counter()
    for card_id, copies in draft.counts.items():
        counts[CARDS_BY_ID[card_id].cost] += copies
    return {cost: counts[cost] for cost in range(max([5, *counts]) + 1)}


def summary_text(draft: DeckDraft) -> Text:
    """Four lines: categories, elements, and the cost curve (costs over counts)."""
    out = Text()
    categories = by_category(draft)
    out.append(" · ".join(f"{CATEGORY_SHORT[c]} {n}" for c, n in categories.items()))
    out.append("\n")
    for element, count in by_element(draft).items():
        out.append(f"{ELEMENT_GLYPHS[element]}{count} ", style=ELEMENT_COLOURS[element] if count else "dim")
    curve = by_cost(draft)
    out.append("\nCost  ", style="dim")
    out.append("".join(f"{cost:>3}" for cost in curve), style="dim")
    out.append("\nCards ", style="dim")
    out.append("".join(f"{count:>3}" for count in curve.values()), style="bold")
    return out


def deck_row(card_id: str, copies: int, is_main: bool, name_width: int = 24) -> Text:
    """A deck-list row: copies, the Main Character's star, and the name in its element's colour."""
    row = Text(f"{copies}×", style="bold")
    row.append("★" if is_main else " ", style="bold yellow")
    row.append_text(card_name(card_id, name_width))
    row.append(f"{CARDS_BY_ID[card_id].cost:>3}", style="dim")
    return row


class DeckList(Widget):
    """The cards of the deck, grouped by category under headings, the Main Character starred."""

    DEFAULT_CSS = load_css(__file__)

    def compose(self) -> ComposeResult:
        """One list."""
        yield OptionList(id="deck-list")

    @property
    def option_list(self) -> OptionList:
        """The list of the deck's cards."""
        return self.query_one("#deck-list", OptionList)

    @property
    def highlighted_card(self) -> str | None:
        """The card under the list cursor, if any."""
        option = self.option_list.highlighted_option
        return option.id if option is not None else None

    def show(self, draft: DeckDraft, title: str = "Deck", follow: str | None = None) -> None:
        """List ``draft``'s cards with the cursor on ``follow`` if given, else on the same card as before."""
        option_list = self.option_list
        keep = follow if follow in draft.counts else self.highlighted_card
        was = option_list.highlighted or 0
        options: list[Option] = []
        for category, heading in CATEGORY_HEADINGS.items():
            cards = sorted((card_id for card_id in draft.counts if CARDS_BY_ID[card_id].category is category),
                           key=lambda card_id: CARDS_BY_ID[card_id].name)
            if not cards:
                continue
            total = sum(draft.counts[card_id] for card_id in cards)
            options.append(Option(Text(f"{heading} {total}", style="bold underline"), disabled=True))
            options.extend(Option(deck_row(card_id, draft.counts[card_id], card_id == draft.main), id=card_id)
                           for card_id in cards)
        if not options:
            options.append(Option(Text("Empty: add cards from the pool with + or Enter.", style="dim italic"),
                                  disabled=True))
        option_list.set_options(options)
        ids = [option.id for option in options]
        if keep is not None and keep in ids:
            option_list.highlighted = ids.index(keep)
        else:  # the card left the deck: stay where it was, on the nearest card
            enabled = [index for index, option in enumerate(options) if not option.disabled]
            option_list.highlighted = min(enabled, key=lambda index: (abs(index - was), index)) if enabled else None
        option_list.border_title = f"{title} {draft.size}/{MIN_DECK_SIZE}"
