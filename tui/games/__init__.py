"""Per-game screen parts, looked up by game id and imported on first use."""

from __future__ import annotations

import importlib
from typing import Any

from engine import GameEntry, game_entries
from engine.core.registry import registered_specs
from tui.games.base import GameUI

_BUNDLED: dict[str, str] = {
    "wizards-cup": "tui.games.wizards_cup.table:WizardsCupUI",
    "witchdraft": "tui.games.witchdraft.table:WitchDraftUI",
    "wizbits": "tui.games.wizbits.table:WizbitsUI",
}
"""Where each bundled game's UI class lives, as ``module:Class``."""

_GAME_UIS: dict[str, GameUI[Any] | str] = dict(_BUNDLED)
"""Each game's UI, or where to import it from until it is first used."""


def register_ui(game_id: str, ui: GameUI[Any]) -> None:
    """Make ``ui`` the screen parts for ``game_id``."""
    _GAME_UIS[game_id] = ui


def game_ui(game_id: str) -> GameUI[Any]:
    """The screen parts for ``game_id``; imports that game's screens (and engine) on first use."""
    found = _GAME_UIS[game_id]
    if isinstance(found, str):
        module, _, name = found.partition(":")
        found = getattr(importlib.import_module(module), name)()
        assert isinstance(found, GameUI)
        _GAME_UIS[game_id] = found
    return found


def has_ui(game_id: str) -> bool:
    """Whether the app can show ``game_id`` (its engine may exist before its screens)."""
    return game_id in _GAME_UIS


def playable_games() -> list[GameEntry]:
    """Games that have screens, in menu order, without importing any of them."""
    entries = game_entries()
    announced = {entry.game_id for entry in entries}
    # Games registered without an announcement (a test's fake game) follow the bundled ones.
    entries += [spec.entry for spec in registered_specs() if spec.game_id not in announced]
    return [entry for entry in entries if has_ui(entry.game_id)]
