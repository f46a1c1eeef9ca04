"""Command palette (ctrl+p) entries for Coven's main commands."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.message import Message

from tui.games import playable_games
from tui.navigation import OpenPlace, QuitCoven, ShowRules

Command = tuple[str, str, Callable[[], object]]
"""A palette entry: (name, help, callback)."""


class ListedCommands(Provider):
    """A provider of a list of entries: all of them before anything is typed, else those whose names match."""

    def _commands(self) -> Iterable[Command]:
        """Every entry offered now, in display order."""
        raise NotImplementedError

    async def discover(self) -> Hits:
        """Show every entry when nothing has been typed yet."""
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        """Entries whose names fuzzily match ``query``."""
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)


class CovenCommands(ListedCommands):
    """New game, continue, sessions, decks, rules for each game, and quit."""

    def _commands(self) -> list[Command]:
        """Every command this provider offers, in display order."""
        # The places leave the screens open now, so a screen with unsaved work (the deck editor) asks first.
        commands: list[Command] = [
            ("New game", "Set up and start a new game", self._posting(lambda: OpenPlace("new_game"))),
            ("Continue", "Resume the most recent unfinished game", self._posting(lambda: OpenPlace("continue"))),
            ("Sessions", "Saved sessions: resume, replay, export, delete",
             self._posting(lambda: OpenPlace("sessions"))),
            ("Decks", "Build, check, save, import and export Wizbits decks",
             self._posting(lambda: OpenPlace("decks"))),
            ("Learn", "A guided first game of each game, resumed where you left it",
             self._posting(lambda: OpenPlace("learn"))),
            ("Settings", "Theme, colour, motion, notifications and what New game offers",
             self._posting(lambda: OpenPlace("settings"))),
        ]
        commands.append(("Find a card", "Look up any card by name and read its whole text (ctrl+f)",
                         lambda: self.app.call_later(self.app.run_action, "find_card")))
        for spec in playable_games():
            commands.append((f"Rules: {spec.title}", f"Read how to play {spec.title}",
                             self._posting(partial(ShowRules, spec.game_id))))
        commands.append(("Quit Coven", "Leave Coven (games are already saved)", self._posting(QuitCoven)))
        return commands

    def _posting(self, make: Callable[[], Message]) -> Callable[[], object]:
        """A callback posting a fresh ``make()`` to the app each time (a message is posted only once)."""
        return lambda: self.app.post_message(make())
