"""The Pillar Lab's way back: the tables it stood at since resolution began, for ``←`` (one step back).

Every Lab move returns a new :class:`~engine.wizbits.lab.table.LabTable` and
leaves the old one untouched, so stepping back is putting the last one kept
on screen again: before a resolution step, a pass, an answer to a trigger,
or (the first one kept) before resolution began, with every play still built.
"""

from __future__ import annotations

from engine.wizbits.lab.table import LabTable


class StepsBack:
    """The tables (with the side that played next) left behind since resolution began, newest last."""

    def __init__(self) -> None:
        self._kept: list[tuple[LabTable, int]] = []

    def __bool__(self) -> bool:
        return bool(self._kept)

    def keep(self, table: LabTable, seat: int) -> None:
        """Remember ``table`` (and ``seat``, who played next there) before moving on from it."""
        self._kept.append((table, seat))

    def back(self) -> tuple[LabTable, int] | None:
        """The last table kept and its seat, now forgotten; None when there is none."""
        return self._kept.pop() if self._kept else None

    def forget(self) -> None:
        """A new build (a rebuild, an undo, a set-up change or a loaded scenario) has nothing to go back to."""
        self._kept.clear()
