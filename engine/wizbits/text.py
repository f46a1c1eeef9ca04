"""Rules text generated from card data, so the printed text always says what the card does.

Each effect kind prints a fixed keyword (see :data:`EFFECT_KEYWORDS`) and every
number it carries, which the card-text test relies on.
"""

from __future__ import annotations

from engine.wizbits.dice import check_text
from engine.wizbits.effects import (
    CardFilter,
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
)
from engine.wizbits.model import Ability, AbilityType, Card
from engine.wizbits.statics import AttributeGrant, CostChange, Group, StatBonus, Static, TriggerCost

EFFECT_KEYWORDS: dict[str, str] = {
    "damage": "damage", "heal": "Heal", "draw": "draw", "discard": "discard", "mill": "Mill",
    "gain_points": "Secession point", "change_stat": "die level", "grant_attribute": "gain",
    "secede": "Secede", "destroy": "Destroy", "return_to_hand": "hand", "search": "Search",
    "counter": "Counter", "check": "Check",
}
"""A word each effect kind's text always contains (the stat, attribute or check form is added too)."""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _player_does(target: Target, verb: str, rest: str) -> str:
    # "Draw 2 cards." for you, "Your opponent draws 2 cards." for them.
    if target is Target.YOU:
        return f"{_cap(verb)} {rest}."
    return f"Your opponent {verb}s {rest}."


def _until(duration: Duration) -> str:
    return "until end of turn" if duration is Duration.END_OF_TURN else "permanently"


def _counter_phrase(target: Target, unit_filter: CardFilter | None) -> str:
    if unit_filter is None:
        return target.phrase
    whose = "opposing " if target is Target.CHOSEN_OPPOSING_UNIT else ""
    return f"a chosen {whose}{unit_filter.phrase} on the Pillar"


def effect_text(effect: Effect) -> str:
    """One or more sentences for an effect, e.g. ``"Deal 2 damage to a chosen opposing character."``."""
    target = effect.target
    match effect:
        case Damage(amount=amount):
            return f"Deal {amount} damage to {target.phrase}."
        case Heal(amount=amount):
            return f"Heal {amount} damage from {target.phrase}."
        case Draw(amount=amount):
            return _player_does(target, "draw", _cards(amount))
        case Discard(amount=amount, mode=mode):
            how = "at random" if mode is DiscardMode.RANDOM else "with the lowest cost"
            return _player_does(target, "discard", f"{_cards(amount)} {how}")
        case Mill(amount=amount):
            deck = "your deck" if target is Target.YOU else "your opponent's deck"
            return f"Mill the top {_cards(amount)} of {deck}."
        case GainPoints(amount=amount):
            points = "Secession point" if amount == 1 else "Secession points"
            return _player_does(target, "gain", f"{amount} {points}")
        case ChangeStat(stat=stat, steps=steps, duration=duration):
            verb = "Raise" if steps > 0 else "Lower"
            levels = "die level" if abs(steps) == 1 else "die levels"
            return f"{verb} the {stat.label} of {target.phrase} by {abs(steps)} {levels} {_until(duration)}."
        case GrantAttribute(attribute=attribute, duration=duration):
            return f"{_cap(target.phrase)} gains {attribute.label} {_until(duration)}."
        case Secede():
            return f"Secede {target.phrase} for no points."
        case Destroy():
            return f"Destroy {target.phrase}."
        case ReturnToHand():
            return f"Return {target.phrase} to its owner's hand."
        case Search(filter=card_filter, amount=amount):
            deck = "your deck" if target is Target.YOU else "their deck"
            who = "" if target is Target.YOU else "Your opponent: "
            wanted = f"{amount} {card_filter.phrase}" + ("" if amount == 1 else "s")
            return f"{who}Search {deck} for {wanted}, take the first found from the top, then shuffle."
        case Counter(filter=unit_filter):
            return f"Counter {_counter_phrase(target, unit_filter)}."
        case Check(spec=spec, on_success=on_success, on_fail=on_fail):
            parts = [f"{_cap(target.phrase)} makes a {check_text(spec)}."]
            if on_success:
                parts.append("If it succeeds: " + " ".join(effect_text(item) for item in on_success))
            if on_fail:
                parts.append("If it fails: " + " ".join(effect_text(item) for item in on_fail))
            return " ".join(parts)
    raise ValueError(f"no text for effect {effect!r}")


_SINGULAR_GROUPS = frozenset({Group.THIS_CHARACTER, Group.YOUR_MAIN})


def static_text(static: Static) -> str:
    """One sentence for a Continue modifier, e.g. ``"Your other characters get +1 Strength."``."""
    match static:
        case StatBonus(group=group, stat=stat, steps=steps):
            verb = "gets" if group in _SINGULAR_GROUPS else "get"
            levels = "die level" if abs(steps) == 1 else "die levels"
            return f"{_cap(group.phrase)} {verb} {steps:+d} {stat.label} ({abs(steps)} {levels})."
        case CostChange(player=player, filter=card_filter, amount=amount):
            whose = "Your" if player is Target.YOU else "Your opponent's"
            change = "more" if amount > 0 else "less"
            return f"{whose} {card_filter.phrase}s cost {abs(amount)} {change}."
        case AttributeGrant(group=group, attribute=attribute):
            verb = "has" if group in _SINGULAR_GROUPS else "have"
            return f"{_cap(group.phrase)} {verb} {attribute.label}."
    raise ValueError(f"no text for modifier {static!r}")


def cost_text(cost: TriggerCost) -> str:
    """A Trigger's cost, e.g. ``"Pay 1, secede this"``."""
    parts = []
    if cost.points:
        parts.append(f"Pay {cost.points}")
    if cost.secede_this:
        parts.append("secede this")
    if cost.discard:
        parts.append(f"discard {_cards(cost.discard)} at random")
    return _cap(", ".join(parts))


def ability_text(ability: Ability) -> str:
    """One line for an ability, e.g. ``"Trigger (quick) — Pay 1, secede this: Draw 1 card."``."""
    kind = ability.type
    if kind is AbilityType.CONTINUE:
        return "Continue: " + " ".join(static_text(static) for static in ability.statics)
    effects = " ".join(effect_text(effect) for effect in ability.effects)
    head = f"{kind.label} ({ability.speed.value})"
    if ability.cost is not None:
        return f"{head} — {cost_text(ability.cost)}: {effects}"
    if ability.trigger is not None:
        return f"{head} — When {ability.trigger.phrase}: {effects}"
    return f"{head}: {effects}"


def main_points_text(card: Card) -> str:
    """A Character's Main Points, e.g. ``"Strength d8 · Will d6 · Magic d10 · SCN 8"``; empty for Variants."""
    points = card.main_points
    if points is None:
        return ""
    return f"Strength d{points.strength} · Will d{points.will} · Magic d{points.magic} · SCN {points.scn}"


def card_text(card: Card) -> str:
    """The whole card as lines of text: name and cost, type line, attributes, points, abilities, sky."""
    lines = [f"{card.name} — cost {card.cost}",
             f"{card.element.label} {card.category.label} · {card.sublevel}"]
    if card.attributes:
        lines.append("Attributes: " + ", ".join(attribute.label for attribute in card.attributes))
    if card.main_points is not None:
        lines.append(main_points_text(card))
    lines.extend(ability_text(ability) for ability in card.abilities)
    lines.extend("Flip — " + ability_text(ability) for ability in card.flip_abilities)
    sky = "Night" if card.is_night else "Day"
    moon = f", {card.moon.value} moon" if card.moon is not None else ""
    lines.append(f"{sky} ({card.tone.value}{moon})")
    if card.flavour:
        lines.append(f"“{card.flavour}”")
    return "\n".join(lines)
