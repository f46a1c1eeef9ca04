"""The Wizbits deck editor: browse the pool, build a 60-card deck, validate it live, save and share it.

Keyboard first: ``+``/Enter adds the highlighted card, ``-`` removes one,
``m`` marks the Main Character, ``c``/``e``/``o``/``t`` step the category,
element, cost and attribute filters, ``/`` searches. Decks are kept in the
session store (:class:`saves.decks.DeckStore`) as their deck-list text, and
import and export use the same plain-text format.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Input, OptionList, Static

from engine.wizbits.cards.card_set import CARDS_BY_ID
from tui.games.wizbits.card import WizbitsCard
from tui.games.wizbits.decks.actions import DeckActions
from tui.games.wizbits.decks.card_pool import CardPool
from tui.games.wizbits.decks.deck_list import DeckList, summary_text
from tui.navigation import OpenHelp
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside


class DeckEditorScreen(DeckActions):
    """Build, check, save, import and export Wizbits decks."""
    HELP_TITLE = "Deck editor"
    HELP = ("Build a Wizbits deck: add cards from the pool on the left, pick its Main Character, and save "
            "it when the checks on the right pass. Saved decks can be played from New game.")

    CSS_PATH = css_beside(__file__, "editor.tcss")
    BINDINGS = [
        Binding("plus,equals_sign", "add", "Add", key_display="+"),
        Binding("minus,backspace", "remove", "Remove", key_display="-"),
        Binding("m", "main", "Main"),
        Binding("slash", "search", "Search", key_display="/", show=False),
        Binding("c", "filter('category')", "Category", show=False),
        Binding("e", "filter('element')", "Element", show=False),
        Binding("o", "filter('cost')", "Cost", show=False),
        Binding("t", "filter('attribute')", "Attribute", show=False),
        Binding("f", "clear_filters", "Clear filters", show=False),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+o", "open", "Open"),
        # Eighty columns hold either the saved deck's keys or the file keys: each pair below is one key, shown in
        # the Footer (True) while it fits what is open and hidden (False) otherwise; the title line names the rest.
        Binding("r", "rename(True)", "Rename"),
        Binding("r", "rename(False)", "Rename", show=False),
        Binding("d", "duplicate(True)", "Copy"),
        Binding("d", "duplicate(False)", "Copy", show=False),
        Binding("delete", "delete_deck(True)", "Delete", key_display="del"),
        Binding("delete", "delete_deck(False)", "Delete", key_display="del", show=False),
        Binding("i", "import_file(True)", "Import"),
        Binding("i", "import_file(False)", "Import", show=False),
        Binding("x", "export_file(True)", "Export"),
        Binding("x", "export_file(False)", "Export", show=False),
        Binding("question_mark", "keys", "Keys", key_display="?"),
        Binding("escape", "back", "Back"),
    ]

    SAVED_DECK_KEYS = frozenset({"rename", "duplicate", "delete_deck"})
    """Actions shown in the Footer while a saved deck is open (the file actions are shown otherwise)."""

    FILE_KEYS = frozenset({"import_file", "export_file"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Of each pair of bindings for one key, enable the one whose Footer showing fits what is open."""
        if action in self.SAVED_DECK_KEYS | self.FILE_KEYS and parameters:
            shown = bool(parameters[0])
            wanted = (self.deck_name is not None) == (action in self.SAVED_DECK_KEYS)
            return shown == wanted
        return True

    def action_keys(self) -> None:
        """List every key of the editor; choosing one presses it."""
        # The help lists every key, the ones the Footer leaves out too; enter presses one.
        self.app.post_message(OpenHelp())

    # -- building -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Title, the pool over the deck on the left, the card and the checks on the right."""
        yield Header()
        yield Static(id="editor-title")
        with Horizontal(id="editor-main"):
            with Vertical(id="editor-left"):
                yield CardPool(id="pool")
                yield DeckList(id="deck")
            with Vertical(id="editor-right"):
                with VerticalScroll(id="card-scroll"):
                    yield WizbitsCard(empty_text="Highlight a card to see it in full.", id="card")
                yield Static(id="editor-message")
                yield Static(id="deck-problems")
                yield Static(id="deck-summary")
        yield FittingFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        """Show the deck and put the cursor in the pool."""
        self.refresh_deck()
        pool = self.query_one(CardPool)
        pool.option_list.focus()
        self.query_one(WizbitsCard).show(pool.highlighted_card)

    # -- showing ------------------------------------------------------------------

    def say(self, message: str, *, error: bool = False) -> None:
        """Show ``message`` under the card (a refusal or error in the warning colour)."""
        self.message = message
        line = self.query_one("#editor-message", Static)
        line.update(Text(message, style="bold"))
        line.display = bool(message)
        line.set_class(error, "-error")

    def refresh_deck(self, follow: str | None = None) -> None:
        """Redraw everything that depends on the deck; the deck list's cursor moves to ``follow`` if given."""
        draft = self.draft
        name = self.deck_name or self.suggested_name or "New deck"
        title = Text.assemble(("Deck: ", "dim"), (name, "bold"))
        if self.dirty:
            title.append("  ● unsaved changes", style="yellow")
        elif self.deck_name:
            title.append("  saved", style="green")
        else:
            title.append("  not saved yet", style="dim")
        # The keys the Footer has no room for now (see BINDINGS).
        title.append("   i import · x export · ? keys" if self.deck_name else "   r rename · d copy · ? keys",
                     style="dim")
        self.query_one("#editor-title", Static).update(title)
        self.query_one(CardPool).show_counts(draft.counts, draft.main)
        self.query_one(DeckList).show(draft, follow=follow)
        problems = draft.problems()
        checks = Text()
        if problems:
            for index, problem in enumerate(problems):
                checks.append("\n" if index else "")
                checks.append("✗ ", style="bold red")
                checks.append(problem)
        else:
            checks.append("✓ Legal: ", style="bold green")
            checks.append(f"{draft.size} cards, Main Character {self._main_name()}.")
        panel = self.query_one("#deck-problems", Static)
        panel.update(checks)
        panel.set_class(bool(problems), "-invalid")
        self.query_one("#deck-summary", Static).update(summary_text(draft))

    def _main_name(self) -> str:
        return CARDS_BY_ID[self.draft.main].name if self.draft.main else "none"

    def _focused_card(self) -> str | None:
        """The card under the cursor of the focused list (the pool's when neither list has focus)."""
        deck = self.query_one(DeckList)
        if self.focused is deck.option_list:
            return deck.highlighted_card
        return self.query_one(CardPool).highlighted_card

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the card under the cursor of the list being used (the other list moves as the deck changes)."""
        if event.option_list.id in ("pool-list", "deck-list") and event.option.id \
                and (event.option_list.has_focus or self.focused is None):
            self.query_one(WizbitsCard).show(event.option.id)

    def on_descendant_focus(self) -> None:
        """Moving between the lists shows the card under the new cursor."""
        card = self._focused_card()
        if card and isinstance(self.focused, OptionList):
            self.query_one(WizbitsCard).show(card)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a card adds a copy."""
        if event.option_list.id in ("pool-list", "deck-list") and event.option.id:
            self._add(event.option.id)

    @on(Input.Submitted, "#pool-search")
    def _search_submitted(self) -> None:
        """The pool moves focus to its list; show its card."""
        self.query_one(WizbitsCard).show(self.query_one(CardPool).highlighted_card)

    # -- editing ------------------------------------------------------------------

    def _add(self, card_id: str) -> None:
        refused = self.draft.add(card_id)
        self.say(refused or "", error=bool(refused))
        self.refresh_deck(follow=card_id)

    def action_add(self) -> None:
        """Add a copy of the highlighted card."""
        card = self._focused_card()
        if card:
            self._add(card)

    def action_remove(self) -> None:
        """Take a copy of the highlighted card out of the deck."""
        card = self._focused_card()
        if card:
            note = self.draft.remove(card)  # nothing to remove, or the Main Character left: both worth a warning
            self.say(note or "", error=note is not None)
            self.refresh_deck(follow=card)

    def action_main(self) -> None:
        """Mark (or unmark) the highlighted Character as the Main Character."""
        card = self._focused_card()
        if not card:
            return
        was = self.draft.main
        refused = self.draft.toggle_main(card)
        if refused:
            self.say(refused, error=True)
        elif self.draft.main is None:
            self.say("No Main Character is marked now.")
        else:
            self.say(f"{self._main_name()} is the Main Character" + (" instead." if was else "."))
        self.refresh_deck()

    def action_search(self) -> None:
        """Put the cursor in the search box."""
        self.query_one("#pool-search", Input).focus()

    def action_filter(self, kind: str) -> None:
        """Step one pool filter on."""
        self.query_one(CardPool).cycle(kind)

    def action_clear_filters(self) -> None:
        """Show the whole pool again."""
        self.query_one(CardPool).clear_filters()

    # -- leaving --------------------------------------------------------------------

    def action_back(self) -> None:
        """Leave the search box, or the editor (asking first if there are unsaved changes)."""
        if isinstance(self.focused, Input):
            self.query_one(CardPool).option_list.focus()
            return
        self._then_if_clean(lambda: self.dismiss(None), "Leave")
