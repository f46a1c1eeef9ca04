"""The card vocabulary's enums: categories, elements, tones, speeds, attributes, triggers.

Kept apart from :mod:`engine.wizbits.model` so the effect vocabulary can use
them without an import cycle; :mod:`engine.wizbits.model` re-exports them all.
"""

from __future__ import annotations

from enum import StrEnum


class Category(StrEnum):
    """A card's Level Category (for Characters, also its Superlevel Category)."""

    CHARACTER = "character"
    ELEMENT = "element"
    NON_ELEMENT = "non_element"

    @property
    def superlevel(self) -> str:
        """``"Character"`` or ``"Variant"``: Elements and Non-Elements are both Variants."""
        return "Character" if self is Category.CHARACTER else "Variant"

    @property
    def label(self) -> str:
        """The name used in rules text, e.g. ``"Non-Element"``."""
        return {"character": "Character", "element": "Element", "non_element": "Non-Element"}[self.value]


class Element(StrEnum):
    """A card's element frame."""

    VOID = "void"
    WATER = "water"
    FIRE = "fire"
    NATURE = "nature"
    LIGHT = "light"
    SHADOW = "shadow"

    @property
    def label(self) -> str:
        """The capitalised name, e.g. ``"Fire"``."""
        return self.value.capitalize()


class Tone(StrEnum):
    """A card's colour tone: four day tones and four night tones."""

    CYAN = "cyan"
    YELLOW = "yellow"
    WHITE = "white"
    GREEN = "green"
    RED = "red"
    HAZEL = "hazel"
    BLACK = "black"
    BLUE = "blue"

    @property
    def is_day(self) -> bool:
        """Whether the tone is a day tone (cyan, yellow, white, green)."""
        return self in _DAY_TONES


_DAY_TONES = frozenset({Tone.CYAN, Tone.YELLOW, Tone.WHITE, Tone.GREEN})


class MoonPhase(StrEnum):
    """A Moon Phase shown on a card's art."""

    NEW = "new"
    CRESCENT = "crescent"
    HALF = "half"
    GIBBOUS = "gibbous"
    FULL = "full"


class AbilityType(StrEnum):
    """The four ability types of the rulebook."""

    TRIGGER = "trigger"
    TRIGGER_CONTINUE = "trigger_continue"
    CONTINUE = "continue"
    INCOME = "income"

    @property
    def label(self) -> str:
        """The name used in rules text, e.g. ``"Trigger-Continue"``."""
        return self.value.replace("_", "-").title()


class Speed(StrEnum):
    """How fast an ability is. Ordered: ``rank`` grows with speed.

    A card's Income abilities resolve fastest first on its Reverse Pillar. An
    ability of ``CONFLICT`` speed is a Conflict Speed unit, the only kind (with
    cards that have the Conflict Speed attribute) allowed in Respond and Damage
    pillars.
    """

    SLOW = "slow"
    NORMAL = "normal"
    QUICK = "quick"
    CONFLICT = "conflict"

    @property
    def rank(self) -> int:
        """0 for slow up to 3 for conflict: higher resolves first."""
        return _SPEED_ORDER.index(self)


_SPEED_ORDER = (Speed.SLOW, Speed.NORMAL, Speed.QUICK, Speed.CONFLICT)


class Attribute(StrEnum):
    """Keyword attributes. Each works as a static ability with a one-line rule (see ``rule``)."""

    CONFLICT_SPEED = "conflict_speed"
    WARD = "ward"
    TOUGH = "tough"
    ELUSIVE = "elusive"
    OFFERING = "offering"

    @property
    def label(self) -> str:
        """The name printed on cards, e.g. ``"Conflict Speed"``."""
        return self.value.replace("_", " ").title()

    @property
    def rule(self) -> str:
        """The attribute's rule, in one line."""
        return _ATTRIBUTE_RULES[self]


_ATTRIBUTE_RULES: dict[Attribute, str] = {
    Attribute.CONFLICT_SPEED: "This card may also be played on Respond and Damage pillars.",
    Attribute.WARD: "The opponent's effects can't choose this card; effects that say \"each\" still reach it.",
    Attribute.TOUGH: "The first point of damage dealt to this character in each turn is ignored.",
    Attribute.ELUSIVE: ("Only characters with Elusive can be put in a battle against this character, "
                        "whether it attacks or defends."),
    Attribute.OFFERING: "Seceding this card to gather Secession points gives 3 points instead of 2.",
}


class TriggerEvent(StrEnum):
    """What sets off a Trigger-Continue ability. Each is an event the engine already sees."""

    THIS_DESTROYED = "this_destroyed"
    OWN_CHARACTER_DESTROYED = "own_character_destroyed"
    THIS_DAMAGED = "this_damaged"
    THIS_ATTACKS = "this_attacks"
    OPPONENT_PLAYS_ELEMENT = "opponent_plays_element"
    YOU_SECEDE_ANOTHER = "you_secede_another"
    OWN_CHECK_FAILS = "own_check_fails"

    @property
    def phrase(self) -> str:
        """The condition as rules text, after "When"."""
        return _TRIGGER_PHRASES[self]


_TRIGGER_PHRASES: dict[TriggerEvent, str] = {
    TriggerEvent.THIS_DESTROYED: "this card is destroyed",
    TriggerEvent.OWN_CHARACTER_DESTROYED: "another character of yours is destroyed",
    TriggerEvent.THIS_DAMAGED: "this character is dealt damage",
    TriggerEvent.THIS_ATTACKS: "this character is declared as an attacker",
    TriggerEvent.OPPONENT_PLAYS_ELEMENT: "your opponent plays an Element",
    TriggerEvent.YOU_SECEDE_ANOTHER: "you secede another card",
    TriggerEvent.OWN_CHECK_FAILS: "a check made by one of your characters fails",
}
