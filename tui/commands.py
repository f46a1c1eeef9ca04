"""Command palette (ctrl+p) entries for Coven's main commands."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.games import playable_games

if TYPE_CHECKING:
    from tui.app import CovenApp

Command = tuple[str, str, Callable[[], object]]
"""A palette entry: (name, help, callback)."""


class CovenCommands(Provider):
    """New game, continue, sessions, decks, rules for each game, and quit."""

    def _commands(self) -> list[Command]:
        """Every command this provider offers, in display order."""
        app = cast("CovenApp", self.app)
        # These leave the screens open now, so a screen with unsaved work (the deck editor) asks first.
        leave = app.leave_then
        commands: list[Command] = [
            ("New game", "Set up and start a new game", partial(leave, app.action_new_game)),
            ("Continue", "Resume the most recent unfinished game", partial(leave, app.action_continue)),
            ("Sessions", "Saved sessions: resume, replay, export, delete", partial(leave, app.action_sessions)),
            ("Decks", "Build, check, save, import and export Wizbits decks", partial(leave, app.action_decks)),
        ]
        for spec in playable_games():
            commands.append(
                (f"Rules: {spec.title}", f"Read how to play {spec.title}", partial(app.action_rules, spec.game_id))
            )
        commands.append(("Quit Coven", "Leave Coven (games are already saved)", app.request_quit))
        return commands

    async def discover(self) -> Hits:
        """Show every command when nothing has been typed yet."""
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        """Commands whose names fuzzily match ``query``."""
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
