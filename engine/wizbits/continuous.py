"""What is true right now: live abilities, Main Points, attributes, costs and legal targets.

Pure reads of a :class:`~engine.wizbits.state.WizbitsState`; nothing here
changes it. Continue modifiers are worked out afresh on every call, so a card
that arrives or leaves changes the answers at once, and the groups a
modifier names are seen from its own controller's side of the table.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.wizbits.dice import GLOBAL_ORDER, MainPoints, step_die_level
from engine.wizbits.effects import Counter, Destroy, Effect, ReturnToHand, Secede, Target, TargetKind
from engine.wizbits.model import Ability, AbilityType, Card
from engine.wizbits.pillar.units import UnitKind
from engine.wizbits.state import JsonDict, Permanent, WizbitsState, opponent
from engine.wizbits.statics import AttributeGrant, CostChange, Group, StatBonus, Static
from engine.wizbits.terms import Attribute, Category, TriggerEvent

__all__ = [
    "NEVER_MAIN", "collect_triggers", "continue_units", "cost_of", "has_attribute", "is_main", "live_abilities",
    "live_statics", "points_of", "target_options",
]

NEVER_MAIN: tuple[type[Effect], ...] = (Destroy, Secede, ReturnToHand)
"""Effects that never reach a Main Character: not offered as choices, passed over by "each"."""


def live_abilities(state: WizbitsState, perm: Permanent) -> tuple[Ability, ...]:
    """The abilities in force for a card in play: its flip abilities while it is seceded."""
    card = state.card(perm.iid)
    return card.flip_abilities if perm.seceded else card.abilities


def live_statics(state: WizbitsState) -> Iterator[tuple[Permanent, Static]]:
    """Every Continue modifier in force, with the card in play that carries it, seat 0's cards first."""
    for perm in state.permanents():
        for ability in live_abilities(state, perm):
            if ability.type is AbilityType.CONTINUE:
                for static in ability.statics:
                    yield perm, static


def is_main(state: WizbitsState, iid: int) -> bool:
    """Whether ``iid`` is either player's Main Character."""
    return any(player.main == iid for player in state.players)


def _in_group(state: WizbitsState, group: Group, source: Permanent, perm: Permanent) -> bool:
    """Whether character ``perm`` belongs to ``group`` as seen by ``source``'s controller."""
    if not state.card(perm.iid).is_character:
        return False
    controller = source.owner
    if group is Group.THIS_CHARACTER:
        return perm.iid == source.iid
    if group is Group.YOUR_MAIN:
        return perm.iid == state.players[controller].main
    if group is Group.YOUR_CHARACTERS:
        return perm.owner == controller
    if group is Group.YOUR_OTHER_CHARACTERS:
        return perm.owner == controller and perm.iid != source.iid
    return perm.owner != controller  # OPPOSING_CHARACTERS


def points_of(state: WizbitsState, perm: Permanent) -> MainPoints:
    """A character's Main Points as they stand: printed, plus every change in force.

    Stat bonuses from Continue modifiers, changes until end of turn and
    permanent changes are added up first and then moved along the die-level
    ladder in one go, so the answer does not depend on the order they came in.
    The SCN is the printed SCN plus the character's damage.

    Raises:
        ValueError: ``perm`` is not a Character.
    """
    printed = state.card(perm.iid).main_points
    if printed is None:
        raise ValueError(f"{state.card(perm.iid).name} is not a character and has no Main Points")
    # A Stat is a StrEnum, equal to its value's string as a key: the slow ``.value`` is not needed.
    steps: dict[str, int] = {stat: perm.turn_steps.get(stat, 0) + perm.lasting_steps.get(stat, 0)
                             for stat in GLOBAL_ORDER}
    for source, static in live_statics(state):
        if isinstance(static, StatBonus) and _in_group(state, static.group, source, perm):
            steps[static.stat] += static.steps
    strength, will, magic = (step_die_level(printed.level(stat), steps[stat]) for stat in GLOBAL_ORDER)
    return MainPoints(strength, will, magic, printed.scn + perm.damage)


def has_attribute(state: WizbitsState, perm: Permanent, attribute: Attribute) -> bool:
    """Whether a card in play has ``attribute``: printed, granted by a Continue modifier or by an effect."""
    if attribute in state.card(perm.iid).attributes:
        return True
    if attribute in perm.turn_attributes or attribute in perm.lasting_attributes:  # a StrEnum equals its string
        return True
    return any(isinstance(static, AttributeGrant) and static.attribute is attribute
               and _in_group(state, static.group, source, perm) for source, static in live_statics(state))


def cost_of(state: WizbitsState, seat: int, card: Card) -> int:
    """What ``card`` costs ``seat`` now: printed cost with every cost change in force, never below 0."""
    cost = card.cost
    for source, static in live_statics(state):
        if not isinstance(static, CostChange) or not static.filter.matches(card):
            continue
        payer = source.owner if static.player is Target.YOU else opponent(source.owner)
        if payer == seat:
            cost += static.amount
    return max(cost, 0)


def target_options(
    state: WizbitsState, seat: int, effect: Effect, exclude_uid: int | None = None
) -> list[int]:
    """The legal choices, sorted, for the chosen target of one effect controlled by ``seat``.

    Characters and cards are named by iid, Pillar units by uid. A card with
    Ward can't be chosen by its opponent's effects; Destroy, Secede and
    Return-to-hand never offer a Main Character; Secede doesn't offer a card
    that is already seceded; a Counter's filter admits only card units whose
    card matches. Seceded cards are still in play and may be chosen.

    Args:
        exclude_uid: For unit targets, the unit being built itself (a unit can't
            counter itself) or the source's own unit.

    Raises:
        ValueError: the effect's target is not chosen.
    """
    target = effect.target
    if not target.is_chosen:
        raise ValueError(f"{target.phrase} is not a chosen target")
    if target.kind is TargetKind.UNIT:
        return _unit_options(state, seat, effect, exclude_uid)
    choices: list[int] = []
    for perm in state.permanents():
        card = state.card(perm.iid)
        mine = perm.owner == seat
        if target is Target.CHOSEN_OWN_CHARACTER and not mine:
            continue
        if target in (Target.CHOSEN_OPPOSING_CHARACTER, Target.CHOSEN_OPPOSING_CARD,
                      Target.CHOSEN_OPPOSING_NON_ELEMENT) and mine:
            continue
        if target.kind is TargetKind.CHARACTER and not card.is_character:
            continue
        if target is Target.CHOSEN_OPPOSING_NON_ELEMENT and card.category is not Category.NON_ELEMENT:
            continue
        if not mine and has_attribute(state, perm, Attribute.WARD):
            continue
        if isinstance(effect, NEVER_MAIN) and is_main(state, perm.iid):
            continue
        if isinstance(effect, Secede) and perm.seceded:
            continue
        choices.append(perm.iid)
    return sorted(choices)


def _unit_options(state: WizbitsState, seat: int, effect: Effect, exclude_uid: int | None) -> list[int]:
    if state.pillar is None:
        return []
    unit_filter = effect.filter if isinstance(effect, Counter) else None
    choices: list[int] = []
    for unit in state.pillar.units():
        if unit.uid == exclude_uid:
            continue
        if effect.target is Target.CHOSEN_OPPOSING_UNIT and unit.owner == seat:
            continue
        if unit_filter is not None:
            iid = unit.payload.get("iid")
            if unit.kind is not UnitKind.CARD or not isinstance(iid, int) or not unit_filter.matches(state.card(iid)):
                continue
        choices.append(unit.uid)
    return sorted(choices)


def continue_units(state: WizbitsState) -> list[tuple[int, str, JsonDict]]:
    """``(owner, name, payload)`` for every live Continue ability in play, for a Constructed pillar.

    The payload names the card, the ability's index and whether it is a flip
    ability: ``{"iid": 7, "ability": 0, "flip": False}``.
    """
    found: list[tuple[int, str, JsonDict]] = []
    for perm in state.permanents():
        card = state.card(perm.iid)
        for index, ability in enumerate(live_abilities(state, perm)):
            if ability.type is AbilityType.CONTINUE:
                found.append((perm.owner, card.name, {"iid": perm.iid, "ability": index, "flip": perm.seceded}))
    return found


# Events that only the card they happen to answers; the others reach every card of the seat.
_OWN_EVENTS = frozenset({TriggerEvent.THIS_DESTROYED, TriggerEvent.THIS_DAMAGED, TriggerEvent.THIS_ATTACKS})
# Events about "another" card: the subject itself does not answer.
_OTHER_EVENTS = frozenset({TriggerEvent.OWN_CHARACTER_DESTROYED, TriggerEvent.YOU_SECEDE_ANOTHER})


def collect_triggers(state: WizbitsState, event: TriggerEvent, subject_iid: int, seat: int) -> list[JsonDict]:
    """The Trigger-Continue abilities that ``event`` sets off, in a fixed order.

    Call it while the subject is still in play (before a destroyed card
    leaves), so its own "when this card is destroyed" ability is seen.

    Args:
        event: What happened.
        subject_iid: The card it happened to: the destroyed, damaged, attacking,
            seceded or checking card, or the Element played.
        seat: The player whose cards may answer (for "your opponent plays an
            Element", the opponent of the player who played it). For events
            about "this card", only the subject answers, whoever ``seat`` is.

    Returns:
        One payload per ability, in seat order of play then printed order:
        ``{"iid", "ability", "flip", "owner", "name", "event"}``.
    """
    if event in _OWN_EVENTS:
        subject = state.permanent(subject_iid)
        candidates = [] if subject is None else [subject]
    else:
        candidates = [perm for perm in state.players[seat].in_play
                      if not (event in _OTHER_EVENTS and perm.iid == subject_iid)]
    found: list[JsonDict] = []
    for perm in candidates:
        name = state.card(perm.iid).name
        for index, ability in enumerate(live_abilities(state, perm)):
            if ability.type is AbilityType.TRIGGER_CONTINUE and ability.trigger is event:
                found.append({"iid": perm.iid, "ability": index, "flip": perm.seceded, "owner": perm.owner,
                              "name": name, "event": event.value})
    return found
