"""What the menu knows of each game before any of its rules or bots are imported.

A game is announced by a :class:`GameEntry` (id, title, seats, summary, rules
document and the module that registers its full spec). Drawing the menu
needs only entries; :func:`engine.core.registry.get_game` imports a game's
module the first time someone asks for its rules. That keeps start-up free
of every engine's rules and bots.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

__all__ = ["GameEntry", "announce", "entry_for", "game_entries", "load_entry"]


@dataclass(frozen=True)
class GameEntry:
    """A game as a menu lists it.

    Attributes:
        game_id: Stable id used in saves, e.g. ``"wizards-cup"``.
        title: Display name.
        seat_counts: Allowed numbers of seats.
        summary: One line for menus.
        rules_doc: File name of the rules document under ``docs/rules``.
        module: The module whose import registers the game's full spec.
    """

    game_id: str
    title: str
    seat_counts: tuple[int, ...]
    summary: str = ""
    rules_doc: str = ""
    module: str = ""


_ENTRIES: dict[str, GameEntry] = {}


def announce(entry: GameEntry) -> GameEntry:
    """List ``entry`` among the games, in announcement order; its module is imported on first use."""
    _ENTRIES[entry.game_id] = entry
    return entry


def game_entries() -> list[GameEntry]:
    """Every announced game, in announcement order, without importing any of them."""
    return list(_ENTRIES.values())


def entry_for(game_id: object) -> GameEntry | None:
    """The announced entry of ``game_id``, or None (also for an id that is not text)."""
    return _ENTRIES.get(game_id) if isinstance(game_id, str) else None


def load_entry(entry: GameEntry) -> None:
    """Import the module that registers ``entry``'s full spec (a no-op once imported)."""
    if entry.module:
        importlib.import_module(entry.module)
