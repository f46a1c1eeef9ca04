"""The turn's structure: phases, pillars, Priority and resolution steps.

Each function here changes the state it is given and appends events. The
order of a turn: Reconcile (Up), Test, a Play Phase, Characters, a Play
Phase, Conflict with its Battles, a Play Phase, Second Test, Reconcile (Down).
A Play Phase alternates Elements and Non-Elements pillars until an Elements
pillar and the Non-Elements pillar after it both end with nobody adding a unit.
"""

from __future__ import annotations

from engine.core.contract import Event
from engine.wizbits.conflict import damage_base_checks, next_battle, start_conflict, start_division
from engine.wizbits.dice import SPECIAL_CHECK_BREAK_GLOBAL_CHECK
from engine.wizbits.phases import ear_tug, open_pillar, place_triggers, start_play_phase
from engine.wizbits.pillar.text import describe_group
from engine.wizbits.pillar.units import Unit, UnitKind
from engine.wizbits.resolve import draw, end_of_turn_cleanup, make_check, resolve_group
from engine.wizbits.state import HAND_SIZE, JsonDict, Phase, WizbitsState, opponent

PILLAR_OF_PLAY_ROUND = {1: Phase.CHARACTERS, 2: Phase.ATTACK, 3: Phase.SECOND_TEST}
"""Where each Play Phase of the turn leads once it ends."""


# -- pillars -----------------------------------------------------------------------


def pass_priority(state: WizbitsState, seat: int, events: list[Event]) -> None:
    """``seat`` is finished; after two passes in a row the pillar resolves (or the phase ends)."""
    pillar = state.pillar
    assert pillar is not None
    state.passes += 1
    events.append(Event("pass", f"{state.players[seat].name} passes.", {"seat": seat}))
    if state.passes < 2:
        state.priority = opponent(seat)
        return
    state.priority = None
    if pillar.is_resolved():
        end_pillar(state, events)
    else:
        state.resolving = True


def resolve_step(state: WizbitsState, events: list[Event]) -> None:
    """Resolve every unit at the greatest height together, then place any triggers they set off."""
    pillar = state.pillar
    assert pillar is not None and state.resolving
    group = pillar.next_group()
    events.append(Event("resolve_step", describe_group(group, state.rtf),
                        {"height": group[0].height if group else 0, "units": [unit.uid for unit in group]}))
    pillar.resolve_group()
    triggers: list[JsonDict] = []
    resolve_group(state, group, events, triggers)
    if state.over:
        _discard_unresolved_cards(state, group)
        return
    if triggers:
        place_triggers(state, triggers, events)
        # Priority opens again, active player first, before resolution goes on.
        state.resolving = False
        state.priority = state.active
        state.passes = 0
        return
    if pillar.is_resolved():
        end_pillar(state, events)


def _discard_unresolved_cards(state: WizbitsState, group: tuple[Unit, ...]) -> None:
    """Cards of a step the game ended in the middle of go to their owners' discard piles.

    The step took them off the pillar, and a game that is over resolves
    nothing more, so without this they would be in no zone at all.
    """
    for unit in group:
        if unit.kind is not UnitKind.CARD:
            continue
        iid = int(unit.payload["iid"])
        player = state.players[state.owner(iid)]
        if iid not in player.hand and iid not in player.deck and iid not in player.discard \
                and player.permanent(iid) is None:
            player.discard.append(iid)


def end_pillar(state: WizbitsState, events: list[Event]) -> None:
    """The pillar is done: resolve its base (a Damage Base checks the battle), then move on."""
    state.resolving = False
    state.priority = None
    phase = state.phase
    if phase == Phase.DAMAGE:
        damage_base_checks(state, events)
        if state.over:
            return
    ear_tug(state, events)
    state.pillar = None
    if phase == Phase.ELEMENTS:
        state.quiet_elements = state.units_added == 0
        open_pillar(state, Phase.NON_ELEMENTS, events)
    elif phase == Phase.NON_ELEMENTS:
        if state.units_added == 0 and state.quiet_elements:
            events.append(Event("phase_end", f"End of Play Phase {state.play_round}.",
                                {"phase": "play", "turn": state.turn, "play_round": state.play_round}))
            after_play_phase(state, events)
        else:
            open_pillar(state, Phase.ELEMENTS, events)
    elif phase == Phase.CHARACTERS:
        start_play_phase(state, 2, events)
    elif phase == Phase.RESPOND:
        start_division(state, events)
    elif phase == Phase.DAMAGE:
        next_battle(state, events)


def after_play_phase(state: WizbitsState, events: list[Event]) -> None:
    """Go where this turn's Play Phase leads: Characters, Conflict or the Second Test."""
    following = PILLAR_OF_PLAY_ROUND[state.play_round]
    state.play_round = 0
    if following == Phase.CHARACTERS:
        open_pillar(state, Phase.CHARACTERS, events)
    elif following == Phase.ATTACK:
        start_conflict(state, events)
    else:
        state.phase = Phase.SECOND_TEST


# -- the automatic steps -------------------------------------------------------------


def reconcile_up(state: WizbitsState, events: list[Event]) -> None:
    """Draw up to seven (having to draw from an empty deck loses), then go to the Test Phase."""
    seat = state.active
    player = state.players[seat]
    missing = HAND_SIZE - len(player.hand)
    if missing > 0:
        if not draw(state, seat, missing, events):
            return
    ear_tug(state, events)
    state.phase = Phase.TEST


def test_phase(state: WizbitsState, events: list[Event], second: bool = False) -> None:
    """The active Main Character makes a Special Check Break Global Check; failing loses the game."""
    seat = state.active
    triggers: list[JsonDict] = []
    make_check(state, state.players[seat].main, SPECIAL_CHECK_BREAK_GLOBAL_CHECK, events, triggers)
    if state.over:
        return
    place_triggers(state, triggers, events)
    ear_tug(state, events)
    if second:
        state.phase = Phase.RECONCILE_DOWN
    else:
        start_play_phase(state, 1, events)


def end_turn(state: WizbitsState, events: list[Event]) -> None:
    """Seceded cards go, end-of-turn effects end, and the other player's turn begins."""
    end_of_turn_cleanup(state, events)
    ear_tug(state, events)
    events.append(Event("turn_end", f"End of turn {state.turn} ({state.players[state.active].name}).",
                        {"turn": state.turn, "seat": state.active}))
    state.turn += 1
    state.active = opponent(state.active)
    state.phase = Phase.RECONCILE_UP
    state.battles = []
    state.battle = 0
    state.attackers = []
    state.blocks = {}


