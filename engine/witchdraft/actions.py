"""WitchDraft's one action: pick a card from your hand and say where it goes.

The rulebook has everyone pick in secret, reveal, then place. Where a card
goes depends only on your own play area, never on what others picked, so
choosing the spot as part of the secret pick is the same game with half the
hand-offs (ruling recorded in docs/rules/witchdraft.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import MalformedActionError
from engine.witchdraft.geometry import ROTATIONS, Placement


@dataclass(frozen=True)
class Pick:
    """Take ``card`` from your hand and place it at ``placement``."""

    card: str
    placement: Placement


def parse_action(data: object) -> Pick:
    """Build a :class:`Pick` from its JSON form.

    Raises:
        MalformedActionError: ``data`` is not a WitchDraft action.
    """
    if not isinstance(data, dict):
        raise MalformedActionError("an action must be a JSON object")
    if data.get("type") != "pick":
        raise MalformedActionError(f"unknown action type {data.get('type')!r}")
    extra = sorted(set(data) - {"type", "card", "x", "y", "rotation"})
    if extra:
        raise MalformedActionError(f"unexpected field {extra[0]!r} in a pick")
    card = data.get("card")
    if not isinstance(card, str):
        raise MalformedActionError("'card' must be a card id")
    numbers: list[int] = []
    for key in ("x", "y", "rotation"):
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise MalformedActionError("'x', 'y' and 'rotation' must be whole numbers")
        numbers.append(value)
    x, y, rotation = numbers
    if rotation not in ROTATIONS:
        raise MalformedActionError("'rotation' must be 0, 90, 180 or 270")
    return Pick(card, Placement(x, y, rotation))


def action_to_json(action: Pick) -> dict[str, Any]:
    """The JSON form of ``action``."""
    p = action.placement
    return {"type": "pick", "card": action.card, "x": p.x, "y": p.y, "rotation": p.rotation}
