"""Per-game screen parts, looked up by game id."""

from __future__ import annotations

from engine import GameSpec, all_games
from tui.games.base import GameUI

_GAME_UIS: dict[str, GameUI] = {}


def register_ui(game_id: str, ui: GameUI) -> None:
    """Make ``ui`` the screen parts for ``game_id``."""
    _GAME_UIS[game_id] = ui


def _load_bundled() -> None:
    if not _GAME_UIS:
        from tui.games import witchdraft, wizards_cup, wizbits

        register_ui(wizards_cup.GAME_ID, wizards_cup.WizardsCupUI())
        register_ui(witchdraft.GAME_ID, witchdraft.WitchDraftUI())
        register_ui(wizbits.GAME_ID, wizbits.WizbitsUI())


def game_ui(game_id: str) -> GameUI:
    """The screen parts for ``game_id``; imports the bundled games on first use."""
    _load_bundled()
    return _GAME_UIS[game_id]


def has_ui(game_id: str) -> bool:
    """Whether the app can show ``game_id`` (its engine may exist before its screens)."""
    _load_bundled()
    return game_id in _GAME_UIS


def playable_games() -> list[GameSpec]:
    """Registered games that also have screens, in registration order."""
    return [spec for spec in all_games() if has_ui(spec.game_id)]
