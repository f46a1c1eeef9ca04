"""Duel resolution: Magic Powers (A), then elements (B), then values (C).

Everything here is a pure function of the two sides, so the bots can run
thousands of hypothetical duels without touching a game state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.wizards_cup.cards import Check, Condition, Effect, Power, Timing, Wizard, element_beats


@dataclass(frozen=True)
class Side:
    """One player's half of a duel.

    Attributes:
        wizard: The wizard in the Duel zone.
        fresh: True if it was revealed into the zone for this duel.
        waiting: The owner's Waiting Card.
        discard: The owner's discard pile, bottom first.
    """

    wizard: Wizard
    fresh: bool
    waiting: Wizard | None
    discard: Sequence[Wizard] = ()


@dataclass(frozen=True)
class ActivePower:
    """A power in force whose conditions hold this duel."""

    side: int
    source: Wizard
    power: Power

    @property
    def summary(self) -> str:
        """The power's text without its timing prefix."""
        text = self.power.text.rstrip(".")
        return text.split(": ", 1)[1] if ": " in text else text

    def summary_for(self, owner: str | None) -> str:
        """The summary with the card's "your" naming the power's owner.

        A duel's reason is read from both seats, where the card's own "your
        Waiting Card" would point at the reader's card; "Ana's Waiting Card"
        cannot. Without an owner (a bot's hypothetical duel) the text stays.
        """
        if owner is None:
            return self.summary
        # A function, not a template: a name is never read as a backreference.
        return re.sub(r"\b[Yy]our\b", lambda _: f"{owner}'s", self.summary)


@dataclass(frozen=True)
class DuelOutcome:
    """How a duel ended and why.

    Attributes:
        winner: Winning side (0 or 1), or None when both wizards are discarded.
        step: "power", "element" or "value": the step that decided.
        why: Short explanation, e.g. "Fire beats Nature".
        active: Powers whose conditions held, in side order.
        clash: True when powers gave contradictory outcomes and were set aside.
    """

    winner: int | None
    step: str
    why: str
    active: tuple[ActivePower, ...] = ()
    clash: bool = False


def powers_in_force(side: Side) -> list[tuple[Wizard, Power]]:
    """Powers that act for ``side`` this duel, before checking conditions."""
    found: list[tuple[Wizard, Power]] = []
    power = side.wizard.power
    if power is not None:
        if power.timing is Timing.ONGOING or (power.timing is Timing.INSTANT and side.fresh):
            found.append((side.wizard, power))
    if side.discard:
        top = side.discard[-1]
        if top.power is not None and top.power.timing is Timing.DISCARD:
            found.append((top, top.power))
    return found


def condition_holds(condition: Condition, own: Side, opponent: Side, duel_number: int) -> bool:
    """Evaluate one condition from the power owner's point of view."""
    check = condition.check
    if check is Check.OPPONENT_VALUE_AT_LEAST:
        return opponent.wizard.value >= condition.number
    if check is Check.OPPONENT_VALUE_AT_MOST:
        return opponent.wizard.value <= condition.number
    if check is Check.OPPONENT_ELEMENT:
        return opponent.wizard.element == condition.element
    if check is Check.OWN_ELEMENT:
        return own.wizard.element == condition.element
    if check is Check.DUEL_AT_MOST:
        return duel_number <= condition.number
    if check is Check.DUEL_AT_LEAST:
        return duel_number >= condition.number
    if check is Check.WAITING_ELEMENT:
        return own.waiting is not None and own.waiting.element == condition.element
    if check is Check.DISCARDS_AT_LEAST:
        return len(own.discard) >= condition.number
    raise AssertionError(f"unhandled condition {check}")


def active_powers(sides: tuple[Side, Side], duel_number: int) -> tuple[ActivePower, ...]:
    """Powers in force on either side whose conditions all hold."""
    active: list[ActivePower] = []
    for index, side in enumerate(sides):
        opponent = sides[1 - index]
        for source, power in powers_in_force(side):
            if all(condition_holds(c, side, opponent, duel_number) for c in power.conditions):
                active.append(ActivePower(index, source, power))
    return tuple(active)


def resolve_duel(sides: tuple[Side, Side], duel_number: int,
                 owners: tuple[str, str] | None = None) -> DuelOutcome:
    """Decide a duel by the rulebook's A, B, C order.

    A: if the deciding powers (win, both discarded) agree on one outcome, it
    stands; if they contradict, they are all set aside. B: element. C: value,
    reversed if any lower-value power is in force; equal values discard both
    unless exactly one side wins ties.

    ``owners`` names the two sides in ``why``, so a power always says whose it
    is ("Ana's Hollow Sage"), which matters most when both sides hold the same
    wizard or a power works from a discard pile. Without them (the bots'
    hypothetical duels) a power goes by its wizard's name alone.
    """

    def _names(powers: Sequence[ActivePower]) -> str:
        return " and ".join(f"{owners[p.side]}'s {p.source.name}" if owners else p.source.name for p in powers)

    active = active_powers(sides, duel_number)
    deciding = [p for p in active if p.power.effect in (Effect.WIN, Effect.BOTH_DISCARDED)]
    outcomes = {p.side if p.power.effect is Effect.WIN else None for p in deciding}
    clash = len(outcomes) > 1
    if len(outcomes) == 1:
        winner = outcomes.pop()
        first = deciding[0]
        owner = owners[first.side] if owners else None
        why = f"{_names(deciding)}: {first.summary_for(owner)}" if len(deciding) == 1 else f"{_names(deciding)} agree"
        return DuelOutcome(winner, "power", why, active)
    prefix = f"{_names(deciding)} clash and cancel, so " if clash else ""

    first_wizard, second_wizard = sides[0].wizard, sides[1].wizard
    for index, (mine, theirs) in enumerate(((first_wizard, second_wizard), (second_wizard, first_wizard))):
        if element_beats(mine.element, theirs.element):
            return DuelOutcome(index, "element", f"{prefix}{mine.element} beats {theirs.element}", active, clash)

    if first_wizard.value == second_wizard.value:
        tie_winners = {p.side for p in active if p.power.effect is Effect.WIN_TIES}
        if len(tie_winners) == 1:
            side = tie_winners.pop()
            holders = [p for p in active if p.power.effect is Effect.WIN_TIES]
            return DuelOutcome(side, "value", f"{prefix}equal values, and {_names(holders)} wins the tie", active, clash)
        return DuelOutcome(None, "value", f"{prefix}equal values discard both", active, clash)

    reversers = [p for p in active if p.power.effect is Effect.LOWER_WINS]
    high, low = (0, 1) if first_wizard.value > second_wizard.value else (1, 0)
    high_value, low_value = sides[high].wizard.value, sides[low].wizard.value
    if reversers:
        return DuelOutcome(
            low, "value", f"{prefix}{_names(reversers)} makes the lower value win, {low_value} against {high_value}",
            active, clash,
        )
    return DuelOutcome(high, "value", f"{prefix}{high_value} is higher than {low_value}", active, clash)
