"""The Pillar: the tree of played units that Wizbits builds, then resolves top down.

The pillar is a plain value kept in the game state. It knows heights, IPHs,
subpillars and resolution order, and nothing about what units do: each unit
carries an opaque JSON ``payload`` for the rules engine. Texts live in
:mod:`engine.wizbits.pillar.text`, JSON in :mod:`engine.wizbits.pillar.json_form`, and
the checked rebuilding of a stored pillar in :mod:`engine.wizbits.pillar.restore`.

Costs: ``play`` and ``resolve_group`` touch only the branch stacks and height
buckets involved, so building and resolving n units is O(n log n).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from operator import attrgetter

from engine.wizbits.pillar.ranked_ids import RankedIds
from engine.wizbits.pillar.units import (
    BASE_KINDS,
    BASE_UID,
    CONTINUE_HEIGHT,
    FORMATS,
    MAIN,
    BaseKind,
    Format,
    IllegalFoundationError,
    InvalidPayloadError,
    JsonDict,
    MalformedPillarError,
    PillarError,
    Unit,
    UnitKind,
    plain_payload,
    reverse_pillar_order,
)

__all__ = [
    "BASE_KINDS", "BASE_UID", "CONTINUE_HEIGHT", "FORMATS", "MAIN", "BaseKind", "Format",
    "IllegalFoundationError", "InvalidPayloadError", "JsonDict", "MalformedPillarError", "Pillar",
    "PillarError", "Unit", "UnitKind", "plain_payload", "reverse_pillar_order",
]


_PRECEDENCE = attrgetter("iph", "order")
"""Same as :attr:`Unit.precedence`, faster as a sort key."""


class Pillar:
    """A pillar under construction or resolution (see the module docstring).

    Build one with :meth:`open`. It is mutable; ``copy.deepcopy`` is cheap
    because units are immutable and shared.
    """

    def __init__(self, base: BaseKind = "turn", format: Format = "limited") -> None:
        if base not in BASE_KINDS:
            raise PillarError(f"unknown base {base!r}; expected one of {BASE_KINDS}")
        if format not in FORMATS:
            raise PillarError(f"unknown format {format!r}; expected one of {FORMATS}")
        self.base: BaseKind = base
        self.format: Format = format
        self._next_uid = 1
        self._next_branch = 1
        self._continues: list[Unit] = []
        self._units: dict[int, Unit] = {}  # unresolved units, in play order
        self._main: list[int] = []  # main pillar stack of uids, base excluded
        self._subpillars: dict[int, list[int]] = {}  # live ones, in creation order
        self._live = RankedIds()  # the keys of _subpillars, indexable by rank
        self._buckets: dict[int, list[int]] = {}  # height -> uids in play order
        self._heights: list[int] = []  # heap of negated heights, one per bucket
        # Countered units, with next_uid when they left: kept while later units may stand on them.
        self._countered: list[tuple[int, Unit]] = []

    @classmethod
    def open(
        cls,
        base: BaseKind = "turn",
        format: Format = "limited",
        continues: Iterable[tuple[int, str, JsonDict]] = (),
    ) -> Pillar:
        """Start a pillar: a Turn or Damage Base Foundation, plus Continue units.

        Args:
            continues: ``(owner, name, payload)`` of each Continue ability in
                play; they stand at height -1 in Constructed and are left out
                in Limited, where they apply without appearing.
        """
        pillar = cls(base, format)
        for owner, name, payload in continues:
            pillar.add_continue(owner, name, payload)
        return pillar

    # Reading -------------------------------------------------------------

    @property
    def base_name(self) -> str:
        """"Turn Base Foundation" or "Damage Base Foundation"."""
        return f"{self.base.capitalize()} Base Foundation"

    @property
    def continues(self) -> tuple[Unit, ...]:
        """The Continue units at height -1 (always empty in Limited)."""
        return tuple(self._continues)

    @property
    def has_subpillars(self) -> bool:
        """Whether any subpillar stands, so new units must name a foundation."""
        return bool(self._subpillars)

    @property
    def next_uid(self) -> int:
        """The uid the next unit will get."""
        return self._next_uid

    @property
    def next_branch(self) -> int:
        """The id the next subpillar will get."""
        return self._next_branch

    @property
    def countered(self) -> tuple[tuple[int, Unit], ...]:
        """``(next_uid when it left, unit)`` for each countered unit that units still standing may rest on."""
        return tuple(self._countered)

    def units(self) -> Iterator[Unit]:
        """The unresolved units in play order (Continue units excluded)."""
        return iter(self._units.values())

    def unit(self, uid: int) -> Unit:
        """The unresolved or Continue unit ``uid``.

        Raises:
            KeyError: no such unit stands on the pillar.
        """
        if uid in self._units:
            return self._units[uid]
        for unit in self._continues:
            if unit.uid == uid:
                return unit
        raise KeyError(uid)

    def remaining(self) -> int:
        """How many units are still to resolve."""
        return len(self._units)

    def is_resolved(self) -> bool:
        """Whether only the base (and any Continue units) remain."""
        return not self._units

    def main_tip(self) -> Unit | None:
        """The highest remaining unit of the main pillar; None means the base."""
        return self._units[self._main[-1]] if self._main else None

    def main_tip_uid(self) -> int:
        """The uid of the main Current Foundation (``BASE_UID`` for the base)."""
        return self._main[-1] if self._main else BASE_UID

    def foundations(self) -> list[int]:
        """Legal foundations: the main Current Foundation, then each subpillar tip by age."""
        return [self.main_tip_uid(), *(stack[-1] for stack in self._subpillars.values())]

    def foundation_count(self) -> int:
        """``len(self.foundations())`` in O(1)."""
        return 1 + len(self._subpillars)

    def foundation_at(self, index: int) -> int:
        """``self.foundations()[index]`` in O(log n), for random choices."""
        if index == 0:
            return self.main_tip_uid()
        if not 0 < index < self.foundation_count():
            raise IndexError(f"foundation {index} is out of range for {self.foundation_count()}")
        return self._subpillars[self._live.nth(index - 1)][-1]

    def is_foundation(self, uid: int) -> bool:
        """Whether a unit could be built on ``uid`` right now."""
        if uid == self.main_tip_uid():
            return True
        unit = self._units.get(uid)
        if unit is None or unit.branch == MAIN:
            return False
        return self._subpillars[unit.branch][-1] == uid

    def subpillar_tips(self) -> dict[int, int]:
        """Each live subpillar's id mapped to its tip's uid, in creation order."""
        return {branch: stack[-1] for branch, stack in self._subpillars.items()}

    # Building ------------------------------------------------------------

    def play(self, kind: UnitKind, owner: int, name: str, payload: JsonDict, on: int | None = None) -> Unit:
        """Place a unit on foundation ``on`` (None: the main Current Foundation).

        A card rises one above its foundation in height and IPH and becomes
        the tip of that foundation's branch. Any other unit rises one in
        height but starts a new subpillar with IPH 1, leaving the tip alone.

        Raises:
            IllegalFoundationError: ``on`` is not a legal foundation now.
            InvalidPayloadError: ``payload`` is not a JSON object.
            PillarError: ``kind`` is CONTINUE (use :meth:`add_continue`).
        """
        if kind is UnitKind.CONTINUE:
            raise PillarError("Continue abilities are not played; add them with add_continue")
        target = self.main_tip_uid() if on is None else on
        self._check_foundation(target)
        base_height, base_iph, base_branch = self._level(target)
        uid = self._next_uid
        if kind is UnitKind.CARD:
            branch, iph = base_branch, base_iph + 1
        else:
            branch, iph = self._next_branch, 1
        unit = Unit(uid, kind, owner, name, base_height + 1, iph, branch, target, uid, plain_payload(payload))
        self._next_uid += 1
        if kind is not UnitKind.CARD:
            self._next_branch += 1
        self._insert(unit)
        return unit

    def place_triggers(self, triggers: Iterable[tuple[int, str, JsonDict]]) -> list[Unit]:
        """Put triggers set off during a resolution step on the main tip, in play order.

        Args:
            triggers: ``(owner, name, payload)`` for each, in the order they were set off.

        Returns:
            The new units; each has started its own subpillar.
        """
        return [self.play(UnitKind.TRIGGER, owner, name, payload) for owner, name, payload in triggers]

    def add_continue(self, owner: int, name: str, payload: JsonDict) -> Unit | None:
        """Stand a Continue ability at height -1, or do nothing in Limited.

        Returns:
            The new unit in Constructed; None in Limited.
        """
        if self.format == "limited":
            return None
        uid = self._next_uid
        unit = Unit(uid, UnitKind.CONTINUE, owner, name, CONTINUE_HEIGHT, CONTINUE_HEIGHT, MAIN, BASE_UID,
                    uid, plain_payload(payload))
        self._next_uid += 1
        self._continues.append(unit)
        return unit

    def drop_continue(self, uid: int) -> Unit:
        """Take Continue unit ``uid`` away: its ability is no longer in force (its card left play).

        Raises:
            KeyError: no Continue unit ``uid`` stands under the base.
        """
        for index, unit in enumerate(self._continues):
            if unit.uid == uid:
                return self._continues.pop(index)
        raise KeyError(uid)

    def remove(self, uid: int) -> Unit:
        """Take unit ``uid`` off the pillar unresolved (it was countered) and return it.

        Every other unit keeps its height and IPH. If it was a tip, its branch's
        tip falls back to the unit below; a subpillar left empty is gone. O(n).

        Raises:
            KeyError: no unresolved unit ``uid`` stands on the pillar.
        """
        unit = self._take(uid)
        self._countered.append((self._next_uid, unit))
        return unit

    # Resolving -----------------------------------------------------------

    def top_height(self) -> int | None:
        """The greatest height still unresolved, or None when resolved."""
        return -self._heights[0] if self._heights else None

    def next_group(self) -> tuple[Unit, ...]:
        """The units that resolve next, together: all those at the greatest height.

        They come in increasing precedence (IPH, then play order), so applying
        their results in this order leaves the winner's standing. Empty once
        the pillar is resolved.
        """
        if not self._heights:
            return ()
        units = [self._units[uid] for uid in self._buckets[-self._heights[0]]]
        return tuple(sorted(units, key=_PRECEDENCE))

    def resolve_group(self) -> tuple[Unit, ...]:
        """Remove and return :meth:`next_group`; each branch's tip falls back one unit."""
        group = self.next_group()
        if not group:
            return group
        height = -heapq.heappop(self._heights)
        del self._buckets[height]
        # Nothing still unresolved can rest on a countered unit at this height or above.
        self._countered = [entry for entry in self._countered if entry[1].height < height]
        for unit in group:
            del self._units[unit.uid]
            stack = self._main if unit.branch == MAIN else self._subpillars[unit.branch]
            # Heights rise strictly along a branch, so the top height is always a tip.
            assert stack[-1] == unit.uid, "a resolving unit must be its branch's tip"
            stack.pop()
            if not stack and unit.branch != MAIN:
                del self._subpillars[unit.branch]
                self._live.discard(unit.branch)
        return group

    # Identity ------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (self.base, self.format, self._next_uid, self._next_branch, self._continues,
                list(self._units.values()), self._countered)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pillar):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"Pillar(base={self.base!r}, format={self.format!r}, remaining={self.remaining()}, "
                f"subpillars={len(self._subpillars)}, top={self.top_height()})")

    def __deepcopy__(self, memo: dict[int, object]) -> Pillar:
        return self.copy()

    def copy(self) -> Pillar:
        """An independent pillar sharing the (immutable) units."""
        twin = Pillar(self.base, self.format)
        twin._next_uid, twin._next_branch = self._next_uid, self._next_branch
        twin._continues = list(self._continues)
        twin._units = dict(self._units)
        twin._main = list(self._main)
        twin._subpillars = {branch: list(stack) for branch, stack in self._subpillars.items()}
        for branch in twin._subpillars:
            twin._live.add(branch)
        twin._buckets = {height: list(uids) for height, uids in self._buckets.items()}
        twin._heights = list(self._heights)
        twin._countered = list(self._countered)
        return twin

    # Internals -----------------------------------------------------------

    def _check_foundation(self, uid: int) -> None:
        if self.is_foundation(uid):
            return
        if uid in self._units:
            unit = self._units[uid]
            raise IllegalFoundationError(
                f"unit {uid} ({unit.name}) is not a legal foundation: only the main Current Foundation "
                f"(unit {self.main_tip_uid()}) and the tip of each subpillar can be built on")
        if uid == BASE_UID:
            raise IllegalFoundationError("the base is no longer the main Current Foundation")
        raise IllegalFoundationError(f"there is no unit {uid} standing on the pillar")

    def _take(self, uid: int) -> Unit:
        unit = self._units.pop(uid)
        stack = self._main if unit.branch == MAIN else self._subpillars[unit.branch]
        stack.remove(uid)
        if not stack and unit.branch != MAIN:
            del self._subpillars[unit.branch]
            self._live.discard(unit.branch)
        bucket = self._buckets[unit.height]
        bucket.remove(uid)
        if not bucket:
            del self._buckets[unit.height]
            self._heights.remove(-unit.height)
            heapq.heapify(self._heights)
        return unit

    def _level(self, uid: int) -> tuple[int, int, int]:
        """Height, IPH and branch of a foundation (the base is 0, 0, main)."""
        if uid == BASE_UID:
            return 0, 0, MAIN
        unit = self._units[uid]
        return unit.height, unit.iph, unit.branch

    def _insert(self, unit: Unit) -> None:
        self._units[unit.uid] = unit
        if unit.branch == MAIN:
            self._main.append(unit.uid)
        elif unit.branch in self._subpillars:
            self._subpillars[unit.branch].append(unit.uid)
        else:
            self._subpillars[unit.branch] = [unit.uid]
            self._live.add(unit.branch)
        bucket = self._buckets.get(unit.height)
        if bucket is None:
            self._buckets[unit.height] = [unit.uid]
            heapq.heappush(self._heights, -unit.height)
        else:
            bucket.append(unit.uid)

