"""The deck editor's dealings with the deck store and with files: save, open, rename, copy, delete, import, export.

:class:`DeckActions` is the base of :class:`~tui.games.wizbits.decks.editor.DeckEditorScreen`;
it keeps the deck being edited and its saved name, and leaves drawing to the
screen (:meth:`DeckActions.say` and :meth:`DeckActions.refresh_deck`).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from engine.core.textfile import TextFileError, TextFileExistsError, write_text_file
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import DeckListError, parse_decklist
from saves.decks import DeckError, DeckExistsError, DeckStore, InvalidDeckError, deck_problems, read_deck_file
from tui.context import coven
from tui.games.wizbits.decks.deck_list import DeckDraft
from tui.games.wizbits.decks.picker import DeckChoice, DeckPicker
from tui.games.wizbits.lab.dialogs import exports_dir
from tui.served import refuses_files
from tui.user_paths import NoPathError, user_path
from tui.widgets.confirm import ConfirmScreen, PromptScreen
from tui.widgets.problem_list import ProblemListScreen, count_problems


class DeckActions(Screen[None]):
    """The deck being edited, and every action that saves, loads or shares it."""

    def __init__(self, draft: DeckDraft | None = None, name: str | None = None) -> None:
        """Edit ``draft`` (empty by default); ``name`` is its saved name, if it is a saved deck."""
        super().__init__()
        self.draft = draft or DeckDraft()
        self.deck_name: str | None = name
        """The saved deck being edited; None while the deck has never been saved."""
        self.suggested_name = name or ""
        """The name offered when an unsaved deck is first saved (from a starter or an imported file)."""
        self.baseline = self.draft.text() if name else DeckDraft().text()
        """The deck list as last saved or opened; anything else is an unsaved change."""
        self.message = ""

    @property
    def decks(self) -> DeckStore | None:
        """The store's Wizbits decks, or None (after saying so) when there is no store."""
        store = coven(self).store
        if store is None:
            self.say("No session database is open, so decks can't be saved or opened.", error=True)
            return None
        return DeckStore(store)

    @property
    def dirty(self) -> bool:
        """Whether the deck differs from what was last saved or opened."""
        return self.draft.text() != self.baseline

    def say(self, message: str, *, error: bool = False) -> None:
        """Show ``message`` to the player (a refusal or error when ``error``)."""
        raise NotImplementedError

    def refresh_deck(self, follow: str | None = None) -> None:
        """Redraw whatever shows the deck (the deck's cursor on ``follow``, if given)."""
        raise NotImplementedError

    # -- decks in the store ---------------------------------------------------------

    def _load(self, draft: DeckDraft, name: str | None, suggested: str = "") -> None:
        """Edit ``draft`` from now on; ``name`` is set when it is a saved deck."""
        self.draft, self.deck_name = draft, name
        self.suggested_name = name or suggested
        # A starter or an imported file can be opened again, so only later changes count as unsaved.
        self.baseline = draft.text()
        self.refresh_deck()

    def _saved(self, name: str) -> None:
        self.deck_name = self.suggested_name = name
        self.baseline = self.draft.text()
        self.say(f"Saved {name!r}.")
        self.refresh_deck()

    def confirm_leave(self, then: Callable[[], object], doing: str) -> None:
        """Run ``then`` (quitting, say) once the player agrees to drop unsaved changes; the app asks this first."""
        self._then_if_clean(then, doing)

    def _then_if_clean(self, then: Callable[[], object], doing: str) -> None:
        """Run ``then`` now, or after the player agrees to drop unsaved changes."""
        if not self.dirty:
            then()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(f"The deck has unsaved changes. {doing} anyway and lose them?",
                                           "Discard changes", "Keep editing"), answered)

    def action_save(self) -> None:
        """Save the deck under its name (asking for one the first time)."""
        decks = self.decks
        if decks is None:
            return
        if self.draft.problems():
            self.say("Only a legal deck can be saved: fix the problems listed below first "
                     "(x exports an unfinished list to a file).", error=True)
            return
        if self.deck_name is None:
            self._ask_name("Save the deck as", self.suggested_name or "New deck", self._save_new)
            return
        self._store_deck(decks, self.deck_name, replace=True)

    def _ask_name(self, title: str, default: str, then: Callable[[str], None]) -> None:
        def answered(name: str | None) -> None:
            if name:
                then(name)

        self.app.push_screen(PromptScreen(title, default, "deck name", "Save"), answered)

    def _save_new(self, name: str) -> None:
        decks = self.decks
        if decks is None:
            return
        try:
            decks.save_deck(name, self.draft.text(name))
        except DeckExistsError as error:
            # The except name is unbound once the block ends, so the callback keeps its own copy.
            existing = error.name

            def replace(yes: bool | None) -> None:
                if yes and (again := self.decks) is not None:
                    self._store_deck(again, existing, replace=True)

            self.app.push_screen(ConfirmScreen(f"A deck named {existing!r} is already saved. Replace it?",
                                               "Replace", "Cancel"), replace)
            return
        except DeckError as error:
            self.say(str(error), error=True)
            return
        self._saved(name.strip())

    def _store_deck(self, decks: DeckStore, name: str, *, replace: bool) -> None:
        try:
            saved = decks.save_deck(name, self.draft.text(name), replace=replace)
        except (InvalidDeckError, DeckError) as error:
            self.say(str(error), error=True)
            return
        self._saved(saved.name)

    def action_open(self) -> None:
        """Choose another deck: empty, a starter, or a saved one."""
        decks = self.decks
        if decks is None:
            return
        saved = decks.list_decks()

        def chosen(choice: DeckChoice | None) -> None:
            if choice is not None:
                self._then_if_clean(lambda: self._open(choice), "Open another deck")

        self.app.push_screen(DeckPicker(saved), chosen)

    def _open(self, choice: DeckChoice) -> None:
        if choice.kind == "starter" and choice.key in STARTER_DECKS:
            starter = STARTER_DECKS[choice.key]
            self._load(DeckDraft(starter.deck), None, f"{starter.name} copy")
            self.say(f"Started from the {starter.name} starter deck; save it under a name of your own.")
        elif choice.kind == "saved" and (decks := self.decks) is not None:
            try:
                saved = decks.load_deck(choice.key)
                deck = parse_decklist(saved.text, check_rules=False)
            except (DeckError, DeckListError) as error:
                self.say(str(error), error=True)
                return
            self._load(DeckDraft(deck), saved.name)
            self.say(f"Opened {saved.name!r}.")
        else:
            self._load(DeckDraft(), None)
            self.say("A new, empty deck.")

    def action_rename(self, _shown: bool = True) -> None:
        """Give the saved deck a new name."""
        if self.deck_name is None:
            self.say("This deck isn't saved yet; ctrl+s saves it under a name.", error=True)
            return
        old = self.deck_name

        def rename(new: str) -> None:
            decks = self.decks
            if decks is None:
                return
            try:
                saved = decks.rename_deck(old, new)
            except DeckError as error:
                self.say(str(error), error=True)
                return
            self.deck_name = self.suggested_name = saved.name
            self.say(f"Renamed {old!r} to {saved.name!r}.")
            self.refresh_deck()

        self.app.push_screen(PromptScreen(f"Rename {old!r} to", old, "deck name", "Rename"),
                             lambda name: rename(name) if name else None)

    def action_duplicate(self, _shown: bool = True) -> None:
        """Save the deck as shown under a new name, and go on editing the copy."""
        if self.draft.problems():
            self.say("Only a legal deck can be copied into the store: fix the problems below first.", error=True)
            return
        base = self.deck_name or self.suggested_name or "New deck"
        self._ask_name("Save a copy as", f"{base} copy", self._save_new)

    def action_delete_deck(self, _shown: bool = True) -> None:
        """Delete the saved deck (after asking); its cards stay on screen as an unsaved deck."""
        if self.deck_name is None:
            self.say("This deck isn't saved, so there is nothing to delete.", error=True)
            return
        name = self.deck_name

        def delete(yes: bool | None) -> None:
            decks = self.decks
            if not yes or decks is None:
                return
            try:
                decks.delete_deck(name)
            except DeckError as error:
                self.say(str(error), error=True)
                return
            self.deck_name, self.suggested_name = None, name
            self.baseline = DeckDraft().text()
            self.say(f"Deleted {name!r}. Its cards are still here; ctrl+s saves them again.")
            self.refresh_deck()

        self.app.push_screen(ConfirmScreen(f"Delete the saved deck {name!r}? Games already played with it keep "
                                           "their own copy.", "Delete", "Keep"), delete)

    # -- files --------------------------------------------------------------------

    def action_import_file(self, _shown: bool = True) -> None:
        """Read a deck-list file into the editor (its problems, line by line, if it can't be read)."""
        if refuses_files(self.app):
            return

        def answered(path: str | None) -> None:
            if path:
                self.import_path(path)

        self.app.push_screen(PromptScreen("Import a deck list from the file", "", "path/to/deck.txt", "Import"),
                             answered)

    def import_path(self, path: str) -> None:
        """Import the deck list at ``path`` (asking first if there are unsaved changes), or show why it can't be.

        A relative path is relative to the working directory (:mod:`tui.user_paths`); every message names the
        file by its absolute path, and a file with problems lists all of them, counted, in a scrolling dialog.
        """
        try:
            source = user_path(path)
        except NoPathError as error:
            self.say(str(error), error=True)
            return
        try:
            text = read_deck_file(source)
        except DeckError as error:
            self.say(str(error), error=True)  # it names the file by the absolute path it was given
            return
        reading = [str(problem) for problem in deck_problems(text) if problem.line is not None]
        if not reading:
            try:
                deck = parse_decklist(text, check_rules=False)
            except DeckListError as error:
                reading = [str(problem) for problem in error.problems]
        if reading:
            self.say(f"{source} can't be imported: {count_problems(len(reading))}, listed in the dialog.", error=True)
            self.app.push_screen(ProblemListScreen(f"{source} can't be imported:", reading))
            return

        def load() -> None:
            self._load(DeckDraft(deck), None, source.stem.replace("_", " ").replace("-", " ").strip())
            self.say(f"Imported {source}; ctrl+s saves it in Coven.")

        self._then_if_clean(load, "Import the file")

    def action_export_file(self, _shown: bool = True) -> None:
        """Write the deck list to a file (legal or not, so a draft can be shared); by default in the exports folder."""
        if refuses_files(self.app):
            return
        name = self.deck_name or self.suggested_name or "deck"
        default = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-") + ".txt"

        def answered(path: str | None) -> None:
            if path:
                self.export_path(path)

        self.app.push_screen(PromptScreen("Export the deck list to the file", str(exports_dir() / default),
                                          "path/to/deck.txt", "Export"), answered)

    def export_path(self, path: str, *, overwrite: bool = False) -> None:
        """Write the deck list to ``path`` (relative to the working directory), asking before replacing a file."""
        try:
            target = user_path(path)
        except NoPathError as error:
            self.say(str(error), error=True)
            return
        try:
            if target.parent == exports_dir():
                target.parent.mkdir(parents=True, exist_ok=True)  # the default folder; others must exist
            # Refuses a pipe or device (which would block) and asks before replacing a file.
            write_text_file(target, self.draft.text(self.deck_name or self.suggested_name or None),
                            overwrite=overwrite)
        except TextFileExistsError:
            def replace(yes: bool | None) -> None:
                if yes:
                    self.export_path(str(target), overwrite=True)

            self.app.push_screen(ConfirmScreen(f"{target} already exists. Replace it?", "Replace", "Cancel"),
                                 replace)
            return
        except TextFileError as error:
            self.say(str(error), error=True)
            return
        except OSError as error:
            self.say(f"Could not write {target}: {error.strerror or error}", error=True)
            return
        self.say(f"Exported the deck list to {target}")
