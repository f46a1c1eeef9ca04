"""Wizards Cup card data: the 18 wizards, their powers and the element chart.

Pure data. The rules code in :mod:`engine.wizards_cup.duel` interprets the
declarative powers below; nothing here decides a duel by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Element(StrEnum):
    """The six elements."""

    VOID = "Void"
    WATER = "Water"
    FIRE = "Fire"
    NATURE = "Nature"
    LIGHT = "Light"
    SHADOW = "Shadow"


BEATS: dict[Element, frozenset[Element]] = {
    Element.WATER: frozenset({Element.FIRE, Element.LIGHT}),
    Element.FIRE: frozenset({Element.NATURE, Element.LIGHT}),
    Element.NATURE: frozenset({Element.WATER, Element.LIGHT}),
    Element.LIGHT: frozenset({Element.SHADOW}),
    Element.SHADOW: frozenset({Element.WATER, Element.FIRE, Element.NATURE}),
    Element.VOID: frozenset(),
}
"""Which elements each element beats. Void neither beats nor loses to any."""


def element_beats(attacker: Element, defender: Element) -> bool:
    """True when ``attacker``'s element beats ``defender``'s."""
    return defender in BEATS[attacker]


class Timing(StrEnum):
    """When a Magic Power is in force."""

    INSTANT = "instant"
    """In the duel where its wizard is revealed into the Duel zone."""
    ONGOING = "ongoing"
    """In every duel while its wizard stays in the Duel zone."""
    DISCARD = "discard"
    """While its wizard lies on top of its owner's discard pile."""


class Effect(StrEnum):
    """What a power does when its conditions hold."""

    WIN = "win"
    """The owner's duelling wizard wins (step A)."""
    BOTH_DISCARDED = "both_discarded"
    """Both duelling wizards are discarded (step A)."""
    LOWER_WINS = "lower_wins"
    """The lower value wins at step C instead of the higher."""
    WIN_TIES = "win_ties"
    """The owner's wizard wins at step C when the values are equal."""


class Check(StrEnum):
    """Kinds of condition a power may test."""

    OPPONENT_VALUE_AT_LEAST = "opponent_value_at_least"
    OPPONENT_VALUE_AT_MOST = "opponent_value_at_most"
    OPPONENT_ELEMENT = "opponent_element"
    OWN_ELEMENT = "own_element"
    DUEL_AT_MOST = "duel_at_most"
    DUEL_AT_LEAST = "duel_at_least"
    WAITING_ELEMENT = "waiting_element"
    DISCARDS_AT_LEAST = "discards_at_least"


@dataclass(frozen=True)
class Condition:
    """One test; ``number`` or ``element`` is set according to ``check``."""

    check: Check
    number: int = 0
    element: Element | None = None


@dataclass(frozen=True)
class Power:
    """A Magic Power: all ``conditions`` must hold for ``effect`` to apply."""

    timing: Timing
    effect: Effect
    text: str
    conditions: tuple[Condition, ...] = ()


@dataclass(frozen=True)
class Wizard:
    """One card of the set. ``card_id`` is the stable id used in actions."""

    card_id: str
    name: str
    element: Element
    value: int
    power: Power | None = None


def _when(check: Check, number: int = 0, element: Element | None = None) -> Condition:
    return Condition(check, number, element)


E, T, F, C = Element, Timing, Effect, Check

WIZARDS: tuple[Wizard, ...] = (
    Wizard("dawn-acolyte", "Dawn Acolyte", E.LIGHT, 1,
           Power(T.INSTANT, F.LOWER_WINS, "When revealed: in this duel the lower value wins.")),
    Wizard("hollow-sage", "Hollow Sage", E.VOID, 2,
           Power(T.INSTANT, F.BOTH_DISCARDED, "When revealed: both wizards are discarded.")),
    Wizard("moss-hermit", "Moss Hermit", E.NATURE, 3,
           Power(T.DISCARD, F.WIN, "On top of your discard pile: your Nature wizards win against Shadow.",
                 (_when(C.OWN_ELEMENT, element=E.NATURE), _when(C.OPPONENT_ELEMENT, element=E.SHADOW)))),
    Wizard("night-whisper", "Night Whisper", E.SHADOW, 4,
           Power(T.INSTANT, F.WIN, "When revealed: wins against any wizard of value 15 or more.",
                 (_when(C.OPPONENT_VALUE_AT_LEAST, 15),))),
    Wizard("tide-caller", "Tide Caller", E.WATER, 5,
           Power(T.DISCARD, F.WIN_TIES, "On top of your discard pile: your Water wizards win ties of value.",
                 (_when(C.OWN_ELEMENT, element=E.WATER),))),
    Wizard("grave-lurker", "Grave Lurker", E.SHADOW, 6,
           Power(T.DISCARD, F.WIN, "On top of your discard pile: your Shadow wizards win against Light.",
                 (_when(C.OWN_ELEMENT, element=E.SHADOW), _when(C.OPPONENT_ELEMENT, element=E.LIGHT)))),
    Wizard("ember-adept", "Ember Adept", E.FIRE, 7,
           Power(T.INSTANT, F.WIN, "When revealed: wins if this is the first duel of the round.",
                 (_when(C.DUEL_AT_MOST, 1),))),
    Wizard("umbral-tyrant", "Umbral Tyrant", E.SHADOW, 8,
           Power(T.INSTANT, F.WIN, "When revealed: wins if your Waiting Card is Void.",
                 (_when(C.WAITING_ELEMENT, element=E.VOID),))),
    Wizard("starless-oracle", "Starless Oracle", E.VOID, 9,
           Power(T.INSTANT, F.WIN, "When revealed: wins against any wizard of value 15 or more.",
                 (_when(C.OPPONENT_VALUE_AT_LEAST, 15),))),
    Wizard("thornmother", "Thornmother", E.NATURE, 10,
           Power(T.INSTANT, F.WIN, "When revealed: wins if your Waiting Card is Light.",
                 (_when(C.WAITING_ELEMENT, element=E.LIGHT),))),
    Wizard("brine-witch", "Brine Witch", E.WATER, 11,
           Power(T.ONGOING, F.WIN, "While in the Duel zone: wins against Shadow from duel 3 of a round on.",
                 (_when(C.OPPONENT_ELEMENT, element=E.SHADOW), _when(C.DUEL_AT_LEAST, 3)))),
    Wizard("cinder-duelist", "Cinder Duelist", E.FIRE, 12,
           Power(T.ONGOING, F.WIN, "While in the Duel zone: wins against any wizard of value 6 or less.",
                 (_when(C.OPPONENT_VALUE_AT_MOST, 6),))),
    Wizard("mist-warden", "Mist Warden", E.NATURE, 13),
    Wizard("deepwater-regent", "Deepwater Regent", E.WATER, 14),
    Wizard("lantern-knight", "Lantern Knight", E.LIGHT, 15,
           Power(T.ONGOING, F.WIN, "While in the Duel zone: wins against Void wizards.",
                 (_when(C.OPPONENT_ELEMENT, element=E.VOID),))),
    Wizard("pyre-lord", "Pyre Lord", E.FIRE, 16),
    Wizard("echo-warden", "Echo Warden", E.VOID, 17),
    Wizard("sunforged-saint", "Sunforged Saint", E.LIGHT, 18,
           Power(T.INSTANT, F.WIN, "When revealed: wins if your discard pile holds 2 or more wizards.",
                 (_when(C.DISCARDS_AT_LEAST, 2),))),
)
"""The full set of 18 wizards, by value."""

CARDS: dict[str, Wizard] = {wizard.card_id: wizard for wizard in WIZARDS}
"""Wizards by card id."""

TEAM_SIZE = 6
LINEUP_SIZE = 5
PICKS = TEAM_SIZE - 1
