"""Choosing a Wizbits deck: the editor's "open" dialog, and the deck choices of the new-game form."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.core.registry import OptionSpec, OptionValue
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from saves import SessionStore, StoreError
from saves.decks import DECK_CHECKERS, DeckError, DeckStore, SavedDeck, deck_problems, deck_summary
from tui.safe_text import markup_safe
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside


@dataclass(frozen=True)
class DeckChoice:
    """What the player picked: ``kind`` is ``"empty"``, ``"starter"`` (key: deck id) or ``"saved"`` (key: name)."""

    kind: str
    key: str = ""


def saved_deck_about(deck: SavedDeck) -> str:
    """A saved deck's one-line description, or what is wrong with it now."""
    problems = deck_problems(deck.text)
    return f"needs fixing: {problems[0]}" if problems else deck_summary(deck.text)


class DeckPicker(ModalScreen[DeckChoice | None]):
    """Choose the deck to edit; dismisses with a :class:`DeckChoice`, or None on Escape."""
    HELP_TITLE = "Open a deck"
    HELP = "Choose a saved deck or a starter deck to open in the editor."

    CSS_PATH = css_beside(__file__, "editor.tcss")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, saved: list[SavedDeck]) -> None:
        """List ``saved`` after the empty deck and the starter decks."""
        super().__init__()
        self.saved = saved

    def compose(self) -> ComposeResult:
        """The choices, with a heading per group."""
        options: list[Option] = [Option(Text("New", style="bold underline"), disabled=True),
                                 Option("Empty deck", id="empty")]
        options.append(Option(Text("Starter decks", style="bold underline"), disabled=True))
        options.extend(Option(Text.assemble(deck.name, ("  " + deck.summary, "dim")), id=f"starter:{deck_id}")
                       for deck_id, deck in STARTER_DECKS.items())
        options.append(Option(Text("Saved decks", style="bold underline"), disabled=True))
        if self.saved:
            options.extend(Option(Text.assemble(deck.name, (f"  {saved_deck_about(deck)}", "dim")),
                                  id=f"saved:{deck.name}") for deck in self.saved)
        else:
            options.append(Option(Text("None yet: ctrl+s in the editor saves a legal deck.", style="dim italic"),
                                  disabled=True))
        with Vertical(id="picker-dialog"):
            yield Static("Open a deck  (Enter opens, Escape cancels)", id="picker-title")
            yield OptionList(*options, id="picker-list")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Focus the list on its first choice."""
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#picker-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id or ""
        kind, _, key = choice.partition(":")
        self.dismiss(DeckChoice(kind, key))

    def action_cancel(self) -> None:
        """Close without a choice."""
        self.dismiss(None)


def deck_option_choices(game_id: str, option: OptionSpec, store: SessionStore | None) -> list[tuple[str, OptionValue]]:
    """The new-game choices of a deck option: the starter decks, then the legal saved decks by name.

    A saved deck's value is its deck-list text (the session keeps its own
    copy, see :mod:`saves.decks`); its label is the deck's name, never the text.
    An option that takes no deck lists keeps its plain choices.
    """
    choices: list[tuple[str, OptionValue]] = [(_starter_label(choice), choice) for choice in option.choices]
    if game_id not in DECK_CHECKERS or option.other is None or store is None:
        return [(option.choice_label(choice), choice) for choice in option.choices]
    try:
        saved = DeckStore(store, game_id).list_decks()
    except (DeckError, StoreError):
        return choices
    taken = {value for _, value in choices}
    for deck in saved:
        if deck.text not in taken and not deck_problems(deck.text, game_id):
            choices.append((f"{markup_safe(deck.name)} (saved)", deck.text))  # a Select reads its labels as markup
            taken.add(deck.text)
    return choices


def _starter_label(choice: OptionValue) -> str:
    starter = STARTER_DECKS.get(str(choice))
    return f"{starter.name} (starter)" if starter is not None else str(choice)
