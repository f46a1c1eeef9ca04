"""Rebuilding a stored pillar, and proving that play could have built it.

A saved or hand-edited pillar (see :mod:`engine.wizbits.pillar.json_form`) lists only
what play decided; this module lays its units again in play order through the
same placement rules as :meth:`Pillar.play`, so a pillar that play could not
have built is refused with :class:`MalformedPillarError`. It reaches into the
pillar's private stacks on purpose: it is the pillar's own second constructor.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.wizbits.pillar.tree import (
    BASE_UID,
    CONTINUE_HEIGHT,
    MAIN,
    BaseKind,
    Format,
    MalformedPillarError,
    Pillar,
    PillarError,
    Unit,
    UnitKind,
)


def restore_pillar(
    base: BaseKind,
    format: Format,
    next_uid: int,
    next_branch: int,
    continues: Sequence[Unit],
    units: Sequence[Unit],
    countered: Sequence[tuple[int, Unit]] = (),
) -> Pillar:
    """Rebuild a pillar from its parts, checking it could have been built by play.

    ``countered`` lists :attr:`Pillar.countered`: they are played and taken off
    again at their moment, so the units resting on them check out too.

    Raises:
        MalformedPillarError: the parts break a pillar invariant.
    """
    try:
        pillar = Pillar(base, format)
    except PillarError as error:
        raise MalformedPillarError(str(error)) from None
    _check_parts(format, next_uid, next_branch, continues, [*units, *(unit for _, unit in countered)])
    if any(not unit.uid < at <= next_uid for at, unit in countered):
        raise MalformedPillarError("a unit can only be countered after it was played")
    pillar._next_uid, pillar._next_branch = next_uid, next_branch
    pillar._continues = list(continues)
    removals = sorted(countered, key=lambda entry: entry[0])
    newest_branch = MAIN
    for unit in sorted([*units, *(unit for _, unit in countered)], key=lambda unit: unit.order):
        while removals and removals[0][0] <= unit.uid:
            _take_countered(pillar, removals.pop(0)[1].uid)
        # Re-running the placement checks proves each unit sits where play would have put it.
        if not pillar.is_foundation(unit.foundation) or pillar._level(unit.foundation)[0] + 1 != unit.height:
            raise MalformedPillarError(f"unit {unit.uid} does not stand on a legal foundation")
        _, base_iph, base_branch = pillar._level(unit.foundation)
        card = unit.kind is UnitKind.CARD
        if card and (unit.branch, unit.iph) != (base_branch, base_iph + 1):
            raise MalformedPillarError(f"card unit {unit.uid} has the wrong branch or IPH")
        if not card:
            # Subpillar ids grow with play order; foundations() relies on it.
            if unit.iph != 1 or unit.branch <= newest_branch:
                raise MalformedPillarError(f"unit {unit.uid} should start a new subpillar with IPH 1")
            newest_branch = unit.branch
        pillar._insert(unit)
    for _, unit in removals:
        _take_countered(pillar, unit.uid)
    pillar._countered = sorted(countered, key=lambda entry: entry[0])
    return pillar


def _take_countered(pillar: Pillar, uid: int) -> None:
    if uid not in pillar._units:
        raise MalformedPillarError(f"countered unit {uid} was not standing when it was countered")
    pillar._take(uid)


def _check_parts(
    format: Format, next_uid: int, next_branch: int, continues: Sequence[Unit], units: Sequence[Unit]
) -> None:
    if next_uid < 1 or next_branch < 1:
        raise MalformedPillarError("next_uid and next_branch start at 1")
    everything = [*continues, *units]
    uids = [unit.uid for unit in everything]
    if len(set(uids)) != len(uids):
        raise MalformedPillarError("unit uids must be distinct")
    if any(not BASE_UID < uid < next_uid for uid in uids):
        raise MalformedPillarError(f"unit uids must lie between 1 and next_uid - 1 ({next_uid - 1})")
    if any(unit.order != unit.uid for unit in everything):
        raise MalformedPillarError("a unit's order must equal its uid")
    if any(not MAIN <= unit.branch < next_branch for unit in units):
        raise MalformedPillarError(f"branch ids must lie between 0 and next_branch - 1 ({next_branch - 1})")
    if continues and format == "limited":
        raise MalformedPillarError("a Limited pillar has no Continue units")
    for unit in continues:
        if (unit.kind, unit.height, unit.iph, unit.branch, unit.foundation) != (
                UnitKind.CONTINUE, CONTINUE_HEIGHT, CONTINUE_HEIGHT, MAIN, BASE_UID):
            raise MalformedPillarError(f"Continue unit {unit.uid} must stand at height -1 under the base")
    if any(unit.kind is UnitKind.CONTINUE for unit in units):
        raise MalformedPillarError("Continue units never stand above the base")
