"""The effect vocabulary: targets, effects, Continue modifiers and Trigger costs.

Every card ability is built from these small frozen values; a rules engine
interprets them generically, and :mod:`engine.wizbits.text` prints them.

Reading an effect (the contract for an interpreter):

* Every effect names a :class:`Target`. ``Target.kind`` says whether it is a
  player, a character, a card in play or a unit on the Pillar.
* Targets whose name starts with ``CHOSEN`` are picked by the effect's
  controller when the unit is put on the Pillar (a card's Income targets when
  the card is played, a flip Income's when the card is seceded, a Trigger's
  when it is activated, a Trigger-Continue's when its effect is placed). With
  no legal choice the effect does nothing; the rest of the unit still resolves.
  A chosen target that has left play by resolution is skipped.
* ``EACH_...`` targets are worked out at resolution.
* ``THIS_CARD`` and ``THIS_CHARACTER`` are the ability's own card; the
  second appears only on Characters.
* ``CHECKER`` exists only inside a :class:`Check`'s outcomes: the character
  that made the check.
* Destroy, Secede and Return-to-hand never affect a Main Character: they are
  not offered as choices and ``EACH_...`` targets pass over them.
* Numbers are exact: ``amount`` cards, points of damage, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import ClassVar, Protocol

from engine.wizbits.dice import CheckSpec, Stat
from engine.wizbits.terms import Attribute, Category, Element


class TargetKind(StrEnum):
    """What sort of thing a target is."""

    PLAYER = "player"
    CHARACTER = "character"
    CARD = "card"
    UNIT = "unit"


class Target(StrEnum):
    """Who or what an effect affects."""

    YOU = "you"
    OPPONENT = "opponent"
    THIS_CARD = "this_card"
    THIS_CHARACTER = "this_character"
    YOUR_MAIN = "your_main"
    OPPONENT_MAIN = "opponent_main"
    CHOSEN_CHARACTER = "chosen_character"
    CHOSEN_OWN_CHARACTER = "chosen_own_character"
    CHOSEN_OPPOSING_CHARACTER = "chosen_opposing_character"
    EACH_OWN_CHARACTER = "each_own_character"
    EACH_OPPOSING_CHARACTER = "each_opposing_character"
    CHECKER = "checker"
    CHOSEN_OPPOSING_CARD = "chosen_opposing_card"
    CHOSEN_OPPOSING_NON_ELEMENT = "chosen_opposing_non_element"
    CHOSEN_UNIT = "chosen_unit"
    CHOSEN_OPPOSING_UNIT = "chosen_opposing_unit"

    @property
    def kind(self) -> TargetKind:
        """Player, character, card in play or unit on the Pillar."""
        return _TARGET_KINDS[self]

    @property
    def is_chosen(self) -> bool:
        """Whether the controller picks it when the unit is put on the Pillar."""
        return self.value.startswith("chosen_")

    @property
    def phrase(self) -> str:
        """The target as rules text, e.g. ``"a chosen opposing character"``."""
        return _TARGET_PHRASES[self]


_TARGET_KINDS: dict[Target, TargetKind] = {
    Target.YOU: TargetKind.PLAYER,
    Target.OPPONENT: TargetKind.PLAYER,
    Target.THIS_CARD: TargetKind.CARD,
    Target.CHOSEN_OPPOSING_CARD: TargetKind.CARD,
    Target.CHOSEN_OPPOSING_NON_ELEMENT: TargetKind.CARD,
    Target.CHOSEN_UNIT: TargetKind.UNIT,
    Target.CHOSEN_OPPOSING_UNIT: TargetKind.UNIT,
} | {target: TargetKind.CHARACTER for target in (
    Target.THIS_CHARACTER, Target.YOUR_MAIN, Target.OPPONENT_MAIN, Target.CHOSEN_CHARACTER, Target.CHOSEN_OWN_CHARACTER,
    Target.CHOSEN_OPPOSING_CHARACTER, Target.EACH_OWN_CHARACTER, Target.EACH_OPPOSING_CHARACTER,
    Target.CHECKER,
)}

_TARGET_PHRASES: dict[Target, str] = {
    Target.YOU: "you",
    Target.OPPONENT: "your opponent",
    Target.THIS_CARD: "this card",
    Target.THIS_CHARACTER: "this character",
    Target.YOUR_MAIN: "your Main Character",
    Target.OPPONENT_MAIN: "the opposing Main Character",
    Target.CHOSEN_CHARACTER: "a chosen character",
    Target.CHOSEN_OWN_CHARACTER: "a chosen character of yours",
    Target.CHOSEN_OPPOSING_CHARACTER: "a chosen opposing character",
    Target.EACH_OWN_CHARACTER: "each of your characters",
    Target.EACH_OPPOSING_CHARACTER: "each opposing character",
    Target.CHECKER: "that character",
    Target.CHOSEN_OPPOSING_CARD: "a chosen opposing card",
    Target.CHOSEN_OPPOSING_NON_ELEMENT: "a chosen opposing Non-Element",
    Target.CHOSEN_UNIT: "a chosen unit on the Pillar",
    Target.CHOSEN_OPPOSING_UNIT: "a chosen opposing unit on the Pillar",
}

# A character is a card, so card effects (destroy, return) may also aim at characters.
_CARD_OR_CHARACTER = frozenset({TargetKind.CARD, TargetKind.CHARACTER})


class Duration(StrEnum):
    """How long a change lasts."""

    END_OF_TURN = "end_of_turn"
    PERMANENT = "permanent"


class DiscardMode(StrEnum):
    """Which cards a discard takes, chosen so that no one is asked anything."""

    RANDOM = "random"
    LOWEST_COST = "lowest_cost"


class Filterable(Protocol):
    """What a :class:`CardFilter` looks at (a card)."""

    @property
    def category(self) -> Category: ...  # noqa: D102

    @property
    def element(self) -> Element: ...  # noqa: D102

    @property
    def sublevel(self) -> str: ...  # noqa: D102


@dataclass(frozen=True)
class CardFilter:
    """Which cards qualify; every field given must match, and an empty filter takes any card.

    Attributes:
        category: The Level Category, or None for any.
        element: The element frame, or None for any.
        sublevel: The Sublevel label (matched without regard to case), or None for any.
    """

    category: Category | None = None
    element: Element | None = None
    sublevel: str | None = None

    def matches(self, card: Filterable) -> bool:
        """Whether ``card`` passes every field that is set."""
        return ((self.category is None or card.category is self.category)
                and (self.element is None or card.element is self.element)
                and (self.sublevel is None or card.sublevel.lower() == self.sublevel.lower()))

    @property
    def phrase(self) -> str:
        """The filter as a noun phrase, e.g. ``"Fire Element"`` or ``"card"``."""
        words = [self.element.label] if self.element else []
        if self.sublevel:
            words.append(self.sublevel)
        elif self.category:
            words.append(self.category.label)
        else:
            words.append("card")
        return " ".join(words)


@dataclass(frozen=True)
class Effect:
    """Base of every effect. ``KIND`` is the JSON tag; ``TARGETS`` the target kinds allowed."""

    KIND: ClassVar[str] = ""
    TARGETS: ClassVar[frozenset[TargetKind]] = frozenset()

    target: Target

    def __post_init__(self) -> None:
        if self.target.kind not in self.TARGETS:
            raise ValueError(f"{self.KIND} can't target {self.target.phrase}")
        amount = getattr(self, "amount", 1)
        if amount < 1:
            raise ValueError(f"{self.KIND} needs an amount of at least 1, not {amount}")

    def numbers(self) -> tuple[int, ...]:
        """The numbers the effect's text must show (amounts, steps, check numbers)."""
        return tuple(value for field in fields(self)
                     if isinstance(value := getattr(self, field.name), int) and not isinstance(value, bool))


_CHARACTERS = frozenset({TargetKind.CHARACTER})
_PLAYERS = frozenset({TargetKind.PLAYER})


@dataclass(frozen=True)
class Damage(Effect):
    """Deal ``amount`` damage: each point raises the character's SCN by 1."""

    KIND: ClassVar[str] = "damage"
    TARGETS: ClassVar[frozenset[TargetKind]] = _CHARACTERS
    amount: int = 1


@dataclass(frozen=True)
class Heal(Effect):
    """Remove up to ``amount`` damage: the SCN falls, never below the printed SCN."""

    KIND: ClassVar[str] = "heal"
    TARGETS: ClassVar[frozenset[TargetKind]] = _CHARACTERS
    amount: int = 1


@dataclass(frozen=True)
class Draw(Effect):
    """The player draws ``amount`` cards (drawing from an empty deck loses, as always)."""

    KIND: ClassVar[str] = "draw"
    TARGETS: ClassVar[frozenset[TargetKind]] = _PLAYERS
    amount: int = 1


@dataclass(frozen=True)
class Discard(Effect):
    """The player discards ``amount`` cards from hand, picked by ``mode`` (ties: earliest in hand)."""

    KIND: ClassVar[str] = "discard"
    TARGETS: ClassVar[frozenset[TargetKind]] = _PLAYERS
    amount: int = 1
    mode: DiscardMode = DiscardMode.RANDOM


@dataclass(frozen=True)
class Mill(Effect):
    """The top ``amount`` cards of the player's deck go to their discard pile (fewer if the deck is short)."""

    KIND: ClassVar[str] = "mill"
    TARGETS: ClassVar[frozenset[TargetKind]] = _PLAYERS
    amount: int = 1


@dataclass(frozen=True)
class GainPoints(Effect):
    """The player gains ``amount`` Secession points for their next payment this turn."""

    KIND: ClassVar[str] = "gain_points"
    TARGETS: ClassVar[frozenset[TargetKind]] = _PLAYERS
    amount: int = 1


@dataclass(frozen=True)
class ChangeStat(Effect):
    """Move a Main Point ``steps`` places along the standard die levels (negative lowers it)."""

    KIND: ClassVar[str] = "change_stat"
    TARGETS: ClassVar[frozenset[TargetKind]] = _CHARACTERS
    stat: Stat = Stat.STRENGTH
    steps: int = 1
    duration: Duration = Duration.END_OF_TURN

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.steps == 0:
            raise ValueError("change_stat needs a non-zero number of steps")

    def numbers(self) -> tuple[int, ...]:
        """The size of the change, without its sign (the text says raise or lower)."""
        return (abs(self.steps),)


@dataclass(frozen=True)
class GrantAttribute(Effect):
    """The character gains an attribute for ``duration``."""

    KIND: ClassVar[str] = "grant_attribute"
    TARGETS: ClassVar[frozenset[TargetKind]] = _CHARACTERS
    attribute: Attribute = Attribute.WARD
    duration: Duration = Duration.END_OF_TURN


@dataclass(frozen=True)
class Secede(Effect):
    """The card is seceded for no Secession points (its flip Income happens)."""

    KIND: ClassVar[str] = "secede"
    TARGETS: ClassVar[frozenset[TargetKind]] = _CARD_OR_CHARACTER


@dataclass(frozen=True)
class Destroy(Effect):
    """The card goes from play to its owner's discard pile."""

    KIND: ClassVar[str] = "destroy"
    TARGETS: ClassVar[frozenset[TargetKind]] = _CARD_OR_CHARACTER


@dataclass(frozen=True)
class ReturnToHand(Effect):
    """The card goes from play to its owner's hand, with its damage and changes gone."""

    KIND: ClassVar[str] = "return_to_hand"
    TARGETS: ClassVar[frozenset[TargetKind]] = _CARD_OR_CHARACTER


@dataclass(frozen=True)
class Search(Effect):
    """The player takes the first ``amount`` matching cards from the top of their deck, then shuffles it."""

    KIND: ClassVar[str] = "search"
    TARGETS: ClassVar[frozenset[TargetKind]] = _PLAYERS
    filter: CardFilter = CardFilter()
    amount: int = 1


@dataclass(frozen=True)
class Counter(Effect):
    """The unit leaves the Pillar without resolving (a countered card goes to the discard pile).

    With a ``filter`` only a card unit that matches it may be chosen.
    """

    KIND: ClassVar[str] = "counter"
    TARGETS: ClassVar[frozenset[TargetKind]] = frozenset({TargetKind.UNIT})
    filter: CardFilter | None = None


@dataclass(frozen=True)
class Check(Effect):
    """The target character makes a check; then one list of outcome effects happens.

    For a Break check the checker is the Main Character of the target's
    controller, so the target must be a Main Character. Outcome effects resolve
    at once, inside this unit, and ``Target.CHECKER`` names the checker there.
    """

    KIND: ClassVar[str] = "check"
    TARGETS: ClassVar[frozenset[TargetKind]] = _CHARACTERS
    spec: CheckSpec = CheckSpec(None, None)
    on_success: tuple[Effect, ...] = ()
    on_fail: tuple[Effect, ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.spec.is_break and self.target not in (Target.YOUR_MAIN, Target.OPPONENT_MAIN):
            raise ValueError("a Break check must be made by a Main Character")
        if not (self.on_success or self.on_fail):
            raise ValueError("a check effect needs a consequence")
        for outcome in (*self.on_success, *self.on_fail):
            if outcome.target.is_chosen:
                # Choices are made when the unit is played, before anyone knows the outcome.
                raise ValueError("a check's outcomes can't choose targets")

    def numbers(self) -> tuple[int, ...]:
        """The check number, if printed (outcomes report their own)."""
        return () if self.spec.number is None else (self.spec.number,)


EFFECT_TYPES: dict[str, type[Effect]] = {cls.KIND: cls for cls in (
    Damage, Heal, Draw, Discard, Mill, GainPoints, ChangeStat, GrantAttribute,
    Secede, Destroy, ReturnToHand, Search, Counter, Check,
)}
"""Every effect class by its JSON tag."""


def iter_effects(effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    """Return the effects and, depth first, every effect nested in a check's outcomes."""
    found: list[Effect] = []
    for effect in effects:
        found.append(effect)
        if isinstance(effect, Check):
            found.extend(iter_effects(effect.on_success + effect.on_fail))
    return tuple(found)
