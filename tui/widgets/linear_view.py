"""The linear rendering's pane: a game's table as lines of words, for the "Linear mode" setting.

Screens that draw art (the duel zone, the potion grid, the Pillar) read badly
aloud; with the setting on, the game screen shows this pane in the log's place
with the same table as sentences (from the game's ``GameUI.linear_text``). It
can take the focus (tab), so a screen reader can move through it line by line.
Out of view it is disabled, so the screen's first focus never lands in it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.safe_text import plain

LINEAR_CSS = """
LinearView { height: 8; border-top: solid $accent; border-title-color: $accent; padding: 0 1; }
LinearView:focus { border-top: thick $accent; background: $boost; }
LinearView.-off { display: none; }
"""


class LinearView(VerticalScroll):
    """The table as lines of words (plain text, never markup: names come from players)."""

    DEFAULT_CSS = LINEAR_CSS

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-off")
        self.disabled = True
        self.border_title = "Table in words"
        self.text = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="linear-text")

    def show_text(self, text: str | None) -> None:
        """Show ``text`` (None or empty: hide the pane)."""
        self.text = text or ""
        shown = bool(self.text)
        self.set_class(not shown, "-off")
        self.disabled = not shown
        if shown:
            self.query_one("#linear-text", Static).update(plain(self.text))
