"""A Wizbits card drawn in full, plus the small text helpers every Wizbits list shares.

:class:`WizbitsCard` shows one card of the Fly: Step Forward set: cost,
category and Sublevel, element, attributes (with their one-line rules), Main
Points for Characters, every ability's generated rules text, flip abilities,
the tone or Moon Phase, and the flavour line. Set :attr:`WizbitsCard.card_id`
(or call :meth:`WizbitsCard.show`) to change the card; ``None`` shows an
empty slot. The deck editor, the battlefield and the Pillar Lab all use it.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.model import Card
from engine.wizbits.terms import Category, Element
from engine.wizbits.text import ability_text, main_points_text
from tui.widgets.element_look import element_hues, element_marks
from tui.widgets.styles import load_css

ELEMENT_COLOURS: Mapping[Element, str] = element_hues(tuple(Element), lambda element: element.value.lower())
"""Text colour of each element in the current theme (borders use the matching ``-fire``… classes in the .tcss)."""

ELEMENT_GLYPHS: Mapping[Element, str] = element_marks(tuple(Element), lambda element: element.value.lower())
"""A symbol per element (and its letter with the colour-blind setting), so it reads without colour too."""

NAME_CELLS = 2 + max(len(card.name) for card in CARDS_BY_ID.values())
"""Cells for a glyph and the longest card name: a list column this wide never cuts a name."""

CATEGORY_SHORT: dict[Category, str] = {Category.CHARACTER: "Char", Category.ELEMENT: "Elem",
                                       Category.NON_ELEMENT: "Non-El"}
"""Short category names for narrow list columns."""


def element_text(element: Element, width: int = 0) -> Text:
    """``"▲ Fire"`` in the element's colour, padded to ``width`` cells."""
    text = Text(f"{ELEMENT_GLYPHS[element]} {element.label}", style=ELEMENT_COLOURS[element])
    if width:
        text.pad_right(max(0, width - text.cell_len))
    return text


def card_name(card_id: str, width: int = 0, bold: bool = False) -> Text:
    """The card's element glyph and name in its element colour, cut or padded to ``width`` cells."""
    card = CARDS_BY_ID[card_id]
    style = ELEMENT_COLOURS[card.element] + (" bold" if bold else "")
    text = Text(f"{ELEMENT_GLYPHS[card.element]} {card.name}", style=style)
    if width:
        text.truncate(width, overflow="ellipsis", pad=True)
    return text


def sky_text(card: Card) -> str:
    """Day or night, with the tone and any Moon Phase, e.g. ``"Night · red tone · crescent moon"``."""
    sky = "☾ Night" if card.is_night else "☀ Day"
    moon = f" · {card.moon.value} moon" if card.moon is not None else ""
    return f"{sky} · {card.tone.value} tone{moon}"


def card_renderable(card: Card, *, reminders: bool = True, flavour: bool = True) -> Text:
    """The whole card as styled text, ready to wrap at any width.

    Args:
        card: The card to draw.
        reminders: Follow each attribute with its one-line rule.
        flavour: End with the flavour line.
    """
    colour = ELEMENT_COLOURS[card.element]
    out = Text()
    out.append(f"cost {card.cost}", style="bold reverse")
    out.append(" ")
    out.append(f"{ELEMENT_GLYPHS[card.element]} {card.element.label}", style=f"bold {colour}")
    out.append(f" {card.category.label} · {card.sublevel}")
    if card.main_points is not None:
        out.append("\n")
        out.append(main_points_text(card), style="bold")
    for attribute in card.attributes:
        out.append("\n")
        out.append(attribute.label, style="bold italic")
        if reminders:
            out.append(f" — {attribute.rule}", style="dim")
    for ability in card.abilities:
        out.append("\n")
        out.append_text(_ability_line(ability_text(ability)))
    for ability in card.flip_abilities:
        out.append("\n")
        out.append(" FLIP ", style="bold reverse")
        out.append(" ")
        out.append_text(_ability_line(ability_text(ability)))
    out.append("\n")
    out.append(sky_text(card), style="italic")
    if flavour and card.flavour:
        out.append("\n")
        out.append(f"“{card.flavour}”", style="dim italic")
    return out


def _ability_line(text: str) -> Text:
    """An ability's text with its type and speed (the part before the colon or dash) in bold."""
    cut = min((index for index in (text.find(" — "), text.find(": ")) if index >= 0), default=-1)
    if cut < 0:
        return Text(text)
    return Text.assemble((text[:cut], "bold"), text[cut:])


class WizbitsCard(Widget):
    """One Wizbits card in full, in a border of its element's colour.

    The border title is the card's name (the subtitle is free for a caption). The ``-fire``,
    ``-water``… classes colour the border; ``-empty`` marks an empty slot.
    Its height follows the text, so put it in a scrolling container (or give
    it a fixed height) where space is short.
    """

    DEFAULT_CSS = load_css(__file__)

    card_id: reactive[str | None] = reactive(None, layout=True)
    """The card shown, or None for an empty slot."""

    reminders: reactive[bool] = reactive(True, layout=True)
    """Whether attributes carry their one-line rules."""

    def __init__(self, card_id: str | None = None, *, empty_text: str = "no card", reminders: bool = True,
                 name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        """Create the widget, showing ``card_id`` (None: the empty slot with ``empty_text``)."""
        super().__init__(name=name, id=id, classes=classes)
        self.empty_text = empty_text
        self.set_reactive(WizbitsCard.card_id, card_id if card_id in CARDS_BY_ID else None)
        self.set_reactive(WizbitsCard.reminders, reminders)

    def show(self, card_id: str | None) -> None:
        """Show ``card_id`` (an unknown id or None shows the empty slot)."""
        self.card_id = card_id if card_id in CARDS_BY_ID else None

    @property
    def card(self) -> Card | None:
        """The card shown, if any."""
        return CARDS_BY_ID[self.card_id] if self.card_id is not None else None

    def on_mount(self) -> None:
        """Colour the border for the starting card."""
        self._sync()

    def watch_card_id(self) -> None:
        """Recolour and retitle for the new card."""
        self._sync()

    def _sync(self) -> None:
        card = self.card
        for element in Element:
            self.set_class(card is not None and card.element is element, f"-{element.value}")
        self.set_class(card is None, "-empty")
        self.border_title = card.name if card is not None else ""

    def render(self) -> RenderableType:
        """The card's text, or the empty-slot line."""
        card = self.card
        if card is None:
            return Text(self.empty_text, style="dim italic", justify="center")
        return card_renderable(card, reminders=self.reminders)
