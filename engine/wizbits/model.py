"""The card model: abilities and cards as frozen values, plus every enum of the vocabulary.

Import the vocabulary from here: the enums live in :mod:`engine.wizbits.terms`,
effects in :mod:`engine.wizbits.effects` and Continue modifiers in
:mod:`engine.wizbits.statics`, and this module re-exports the names a card
needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.wizbits.dice import GLOBAL_ORDER, STANDARD_DIE_LEVELS, MainPoints, Stat
from engine.wizbits.effects import Check, Effect, Target, iter_effects
from engine.wizbits.statics import AttributeGrant, Group, StatBonus, Static, TriggerCost
from engine.wizbits.terms import (
    AbilityType,
    Attribute,
    Category,
    Element,
    MoonPhase,
    Speed,
    Tone,
    TriggerEvent,
)

__all__ = [
    "Ability", "AbilityType", "Attribute", "Card", "Category", "Element", "MainPoints", "MoonPhase",
    "Speed", "Stat", "Tone", "TriggerEvent", "continuous", "income", "trigger", "when",
]

_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

# Events only a character can have happen to it.
_CHARACTER_EVENTS = frozenset({TriggerEvent.THIS_DAMAGED, TriggerEvent.THIS_ATTACKS})


@dataclass(frozen=True)
class Ability:
    """One ability of a card, normal or flip.

    Which fields matter depends on ``type``:

    * Trigger: ``cost`` is paid, then ``effects`` go on the Pillar as one unit.
    * Trigger-Continue: when ``trigger`` happens, ``effects`` go on the Pillar.
    * Continue: ``statics`` apply while the ability is live; nothing resolves.
    * Income: ``effects`` happen when the card resolves (a flip Income: when
      the card is seceded), in speed order with the card's other Incomes.

    Attributes:
        type: The ability type.
        speed: Its speed; orders a card's Incomes and marks Conflict Speed abilities.
        effects: What happens, in order, for every type but Continue.
        cost: A Trigger's cost.
        trigger: A Trigger-Continue's condition.
        statics: A Continue ability's modifiers.
    """

    type: AbilityType
    speed: Speed = Speed.NORMAL
    effects: tuple[Effect, ...] = ()
    cost: TriggerCost | None = None
    trigger: TriggerEvent | None = None
    statics: tuple[Static, ...] = ()

    def __post_init__(self) -> None:
        kind = self.type
        if (self.cost is not None) != (kind is AbilityType.TRIGGER):
            raise ValueError("a cost belongs to Trigger abilities, and every Trigger has one")
        if (self.trigger is not None) != (kind is AbilityType.TRIGGER_CONTINUE):
            raise ValueError("a trigger event belongs to Trigger-Continue abilities, and every one has one")
        if kind is AbilityType.CONTINUE:
            if self.effects or not self.statics:
                raise ValueError("a Continue ability has modifiers and no effects")
        elif self.statics or not self.effects:
            raise ValueError(f"a {kind.label} ability has effects and no modifiers")
        if any(effect.target is Target.CHECKER for effect in self.effects):
            raise ValueError("only a check's outcomes can name the checker")

    @property
    def is_conflict_speed(self) -> bool:
        """Whether the ability's unit may go on Respond and Damage pillars."""
        return self.speed is Speed.CONFLICT


def income(*effects: Effect, speed: Speed = Speed.NORMAL) -> Ability:
    """An Income ability."""
    return Ability(AbilityType.INCOME, speed, effects)


def trigger(cost: TriggerCost, *effects: Effect, speed: Speed = Speed.NORMAL) -> Ability:
    """A Trigger ability: pay ``cost``, then ``effects`` go on the Pillar."""
    return Ability(AbilityType.TRIGGER, speed, effects, cost=cost)


def when(event: TriggerEvent, *effects: Effect, speed: Speed = Speed.NORMAL) -> Ability:
    """A Trigger-Continue ability set off by ``event``."""
    return Ability(AbilityType.TRIGGER_CONTINUE, speed, effects, trigger=event)


def continuous(*statics: Static) -> Ability:
    """A Continue ability."""
    return Ability(AbilityType.CONTINUE, Speed.NORMAL, statics=statics)


@dataclass(frozen=True)
class Card:
    """A card of the set.

    Attributes:
        card_id: A lowercase slug, stable in saves and deck data.
        name: The printed name (unique in the set; deck lists match it without case).
        category: Character, Element or Non-Element.
        sublevel: The Sublevel Category, a free label such as Spell or Gear.
        element: The element frame.
        cost: The cost in Secession points.
        tone: The art's colour tone.
        moon: The Moon Phase shown on the art, if any (only night-toned cards show one).
        attributes: Keyword attributes, in printed order.
        abilities: Abilities live while the card is in play and not seceded.
        flip_abilities: Abilities live only while the card is seceded.
        main_points: A Character's Main Points; None for Variants.
        flavour: A line of flavour text, with no rules meaning.
    """

    card_id: str
    name: str
    category: Category
    sublevel: str
    element: Element
    cost: int
    tone: Tone
    moon: MoonPhase | None = None
    attributes: tuple[Attribute, ...] = ()
    abilities: tuple[Ability, ...] = ()
    flip_abilities: tuple[Ability, ...] = ()
    main_points: MainPoints | None = None
    flavour: str = ""

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise ValueError(f"card {self.card_id!r}: {problem}")

    def _problem(self) -> str | None:
        if not _SLUG.fullmatch(self.card_id):
            return "the id must be a lowercase slug"
        if not self.name.strip() or not self.sublevel.strip():
            return "a card needs a name and a Sublevel"
        if self.cost < 0:
            return "the cost can't be negative"
        if self.moon is not None and self.tone.is_day:
            # Keeps the day/night table free of contradictions: a moon means night.
            return "only night-toned cards show a Moon Phase"
        if len(set(self.attributes)) != len(self.attributes):
            return "an attribute is listed twice"
        if self.is_character:
            if self.main_points is None:
                return "a Character needs Main Points"
            if any(self.main_points.level(stat) not in STANDARD_DIE_LEVELS for stat in GLOBAL_ORDER):
                return "printed Main Points must be standard die levels"
        elif self.main_points is not None:
            return "a Variant has no Main Points"
        if not self.is_character and self._refers_to_itself_as_character():
            return "only a Character can refer to \"this character\""
        return None

    def _refers_to_itself_as_character(self) -> bool:
        for ability in (*self.abilities, *self.flip_abilities):
            if ability.trigger in _CHARACTER_EVENTS:
                return True
            if any(effect.target is Target.THIS_CHARACTER for effect in iter_effects(ability.effects)):
                return True
            if any(isinstance(static, (StatBonus, AttributeGrant)) and static.group is Group.THIS_CHARACTER
                   for static in ability.statics):
                return True
        return False

    @property
    def is_character(self) -> bool:
        """Whether the card is a Character."""
        return self.category is Category.CHARACTER

    @property
    def superlevel(self) -> str:
        """``"Character"`` or ``"Variant"``."""
        return self.category.superlevel

    @property
    def is_night(self) -> bool:
        """Night if the art shows a Moon Phase, otherwise as the tone says."""
        return self.moon is not None or not self.tone.is_day

    @property
    def is_day(self) -> bool:
        """The opposite of :attr:`is_night`."""
        return not self.is_night

    @property
    def has_conflict_speed(self) -> bool:
        """Whether the card itself may be played on Respond and Damage pillars."""
        return Attribute.CONFLICT_SPEED in self.attributes

    @property
    def has_flip_abilities(self) -> bool:
        """Whether seceding the card brings any ability into play."""
        return bool(self.flip_abilities)

    @property
    def incomes(self) -> tuple[Ability, ...]:
        """The Income abilities in Reverse Pillar order: fastest first, printed order within a speed."""
        return _reverse_pillar(self.abilities)

    @property
    def flip_incomes(self) -> tuple[Ability, ...]:
        """The flip Income abilities, in the order they happen when the card is seceded."""
        return _reverse_pillar(self.flip_abilities)

    @property
    def effects(self) -> tuple[Effect, ...]:
        """Every effect on the card, normal and flip, checks' outcomes included."""
        return tuple(effect for ability in (*self.abilities, *self.flip_abilities)
                     for effect in iter_effects(ability.effects))

    @property
    def checks(self) -> tuple[Check, ...]:
        """Every check effect on the card."""
        return tuple(effect for effect in self.effects if isinstance(effect, Check))


def _reverse_pillar(abilities: tuple[Ability, ...]) -> tuple[Ability, ...]:
    # sorted() is stable, so equal speeds keep their printed order.
    incomes = [ability for ability in abilities if ability.type is AbilityType.INCOME]
    return tuple(sorted(incomes, key=lambda ability: -ability.speed.rank))
