"""Resolving Pillar units, and the one place the flow imports effect handling from.

A unit's effects are carried out by :mod:`engine.wizbits.interpret`; card
moves live in :mod:`engine.wizbits.zones` and the pure reads in
:mod:`engine.wizbits.continuous`. This module resolves units and re-exports
the names the flow needs from all three.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from engine.core.contract import Event
from engine.wizbits.continuous import collect_triggers
from engine.wizbits.interpret import (
    Resolution,
    StepMemory,
    chosen_slots,
    make_check,
    pending_slots,
    run_effects,
    run_pending,
    secede,
)
from engine.wizbits.pillar.tree import Unit, UnitKind
from engine.wizbits.state import SEQUENTIAL_RULINGS, JsonDict, WizbitsState
from engine.wizbits.terms import Category
from engine.wizbits.zones import (
    counter,
    deal_damage,
    destroy,
    destroy_together,
    discard_from_hand,
    draw,
    end_of_turn_cleanup,
    enter_play,
    lose,
    return_to_hand,
    take_out,
)

__all__ = [
    "Resolution", "StepMemory", "chosen_slots", "collect_triggers", "counter", "deal_damage", "destroy",
    "destroy_together", "discard_from_hand", "draw", "end_of_turn_cleanup", "enter_play", "lose", "make_check",
    "pending_slots", "resolve_group", "resolve_unit", "return_to_hand", "run_effects", "run_pending", "secede",
]

def resolve_unit(state: WizbitsState, unit: Unit, events: list[Event], triggers: list[JsonDict],
                 step: StepMemory | None = None, view: WizbitsState | None = None, own_results: bool = True) -> None:
    """Carry out one unit of a resolution step.

    Call it for each unit of the step in the order :meth:`Pillar.next_group`
    gives (increasing precedence), passing one :class:`StepMemory` to all of
    them (or use :func:`resolve_group`), so a higher unit's result stands.
    ``view`` is what the unit reads (see :attr:`Resolution.view`); ``own_results`` whether the unit's
    results are copied into it (see :attr:`Resolution.own_results`).
    """
    if state.over or unit.kind is UnitKind.CONTINUE:
        return
    payload = unit.payload
    if unit.kind is UnitKind.DAMAGE:
        for iid, points in payload["damage"]:
            deal_damage(state, int(iid), int(points), events, triggers)
        return
    ctx = Resolution(unit.owner, int(payload["iid"]), unit.uid, unit.height, list(payload.get("targets", [])),
                     events, triggers, step or StepMemory(), view, own_results=own_results)
    if unit.kind is UnitKind.CARD:
        _resolve_card(state, ctx)
        return
    card = state.card(int(payload["iid"]))
    ability = (card.flip_abilities if payload.get("flip") else card.abilities)[int(payload["ability"])]
    run_effects(state, ctx, ability.effects)


def _resolve_card(state: WizbitsState, ctx: Resolution) -> None:
    # A Character or Non-Element enters play first, so its Incomes see it in play;
    # an Element's Incomes happen, then it goes to the discard pile.
    iid = ctx.source
    assert iid is not None
    card, owner = state.card(iid), state.owner(iid)
    stays = card.category is not Category.ELEMENT
    if stays:
        enter_play(state, iid, owner)
        if ctx.view is not None and ctx.own_results:
            enter_play(ctx.view, iid, owner)  # its own Incomes' "each" reaches it
        ctx.events.append(Event("enter", f"{card.name} enters play for {state.players[owner].name}.",
                                {"iid": iid, "seat": owner}))
    for ability in card.incomes:
        run_effects(state, ctx, ability.effects)
    if not stays:
        take_out(state, iid)
        state.players[owner].discard.append(iid)


def resolve_group(state: WizbitsState, group: Sequence[Unit], events: list[Event],
                  triggers: list[JsonDict]) -> None:
    """Resolve the units of one step together, in the order given (increasing precedence).

    Each unit's effects happen one after another and each sees what the ones
    before it did; the units of the step see only the state it began with.
    """
    if state.rules_version < SEQUENTIAL_RULINGS:
        # Rules version 1 (older sessions replay under it): every unit read the step's opening state,
        # its own earlier results unseen.
        opening = StepMemory(before=copy.deepcopy(state))
        for unit in group:
            resolve_unit(state, unit, events, triggers, opening, opening.before, own_results=False)
        return
    step = StepMemory(before=copy.deepcopy(state) if len(group) > 1 else None)
    for index, unit in enumerate(group):
        # The first unit finds the state as the step began; each later one reads its own copy of that.
        view = copy.deepcopy(step.before) if index and step.before is not None else None
        resolve_unit(state, unit, events, triggers, step, view)
