"""Command palette (ctrl+p) entries for the keys of the screen in front.

The app's own palette entries (:mod:`tui.commands`) are the same on every
screen. A screen adds its own by naming :class:`ScreenCommands` in its
``COMMANDS`` and listing the actions in ``PALETTE_ACTIONS``; each entry is
offered only while the screen's ``check_action`` lets its key work (an undo
that the rules refuse now is left out), and choosing it does what the key does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

PaletteAction = tuple[str, str, str]
"""A screen's palette entry: (action, name, help)."""


class ScreenCommands(Provider):
    """The calling screen's ``PALETTE_ACTIONS`` that its keys answer now."""

    def _commands(self) -> Iterator[tuple[str, str, Callable[[], object]]]:
        screen = self.screen
        entries: tuple[PaletteAction, ...] = getattr(screen, "PALETTE_ACTIONS", ())
        for action, name, help_text in entries:
            if screen.check_action(action, ()) is True:
                yield name, help_text, partial(screen.run_action, action)

    async def discover(self) -> Hits:
        """Show every entry the screen offers now when nothing has been typed yet."""
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        """Entries whose names fuzzily match ``query``."""
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
