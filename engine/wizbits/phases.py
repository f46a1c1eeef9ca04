"""The steps every phase shares: naming it, ending it, and opening and filling its pillar.

Both the turn's structure (:mod:`engine.wizbits.flow`) and the Conflict Phase
(:mod:`engine.wizbits.conflict`) build on these, so neither needs the other's.
Each function changes the state it is given and appends events.
"""

from __future__ import annotations

from engine.core.contract import Event
from engine.wizbits.continuous import continue_units
from engine.wizbits.pillar.tree import Pillar
from engine.wizbits.pillar.units import UnitKind
from engine.wizbits.state import JsonDict, Phase, WizbitsState
from engine.wizbits.terms import TriggerEvent


def phase_label(state: WizbitsState) -> str:
    """The current phase as players call it, with the Play Phase's number when in one."""
    label = Phase.LABELS[state.phase]
    if state.phase in (Phase.ELEMENTS, Phase.NON_ELEMENTS):
        return f"Play Phase {state.play_round}: {label}"
    return label


def ear_tug(state: WizbitsState, events: list[Event]) -> None:
    """Record the end of the current phase."""
    events.append(Event("phase_end", f"End of {phase_label(state)}.",
                        {"phase": state.phase, "turn": state.turn, "play_round": state.play_round}))


# -- pillars -----------------------------------------------------------------------


def open_pillar(state: WizbitsState, phase: str, events: list[Event], base: str = "turn") -> None:
    """Start ``phase`` with a new pillar; the active player has Priority.

    Triggers that waited for a pillar go on it first, in the order they were set off.
    """
    state.phase = phase
    pillar = Pillar.open(base, state.format, continue_units(state))  # type: ignore[arg-type]
    state.pillar = pillar
    state.resolving = False
    state.priority = state.active
    state.passes = 0
    state.units_added = 0
    if state.waiting_triggers:
        place_triggers(state, state.waiting_triggers)
        state.waiting_triggers = []


def place_triggers(state: WizbitsState, triggers: list[JsonDict], events: list[Event] | None = None) -> None:
    """Put triggers on the highest remaining unit of the main pillar, or keep them for the next pillar.

    Args:
        events: Where to log each trigger as it is set off; None for triggers already logged (those that
            waited for this pillar).
    """
    waiting = state.pillar is None or state.phase not in Phase.PILLARS
    if events is not None:
        for trigger in triggers:
            events.append(trigger_event(state, trigger, waiting))
    if waiting:
        state.waiting_triggers.extend(triggers)
        return
    assert state.pillar is not None
    state.pillar.place_triggers((int(trigger["owner"]), str(trigger["name"]), trigger) for trigger in triggers)


def trigger_event(state: WizbitsState, trigger: JsonDict, waiting: bool) -> Event:
    """The log line of a trigger set off: ``Bo's Grim Music Box triggers: when your opponent plays an Element.``"""
    owner = int(trigger["owner"])
    try:
        when = f": when {TriggerEvent(str(trigger.get('event'))).phrase}"
    except ValueError:
        when = ""  # a payload without a known event still gets its line
    text = f"{state.players[owner].name}'s {trigger['name']} triggers{when}."
    if waiting:
        text += " It waits for the next pillar."
    return Event("trigger", text, {"seat": owner, "iid": int(trigger["iid"]), "event": trigger.get("event"),
                                   "waiting": waiting})


def drop_dead_continues(state: WizbitsState, pillar: Pillar | None = None) -> None:
    """Take off ``pillar`` (the state's by default) every Continue unit no longer in force.

    A Continue ability is in force while its card is in play (a flip one:
    while it is seceded), so its unit leaves the pillar with the card, or
    when the card flips.
    """
    pillar = state.pillar if pillar is None else pillar
    if pillar is None:
        return
    for unit in pillar.continues:
        permanent = state.permanent(int(unit.payload["iid"]))
        if permanent is None or permanent.seceded != bool(unit.payload.get("flip")):
            pillar.drop_continue(unit.uid)


def after_unit_added(state: WizbitsState) -> None:
    """A unit was added: the run of passes starts again."""
    state.passes = 0
    state.units_added += 1


def play_unit(state: WizbitsState, kind: UnitKind, seat: int, name: str, payload: JsonDict,
              on: int | None) -> None:
    """Put a unit on the current pillar for ``seat``."""
    assert state.pillar is not None
    state.pillar.play(kind, seat, name, payload, on)
    after_unit_added(state)


def start_play_phase(state: WizbitsState, play_round: int, events: list[Event]) -> None:
    """Begin Play Phase ``play_round`` with an Elements pillar."""
    state.play_round = play_round
    state.quiet_elements = False
    open_pillar(state, Phase.ELEMENTS, events)
