"""Per-game screen parts, looked up by game id."""

from __future__ import annotations

from tui.games.base import GameUI

_GAME_UIS: dict[str, GameUI] = {}


def register_ui(game_id: str, ui: GameUI) -> None:
    """Make ``ui`` the screen parts for ``game_id``."""
    _GAME_UIS[game_id] = ui


def game_ui(game_id: str) -> GameUI:
    """The screen parts for ``game_id``; imports the bundled games on first use."""
    if not _GAME_UIS:
        from tui.games import wizards_cup  # noqa: F401  (registers itself)
    return _GAME_UIS[game_id]
