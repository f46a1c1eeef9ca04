"""The Pillar Lab's "What happened" log: a RichLog that wraps its lines again when its width changes.

A plain RichLog wraps each line once, at the width it had when written, so a
log filled in a wide terminal shows cut lines after the terminal is made
narrower. This one keeps what it was given and writes it all again on a
change of width.
"""

from __future__ import annotations

from rich.text import Text
from textual import events

from tui.widgets.lean_log import LeanLog


class EventLog(LeanLog):
    """A wrapping log of texts that re-wraps everything when its width changes."""

    def __init__(self, *, max_lines: int = 1000, id: str | None = None) -> None:  # noqa: A002 (Textual's name)
        """A log keeping at most ``max_lines`` texts."""
        super().__init__(id=id, wrap=True, markup=False, max_lines=max_lines, min_width=20)
        self.entries: list[Text] = []
        """Everything written since the last clear, oldest first (at most ``max_lines``)."""
        self._wrapped_at = 0

    def add(self, text: Text) -> None:
        """Write ``text`` (wrapped to the log's width) and keep it for re-wrapping."""
        self.entries.append(text)
        if self.max_lines is not None and len(self.entries) > self.max_lines:
            del self.entries[: len(self.entries) - self.max_lines]
        self.write(text)

    def forget(self) -> None:
        """Clear the log and what it keeps."""
        self.entries.clear()
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every kept text again when the width changed since they were last wrapped."""
        width = event.size.width
        if width == self._wrapped_at:
            return
        first_wrap = self._wrapped_at == 0  # the first size: RichLog writes what waited for it by itself
        self._wrapped_at = width
        if first_wrap:
            return
        self.clear()
        for text in self.entries:
            self.write(text)
