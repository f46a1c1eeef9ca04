"""The card pool of the deck editor: every card of the set, narrowed by filters and a text search.

:func:`filter_cards` is the pure part (tests use it directly); :class:`CardPool`
shows the search box, a line with the active filters and the matching cards,
each marked with how many copies the deck holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from engine.wizbits.cards.card_set import CARDS
from engine.wizbits.model import Card
from engine.wizbits.terms import Attribute, Category, Element
from engine.wizbits.text import card_text
from tui.games.wizbits.card import CATEGORY_SHORT, card_name, element_text
from tui.widgets.styles import load_css

COSTS: tuple[int, ...] = tuple(sorted({card.cost for card in CARDS}))
"""Every cost printed in the set, for the cost filter."""

_SEARCH_TEXT: dict[str, str] = {card.card_id: card_text(card).casefold() for card in CARDS}
"""Each card's name and generated rules text, folded once for the search."""

_T = TypeVar("_T")


@dataclass(frozen=True)
class PoolFilter:
    """Which cards the pool shows; None (or a blank search) lets everything through.

    Attributes:
        category: Only this category.
        element: Only this element.
        cost: Only this cost.
        attribute: Only cards with this attribute.
        text: Words that must all appear in the card's name or rules text.
    """

    category: Category | None = None
    element: Element | None = None
    cost: int | None = None
    attribute: Attribute | None = None
    text: str = ""

    def matches(self, card: Card) -> bool:
        """Whether ``card`` passes every filter."""
        if self.category is not None and card.category is not self.category:
            return False
        if self.element is not None and card.element is not self.element:
            return False
        if self.cost is not None and card.cost != self.cost:
            return False
        if self.attribute is not None and self.attribute not in card.attributes:
            return False
        haystack = _SEARCH_TEXT.get(card.card_id) or card_text(card).casefold()
        return all(word in haystack for word in self.text.casefold().split())


def filter_cards(pool_filter: PoolFilter, cards: Sequence[Card] = CARDS) -> list[Card]:
    """The cards passing ``pool_filter``, in set order (Characters, Elements, Non-Elements)."""
    return [card for card in cards if pool_filter.matches(card)]


def _next(values: Sequence[_T], current: _T | None, step: int) -> _T | None:
    """The value ``step`` places after ``current`` in ``(None, *values)``, wrapping round."""
    ring: list[_T | None] = [None, *values]
    return ring[(ring.index(current) + step) % len(ring)]


def cycled(pool_filter: PoolFilter, kind: str, step: int = 1) -> PoolFilter:
    """``pool_filter`` with the ``kind`` filter moved ``step`` values on ("all" sits between the last and first)."""
    if kind == "category":
        return replace(pool_filter, category=_next(tuple(Category), pool_filter.category, step))
    if kind == "element":
        return replace(pool_filter, element=_next(tuple(Element), pool_filter.element, step))
    if kind == "cost":
        return replace(pool_filter, cost=_next(COSTS, pool_filter.cost, step))
    if kind == "attribute":
        return replace(pool_filter, attribute=_next(tuple(Attribute), pool_filter.attribute, step))
    raise ValueError(f"unknown filter {kind!r}")


def pool_row(card: Card, copies: int, is_main: bool, name_width: int = 24) -> Text:
    """A list row: copies in the deck, the name in its element's colour, category and cost."""
    row = Text()
    row.append(f"{copies}×" if copies else " ·", style="bold green" if copies else "dim")
    row.append("★" if is_main else " ", style="bold yellow")
    row.append_text(card_name(card.card_id, name_width))
    row.append(f" {CATEGORY_SHORT[card.category]:<6}", style="dim")
    row.append(f"{card.cost:>2}", style="bold")
    return row


def _filter_part(key: str, value: Text | str | None, idle: str) -> Text:
    text = Text.assemble((f" {key} ", "reverse"), " ")
    if value is None:
        text.append(idle, style="dim")
    else:
        text.append_text(value if isinstance(value, Text) else Text(value, style="bold"))
    return text


def filter_line(pool_filter: PoolFilter, width: int = 38) -> Text:
    """The four filters with their keys, two to a line, the active ones bright."""
    category = pool_filter.category.label + "s" if pool_filter.category is not None else None
    element = element_text(pool_filter.element) if pool_filter.element is not None else None
    cost = f"cost {pool_filter.cost}" if pool_filter.cost is not None else None
    attribute = pool_filter.attribute.label if pool_filter.attribute is not None else None
    parts = [_filter_part("c", category, "all categories"), _filter_part("e", element, "all elements"),
             _filter_part("o", cost, "any cost"), _filter_part("t", attribute, "any attribute")]
    half = max(width // 2, 18)
    line = Text()
    for index, part in enumerate(parts):
        if index % 2 == 0:
            if index:
                line.append("\n")
            part.truncate(half, pad=True)
        line.append_text(part)
    return line


class CardPool(Widget):
    """The search box, the filter line and the matching cards of the set."""

    DEFAULT_CSS = load_css(__file__)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        """Start with every card shown and an empty deck."""
        super().__init__(id=id, classes=classes)
        self.pool_filter = PoolFilter()
        self.counts: dict[str, int] = {}
        self.main: str | None = None
        self.shown: list[Card] = list(CARDS)

    def compose(self) -> ComposeResult:
        """Search box, filter line, list."""
        yield Input(placeholder="/ search names and rules text", id="pool-search")
        yield Static(id="pool-filters")
        yield OptionList(id="pool-list")

    def on_mount(self) -> None:
        """Fill the list."""
        self.query_one("#pool-list", OptionList).border_title = "Card pool"
        self.refilter()

    @property
    def option_list(self) -> OptionList:
        """The list of matching cards."""
        return self.query_one("#pool-list", OptionList)

    @property
    def highlighted_card(self) -> str | None:
        """The card under the list cursor, if any."""
        option = self.option_list.highlighted_option
        return option.id if option is not None else None

    def set_filter(self, pool_filter: PoolFilter) -> None:
        """Show the cards passing ``pool_filter`` (the search box keeps its own text)."""
        self.pool_filter = replace(pool_filter, text=self.query_one("#pool-search", Input).value)
        self.refilter()

    def cycle(self, kind: str, step: int = 1) -> None:
        """Move one filter (``"category"``, ``"element"``, ``"cost"`` or ``"attribute"``) on by ``step``."""
        self.set_filter(cycled(self.pool_filter, kind, step))

    def clear_filters(self) -> None:
        """Drop every filter and the search text."""
        self.query_one("#pool-search", Input).value = ""
        self.set_filter(PoolFilter())

    def show_counts(self, counts: Mapping[str, int], main: str | None) -> None:
        """Mark each row with the deck's copies of its card and the Main Character."""
        self.counts, self.main = dict(counts), main
        option_list = self.option_list
        for card in self.shown:
            option_list.replace_option_prompt(card.card_id, self._row(card))

    def _row(self, card: Card) -> Text:
        return pool_row(card, self.counts.get(card.card_id, 0), card.card_id == self.main)

    def refilter(self) -> None:
        """Rebuild the list for the current filter, keeping the highlighted card where it still shows."""
        option_list = self.option_list
        keep = self.highlighted_card
        self.shown = filter_cards(self.pool_filter)
        self.query_one("#pool-filters", Static).update(filter_line(self.pool_filter, self.size.width or 38))
        if self.shown:
            option_list.set_options(Option(self._row(card), id=card.card_id) for card in self.shown)
            ids = [card.card_id for card in self.shown]
            option_list.highlighted = ids.index(keep) if keep in ids else 0
        else:
            option_list.set_options([Option(Text("No card matches. f clears the filters.", style="dim italic"),
                                            disabled=True)])
        option_list.border_title = f"Card pool {len(self.shown)}/{len(CARDS)}"

    @on(Input.Changed, "#pool-search")
    def _search_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.pool_filter = replace(self.pool_filter, text=event.value)
        self.refilter()

    @on(Input.Submitted, "#pool-search")
    def _search_done(self, event: Input.Submitted) -> None:
        """Enter in the search box moves to the results."""
        event.stop()
        self.option_list.focus()
