"""WitchDraft's two actions, in the rulebook's order: pick a card, then place it.

Everyone picks in secret at the same time (:class:`Pick`). When all have
picked, the picks are revealed and each apprentice places and turns their own
card (:class:`Place`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import MalformedActionError
from engine.witchdraft.geometry import ROTATIONS, Placement


@dataclass(frozen=True)
class Pick:
    """Take ``card`` from your hand, in secret until everyone has picked."""

    card: str


@dataclass(frozen=True)
class Place:
    """Put your revealed pick into your play area at ``placement``."""

    placement: Placement


WitchDraftAction = Pick | Place
"""Any WitchDraft action."""


def _check_fields(data: dict[str, Any], kind: str, allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed)
    if not extra:
        return
    if kind == "pick" and set(extra) & {"x", "y", "rotation"}:
        # Logs from before the pick and the placing were split carry both in one action.
        raise MalformedActionError(
            "this pick also says where the card goes, as WitchDraft saves from an older Coven did; "
            "picks and placements are now separate steps, so that game cannot be replayed")
    raise MalformedActionError(f"unexpected field {extra[0]!r} in a {kind}")


def parse_action(data: object) -> WitchDraftAction:
    """Build a :class:`Pick` or :class:`Place` from its JSON form.

    Raises:
        MalformedActionError: ``data`` is not a WitchDraft action.
    """
    if not isinstance(data, dict):
        raise MalformedActionError("an action must be a JSON object")
    kind = data.get("type")
    if kind == "pick":
        _check_fields(data, "pick", {"type", "card"})
        card = data.get("card")
        if not isinstance(card, str):
            raise MalformedActionError("'card' must be a card id")
        return Pick(card)
    if kind != "place":
        raise MalformedActionError(f"unknown action type {kind!r}")
    _check_fields(data, "place", {"type", "x", "y", "rotation"})
    numbers: list[int] = []
    for key in ("x", "y", "rotation"):
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise MalformedActionError("'x', 'y' and 'rotation' must be whole numbers")
        numbers.append(value)
    x, y, rotation = numbers
    if rotation not in ROTATIONS:
        raise MalformedActionError("'rotation' must be 0, 90, 180 or 270")
    return Place(Placement(x, y, rotation))


def action_to_json(action: WitchDraftAction) -> dict[str, Any]:
    """The JSON form of ``action``."""
    if isinstance(action, Pick):
        return {"type": "pick", "card": action.card}
    p = action.placement
    return {"type": "place", "x": p.x, "y": p.y, "rotation": p.rotation}
