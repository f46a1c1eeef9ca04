"""Game statistics for headless Wizbits play: how big and how deep the pillars grow.

:class:`PillarWatch` is fed every state and its events as a game is played
(``coven simulate`` does this). A pillar's size is the number of units
played on it (cards, abilities, triggers and damage; Continue units don't
count); its depth is the greatest height any unit reached. Both are read
from the live pillar after each action, so units that resolve or are
countered later still count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.core.contract import Event
from engine.wizbits.state import WizbitsState


@dataclass(frozen=True)
class PillarRecord:
    """One finished pillar: units played on it and the greatest height reached."""

    units: int
    depth: int


@dataclass
class PillarWatch:
    """Follows one game's pillars from the outside, action by action."""

    pillars: list[PillarRecord] = field(default_factory=list)
    _units: int | None = None
    _depth: int = 0

    def observe(self, state: WizbitsState, events: Sequence[Event]) -> None:
        """Take in the state after an action and the events that action produced.

        Every pillar ends with the end of its phase (a ``phase_end`` event), so
        that closes the pillar being watched; the state then shows the next one.
        """
        if self._units is not None and any(event.kind == "phase_end" for event in events):
            self._close()
        pillar = state.pillar
        if pillar is None:
            return
        units = pillar.next_uid - 1 - len(pillar.continues)
        depth = max((unit.height for unit in pillar.units()), default=0)
        self._units = max(self._units or 0, units)
        self._depth = max(self._depth, depth)

    def finish(self) -> None:
        """The game is over: count the pillar it ended on, if any."""
        if self._units is not None:
            self._close()

    def _close(self) -> None:
        self.pillars.append(PillarRecord(self._units or 0, self._depth))
        self._units, self._depth = None, 0


@dataclass(frozen=True)
class PillarSummary:
    """Pillar figures over many games.

    Attributes:
        pillars: Pillars opened, empty ones included.
        built: Pillars on which at least one unit was played.
        mean_units: Average units per built pillar.
        mean_depth: Average greatest height per built pillar.
        max_units: The largest pillar.
        max_depth: The deepest pillar.
    """

    pillars: int
    built: int
    mean_units: float
    mean_depth: float
    max_units: int
    max_depth: int


def summarise(records: Iterable[PillarRecord]) -> PillarSummary:
    """Average the pillars on which something was played (most Play Phase pillars stay empty)."""
    every = list(records)
    built = [record for record in every if record.units > 0]
    count = len(built)
    return PillarSummary(
        pillars=len(every),
        built=count,
        mean_units=sum(r.units for r in built) / count if count else 0.0,
        mean_depth=sum(r.depth for r in built) / count if count else 0.0,
        max_units=max((r.units for r in built), default=0),
        max_depth=max((r.depth for r in built), default=0),
    )
