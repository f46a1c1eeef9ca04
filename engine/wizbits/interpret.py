"""The effect interpreter: carrying out effects, checks and secession.

Everything here changes the state it is given and reports what happened as
:class:`~engine.core.contract.Event` values; Trigger-Continue abilities set
off along the way are collected as payloads for the flow to put on the
Pillar. Once a player has lost, nothing more happens. The public face for the
flow is :mod:`engine.wizbits.resolve`, which re-exports what it needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.core.contract import Event
from engine.wizbits.continuous import collect_triggers, is_main, points_of, target_options
from engine.wizbits.dice import CheckRoll, CheckSpec, roll_check
from engine.wizbits.effects import (
    ChangeStat,
    Check,
    Counter,
    Damage,
    Destroy,
    Discard,
    DiscardMode,
    Draw,
    Duration,
    Effect,
    GainPoints,
    GrantAttribute,
    Heal,
    Mill,
    ReturnToHand,
    Search,
    Secede,
    Target,
    TargetKind,
)
from engine.wizbits.model import Ability, AbilityType, Card
from engine.wizbits.state import JsonDict, Permanent, WizbitsState, opponent
from engine.wizbits.terms import TriggerEvent
from engine.wizbits.zones import (
    counter,
    deal_damage,
    destroy,
    discard_from_hand,
    draw,
    lose,
    mill,
    return_to_hand,
    search,
    take_out,
)

__all__ = [
    "Resolution", "StepMemory", "chosen_slots", "make_check", "pending_slots", "run_effects", "run_pending",
    "secede",
]

_MOVES = (Destroy, ReturnToHand, Secede)


@dataclass
class StepMemory:
    """What the units of one resolution step did so far, shared by the whole step.

    Attributes:
        moved: Cards a lower-precedence unit of this step took out of play,
            as they stood in play. A higher unit's move of the same card still
            happens (its result must stand), from wherever the card went.
        before: The state as the step began, kept when the step has more than
            one unit. Units of one step resolve simultaneously, so each unit
            after the first reads from its own copy of it (see
            :attr:`Resolution.view`), never from what another unit of the
            step just did.
    """

    moved: dict[int, Permanent] = field(default_factory=dict)
    before: WizbitsState | None = None


@dataclass
class Resolution:
    """The context of effects being carried out.

    Attributes:
        controller: The seat whose effects they are ("you").
        source: The card they come from, if any ("this card").
        uid: The Pillar unit resolving, if any.
        height: That unit's height; a Counter can't reach units of the same step.
        targets: The chosen targets, one per effect with a chosen target, in the
            order the effects run (see :func:`chosen_slots`); None means none.
        events: Collects what happened.
        triggers: Collects the Trigger-Continue payloads set off.
        step: Shared by the units of one resolution step.
        view: What the unit reads (who "each" reaches, the Main Points and SCN
            a check rolls against): the step's opening state with this unit's
            own results so far, which are copied into it as they happen. None
            reads the state itself, which is the same thing for a unit
            resolving alone or first in its step.
        checker: Inside a check's outcomes, the character that made the check.
        next_slot: The next entry of ``targets`` to use.
        own_results: Whether the unit's results are copied into ``view`` (False under rules version 1, whose
            units all read the step's opening state, their own results unseen).
    """

    controller: int
    source: int | None = None
    uid: int | None = None
    height: int | None = None
    targets: list[int | None] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    triggers: list[JsonDict] = field(default_factory=list)
    step: StepMemory = field(default_factory=StepMemory)
    view: WizbitsState | None = None
    checker: int | None = None
    next_slot: int = 0
    own_results: bool = True

    def take_choice(self) -> int | None:
        """The next chosen target, or None when the list has run out."""
        slot = self.next_slot
        self.next_slot += 1
        return self.targets[slot] if slot < len(self.targets) else None


def chosen_slots(source: Card | Sequence[Ability]) -> list[Effect]:
    """The effects that need a chosen target, in the order their targets are listed.

    A card gives its Income abilities in Reverse Pillar order; a sequence of
    abilities gives them as listed. Check outcomes never choose, so they don't count.
    """
    abilities = source.incomes if isinstance(source, Card) else tuple(source)
    return [effect for ability in abilities for effect in ability.effects if effect.target.is_chosen]


# -- effects -------------------------------------------------------------------------------


def run_effects(state: WizbitsState, ctx: Resolution, effects: Sequence[Effect]) -> None:
    """Carry out ``effects`` in order, stopping as soon as the game is over."""
    for effect in effects:
        if state.over:
            return
        _apply(state, ctx, effect)


def _seat(ctx: Resolution, target: Target) -> int:
    return ctx.controller if target is Target.YOU else opponent(ctx.controller)


def _subjects(state: WizbitsState, ctx: Resolution, effect: Effect) -> list[int]:
    """The cards in play an effect reaches now (chosen ones that left play are skipped)."""
    target = effect.target
    if target.is_chosen:
        choice = ctx.take_choice()
        if choice is None:
            return []
        if state.permanent(choice) is None:
            if not (isinstance(effect, _MOVES) and choice in ctx.step.moved):
                return []
            _overrule(state, ctx, choice)
        return [choice]
    if target in (Target.THIS_CARD, Target.THIS_CHARACTER):
        found = ctx.source
    elif target is Target.CHECKER:
        found = ctx.checker
    elif target in (Target.YOUR_MAIN, Target.OPPONENT_MAIN):
        found = state.players[ctx.controller if target is Target.YOUR_MAIN else opponent(ctx.controller)].main
    else:
        seat = ctx.controller if target is Target.EACH_OWN_CHARACTER else opponent(ctx.controller)
        reference = ctx.view or state
        reached = []
        for perm in reference.players[seat].in_play:
            iid = perm.iid
            if not state.card(iid).is_character or (isinstance(effect, _MOVES) and is_main(state, iid)):
                continue
            if state.permanent(iid) is None:
                # Gone since the step began: a higher unit's move still decides; anything else misses it.
                if not (isinstance(effect, _MOVES) and iid in ctx.step.moved):
                    continue
                _overrule(state, ctx, iid)
            reached.append(iid)
        return reached
    return [] if found is None or state.permanent(found) is None else [found]


def _overrule(state: WizbitsState, ctx: Resolution, iid: int) -> None:
    """Put a card a lower unit of this step moved back as it stood, so a higher unit's move decides."""
    perm = ctx.step.moved.pop(iid)
    take_out(state, iid)
    state.players[perm.owner].in_play.append(perm)
    ctx.events.append(Event("overruled", f"A unit of greater precedence overrules what happened to "
                            f"{state.card(iid).name}.", {"iid": iid}))


def _apply(state: WizbitsState, ctx: Resolution, effect: Effect) -> None:
    events = ctx.events
    if effect.target.kind is TargetKind.PLAYER:
        _apply_to_player(state, ctx, effect, _seat(ctx, effect.target))
    elif isinstance(effect, Counter):
        choice = ctx.take_choice()
        if choice is not None:
            counter(state, choice, events, below=ctx.height)
    elif isinstance(effect, Check):
        for iid in _subjects(state, ctx, effect):
            _run_check(state, ctx, effect, iid)
    else:
        for iid in _subjects(state, ctx, effect):
            if state.over:
                return
            _apply_to_card(state, ctx, effect, iid)


def _apply_to_player(state: WizbitsState, ctx: Resolution, effect: Effect, seat: int) -> None:
    events, player = ctx.events, state.players[seat]
    if isinstance(effect, Draw):
        draw(state, seat, effect.amount, events)
    elif isinstance(effect, Discard):
        hand = list(player.hand)
        if effect.mode is DiscardMode.RANDOM:
            picked = state.next_rng().sample(hand, min(effect.amount, len(hand))) if hand else []
        else:
            # sorted() is stable: among equal costs the card that came to hand first goes.
            picked = sorted(hand, key=lambda iid: state.card(iid).cost)[:effect.amount]
        discard_from_hand(state, seat, picked, events)
    elif isinstance(effect, Mill):
        mill(state, seat, effect.amount, events)
    elif isinstance(effect, GainPoints):
        player.points += effect.amount
        events.append(Event("points", f"{player.name} gains {effect.amount} Secession point"
                            f"{'' if effect.amount == 1 else 's'} ({player.points} in all).",
                            {"seat": seat, "amount": effect.amount, "points": player.points}))
    elif isinstance(effect, Search):
        search(state, seat, effect.filter, effect.amount, events)


def _apply_to_card(state: WizbitsState, ctx: Resolution, effect: Effect, iid: int) -> None:
    landed = _change_card(state, ctx, effect, iid)
    view = ctx.view
    if view is None or not ctx.own_results or view.permanent(iid) is None:
        return
    # The unit's later effects read the view, so its own result goes there too (only the result:
    # what it says and sets off has happened already).
    if isinstance(effect, Damage):
        seen = view.permanent(iid)
        assert seen is not None
        seen.damage += landed
    else:
        _change_card(view, Resolution(ctx.controller, ctx.source), effect, iid)


def _change_card(state: WizbitsState, ctx: Resolution, effect: Effect, iid: int) -> int:
    """Carry out ``effect`` on card ``iid`` of ``state``; returns the damage that landed, if any."""
    events, triggers = ctx.events, ctx.triggers
    perm = state.permanent(iid)
    assert perm is not None
    name = state.card(iid).name
    if isinstance(effect, Damage):
        return deal_damage(state, iid, effect.amount, events, triggers)
    if isinstance(effect, Heal):
        healed = min(effect.amount, perm.damage)
        perm.damage -= healed
        text = f"{name} heals {healed} damage." if healed else f"{name} has no damage to heal."
        events.append(Event("heal", text, {"iid": iid, "amount": healed}))
    elif isinstance(effect, ChangeStat):
        steps = perm.turn_steps if effect.duration is Duration.END_OF_TURN else perm.lasting_steps
        steps[effect.stat.value] = steps.get(effect.stat.value, 0) + effect.steps
        level = points_of(state, perm).level(effect.stat)
        events.append(Event("stat", f"{name}'s {effect.stat.label} is now d{level}.",
                            {"iid": iid, "stat": effect.stat.value, "steps": effect.steps,
                             "duration": effect.duration.value, "level": level}))
    elif isinstance(effect, GrantAttribute):
        granted = perm.turn_attributes if effect.duration is Duration.END_OF_TURN else perm.lasting_attributes
        if effect.attribute.value not in granted:
            granted.append(effect.attribute.value)
        events.append(Event("attribute", f"{name} gains {effect.attribute.label}.",
                            {"iid": iid, "attribute": effect.attribute.value, "duration": effect.duration.value}))
    elif isinstance(effect, Secede):
        secede(state, iid, events, triggers)
    elif isinstance(effect, (Destroy, ReturnToHand)):
        moved = destroy(state, iid, events, triggers) if isinstance(effect, Destroy) \
            else return_to_hand(state, iid, events)
        if moved:
            ctx.step.moved[iid] = perm
    return 0


def _run_check(state: WizbitsState, ctx: Resolution, effect: Check, iid: int) -> None:
    checker = _checker(state, iid, effect.spec)
    roll = _roll(state, checker, effect.spec, ctx.events, ctx.triggers, ctx.view)
    if state.over:
        return
    outer, ctx.checker = ctx.checker, checker
    run_effects(state, ctx, effect.on_success if roll.success else effect.on_fail)
    ctx.checker = outer
    _global_failure(state, checker, roll, ctx.events, ctx.triggers)
    if ctx.view is not None and ctx.own_results:
        _global_failure(ctx.view, checker, roll, [], [])


# -- secession and checks, which the flow also uses --------------------------------------------


def secede(state: WizbitsState, iid: int, events: list[Event], triggers: list[JsonDict]) -> bool:
    """Secede a card in play, for no points: it flips, and its flip Incomes happen at once, fastest first.

    A flip Income that has a target to choose, with a legal choice to make, is
    owed as a pending choice in ``state.pending`` instead (see :func:`run_pending`).
    The owner's other cards that answer "when you secede another card" are
    collected. A Main Character, or a card already seceded, is not seceded.

    Returns:
        Whether the card was seceded.
    """
    perm = state.permanent(iid)
    if perm is None or perm.seceded or is_main(state, iid):
        return False
    perm.seceded = True
    card, owner = state.card(iid), perm.owner
    events.append(Event("secede", f"{card.name} is seceded.", {"iid": iid, "seat": owner}))
    triggers.extend(collect_triggers(state, TriggerEvent.YOU_SECEDE_ANOTHER, iid, owner))
    incomes = [index for index, ability in enumerate(card.flip_abilities) if ability.type is AbilityType.INCOME]
    for index in sorted(incomes, key=lambda index: -card.flip_abilities[index].speed.rank):
        if state.over:
            break
        ability = card.flip_abilities[index]
        slots = chosen_slots((ability,))
        if any(target_options(state, owner, effect) for effect in slots):
            state.pending.append({"seat": owner, "iid": iid, "ability": index, "flip": True})
            continue
        ctx = Resolution(owner, iid, events=events, triggers=triggers)
        run_effects(state, ctx, ability.effects)
    return True


def pending_slots(state: WizbitsState, pending: JsonDict) -> list[Effect]:
    """The effects of an owed flip Income that need a chosen target, in the order to list them."""
    return chosen_slots((_pending_ability(state, pending),))


def _pending_ability(state: WizbitsState, pending: JsonDict) -> Ability:
    card = state.card(int(pending["iid"]))
    return (card.flip_abilities if pending.get("flip", True) else card.abilities)[int(pending["ability"])]


def run_pending(state: WizbitsState, pending: JsonDict, targets: Sequence[int | None],
                events: list[Event]) -> list[JsonDict]:
    """Carry out an owed flip Income with the targets its seat chose, and take it off ``state.pending``.

    Returns:
        The Trigger-Continue payloads it set off.
    """
    if pending in state.pending:
        state.pending.remove(pending)
    ctx = Resolution(int(pending["seat"]), int(pending["iid"]), targets=list(targets), events=events)
    run_effects(state, ctx, _pending_ability(state, pending).effects)
    return ctx.triggers


def _checker(state: WizbitsState, iid: int, spec: CheckSpec) -> int:
    # A Break check is made by the Main Character of the target's controller.
    return state.players[state.owner(iid)].main if spec.is_break else iid


def _roll(state: WizbitsState, checker: int, spec: CheckSpec, events: list[Event],
          triggers: list[JsonDict], view: WizbitsState | None = None) -> CheckRoll:
    perm = state.permanent(checker)
    assert perm is not None, "only a character in play makes checks"
    # Inside a resolution step the check reads the checker as the resolving unit sees it.
    seen = view.permanent(checker) if view is not None else None
    points = points_of(view, seen) if view is not None and seen is not None else points_of(state, perm)
    roll = roll_check(state.next_rng(), spec, points, points.scn)
    name = state.card(checker).name
    events.append(Event("check", f"{name}: {roll.describe()}",
                        {**roll.to_json(), "iid": checker, "seat": perm.owner, "card": name}))
    if not roll.success:
        triggers.extend(collect_triggers(state, TriggerEvent.OWN_CHECK_FAILS, checker, perm.owner))
        if spec.loses_game:
            player = state.players[perm.owner]
            lose(state, perm.owner, f"{player.name}'s {name} failed a Special Check Break Global Check", events)
    return roll


def _global_failure(state: WizbitsState, checker: int, roll: CheckRoll, events: list[Event],
                    triggers: list[JsonDict]) -> None:
    # A failed Special Check Global Check secedes the character for no points.
    spec = roll.spec
    if not roll.success and spec.is_global and spec.is_special and not spec.is_break:
        secede(state, checker, events, triggers)


def make_check(state: WizbitsState, iid: int, spec: CheckSpec, events: list[Event],
               triggers: list[JsonDict]) -> CheckRoll:
    """Character ``iid`` makes a check (a Break check: its controller's Main Character), outside battle.

    The roll is an event. A failure sets off "when a check made by one of your
    characters fails"; a failed Special Check Break Global Check loses the
    game; a failed Special Check Global Check secedes the checker for no points.
    """
    checker = _checker(state, iid, spec)
    roll = _roll(state, checker, spec, events, triggers)
    if not state.over:
        _global_failure(state, checker, roll, events, triggers)
    return roll
