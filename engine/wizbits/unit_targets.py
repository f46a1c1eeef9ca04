"""What each unit on the Pillar targets, and the triggers waiting for the next pillar, as public facts.

Targets are chosen when a unit goes on the Pillar, so every seat and every
spectator may know them; a trigger set off while no pillar is open waits in
``state.waiting_triggers`` for the next one, and is public too. Views, the
tree, Inspect and the log all name them through this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.wizbits.effects import TargetKind
from engine.wizbits.interpret import chosen_slots
from engine.wizbits.pillar.text import branch_name
from engine.wizbits.pillar.tree import Pillar, Unit, UnitKind
from engine.wizbits.state import JsonDict, WizbitsState
from engine.wizbits.terms import TriggerEvent


@dataclass(frozen=True)
class TargetView:
    """One chosen target of a unit.

    Attributes:
        kind: ``"unit"`` (a unit on the Pillar, by uid) or ``"card"`` (a card in play, by iid).
        ref: The uid or iid.
        name: What it is called.
        owner: Its owner's seat, when known (a card that has left play has none).
    """

    kind: str
    ref: int
    name: str
    owner: int | None


@dataclass(frozen=True)
class WaitingTrigger:
    """A trigger set off outside a pillar, waiting for the next one.

    Attributes:
        owner: The seat whose trigger it is.
        name: The card it comes from.
        event: What set it off, as rules text ("this card is destroyed").
        iid: The card it comes from.
    """

    owner: int
    name: str
    event: str
    iid: int


def _slot_kinds(state: WizbitsState, unit: Unit) -> list[TargetKind]:
    iid = unit.payload.get("iid")
    if not isinstance(iid, int) or not 0 <= iid < len(state.cards):
        return []
    card = state.card(iid)
    if unit.kind is UnitKind.CARD:
        return [effect.target.kind for effect in chosen_slots(card)]
    index = unit.payload.get("ability")
    abilities = card.flip_abilities if unit.payload.get("flip") else card.abilities
    if unit.kind is not UnitKind.ABILITY or not isinstance(index, int) or not 0 <= index < len(abilities):
        return []
    return [effect.target.kind for effect in chosen_slots((abilities[index],))]


def _unit_named(pillar: Pillar | None, uid: int) -> Unit | None:
    if pillar is None:
        return None
    units = {unit.uid: unit for unit in pillar.units()} | {unit.uid: unit for _, unit in pillar.countered}
    return units.get(uid)


def unit_targets(state: WizbitsState, unit: Unit, pillar: Pillar | None = None) -> tuple[TargetView, ...]:
    """The targets ``unit`` chose, in the order its effects use them (slots with no target are left out).

    Args:
        pillar: The pillar to name unit targets from (default: ``state.pillar``).
    """
    pillar = pillar if pillar is not None else state.pillar
    chosen = unit.payload.get("targets")
    if not isinstance(chosen, list):
        return ()
    found: list[TargetView] = []
    for kind, ref in zip(_slot_kinds(state, unit), chosen, strict=False):
        if not isinstance(ref, int):
            continue
        if kind is TargetKind.UNIT:
            target = _unit_named(pillar, ref)
            found.append(TargetView("unit", ref, unit_called(state, pillar, target) if target else "a unit that has left",
                                    target.owner if target else None))
        elif 0 <= ref < len(state.cards):
            found.append(_card_target(state, ref))
    return tuple(found)


def unit_called(state: WizbitsState, pillar: Pillar | None, unit: Unit) -> str:
    """A unit's name with where it stands, so two units of one name are told apart: ``Sparkswarm Volley (h2)``.

    The height is enough on one branch; when another unit of the same name stands at the same height
    (on another branch), its branch is named too: ``Sparkswarm Volley (h3, Subpillar 1)``.
    """
    units = [*pillar.units(), *(other for _, other in pillar.countered)] if pillar is not None else []
    twin = any(other.uid != unit.uid and other.name == unit.name and other.height == unit.height for other in units)
    return f"{unit.name} (h{unit.height}, {branch_name(unit.branch, state.rtf)})" if twin \
        else f"{unit.name} (h{unit.height})"


def _card_target(state: WizbitsState, iid: int) -> TargetView:
    permanent = state.permanent(iid)
    if permanent is not None:
        return TargetView("card", iid, state.card(iid).name, permanent.owner)
    for seat, player in enumerate(state.players):
        if iid in player.discard:
            return TargetView("card", iid, state.card(iid).name, seat)
    # Gone to a hand or a deck since it was chosen: which card it is there is no longer public.
    return TargetView("card", -1, "a card that left play", None)


def pillar_targets(state: WizbitsState, pillar: Pillar | None = None) -> dict[int, tuple[TargetView, ...]]:
    """Every unit's chosen targets by uid (units that chose none are left out), countered ones included."""
    pillar = pillar if pillar is not None else state.pillar
    if pillar is None:
        return {}
    units = [*pillar.units(), *(unit for _, unit in pillar.countered)]
    return {unit.uid: found for unit in units if (found := unit_targets(state, unit, pillar))}


def threatened(targets: dict[int, tuple[TargetView, ...]]) -> frozenset[int]:
    """The iids of cards in play that some unit still on the pillar targets."""
    return frozenset(target.ref for found in targets.values() for target in found if target.kind == "card")


def _event_phrase(event: object) -> str:
    try:
        return TriggerEvent(str(event)).phrase
    except ValueError:
        return "set off"


def waiting_triggers(state: WizbitsState) -> tuple[WaitingTrigger, ...]:
    """The triggers waiting for the next pillar, in the order they were set off."""
    return tuple(waiting_trigger(trigger) for trigger in state.waiting_triggers)


def waiting_trigger(trigger: JsonDict) -> WaitingTrigger:
    """One waiting trigger payload (see :func:`engine.wizbits.continuous.collect_triggers`) as a public fact."""
    return WaitingTrigger(int(trigger["owner"]), str(trigger["name"]), _event_phrase(trigger.get("event")),
                          int(trigger["iid"]))


def target_phrase(target: TargetView, seats: Sequence[str], viewer: int | None = None) -> str:
    """``"your Morning Chorus"`` for the viewer's own, ``"Bo's Morning Chorus"`` otherwise."""
    if target.owner is None:
        return target.name
    if target.owner == viewer:
        return f"your {target.name}"
    owner = seats[target.owner] if 0 <= target.owner < len(seats) else f"Seat {target.owner + 1}"
    return f"{owner}'s {target.name}"


def targets_phrase(targets: Sequence[TargetView], seats: Sequence[str], viewer: int | None = None) -> str:
    """The targets joined with commas: ``"your Ember Pup, Bo's Sunder"``."""
    return ", ".join(target_phrase(target, seats, viewer) for target in targets)


def newest_unit_arrow(state: WizbitsState) -> str:
    """`` → Bo's Sunder`` for the unit just put on the pillar (empty when it chose no target), for log lines.

    Event texts are shared by every seat, so owners are named, never "your";
    :func:`newest_unit_target_data` lets a screen with one viewer say "your".
    """
    found = _newest_targets(state)
    return f" → {targets_phrase(found, [player.name for player in state.players])}" if found else ""


def newest_unit_target_data(state: WizbitsState) -> list[JsonDict]:
    """The targets of the unit just put on the pillar, for its event's data: name, owner and the phrase used."""
    names = [player.name for player in state.players]
    return [{"name": target.name, "owner": target.owner, "shown": target_phrase(target, names)}
            for target in _newest_targets(state)]


def _newest_targets(state: WizbitsState) -> tuple[TargetView, ...]:
    if state.pillar is None or not state.pillar.units():
        return ()
    unit = max(state.pillar.units(), key=lambda unit: unit.order)
    return unit_targets(state, unit)


def line_for_viewer(text: str, targets: object, viewer: int | None) -> str:
    """An event's ``text`` with the viewer's own targets called "your" (``targets`` is its data's list).

    Only the part after the last arrow is touched, so a name elsewhere in the line stays as it is.
    """
    cut = text.rfind(" → ")
    if viewer is None or cut < 0 or not isinstance(targets, list):
        return text
    shown = [str(item.get("shown", "")) for item in targets if isinstance(item, dict)]
    mine = [item.get("owner") == viewer for item in targets if isinstance(item, dict)]
    names = [str(item.get("name", "")) for item in targets if isinstance(item, dict)]
    before = ", ".join(shown)
    arrow = text[cut + 3:]
    if not shown or not arrow.startswith(before):
        return text
    after = ", ".join(f"your {name}" if own else phrase for phrase, name, own in zip(shown, names, mine, strict=True))
    return text[:cut + 3] + after + arrow[len(before):]


def waiting_after(state: WizbitsState, moved_on: bool) -> tuple[WaitingTrigger, ...]:
    """The triggers waiting for the next pillar, seen from a pillar that has finished resolving.

    Args:
        moved_on: The game has opened its next pillar already (the Lab keeps
            showing the finished one): triggers standing on that new pillar
            are still "waiting for the next pillar" to whoever looks at the old one.
    """
    found = list(waiting_triggers(state))
    if moved_on and state.pillar is not None:
        found += [waiting_trigger(unit.payload) for unit in sorted(state.pillar.units(), key=lambda u: u.order)
                  if unit.kind is UnitKind.TRIGGER]
    return tuple(found)
