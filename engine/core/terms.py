"""The contract's plain words: seats, the table, events and results.

They sit below :mod:`engine.core.contract` and :mod:`engine.core.undo`, which
both use them, so the contract can replay through the undo rule without the
two importing each other. :mod:`engine.core.contract` re-exports every name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Seat = int
"""A seat is its index at the table, from 0."""

TABLE: None = None
"""The seat of automatic steps (a duel playing out, a chance draw).

Like OpenSpiel's chance player, the table is an explicit actor: its steps are
logged like anyone's, so a replay can stop between them.
"""

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class Event:
    """Something that happened, with a sentence a person can read.

    Attributes:
        kind: A short machine tag such as ``"duel"`` or ``"round_end"``.
        text: The human sentence shown in logs.
        data: Structured details for animations and tests (JSON values only).
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JsonDict:
        """Return the event as plain JSON values."""
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    Attributes:
        winners: Winning seats; empty for a draw.
        reason: A sentence explaining the outcome.
    """

    winners: tuple[Seat, ...]
    reason: str = ""

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return not self.winners
