"""The save banner: one line that stays up, with the reason, while saving keeps failing.

A failing save is told once, here, rather than by a notification per
attempt; the banner goes away when a save works again.
"""

from __future__ import annotations

from rich.markup import escape
from textual.widgets import Static

from tui.widgets.styles import load_css


class SaveBanner(Static):
    """Hidden until :meth:`show_failure`; hidden again by :meth:`clear`."""

    DEFAULT_CSS = load_css(__file__)

    def __init__(self, *, id: str | None = "save-banner") -> None:  # noqa: A002 - Textual's name
        """An empty, hidden banner."""
        super().__init__("", id=id)
        self.reason: str | None = None

    @property
    def failing(self) -> bool:
        """True while the banner is up."""
        return self.reason is not None

    def show_failure(self, reason: str, retry_in: float) -> None:
        """Put the banner up (or update it): saving fails because of ``reason``; the next try is in ``retry_in`` s."""
        self.reason = reason
        # The footer offers r (retry now) beside it.
        self.update(f"Saving is failing: {escape(reason)}; retrying in {retry_in:g} s")
        self.add_class("-failing")

    def clear(self) -> None:
        """Take the banner down."""
        self.reason = None
        self.update("")
        self.remove_class("-failing")
