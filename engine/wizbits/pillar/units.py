"""The pieces a Pillar is made of: unit kinds, units, errors and the Reverse Pillar order.

Kept apart from :mod:`engine.wizbits.pillar.tree` so the structure module stays
about building and resolving.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

JsonDict = dict[str, Any]
BaseKind = Literal["turn", "damage"]
Format = Literal["constructed", "limited"]

BASE_KINDS: tuple[BaseKind, ...] = ("turn", "damage")
FORMATS: tuple[Format, ...] = ("constructed", "limited")
BASE_UID = 0
"""The base foundation's uid; units count up from 1."""
MAIN = 0
"""The branch id of the main pillar; subpillars are numbered from 1."""
CONTINUE_HEIGHT = -1


class UnitKind(Enum):
    """What a unit on the pillar is; the value is what JSON stores."""

    CARD = "card"
    ABILITY = "ability"
    TRIGGER = "trigger"
    DAMAGE = "damage"
    CONTINUE = "continue"


class PillarError(ValueError):
    """A pillar operation was refused, or pillar data is not valid."""


class IllegalFoundationError(PillarError):
    """A unit was played on something that is not a legal foundation now."""


class MalformedPillarError(PillarError):
    """Pillar JSON does not describe a pillar this module could have built."""


class InvalidPayloadError(PillarError):
    """A unit's payload is not a JSON object."""


@dataclass(frozen=True)
class Unit:
    """One unit on the pillar.

    Attributes:
        uid: unique within the pillar; the base foundation is 0.
        kind: card, ability, trigger, damage or continue.
        owner: the seat that played it.
        name: what texts call it.
        height: distance above the base (Continue units sit at -1).
        iph: Individual Pillar Height, counted within its own pillar or subpillar.
        branch: 0 for the main pillar, k >= 1 for subpillar k.
        foundation: uid of the unit it was built on.
        order: its place in play order; it equals ``uid``, and sort keys use it
            so they say what they mean.
        payload: the rules engine's data (card id, ability index, targets...).
            A private copy: treat it as read-only.
    """

    uid: int
    kind: UnitKind
    owner: int
    name: str
    height: int
    iph: int
    branch: int
    foundation: int
    order: int
    payload: JsonDict = field(hash=False)

    @property
    def precedence(self) -> tuple[int, int]:
        """Sort key for conflicts at one height: greater IPH wins, then the later play."""
        return (self.iph, self.order)


def plain_payload(payload: object) -> JsonDict:
    """A private copy of ``payload`` in plain JSON types, so callers can't change a unit later.

    Tuples become lists, as JSON would make them.

    Raises:
        InvalidPayloadError: it is not a dict of JSON values (str keys, finite numbers).
    """
    if not isinstance(payload, dict):
        raise InvalidPayloadError(f"a unit payload must be a JSON object, not {type(payload).__name__}")
    copied: JsonDict = _plain(payload)
    return copied


def _plain(value: object) -> Any:
    # Hand-written because it runs on every play and is a third cheaper than
    # a json.dumps/loads round trip; it also refuses int keys instead of renaming them.
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidPayloadError(f"payload numbers must be finite, not {value}")
        return float(value)
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise InvalidPayloadError("payload object keys must be strings")
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    raise InvalidPayloadError(f"payloads hold only JSON values, not {type(value).__name__}")


def reverse_pillar_order(abilities: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """The order a unit's Income abilities resolve in on its Reverse Pillar.

    Args:
        abilities: ``(printed index, speed rank)`` pairs; a greater rank is faster.

    Returns:
        The indices, fastest first; equal speeds keep printed order.

    Raises:
        ValueError: an index appears twice.
    """
    pairs = list(abilities)
    indices = [index for index, _ in pairs]
    if len(set(indices)) != len(indices):
        raise ValueError(f"ability indices must be distinct: {indices}")
    return tuple(index for index, _ in sorted(pairs, key=lambda pair: (-pair[1], pair[0])))
