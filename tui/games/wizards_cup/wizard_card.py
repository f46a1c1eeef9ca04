"""A Wizards Cup card drawn in its element's colour, plus small text helpers.

The helpers (:func:`element_text`, :func:`card_row`, :func:`timing_label`) are
shared by the team builder, lineup, duel zone, swap picker and result screens
so every list shows a wizard the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from engine.wizards_cup.cards import CARDS, Element, Timing, Wizard
from tui.widgets.element_look import element_hues, element_marks
from tui.widgets.styles import load_css

ELEMENT_COLOURS: Mapping[Element, str] = element_hues(tuple(Element), lambda element: element.value.lower())
"""Text colour of each element in the current theme (borders use the matching ``-fire``… classes in the .tcss)."""

ELEMENT_GLYPHS: Mapping[Element, str] = element_marks(tuple(Element), lambda element: element.value.lower())
"""A symbol per element (and its letter with the colour-blind setting), so it reads without colour too."""

TIMING_LABELS: dict[Timing, str] = {
    Timing.INSTANT: "WHEN REVEALED",
    Timing.ONGOING: "WHILE IN DUEL ZONE",
    Timing.DISCARD: "ON TOP OF DISCARD",
}
"""Badge text for each power timing, shown on cards."""

TIMING_SHORT: dict[Timing, str] = {Timing.INSTANT: "reveal", Timing.ONGOING: "ongoing", Timing.DISCARD: "discard"}
"""One-word timing for list rows."""


def element_text(element: Element, width: int = 0) -> Text:
    """``"▲ Fire"`` in the element's colour, padded to ``width`` cells."""
    text = Text().append(f"{ELEMENT_GLYPHS[element]} {element.value}", style=ELEMENT_COLOURS[element])
    if width:
        text.pad_right(max(0, width - text.cell_len))
    return text


def wizard_name(card_id: str, bold: bool = False) -> Text:
    """The wizard's glyph and name in its element colour."""
    wizard = CARDS[card_id]
    style = ELEMENT_COLOURS[wizard.element] + (" bold" if bold else "")
    return Text().append(f"{ELEMENT_GLYPHS[wizard.element]} {wizard.name}", style=style)


def timing_label(wizard: Wizard) -> str:
    """The one-word timing of the wizard's power, or an empty string."""
    return TIMING_SHORT[wizard.power.timing] if wizard.power else ""


def power_summary(wizard: Wizard) -> str:
    """The power text without its timing prefix, capitalised."""
    if wizard.power is None:
        return ""
    text = wizard.power.text
    body = text.split(": ", 1)[1] if ": " in text else text
    return body[:1].upper() + body[1:]


def card_row(card_id: str, mark: str = " ", mark_style: str = "", name_width: int = 18,
             timing: bool = True) -> Text:
    """A fixed-width list row: mark, glyph and name, value, and (if ``timing``) the power's timing."""
    wizard = CARDS[card_id]
    row = Text()
    row.append(mark, style=mark_style)
    row.append(" ")
    name = wizard_name(card_id)
    name.truncate(name_width, pad=True)
    row.append_text(name)
    row.append(f"{wizard.value:>3}", style="bold")
    if timing:
        row.append(f" {timing_label(wizard):<7}", style="italic dim")
    return row


class WizardCard(Widget):
    """One wizard drawn as a card: element, value, and its Magic Power with timing.

    The border takes the element colour through the ``-fire``, ``-water``…
    classes; ``-empty`` marks an empty slot and ``-discarded`` a beaten wizard.
    """

    DEFAULT_CSS = load_css(__file__)

    card_id: reactive[str | None] = reactive(None, layout=True)
    """The wizard shown, or None for an empty slot."""

    caption: reactive[str] = reactive("")
    """A short line under the card, e.g. the owner's name or "discarded"."""

    def __init__(self, card_id: str | None = None, caption: str = "", *, empty_text: str = "no wizard",
                 name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.empty_text = empty_text
        self.set_reactive(WizardCard.card_id, card_id)
        self.set_reactive(WizardCard.caption, caption)

    def on_mount(self) -> None:
        self._sync_classes()

    def watch_card_id(self) -> None:
        self._sync_classes()

    def watch_caption(self, caption: str) -> None:
        self.border_subtitle = caption

    def _sync_classes(self) -> None:
        for element in Element:
            self.set_class(self.card_id is not None and CARDS[self.card_id].element is element,
                           f"-{element.value.lower()}")
        self.set_class(self.card_id is None, "-empty")
        self.border_title = CARDS[self.card_id].name if self.card_id else ""
        self.border_subtitle = self.caption

    def render(self) -> RenderableType:
        if self.card_id is None:
            return Text(self.empty_text, style="dim italic", justify="center")
        wizard = CARDS[self.card_id]
        head = Table.grid(expand=True)
        head.add_column()
        head.add_column(justify="right")
        head.add_row(element_text(wizard.element), Text(f"value {wizard.value}", style="bold"))
        if wizard.power is None:
            return Group(head, Text("No Magic Power.", style="dim italic"))
        badge = Text(f" {TIMING_LABELS[wizard.power.timing]} ", style="bold reverse")
        if self.content_size.height < 6:  # a short card: badge and text share the lines
            return Group(head, Text.assemble(badge, " ", power_summary(wizard)))
        return Group(head, Text(""), badge, Text(power_summary(wizard)))
