"""What the new-game form remembers: the last game, and per game its seats, names, kinds and options.

Kept per account under one preference (:mod:`saves.preferences`), written
when a game starts. What is read back is hostile, whoever wrote it: a game
that is not playable, a seat count the game does not allow, a name the one
text rule refuses (:func:`engine.core.text.check_name`), a kind or option
value the form does not offer now (a saved deck since deleted) are each
dropped, and the form's own default takes their place.

An option is remembered by its value when that is one of the option's own
choices, else by the label it was offered under: a saved deck's value is its
whole deck list, which may have changed since, so it is found again by name.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import GameSpec
from engine.core.text import UnsafeTextError, check_name
from saves import SessionStore, StoreError
from saves.preferences import get_preference, set_preference
from saves.records import MAX_NAME_LENGTH

KEY = "new-game"
"""The preference that holds the form's memory."""

MAX_GAMES = 16
"""At most this many games' settings are kept (the last started first)."""


@dataclass(frozen=True)
class Recalled:
    """One game's remembered settings, each part already checked; None where nothing usable was kept."""

    seats: int | None = None
    rows: tuple[tuple[str | None, str | None], ...] = ()
    """(name, kind) per seat, in seat order."""
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per option: {"value": v} or {"label": text}."""


def read_memory(store: SessionStore | None, account: str | None) -> dict[str, Any]:
    """The stored memory as a dict ({} when there is none, or it is not a dict)."""
    if store is None:
        return {}
    value = get_preference(store, account, KEY)
    return value if isinstance(value, dict) else {}


def last_game(memory: dict[str, Any], playable: Collection[str]) -> str | None:
    """The game started last, if it is still playable here."""
    game = memory.get("game")
    return game if isinstance(game, str) and game in playable else None


def _name(value: object) -> str | None:
    try:
        return check_name(value, max_length=MAX_NAME_LENGTH)
    except UnsafeTextError:
        return None


def recall(memory: dict[str, Any], spec: GameSpec, kinds: Collection[str]) -> Recalled | None:
    """``spec``'s remembered settings, each checked against what the form offers now; None if none."""
    games = memory.get("games")
    entry = games.get(spec.game_id) if isinstance(games, dict) else None
    if not isinstance(entry, dict):
        return None
    seats = entry.get("seats")
    count = seats if isinstance(seats, int) and not isinstance(seats, bool) and seats in spec.seat_counts else None
    rows: list[tuple[str | None, str | None]] = []
    stored_rows = entry.get("rows")
    if isinstance(stored_rows, list):
        for row in stored_rows[: max(spec.seat_counts)]:
            name = kind = None
            if isinstance(row, list) and len(row) == 2:
                name = _name(row[0])
                kind = row[1] if isinstance(row[1], str) and row[1] in kinds else None
            rows.append((name, kind))
    options: dict[str, dict[str, Any]] = {}
    stored_options = entry.get("options")
    if isinstance(stored_options, dict):
        known = {option.name for option in spec.options}
        for name, marker in stored_options.items():
            if name in known and isinstance(marker, dict) and len(marker) == 1 and (
                    "value" in marker or isinstance(marker.get("label"), str)):
                options[name] = marker
    return Recalled(count, tuple(rows), options)


MISSING = object()
"""What :func:`pick` returns when the remembered choice is not offered now."""


def pick(marker: dict[str, Any] | None, choices: Sequence[tuple[str, Any]]) -> Any:
    """The value among ``choices`` (label, value) that ``marker`` remembers, or :data:`MISSING`."""
    if marker is None:
        return MISSING
    if "value" in marker:
        wanted = marker["value"]
        for _, value in choices:
            if value == wanted and type(value) is type(wanted):
                return value
        return MISSING
    for label, value in choices:
        if label == marker.get("label"):
            return value
    return MISSING


def marker_for(value: Any, own_choices: Collection[Any], choices: Sequence[tuple[str, Any]]) -> dict[str, Any] | None:
    """How to remember ``value``: itself when it is one of the option's own choices, else its label."""
    if value in own_choices:
        return {"value": value}
    for label, offered in choices:
        if offered == value:
            return {"label": label}
    return None


def remember(store: SessionStore | None, account: str | None, memory: dict[str, Any], game_id: str,
             rows: Sequence[tuple[str, str]], options: dict[str, dict[str, Any]]) -> None:
    """Store ``game_id`` as the last game with these settings; a store that cannot take them is left as it was."""
    if store is None:
        return
    games = memory.get("games")
    games = games if isinstance(games, dict) else {}
    # Stored JSON sorts its keys, so the order of use is kept apart, newest first; the oldest go first.
    recent = memory.get("recent")
    older = [game for game in recent if isinstance(game, str) and game != game_id and game in games] \
        if isinstance(recent, list) else []
    older = list(dict.fromkeys(older))[: MAX_GAMES - 1]
    entry = {"seats": len(rows), "rows": [[name, kind] for name, kind in rows], "options": options}
    kept = {game_id: entry, **{game: games[game] for game in older}}
    try:
        set_preference(store, account, KEY, {"game": game_id, "recent": [game_id, *older], "games": kept})
    except (StoreError, ValueError):
        pass  # remembering is a courtesy: the game has started, and the form's defaults still work
