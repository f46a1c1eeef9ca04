"""What every ``coven`` command shares: the usage error, the one-line failure and the game lookup."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from engine import GameSpec, game_entries, get_game
from engine.core import UnknownGameError
from engine.core.registry import registered_specs
from engine.core.text import shown_text

if TYPE_CHECKING:
    from saves import SessionStore

EXIT_ERROR = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """A mistake in what was typed, such as an unknown game (exit code 2)."""


def fail(message: str) -> None:
    """Print ``message`` on stderr as one ``coven:`` line that can hold no terminal control."""
    text = " ".join(shown_text(message).split())  # one line, whatever the message held, never a terminal control
    print(f"coven: {text}", file=sys.stderr)


def tell_store_notices(store: SessionStore) -> None:
    """Print what opening ``store`` found to tell, on stderr: its folder made private, then any warning."""
    if store.folder_notice is not None and not store.folder_notice.exposed:
        fail(store.folder_notice.text)  # an exposed folder's sentence is in store.notice: said once
    if store.notice:
        fail(store.notice)


def game_spec(game_id: str) -> GameSpec:
    """The registered game ``game_id``.

    Raises:
        UsageError: no such game; the message lists the known ones.
    """
    try:
        return get_game(game_id)
    except UnknownGameError:
        known = ", ".join(known_game_ids()) or "none"
        raise UsageError(f"Unknown game {game_id!r}. Known games: {known}.") from None


def known_game_ids() -> list[str]:
    """Every game id, announced ones first, without importing any game."""
    announced = [entry.game_id for entry in game_entries()]
    return announced + [spec.game_id for spec in registered_specs() if spec.game_id not in announced]


def whole_number(text: str, option: str, least: int | None = None) -> int:
    """``text`` as typed for ``option``, a whole number of at least ``least``.

    Raises:
        UsageError: not a whole number, or too small.
    """
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{option} takes a whole number, not {text!r}.") from None
    if least is not None and value < least:
        raise UsageError(f"{option} must be at least {least}.")
    return value
