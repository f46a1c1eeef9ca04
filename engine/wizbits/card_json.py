"""JSON for the card vocabulary: effects and Continue modifiers as plain values, and back.

Kept apart from the vocabulary itself: rules never need it, saves and tools do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from enum import StrEnum
from typing import Any

from engine.wizbits.dice import CheckSpec, MainPoints, Stat, check_text, parse_check
from engine.wizbits.effects import EFFECT_TYPES, CardFilter, DiscardMode, Duration, Effect, Target
from engine.wizbits.statics import STATIC_TYPES, Group, Static, TriggerCost
from engine.wizbits.model import Ability, Card
from engine.wizbits.terms import AbilityType, Attribute, Category, Element, MoonPhase, Speed, Tone, TriggerEvent

JsonDict = dict[str, Any]


def _encode(value: object) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, CheckSpec):
        return check_text(value)
    if isinstance(value, (CardFilter, TriggerCost)):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)
                if getattr(value, f.name) not in (None, 0, False)}
    if isinstance(value, tuple):
        return [to_json(item) for item in value]
    return value


def to_json(value: Effect | Static) -> JsonDict:
    """Return an effect or Continue modifier as plain JSON values, tagged with ``kind``."""
    return {"kind": value.KIND} | {f.name: _encode(getattr(value, f.name)) for f in fields(value)}


_DECODERS: dict[str, Any] = {
    "target": Target, "player": Target, "mode": DiscardMode, "stat": Stat, "duration": Duration,
    "attribute": Attribute, "group": Group, "spec": parse_check,
    "filter": lambda data: None if data is None else CardFilter(
        Category(data["category"]) if "category" in data else None,
        Element(data["element"]) if "element" in data else None,
        data.get("sublevel")),
    "on_success": lambda items: tuple(effect_from_json(item) for item in items),
    "on_fail": lambda items: tuple(effect_from_json(item) for item in items),
}


def _decode_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    return {name: _DECODERS.get(name, lambda value: value)(value)
            for name, value in data.items() if name != "kind"}


def effect_from_json(data: Mapping[str, Any]) -> Effect:
    """Rebuild an effect from :func:`to_json` output.

    Raises:
        ValueError: Unknown kind or fields, or values the effect refuses.
    """
    try:
        return EFFECT_TYPES[data["kind"]](**_decode_fields(data))
    except (KeyError, TypeError) as error:
        raise ValueError(f"not an effect: {dict(data)!r}") from error


def static_from_json(data: Mapping[str, Any]) -> Static:
    """Rebuild a Continue modifier from :func:`to_json` output.

    Raises:
        ValueError: Unknown kind or fields.
    """
    try:
        return STATIC_TYPES[data["kind"]](**_decode_fields(data))
    except (KeyError, TypeError) as error:
        raise ValueError(f"not a Continue modifier: {dict(data)!r}") from error


def ability_to_json(ability: Ability) -> JsonDict:
    """Return an ability as plain JSON values; parts its type doesn't use are left out."""
    data: JsonDict = {"type": ability.type.value, "speed": ability.speed.value}
    if ability.cost is not None:
        data["cost"] = _encode(ability.cost)
    if ability.trigger is not None:
        data["trigger"] = ability.trigger.value
    if ability.effects:
        data["effects"] = [to_json(effect) for effect in ability.effects]
    if ability.statics:
        data["statics"] = [to_json(static) for static in ability.statics]
    return data


def ability_from_json(data: Mapping[str, Any]) -> Ability:
    """Rebuild an ability from :func:`ability_to_json` output."""
    cost = data.get("cost")
    return Ability(
        AbilityType(data["type"]),
        Speed(data["speed"]),
        tuple(effect_from_json(item) for item in data.get("effects", ())),
        None if cost is None else TriggerCost(**cost),
        None if data.get("trigger") is None else TriggerEvent(data["trigger"]),
        tuple(static_from_json(item) for item in data.get("statics", ())),
    )


def card_to_json(card: Card) -> JsonDict:
    """Return a card as plain JSON values."""
    points = card.main_points
    return {
        "id": card.card_id,
        "name": card.name,
        "category": card.category.value,
        "sublevel": card.sublevel,
        "element": card.element.value,
        "cost": card.cost,
        "tone": card.tone.value,
        "moon": None if card.moon is None else card.moon.value,
        "attributes": [attribute.value for attribute in card.attributes],
        "abilities": [ability_to_json(ability) for ability in card.abilities],
        "flip_abilities": [ability_to_json(ability) for ability in card.flip_abilities],
        "main_points": None if points is None else {
            "strength": points.strength, "will": points.will, "magic": points.magic, "scn": points.scn},
        "flavour": card.flavour,
    }


def card_from_json(data: Mapping[str, Any]) -> Card:
    """Rebuild a card from :func:`card_to_json` output.

    Raises:
        ValueError: The data does not describe a valid card.
    """
    try:
        points = data["main_points"]
        return Card(
            card_id=data["id"],
            name=data["name"],
            category=Category(data["category"]),
            sublevel=data["sublevel"],
            element=Element(data["element"]),
            cost=data["cost"],
            tone=Tone(data["tone"]),
            moon=None if data["moon"] is None else MoonPhase(data["moon"]),
            attributes=tuple(Attribute(value) for value in data["attributes"]),
            abilities=tuple(ability_from_json(item) for item in data["abilities"]),
            flip_abilities=tuple(ability_from_json(item) for item in data["flip_abilities"]),
            main_points=None if points is None else MainPoints(**points),
            flavour=data.get("flavour", ""),
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"not a card: {error}") from error
