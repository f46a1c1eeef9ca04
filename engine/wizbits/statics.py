"""Continue modifiers (static abilities) and Trigger costs.

A Continue modifier applies for as long as its card is in play (a flip one:
while its card is seceded). Groups are worked out afresh at every moment, so
a character that joins "your other characters" gains the bonus at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from engine.wizbits.dice import Stat
from engine.wizbits.effects import CardFilter, Target
from engine.wizbits.terms import Attribute


class Group(StrEnum):
    """Whom a Continue modifier applies to, worked out afresh at every moment."""

    THIS_CHARACTER = "this_character"
    YOUR_MAIN = "your_main"
    YOUR_CHARACTERS = "your_characters"
    YOUR_OTHER_CHARACTERS = "your_other_characters"
    OPPOSING_CHARACTERS = "opposing_characters"

    @property
    def phrase(self) -> str:
        """The group as rules text, e.g. ``"your other characters"``."""
        return self.value.replace("_", " ").replace("your main", "your Main Character")


@dataclass(frozen=True)
class Static:
    """Base of the Continue modifiers, which apply while their card is in play (or seceded, for flip ones)."""

    KIND: ClassVar[str] = ""


@dataclass(frozen=True)
class StatBonus(Static):
    """Every character in ``group`` has ``stat`` moved ``steps`` die levels (negative lowers)."""

    KIND: ClassVar[str] = "stat_bonus"
    group: Group
    stat: Stat
    steps: int

    def __post_init__(self) -> None:
        if self.steps == 0:
            raise ValueError("a stat bonus needs a non-zero number of steps")


@dataclass(frozen=True)
class CostChange(Static):
    """Cards matching ``filter`` cost ``amount`` more for ``player`` (negative: less; never below 0)."""

    KIND: ClassVar[str] = "cost_change"
    player: Target
    filter: CardFilter
    amount: int

    def __post_init__(self) -> None:
        if self.player not in (Target.YOU, Target.OPPONENT) or self.amount == 0:
            raise ValueError("a cost change names you or the opponent and a non-zero amount")


@dataclass(frozen=True)
class AttributeGrant(Static):
    """Every character in ``group`` has ``attribute``."""

    KIND: ClassVar[str] = "attribute_grant"
    group: Group
    attribute: Attribute


STATIC_TYPES: dict[str, type[Static]] = {cls.KIND: cls for cls in (StatBonus, CostChange, AttributeGrant)}
"""Every Continue modifier class by its JSON tag."""


@dataclass(frozen=True)
class TriggerCost:
    """What a Trigger ability costs; the parts are paid together, before the effect goes on the Pillar.

    Attributes:
        points: Secession points to pay.
        secede_this: Whether the card is seceded as part of the cost (it gives no points then).
        discard: Cards the controller discards at random from hand.
    """

    points: int = 0
    secede_this: bool = False
    discard: int = 0

    def __post_init__(self) -> None:
        if self.points < 0 or self.discard < 0:
            raise ValueError("a cost can't be negative")
        if not (self.points or self.secede_this or self.discard):
            # A free Trigger could be activated without end.
            raise ValueError("a Trigger ability must cost something")
