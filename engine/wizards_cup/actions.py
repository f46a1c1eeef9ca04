"""Wizards Cup actions: small immutable values with a JSON form.

``parse_action`` and ``action_to_json`` are inverses, in the spirit of
python-chess's ``Move.from_uci``/``Move.uci`` pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import MalformedActionError


@dataclass(frozen=True)
class ChooseTeam:
    """Pick the 5 wizards that join the displayed card in the team."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class SetLineup:
    """Order 5 of the 6 team wizards; the one left out is the Waiting Card."""

    order: tuple[str, ...]


@dataclass(frozen=True)
class PlayDuel:
    """The table's automatic step: reveal wizards and resolve one duel."""


@dataclass(frozen=True)
class Swap:
    """Between rounds, trade one team wizard for one unused wizard."""

    out: str
    take: str


@dataclass(frozen=True)
class KeepTeam:
    """Between rounds, keep the team as it is."""


Action = ChooseTeam | SetLineup | PlayDuel | Swap | KeepTeam


def _card_list(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise MalformedActionError(f"{key!r} must be a list of card ids")
    return tuple(value)


def _card(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise MalformedActionError(f"{key!r} must be a card id")
    return value


def parse_action(data: object) -> Action:
    """Build an action from its JSON form.

    Raises:
        MalformedActionError: ``data`` is not a Wizards Cup action.
    """
    if not isinstance(data, dict):
        raise MalformedActionError("an action must be a JSON object")
    kind = data.get("type")
    expected = {"team": {"type", "cards"}, "lineup": {"type", "order"}, "duel": {"type"},
                "swap": {"type", "out", "in"}, "keep": {"type"}}
    if kind not in expected:
        raise MalformedActionError(f"unknown action type {kind!r}")
    extra = sorted(set(data) - expected[kind])
    if extra:
        raise MalformedActionError(f"unexpected field {extra[0]!r} in a {kind!r} action")
    if kind == "team":
        return ChooseTeam(_card_list(data, "cards"))
    if kind == "lineup":
        return SetLineup(_card_list(data, "order"))
    if kind == "duel":
        return PlayDuel()
    if kind == "swap":
        return Swap(_card(data, "out"), _card(data, "in"))
    return KeepTeam()


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form of ``action``."""
    if isinstance(action, ChooseTeam):
        return {"type": "team", "cards": list(action.cards)}
    if isinstance(action, SetLineup):
        return {"type": "lineup", "order": list(action.order)}
    if isinstance(action, PlayDuel):
        return {"type": "duel"}
    if isinstance(action, Swap):
        return {"type": "swap", "out": action.out, "in": action.take}
    return {"type": "keep"}
