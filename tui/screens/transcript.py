"""The transcript screen: a game's narration as plain sentences, to read line by line and to save.

The text sits in a read-only text area whose cursor starts on the latest
line, so a screen reader or braille display reads it line by line as the
arrows move (the terminal cursor follows, see :mod:`tui.focus_cursor`).
``s`` saves it as a text file under the rule of :mod:`tui.user_paths`; only a
regular file is written, never a pipe or device, and over SSH nothing is.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static, TextArea

from engine.core.textfile import TextFileError, TextFileExistsError, write_text_file
from tui.safe_text import plain
from tui.served import refuses_files
from tui.user_paths import user_path
from tui.widgets.fitting_footer import FittingFooter

TRANSCRIPT_CSS = """
TranscriptScreen { layout: vertical; }
#transcript-title { height: 1; padding: 0 1; text-style: bold; }
#transcript-text { height: 1fr; border: none; padding: 0 1; }
"""


class TranscriptScreen(Screen[None]):
    """Everything that happened at the table so far, as sentences in order."""

    HELP_TITLE = "Transcript"
    HELP = ("What has happened in this game, one sentence a line, oldest first, with whose turn it was: no "
            "drawings, so a screen reader reads it in order. The cursor starts on the latest line; the arrows, "
            "page keys, home and end move through it. s saves it as a text file.")
    DEFAULT_CSS = TRANSCRIPT_CSS
    BINDINGS = [
        Binding("s", "save", "Save to a file", priority=True),
        Binding("escape,q", "close", "Back", priority=True),
    ]

    def __init__(self, title: str, text: str, file_name: str) -> None:
        """Show ``text`` (the transcript, without a title) under ``title``; ``file_name`` is offered when saving.

        The title is shown once, above the text; a saved file starts with it.
        """
        super().__init__()
        self.heading = title
        self.text = text
        self.file_name = file_name

    def compose(self) -> ComposeResult:
        """The title, the text and the keys."""
        yield Static(plain(self.heading), id="transcript-title")
        yield TextArea(self.text, read_only=True, soft_wrap=True, show_line_numbers=False, id="transcript-text")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Focus the text with its cursor on the latest line."""
        area = self.query_one(TextArea)
        area.focus()
        last = max(area.document.line_count - 2, 0)  # the text ends with a line feed: its last line is empty
        area.move_cursor((last, 0), center=True)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)

    def action_save(self) -> None:
        """Ask where to save the transcript, then write it (never over SSH, never into a pipe or device)."""
        if refuses_files(self.app):
            return
        from tui.widgets.confirm import PromptScreen

        def chosen(typed: str | None) -> None:
            if typed and typed.strip():
                self.save_to(user_path(typed), overwrite=False)

        default = str(Path.home() / self.file_name)
        self.app.push_screen(PromptScreen("Save the transcript to file:", default, ok_label="Save"), chosen)

    def save_to(self, target: Path, overwrite: bool) -> None:
        """Write the transcript to ``target``; ask before replacing a file; say what happened."""
        from tui.widgets.confirm import ConfirmScreen

        try:
            written = write_text_file(target, f"{self.heading}\n\n{self.text}", overwrite=overwrite)
        except TextFileExistsError:

            def answered(yes: bool | None) -> None:
                if yes:
                    self.save_to(target, overwrite=True)
                else:
                    self.notify(f"{target} was left as it was.", title="Not saved", timeout=5)

            question = f"Replace {target}?\nA file with that name already exists."
            self.app.push_screen(ConfirmScreen(question, yes_label="Replace", no_label="Cancel"), answered)
            return
        except (TextFileError, OSError) as error:
            self.notify(str(error), title="Transcript not saved", severity="error", timeout=10)
            return
        self.notify(f"Saved the transcript to {written}", title="Saved", timeout=8)
