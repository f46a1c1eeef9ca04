"""Adding units to a pillar: playing cards and activating Trigger abilities.

Which cards a pillar takes depends on its phase: Elements in an Elements
pillar, Non-Elements in a Non-Elements pillar, Characters in the Characters
pillar, and only Conflict Speed cards and abilities in Respond and Damage
pillars. Trigger abilities may be used in any pillar (Conflict Speed ones only,
in battle). Each unit names its foundation, its chosen targets and its payment.
"""

from __future__ import annotations

from itertools import product

from engine.core.contract import Event
from engine.core.errors import IllegalActionError
from engine.core.words import plural
from engine.wizbits.actions import Action, Activate, Payment, PlayCard, Targets
from engine.wizbits.continuous import collect_triggers, cost_of, live_abilities, target_options
from engine.wizbits.effects import Effect
from engine.wizbits.model import Ability, AbilityType, Card, Category
from engine.wizbits.payment import check_payment, pay, payment_options
from engine.wizbits.phases import place_triggers, play_unit
from engine.wizbits.pillar.units import UnitKind
from engine.wizbits.resolve import chosen_slots, discard_from_hand, secede
from engine.wizbits.state import JsonDict, Phase, WizbitsState, opponent
from engine.wizbits.terms import TriggerEvent
from engine.wizbits.unit_targets import newest_unit_arrow, newest_unit_target_data

PHASE_CATEGORY = {
    Phase.ELEMENTS: Category.ELEMENT,
    Phase.NON_ELEMENTS: Category.NON_ELEMENT,
    Phase.CHARACTERS: Category.CHARACTER,
}
"""The one category of card each non-battle pillar takes."""


def card_fits_phase(state: WizbitsState, card: Card) -> bool:
    """Whether ``card`` may be played in the current pillar."""
    if state.phase in Phase.CONFLICT_SPEED_ONLY:
        return card.has_conflict_speed
    return PHASE_CATEGORY.get(state.phase) is card.category


def ability_fits_phase(state: WizbitsState, ability: Ability) -> bool:
    """Whether a Trigger ability may be used in the current pillar."""
    if ability.type is not AbilityType.TRIGGER:
        return False
    return state.phase not in Phase.CONFLICT_SPEED_ONLY or ability.is_conflict_speed


def foundation_choices(state: WizbitsState) -> list[int | None]:
    """None (the main Current Foundation), then each subpillar's tip."""
    assert state.pillar is not None
    return [None] + state.pillar.foundations()[1:]


def _slot_options(state: WizbitsState, seat: int, slots: list[Effect]) -> list[list[int | None]]:
    options: list[list[int | None]] = []
    for effect in slots:
        found: list[int | None] = list(target_options(state, seat, effect))
        options.append(found or [None])
    return options


def _check_targets(state: WizbitsState, seat: int, slots: list[Effect], targets: Targets) -> None:
    if len(targets) != len(slots):
        raise IllegalActionError(f"this needs {plural(len(slots), 'chosen target')}, not {len(targets)}")
    for effect, choice, options in zip(slots, targets, _slot_options(state, seat, slots), strict=False):
        if choice not in options:
            raise IllegalActionError(f"that is not a legal choice for {effect.target.phrase}")


def _check_foundation(state: WizbitsState, on: int | None) -> None:
    assert state.pillar is not None
    # The main Current Foundation may be named by its uid too; None is the usual way.
    if on not in foundation_choices(state) and on != state.pillar.main_tip_uid():
        raise IllegalActionError("build on the main Current Foundation or on the tip of a subpillar")


def card_slots(card: Card) -> list[Effect]:
    """The effects of a card's Income abilities that choose targets, in the order they run."""
    return chosen_slots(card.incomes)


def check_play(state: WizbitsState, seat: int, action: PlayCard) -> None:
    """Raise :class:`IllegalActionError` with the reason if ``seat`` can't play this now."""
    player = state.players[seat]
    if action.card not in player.hand:
        raise IllegalActionError("that card is not in your hand")
    card = state.card(action.card)
    if not card_fits_phase(state, card):
        raise IllegalActionError(f"{card.name} ({card.category.label}) can't be played in the "
                                 f"{Phase.LABELS[state.phase]} pillar")
    _check_foundation(state, action.on)
    _check_targets(state, seat, card_slots(card), action.targets)
    check_payment(state, seat, cost_of(state, seat, card), action.pay)


def _ability(state: WizbitsState, seat: int, iid: int, index: int) -> Ability:
    permanent = state.players[seat].permanent(iid)
    if permanent is None:
        raise IllegalActionError("you don't control that card in play")
    abilities = live_abilities(state, permanent)
    if not 0 <= index < len(abilities):
        raise IllegalActionError("that card has no such ability now")
    return abilities[index]


def idle_trigger(ability: Ability, targets: Targets) -> bool:
    """Whether using ``ability`` with ``targets`` would only pay its cost.

    True when every effect of the ability chooses a target and none found a
    legal one (a target of None means there was none to choose). An ability
    with an effect that doesn't choose, such as "draw a card", always does something.
    """
    slots = chosen_slots((ability,))
    return bool(slots) and len(slots) == len(ability.effects) and all(target is None for target in targets)


def check_activate(state: WizbitsState, seat: int, action: Activate) -> None:
    """Raise :class:`IllegalActionError` with the reason if ``seat`` can't use this ability now."""
    ability = _ability(state, seat, action.card, action.ability)
    if ability.type is not AbilityType.TRIGGER:
        raise IllegalActionError("only Trigger abilities are used at will")
    if not ability_fits_phase(state, ability):
        raise IllegalActionError("only Conflict Speed abilities can be used in a battle's pillars")
    cost = ability.cost
    assert cost is not None
    permanent = state.permanent(action.card)
    assert permanent is not None
    if cost.secede_this and permanent.seceded:
        raise IllegalActionError("this card is already seceded")
    if cost.discard > len(state.players[seat].hand):
        raise IllegalActionError(f"you need {plural(cost.discard, 'card')} in hand to discard")
    _check_foundation(state, action.on)
    _check_targets(state, seat, chosen_slots((ability,)), action.targets)
    check_payment(state, seat, cost.points, action.pay, exclude=action.card if cost.secede_this else None)


def apply_play(state: WizbitsState, seat: int, action: PlayCard, events: list[Event]) -> None:
    """Pay, then put the card on the pillar as a card unit."""
    card = state.card(action.card)
    player = state.players[seat]
    player.hand.remove(action.card)
    triggers: list[JsonDict] = []
    pay(state, seat, cost_of(state, seat, card), action.pay, events, triggers)
    payload: JsonDict = {"iid": action.card, "targets": list(action.targets)}
    play_unit(state, UnitKind.CARD, seat, card.name, payload, action.on)
    events.append(Event("play", f"{player.name} plays {card.name}{newest_unit_arrow(state)}.",
                        {"seat": seat, "iid": action.card, "card": card.card_id, "on": action.on,
                         "targets": newest_unit_target_data(state)}))
    if card.category is Category.ELEMENT:
        triggers.extend(collect_triggers(state, TriggerEvent.OPPONENT_PLAYS_ELEMENT, action.card, opponent(seat)))
    if triggers:
        place_triggers(state, triggers, events)


def apply_activate(state: WizbitsState, seat: int, action: Activate, events: list[Event]) -> None:
    """Pay the ability's cost, then put its effect on the pillar as an ability unit."""
    permanent = state.permanent(action.card)
    assert permanent is not None
    flip = permanent.seceded
    ability = live_abilities(state, permanent)[action.ability]
    cost = ability.cost
    assert cost is not None
    card = state.card(action.card)
    triggers: list[JsonDict] = []
    pay(state, seat, cost.points, action.pay, events, triggers)
    if cost.discard:
        rng = state.next_rng()
        hand = state.players[seat].hand
        discard_from_hand(state, seat, rng.sample(hand, cost.discard), events)
    if cost.secede_this:
        secede(state, action.card, events, triggers)
    payload: JsonDict = {"iid": action.card, "ability": action.ability, "flip": flip,
                         "targets": list(action.targets)}
    play_unit(state, UnitKind.ABILITY, seat, f"{card.name} ability", payload, action.on)
    events.append(Event("activate", f"{state.players[seat].name} uses an ability of {card.name}"
                        f"{newest_unit_arrow(state)}.",
                        {"seat": seat, "iid": action.card, "ability": action.ability, "flip": flip,
                         "targets": newest_unit_target_data(state)}))
    if triggers:
        place_triggers(state, triggers, events)


def unit_actions(state: WizbitsState, seat: int) -> list[Action]:
    """Every card play and ability use open to ``seat`` now (payments as :func:`payment_options` lists)."""
    actions: list[Action] = []
    foundations = foundation_choices(state)
    player = state.players[seat]
    seen: set[str] = set()
    for iid in player.hand:
        card = state.card(iid)
        # Two copies of a card in hand make the same plays; offer the first.
        if card.card_id in seen or not card_fits_phase(state, card):
            continue
        seen.add(card.card_id)
        payments = payment_options(state, seat, cost_of(state, seat, card))
        choices = _slot_options(state, seat, card_slots(card))
        for on, targets, payment in product(foundations, product(*choices), payments):
            actions.append(PlayCard(iid, on, tuple(targets), payment))
    for permanent in player.in_play:
        for index, ability in enumerate(live_abilities(state, permanent)):
            if not ability_fits_phase(state, ability):
                continue
            cost = ability.cost
            assert cost is not None
            if (cost.secede_this and permanent.seceded) or cost.discard > len(player.hand):
                continue
            exclude = permanent.iid if cost.secede_this else None
            payments = payment_options(state, seat, cost.points, exclude)
            choices = _slot_options(state, seat, chosen_slots((ability,)))
            for on, targets, payment in product(foundations, product(*choices), payments):
                actions.append(Activate(permanent.iid, index, on, tuple(targets), payment))
    return actions


__all__ = ["Payment", "apply_activate", "apply_play", "check_activate", "check_play", "idle_trigger", "unit_actions"]
