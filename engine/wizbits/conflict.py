"""The Conflict Phase and its Battles.

The active player declares attackers; the opponent puts characters against
attackers of their choice; the attacker sends any attackers left unblocked
at other opposing characters, or holds them back. Each battle then has a
Respond pillar (Conflict Speed only), a secret division of each side's total
Strength as damage, and a Damage pillar whose Damage Base Foundation makes
every character in the battle take a Special Check Global Check.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.contract import Event
from engine.core.errors import IllegalActionError
from engine.core.words import plural
from engine.wizbits.continuous import collect_triggers, has_attribute, points_of
from engine.wizbits.dice import (
    SPECIAL_CHECK_BREAK_GLOBAL_CHECK,
    SPECIAL_CHECK_GLOBAL_CHECK,
    CheckRoll,
    Stat,
    die_level,
    roll_check,
)
from engine.wizbits.phases import open_pillar, play_unit, start_play_phase, trigger_event
from engine.wizbits.pillar.units import UnitKind
from engine.wizbits.resolve import destroy, destroy_together
from engine.wizbits.state import (
    ONE_TARGET_DIVIDED,
    SEQUENTIAL_RULINGS,
    Battle,
    JsonDict,
    Phase,
    WizbitsState,
    opponent,
)
from engine.wizbits.terms import Attribute, TriggerEvent


def fighters(state: WizbitsState, seat: int) -> list[int]:
    """``seat``'s characters that may take part in Conflict: in play and not seceded."""
    return [permanent.iid for permanent in state.players[seat].in_play
            if state.card(permanent.iid).is_character and not permanent.seceded]


def _elusive(state: WizbitsState, iid: int) -> bool:
    permanent = state.permanent(iid)
    return permanent is not None and has_attribute(state, permanent, Attribute.ELUSIVE)


def may_battle(state: WizbitsState, one: int, other: int) -> bool:
    """Whether characters ``one`` and ``other`` may be put in a battle together (Elusive)."""
    return (not _elusive(state, one) or _elusive(state, other)) and \
        (not _elusive(state, other) or _elusive(state, one))


def start_conflict(state: WizbitsState, events: list[Event]) -> None:
    """Begin the Conflict Phase: the active player declares attackers."""
    state.phase = Phase.ATTACK
    state.attackers = []
    state.blocks = {}
    state.battles = []
    state.battle = 0


def check_attack(state: WizbitsState, attackers: tuple[int, ...]) -> None:
    """Raise unless ``attackers`` are distinct characters the active player may send."""
    allowed = set(fighters(state, state.active))
    if len(set(attackers)) != len(attackers) or not set(attackers) <= allowed:
        raise IllegalActionError("attackers must be your own characters in play that are not seceded")


def declare_attack(state: WizbitsState, attackers: tuple[int, ...], events: list[Event]) -> None:
    """Record the attackers; their "declared as an attacker" triggers wait for the first pillar."""
    state.attackers = list(attackers)
    name = state.players[state.active].name
    if not attackers:
        events.append(Event("attack", f"{name} declares no attackers.", {"attackers": []}))
        end_conflict(state, events)
        end_battles(state, events)
        start_play_phase(state, 3, events)
        return
    names = ", ".join(state.card(iid).name for iid in attackers)
    events.append(Event("attack", f"{name} attacks with {names}.", {"attackers": list(attackers)}))
    for iid in attackers:
        wait_for_next_pillar(state, collect_triggers(state, TriggerEvent.THIS_ATTACKS, iid, state.active), events)
    if not fighters(state, opponent(state.active)):
        _form_battles(state, events)
        return
    state.phase = Phase.BLOCK


def check_block(state: WizbitsState, blocks: tuple[tuple[int, int], ...]) -> None:
    """Raise unless each blocker is a distinct defending character facing a declared attacker."""
    defenders = set(fighters(state, opponent(state.active)))
    seen = set()
    for defender, attacker in blocks:
        if defender not in defenders or defender in seen:
            raise IllegalActionError("each of your characters in play (not seceded) may battle one attacker")
        if attacker not in state.attackers:
            raise IllegalActionError("you can only battle a declared attacker")
        if not may_battle(state, defender, attacker):
            raise IllegalActionError("only Elusive characters can battle an Elusive character")
        seen.add(defender)


def declare_blocks(state: WizbitsState, blocks: tuple[tuple[int, int], ...], events: list[Event]) -> None:
    """Record the defender's choices; then the attacker assigns what is left, if anything."""
    state.blocks = {defender: attacker for defender, attacker in blocks}
    name = state.players[opponent(state.active)].name
    if blocks:
        pairs = "; ".join(f"{state.card(d).name} battles {state.card(a).name}" for d, a in blocks)
        events.append(Event("block", f"{name}: {pairs}.", {"blocks": [list(pair) for pair in blocks]}))
    else:
        events.append(Event("block", f"{name} battles no attacker.", {"blocks": []}))
    if assign_choices(state):
        state.phase = Phase.ASSIGN
    else:
        _form_battles(state, events)


def unblocked(state: WizbitsState) -> list[int]:
    """Attackers no defender chose to battle."""
    blocked = set(state.blocks.values())
    return [iid for iid in state.attackers if iid not in blocked]


def free_defenders(state: WizbitsState) -> list[int]:
    """Defending characters not already battling an attacker."""
    return [iid for iid in fighters(state, opponent(state.active)) if iid not in state.blocks]


def assign_choices(state: WizbitsState) -> dict[int, list[int]]:
    """For each unblocked attacker, the opposing characters it may be sent against."""
    free = free_defenders(state)
    choices = {iid: [defender for defender in free if may_battle(state, iid, defender)] for iid in unblocked(state)}
    return {iid: options for iid, options in choices.items() if options}


def check_assign(state: WizbitsState, assignments: tuple[tuple[int, int], ...]) -> None:
    """Raise unless each assignment sends a distinct unblocked attacker at an allowed defender."""
    choices = assign_choices(state)
    seen = set()
    for attacker, defender in assignments:
        if attacker in seen or defender not in choices.get(attacker, []):
            raise IllegalActionError("each unblocked attacker may go against one opposing character not "
                                     "already in a battle")
        seen.add(attacker)


def declare_assignments(state: WizbitsState, assignments: tuple[tuple[int, int], ...],
                        events: list[Event]) -> None:
    """Record where the unblocked attackers go, then form the battles."""
    name = state.players[state.active].name
    if assignments:
        pairs = "; ".join(f"{state.card(a).name} goes against {state.card(d).name}" for a, d in assignments)
        events.append(Event("assign", f"{name}: {pairs}.", {"assignments": [list(p) for p in assignments]}))
    else:
        events.append(Event("assign", f"{name} holds the unblocked attackers back.", {"assignments": []}))
    _form_battles(state, events, dict(assignments))


def end_conflict(state: WizbitsState, events: list[Event]) -> None:
    """Record the end of the Conflict Phase, whichever of its steps it ended in."""
    events.append(Event("phase_end", "End of the Conflict Phase.", {"phase": "conflict", "turn": state.turn}))


def end_battles(state: WizbitsState, events: list[Event]) -> None:
    """Record the end of the Battles, also when none was fought, so every turn logs the same phases."""
    events.append(Event("phase_end", "End of the Battles.", {"phase": "battles", "turn": state.turn}))


def _form_battles(state: WizbitsState, events: list[Event], assignments: dict[int, int] | None = None) -> None:
    battles = []
    for attacker in state.attackers:
        blockers = [defender for defender, target in state.blocks.items() if target == attacker]
        if blockers:
            battles.append(Battle([attacker], blockers))
    for defender in free_defenders(state):
        sent = [attacker for attacker, target in (assignments or {}).items() if target == defender]
        if sent:
            battles.append(Battle(sent, [defender]))
    state.battles = battles
    state.battle = 0
    end_conflict(state, events)
    if not battles:
        events.append(Event("no_battle", "No battle is fought.", {}))
        end_battles(state, events)
        start_play_phase(state, 3, events)
        return
    events.append(Event("battles", f"{len(battles)} battle{'s' if len(battles) != 1 else ''} to fight.",
                        {"battles": [[b.attackers, b.defenders] for b in battles]}))
    _open_respond(state, events)


def _open_respond(state: WizbitsState, events: list[Event]) -> None:
    open_pillar(state, Phase.RESPOND, events)


def current_battle(state: WizbitsState) -> Battle:
    """The battle being fought, with characters that left play dropped."""
    battle = state.battles[state.battle]
    in_play = {permanent.iid for permanent in state.permanents() if not permanent.seceded}
    return Battle([iid for iid in battle.attackers if iid in in_play],
                  [iid for iid in battle.defenders if iid in in_play])


def wait_for_next_pillar(state: WizbitsState, triggers: list[JsonDict], events: list[Event]) -> None:
    """Log triggers set off outside a pillar's building (a Damage pillar done included); they wait for the next one."""
    events.extend(trigger_event(state, trigger, True) for trigger in triggers)
    state.waiting_triggers.extend(triggers)


def sides(state: WizbitsState) -> Iterator[tuple[int, list[int], list[int]]]:
    """(seat, its characters, the characters it deals damage to) for both sides of the current battle."""
    battle = current_battle(state)
    yield state.active, battle.attackers, battle.defenders
    yield opponent(state.active), battle.defenders, battle.attackers


def total_strength(state: WizbitsState, iids: list[int]) -> int:
    """The sum of the characters' Strength die levels."""
    total = 0
    for iid in iids:
        permanent = state.permanent(iid)
        if permanent is not None:
            total += die_level(points_of(state, permanent).level(Stat.STRENGTH))
    return total


def start_division(state: WizbitsState, events: list[Event]) -> None:
    """After Respond: each side divides its Strength in secret (sides with nothing to divide skip)."""
    state.phase = Phase.DIVIDE
    state.division = [None, None]
    for seat, own, targets in sides(state):
        total = total_strength(state, own)
        if not own or not targets or total == 0:
            state.division[seat] = {}
        elif len(targets) == 1 and state.rules_version >= ONE_TARGET_DIVIDED:
            # One character to deal damage to: there is nothing to divide, so nobody is asked. Sessions begun
            # under older versions asked, and their logs hold the answer.
            state.division[seat] = {targets[0]: total}
            events.append(Event("divided", f"{state.players[seat].name} deals all their damage to "
                                f"{state.card(targets[0]).name}, the only character to take it.", {"seat": seat}))
    if all(split is not None for split in state.division):
        open_damage_pillar(state, events)


def check_division(state: WizbitsState, seat: int, damage: tuple[tuple[int, int], ...]) -> None:
    """Raise unless ``damage`` splits the whole Strength of ``seat``'s side among the other side."""
    for side, own, targets in sides(state):
        if side != seat:
            continue
        total = total_strength(state, own)
        if len({iid for iid, _ in damage}) != len(damage) or any(iid not in targets for iid, _ in damage):
            raise IllegalActionError("damage goes to characters on the other side of this battle, once each")
        if any(points < 1 for _, points in damage):
            raise IllegalActionError("each share of damage is at least 1 point")
        if sum(points for _, points in damage) != total:
            raise IllegalActionError(f"divide exactly {plural(total, 'point')} of damage")


def divide(state: WizbitsState, seat: int, damage: tuple[tuple[int, int], ...], events: list[Event]) -> None:
    """Record one side's secret division; once both are in, the Damage pillar opens."""
    state.division[seat] = dict(damage)
    events.append(Event("divided", f"{state.players[seat].name} has divided their damage.", {"seat": seat}))
    if all(split is not None for split in state.division):
        open_damage_pillar(state, events)


def open_damage_pillar(state: WizbitsState, events: list[Event]) -> None:
    """Both divisions go on a Damage pillar as damage units, resolving together."""
    open_pillar(state, Phase.DAMAGE, events, base="damage")
    for seat in (state.active, opponent(state.active)):
        split = state.division[seat] or {}
        if split:
            text = ", ".join(f"{points} to {state.card(iid).name}" for iid, points in split.items())
            events.append(Event("damage_declared", f"{state.players[seat].name} deals {text}.",
                                {"seat": seat, "damage": [[iid, n] for iid, n in split.items()]}))
            payload: JsonDict = {"damage": [[iid, points] for iid, points in split.items()]}
            play_unit(state, UnitKind.DAMAGE, seat, f"Damage from {state.players[seat].name}", payload, None)
    state.units_added = 0
    state.division = [None, None]


def damage_base_checks(state: WizbitsState, events: list[Event]) -> None:
    """The Damage Base Foundation: every character in the battle checks; failing destroys it.

    The checks are all made first, against the same state, so no failure
    changes another character's check. Then every character that failed is
    destroyed at once, and a Main Character's failure (it makes the Break form)
    ends the game; if both Main Characters fail in the same battle, the game is
    a draw.
    """
    battle = current_battle(state)
    if state.rules_version < SEQUENTIAL_RULINGS:
        _checks_one_by_one(state, battle, events)
        return
    failed: list[int] = []
    for iid in battle.attackers + battle.defenders:
        permanent = state.permanent(iid)
        if permanent is None:
            continue
        is_main = state.players[permanent.owner].main == iid
        spec = SPECIAL_CHECK_BREAK_GLOBAL_CHECK if is_main else SPECIAL_CHECK_GLOBAL_CHECK
        roll = roll_check(state.next_rng(), spec, points_of(state, permanent))
        events.append(check_event(state, iid, roll))
        if not roll.success:
            failed.append(iid)
    triggers: list[JsonDict] = []
    for iid in failed:
        triggers.extend(collect_triggers(state, TriggerEvent.OWN_CHECK_FAILS, iid, state.owner(iid)))
    losers = [state.owner(iid) for iid in failed if state.players[state.owner(iid)].main == iid]
    destroy_together(state, [iid for iid in failed if state.players[state.owner(iid)].main != iid], events, triggers)
    if losers:
        end_by_main_failures(state, losers, events)
        return
    wait_for_next_pillar(state, triggers, events)


def _checks_one_by_one(state: WizbitsState, battle: Battle, events: list[Event]) -> None:
    """Rules version 1's battle checks (older sessions replay under it): a failure was destroyed before the next check."""
    losers = []
    triggers: list[JsonDict] = []
    for iid in battle.attackers + battle.defenders:
        permanent = state.permanent(iid)
        if permanent is None:
            continue
        seat = permanent.owner
        is_main = state.players[seat].main == iid
        spec = SPECIAL_CHECK_BREAK_GLOBAL_CHECK if is_main else SPECIAL_CHECK_GLOBAL_CHECK
        roll = roll_check(state.next_rng(), spec, points_of(state, permanent))
        events.append(check_event(state, iid, roll))
        if roll.success:
            continue
        triggers.extend(collect_triggers(state, TriggerEvent.OWN_CHECK_FAILS, iid, seat))
        if is_main:
            losers.append(seat)
        else:
            destroy(state, iid, events, triggers)
    if losers:
        end_by_main_failures(state, losers, events)
        return
    wait_for_next_pillar(state, triggers, events)


def check_event(state: WizbitsState, iid: int, roll: CheckRoll) -> Event:
    """The dice-log event of a check made by character ``iid``."""
    owner = state.owners[iid]
    who = f"{state.players[owner].name}'s {state.card(iid).name}"
    return Event("check", f"{who}: {roll.describe()}", {**roll.to_json(), "iid": iid, "seat": owner})


def end_by_main_failures(state: WizbitsState, losers: list[int], events: list[Event]) -> None:
    """End the game: one failed Main Character loses; two at once is a draw."""
    if len(set(losers)) == 2:
        state.ended = True
        state.winner = None
        state.reason = "Both Main Characters failed their Special Check Break Global Checks in the same battle."
    else:
        loser = losers[0]
        state.ended = True
        state.winner = opponent(loser)
        main = state.card(state.players[loser].main).name
        state.reason = f"{main} failed a Special Check Break Global Check after battle."
    events.append(Event("game_over", state.reason, {"winner": state.winner}))


def next_battle(state: WizbitsState, events: list[Event]) -> None:
    """Fight the next battle, or go on to the third Play Phase."""
    state.battle += 1
    if state.battle < len(state.battles):
        _open_respond(state, events)
        return
    end_battles(state, events)
    start_play_phase(state, 3, events)
