"""Sentences about the Pillar for event logs and screens.

The Rules Text Format (RTF) setting only changes one word: RTF 1 says
"Subpillar" and RTF 2 says "Spire".
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.wizbits.pillar.tree import MAIN, Unit
from engine.wizbits.terms import Speed

RTFS = (1, 2)
_SUBPILLAR_WORDS = {1: "Subpillar", 2: "Spire"}


class UnknownRtfError(ValueError):
    """The Rules Text Format is neither 1 nor 2."""


def subpillar_word(rtf: int) -> str:
    """What texts call a subpillar under ``rtf``: "Subpillar" (1) or "Spire" (2).

    Raises:
        UnknownRtfError: ``rtf`` is not 1 or 2.
    """
    try:
        return _SUBPILLAR_WORDS[rtf]
    except KeyError:
        raise UnknownRtfError(f"the Rules Text Format is 1 or 2, not {rtf!r}") from None


def branch_name(branch: int, rtf: int) -> str:
    """"main pillar" for branch 0, else e.g. "Subpillar 3" or "Spire 3"."""
    word = subpillar_word(rtf)
    return "main pillar" if branch == MAIN else f"{word} {branch}"


def unit_label(unit: Unit, rtf: int) -> str:
    """A unit's name with its IPH, and its subpillar when it is not on the main pillar."""
    where = "" if unit.branch == MAIN else f", {branch_name(unit.branch, rtf)}"
    return f"{unit.name} (IPH {unit.iph}{where})"


def prevails_reason(high: Unit, low: Unit) -> str:
    """Why ``high`` prevails over ``low`` on conflicts at one height, in words.

    Examples:
        "IPH 3 beats IPH 2" or "same IPH: played later".
    """
    if high.iph != low.iph:
        return f"IPH {high.iph} beats IPH {low.iph}"
    return "same IPH: played later"


def describe_group(group: Sequence[Unit], rtf: int) -> str:
    """One sentence explaining a resolution step: what resolves, and why.

    Args:
        group: a step as :meth:`Pillar.next_group` gives it, in increasing precedence.

    Examples:
        "Greatest remaining height: 3. C (IPH 2, Subpillar 1) resolves alone."
        "Greatest remaining height: 2. B (IPH 2) and X (IPH 1, Subpillar 1) resolve together;
        IPH 2 beats IPH 1, so B prevails on conflicts."

    Raises:
        ValueError: the group is empty or mixes heights.
    """
    if not group:
        raise ValueError("an empty group does not resolve")
    heights = {unit.height for unit in group}
    if len(heights) != 1:
        raise ValueError(f"a resolution step has one height, not {sorted(heights)}")
    # The strongest first reads naturally; sort rather than trust the caller's order.
    ranked = sorted(group, key=lambda unit: unit.precedence, reverse=True)
    opening = f"Greatest remaining height: {group[0].height}. "
    labels = [unit_label(unit, rtf) for unit in ranked]
    if len(ranked) == 1:
        return f"{opening}{labels[0]} resolves alone."
    together = f"{', '.join(labels[:-1])} and {labels[-1]} resolve together"
    if len(ranked) == 2:
        winner, loser = ranked
        return f"{opening}{together}; {prevails_reason(winner, loser)}, so {winner.name} prevails on conflicts."
    # Each unit beats the next one down: say why at every link of the chain.
    why = [prevails_reason(high, low) for high, low in zip(ranked, ranked[1:], strict=False)]
    rest = ", then ".join(f"{unit.name} ({reason})" for unit, reason in zip(ranked[1:], why[1:], strict=False))
    return f"{opening}{together}; on conflicts {ranked[0].name} prevails ({why[0]}), then {rest}."


def _speed_word(speed: Speed) -> str:
    return "Conflict Speed" if speed is Speed.CONFLICT else speed.value


def reverse_reason(speeds: Sequence[Speed], step: int) -> str:
    """Why a card's Income is ``step`` (from 1) on its Reverse Pillar, given its Incomes' speeds in that order.

    Examples:
        "Reverse Pillar: Conflict Speed first", "Reverse Pillar: quick before normal",
        "Reverse Pillar: same speed, printed order".
    """
    speed = speeds[step - 1]
    if step == 1:
        if all(other is speed for other in speeds):
            return "Reverse Pillar: same speed, printed order"
        return f"Reverse Pillar: {_speed_word(speed)} first"
    before = speeds[step - 2]
    if before.rank > speed.rank:
        return f"Reverse Pillar: {_speed_word(before)} before {_speed_word(speed)}"
    return "Reverse Pillar: same speed, printed order"
