"""Command palette (ctrl+p) entries for the keys of the screen in front.

The app's own palette entries (:mod:`tui.commands`) are the same on every
screen. A screen adds its own by naming :class:`ScreenCommands` in its
``COMMANDS`` and listing the actions in ``PALETTE_ACTIONS``; each entry is
offered only while the screen's ``check_action`` lets its key work (an undo
that the rules refuse now is left out), and choosing it does what the key does.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from tui.commands import Command, ListedCommands

PaletteAction = tuple[str, str, str]
"""A screen's palette entry: (action, name, help)."""


class ScreenCommands(ListedCommands):
    """The calling screen's ``PALETTE_ACTIONS`` that its keys answer now."""

    def _commands(self) -> Iterator[Command]:
        screen = self.screen
        entries: tuple[PaletteAction, ...] = getattr(screen, "PALETTE_ACTIONS", ())
        for action, name, help_text in entries:
            if screen.check_action(action, ()) is True:
                yield name, help_text, partial(screen.run_action, action)
