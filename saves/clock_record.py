"""A live table's clock as stored in the ``tables.clock`` column: the rules' clock and the seats it handed to bots.

Apart from :mod:`saves.table_clock` (which changes clocks inside the store's transactions) so that reading a
table's row (:mod:`saves.table_rows`, which the store itself uses) needs nothing of the tables' own modules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal, cast

from engine.core.clock import Fischer, TableClock

MAX_CLOCK_TEXT = 200_000
"""A stored clock longer than this is damage, not a game's move times."""

PersonRole = Literal["remote", "local"]
"""The role a seat had before its time ran out: a person's, never a bot's."""


@dataclass(frozen=True)
class TimedOut:
    """Who played a seat before its time ran out: its role and presence claim (the one who may take it back)."""

    role: PersonRole
    claim: str | None


@dataclass
class StoredClock:
    """A table's clock and the seats its time-outs handed to bots."""

    clock: TableClock
    out: dict[int, TimedOut] = field(default_factory=dict)

    def to_text(self) -> str:
        """The JSON stored in ``tables.clock``."""
        data = self.clock.to_json()
        data["out"] = {str(seat): {"role": gone.role, "claim": gone.claim} for seat, gone in sorted(self.out.items())}
        return json.dumps(data, sort_keys=True)


def new_clock_text(fischer: Fischer, now: float) -> str:
    """A fresh clock for a new table: nobody asked yet, nothing charged before ``now``."""
    return StoredClock(TableClock(fischer, since=now)).to_text()


def parse_clock(text: object, seats: int) -> StoredClock | None:
    """A table's stored clock (None: no clock), checked field by field: the database is outside Coven's hands.

    Raises:
        ValueError: the stored clock is not readable.
    """
    if text is None:
        return None
    try:
        if not isinstance(text, str) or len(text) > MAX_CLOCK_TEXT:
            raise ValueError("not text")
        data = json.loads(text)
        clock = TableClock.from_json(data, seats)
        out: dict[int, TimedOut] = {}
        for key, gone in dict(data.get("out", {})).items():
            seat = int(key)
            if not 0 <= seat < seats or not isinstance(gone, dict) or gone.get("role") not in ("remote", "local"):
                raise ValueError("bad seat")
            claim = gone.get("claim")
            out[seat] = TimedOut(cast(PersonRole, gone["role"]), claim if isinstance(claim, str) else None)
    except (TypeError, AttributeError):
        raise ValueError("The clock's seats handed to bots are not readable.") from None
    return StoredClock(clock, out)
