"""Die levels, the check forms and seeded check rolls.

A check names what it rolls and what it must beat. Its printed forms, exactly
as :func:`check_text` writes them and :func:`parse_check` reads them back::

    Will Check 8                      one Main Point against a number
    Strength Check Break 4            the same, made by the checker's Main Character
    Special Magic Check               one Main Point against the character's SCN
    Special Magic Check Break         the same, by the checker's Main Character
    Global Check 15                   Strength + Will + Magic against a number
    Global Check Break 15             the same, by the checker's Main Character
    Special Check Global Check        Strength + Will + Magic against the SCN
    Special Check Break Global Check  the same, by the checker's Main Character

A check succeeds only when the total is strictly higher than the number.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

STANDARD_DIE_LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 8, 10, 12, 20)
"""The dice a check may roll; every other value rounds down to one of these."""


class Stat(StrEnum):
    """The three Main Points that are die levels."""

    STRENGTH = "strength"
    WILL = "will"
    MAGIC = "magic"

    @property
    def label(self) -> str:
        """The capitalised name used in rules text, e.g. ``"Will"``."""
        return self.value.capitalize()


GLOBAL_ORDER: tuple[Stat, ...] = (Stat.STRENGTH, Stat.WILL, Stat.MAGIC)
"""The order in which a Global check rolls (and reports) its three dice."""


@lru_cache(maxsize=256)
def die_level(value: int) -> int:
    """Return the standard die level for a Main Point value.

    Non-standard values round down to the next standard level; values above 20
    use 20 and values below 1 use 1.
    """
    return max((level for level in STANDARD_DIE_LEVELS if level <= value), default=1)


def step_die_level(level: int, steps: int) -> int:
    """Move a die level ``steps`` places along the standard ladder, clamped to d1..d20.

    Effects that change a Main Point count in these steps, so +1 on a d6 gives a d8.
    """
    index = STANDARD_DIE_LEVELS.index(die_level(level)) + steps
    return STANDARD_DIE_LEVELS[min(max(index, 0), len(STANDARD_DIE_LEVELS) - 1)]


@dataclass(frozen=True)
class MainPoints:
    """A character's Main Points, as printed or as they stand in play.

    Printed cards use standard die levels (the card model checks that); values
    changed in play may be anything, and a roll rounds them with :func:`die_level`.

    Attributes:
        strength: Strength die level.
        will: Will die level.
        magic: Magic die level.
        scn: The Special Check Number, which damage raises during play.
    """

    strength: int
    will: int
    magic: int
    scn: int

    def level(self, stat: Stat) -> int:
        """Return the value of one Main Point."""
        return int(getattr(self, stat))  # a StrEnum is its value's string, without the slow ``.value``


class CheckFormError(ValueError):
    """A check's text is not one of the printed check forms."""


@dataclass(frozen=True)
class CheckSpec:
    """What a check rolls and what it must beat.

    Attributes:
        stat: The Main Point rolled, or None for a Global check (all three).
        number: The number to beat, or None for a Special check (the SCN).
        is_break: Whether the checker's Main Character makes the check.
    """

    stat: Stat | None
    number: int | None
    is_break: bool = False

    def __post_init__(self) -> None:
        if self.number is not None and self.number < 0:
            raise ValueError(f"a check number can't be negative: {self.number}")

    @property
    def is_global(self) -> bool:
        """Whether the check rolls Strength, Will and Magic together."""
        return self.stat is None

    @property
    def is_special(self) -> bool:
        """Whether the check is made against the SCN instead of a printed number."""
        return self.number is None

    @property
    def stats(self) -> tuple[Stat, ...]:
        """The Main Points rolled, in rolling order."""
        return GLOBAL_ORDER if self.stat is None else (self.stat,)

    @property
    def loses_game(self) -> bool:
        """Whether failing it loses the game (a Special Check Break Global Check)."""
        return self.is_global and self.is_special and self.is_break


SPECIAL_CHECK_BREAK_GLOBAL_CHECK = CheckSpec(None, None, is_break=True)
"""The Test Phase check; failing it loses the game."""

SPECIAL_CHECK_GLOBAL_CHECK = CheckSpec(None, None)
"""The end-of-battle check; a failing character is destroyed (seceded, outside battle)."""


def check_text(spec: CheckSpec) -> str:
    """Return the printed form of a check, e.g. ``"Strength Check Break 4"``."""
    brk = " Break" if spec.is_break else ""
    if spec.stat is None:
        if spec.number is None:
            return f"Special Check{brk} Global Check"
        return f"Global Check{brk} {spec.number}"
    if spec.number is None:
        return f"Special {spec.stat.label} Check{brk}"
    return f"{spec.stat.label} Check{brk} {spec.number}"


_STAT = "(?P<stat>strength|will|magic)"
_FORMS = (
    re.compile(r"special check(?P<brk> break)? global check"),
    re.compile(r"global check(?P<brk> break)? (?P<number>\d+)"),
    re.compile(rf"special {_STAT} check(?P<brk> break)?"),
    re.compile(rf"{_STAT} check(?P<brk> break)? (?P<number>\d+)"),
)


def parse_check(text: str) -> CheckSpec:
    """Read a printed check form (any letter case, any spacing).

    Raises:
        CheckFormError: The text is not one of the forms in the module docstring.
    """
    words = " ".join(text.lower().split())
    for form in _FORMS:
        match = form.fullmatch(words)
        if match is None:
            continue
        found = match.groupdict()
        stat = Stat(found["stat"]) if found.get("stat") else None
        number = int(found["number"]) if found.get("number") else None
        return CheckSpec(stat, number, is_break=bool(found["brk"]))
    raise CheckFormError(f"not a check: {text!r}")


@dataclass(frozen=True)
class CheckRoll:
    """One check as rolled: the record an event carries.

    Attributes:
        spec: The check made.
        stats: The Main Points rolled, in order.
        dice: The die level rolled for each of them.
        rolls: Each die's result.
        number: The number the total had to beat (the SCN for a Special check).
    """

    spec: CheckSpec
    stats: tuple[Stat, ...]
    dice: tuple[int, ...]
    rolls: tuple[int, ...]
    number: int

    @property
    def total(self) -> int:
        """The sum of the rolls."""
        return sum(self.rolls)

    @property
    def success(self) -> bool:
        """Whether the total is strictly higher than the number."""
        return self.total > self.number

    def to_json(self) -> dict[str, Any]:
        """Return the roll as plain JSON values."""
        return {
            "check": check_text(self.spec),
            "stats": [stat.value for stat in self.stats],
            "dice": list(self.dice),
            "rolls": list(self.rolls),
            "total": self.total,
            "number": self.number,
            "special": self.spec.is_special,
            "success": self.success,
        }

    def describe(self) -> str:
        """One line for the game log, e.g. ``"Will Check 8: d6 rolled 5 against 8: failure"``."""
        dice = "+".join(f"d{level}" for level in self.dice)
        rolled = "+".join(str(roll) for roll in self.rolls)
        if len(self.rolls) > 1:
            rolled += f" = {self.total}"
        against = f"SCN {self.number}" if self.spec.is_special else str(self.number)
        outcome = "success" if self.success else "failure"
        return f"{check_text(self.spec)}: {dice} rolled {rolled} against {against}: {outcome}"


def roll_check(rng: random.Random, spec: CheckSpec, points: MainPoints, scn: int | None = None) -> CheckRoll:
    """Roll a check for a character, drawing every die from ``rng``.

    Args:
        rng: The seeded generator the caller owns; nothing else is consulted.
        spec: The check to make.
        points: The checking character's current Main Points. Values that are not
            standard die levels (after effects changed them) round down.
        scn: The character's current SCN (printed SCN plus damage); defaults to
            ``points.scn``. Used only by Special checks.
    """
    stats = spec.stats
    dice = tuple(die_level(points.level(stat)) for stat in stats)
    rolls = tuple(rng.randint(1, level) for level in dice)
    if spec.number is not None:
        number = spec.number
    else:
        number = points.scn if scn is None else scn
    return CheckRoll(spec, stats, dice, rolls, number)
