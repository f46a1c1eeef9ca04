"""What the Normal bot knows about a position: check odds, the race between the Main Characters.

Everything here reads a :class:`~engine.wizbits.views.WizbitsView` and the
printed cards, never the game state, so a bot built on it can't peek at the
opponent's hand or either deck's order. Values are in "cards": one card in
hand is worth about 1, winning the game :data:`WIN`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.dice import GLOBAL_ORDER, CheckSpec, MainPoints, Stat, die_level, step_die_level
from engine.wizbits.effects import Counter, Damage, Effect, Heal, Target
from engine.wizbits.model import Card
from engine.wizbits.views import PermanentView, WizbitsView

WIN = 30.0
"""Winning the game, in cards."""

RACE_CHECKS = 6
"""How many coming Break Tests the race between the Main Characters looks at."""
PRESSURE = 3
"""Damage each Main Character is expected to take per turn to come (see :func:`race`)."""
EDGE = 0.9
"""What it is worth to Normal that the game goes on past the next few Tests (a share of :data:`WIN`).

Normal expects to outplay its opponent over a long game, so a battle that may
end the game at once, even as a fair coin, gives that up; a battle that only
brings a sure loss of the opposing Main forward gives nothing up. See
:func:`race`'s ``edge``.
"""

BATTLE_PHASES = frozenset({"respond", "divide", "damage"})


@lru_cache(maxsize=None)
def _at_most(dice: tuple[int, ...]) -> tuple[float, ...]:
    """``result[k]`` is the chance that the dice sum to at most ``k`` (exact, by convolution)."""
    counts = [1.0]
    for sides in dice:
        grown = [0.0] * (len(counts) + sides)
        for total, weight in enumerate(counts):
            for face in range(1, sides + 1):
                grown[total + face] += weight / sides
        counts = grown
    running, cumulative = 0.0, []
    for weight in counts:
        running += weight
        cumulative.append(running)
    return tuple(cumulative)


@lru_cache(maxsize=4096)
def chance_at_most(dice: tuple[int, ...], number: int) -> float:
    """The chance that rolling ``dice`` gives ``number`` or less: a check against ``number`` fails."""
    table = _at_most(tuple(sorted(die_level(d) for d in dice)))
    if number < 0:
        return 0.0
    return table[min(number, len(table) - 1)]


def global_fail(points: MainPoints, extra: int = 0) -> float:
    """The chance a Special Check Global Check fails with ``extra`` more damage on the character."""
    return chance_at_most((points.strength, points.will, points.magic), points.scn + extra)  # GLOBAL_ORDER


def check_fail(points: MainPoints, spec: CheckSpec) -> float:
    """The chance any check form fails for a character with these points."""
    dice = tuple(points.level(stat) for stat in spec.stats)
    return chance_at_most(dice, points.scn if spec.number is None else spec.number)


def stepped(points: MainPoints, stat: Stat, steps: int) -> MainPoints:
    """Points with one Main Point moved ``steps`` die levels."""
    values = {s.value: points.level(s) for s in GLOBAL_ORDER}
    values[stat.value] = step_die_level(values[stat.value], steps)
    return MainPoints(values["strength"], values["will"], values["magic"], points.scn)


@dataclass
class Board:
    """A view read once for one decision: who is who and what is in play.

    ``perms`` are the cards in play with the damage and healing that stand
    unresolved on the Pillar already counted in; ``counters`` maps each unit
    to the counter units aimed at it. The rest are caches for one decision.
    """

    view: WizbitsView
    me: int

    def __post_init__(self) -> None:
        self.units: dict[int, dict[str, Any]] = {
            int(unit["uid"]): unit for unit in (self.view.pillar or {}).get("units", [])}
        self.perms: dict[int, PermanentView] = {}
        self._race: float | None = None
        self.unit_values: dict[int, float] = {}
        self.battle_values: dict[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], float] = {}
        self.counters: dict[int, list[int]] = {}  # unit uid -> the counter units aimed at it
        coming = self._coming_damage()
        for player in self.view.players:
            for perm in player.in_play:
                extra = coming.get(perm.iid, 0)
                if extra and perm.points is not None:
                    # Judge damage as if what already stands on the Pillar had resolved.
                    points = replace(perm.points, scn=max(perm.points.scn - perm.damage, perm.points.scn + extra))
                    perm = replace(perm, points=points, damage=max(0, perm.damage + extra))
                self.perms[perm.iid] = perm

    def unit_effects(self, unit: dict[str, Any]) -> list[tuple[Effect, int | None]]:
        """A card or ability unit's effects with each one's chosen target (None where nothing is chosen)."""
        payload = unit["payload"]
        iid = payload.get("iid")
        if unit["kind"] == "damage" or not isinstance(iid, int) or iid not in self.view.cards:
            return []
        card = CARDS_BY_ID[self.view.cards[iid]]
        if unit["kind"] == "card":
            abilities = card.incomes
        else:
            index = int(payload.get("ability", 0))
            abilities = ((card.flip_abilities if payload.get("flip") else card.abilities)[index],)
        targets = list(payload.get("targets", []))
        found: list[tuple[Effect, int | None]] = []
        for ability in abilities:
            for effect in ability.effects:
                found.append((effect, targets.pop(0) if effect.target.is_chosen and targets else None))
        return found

    def _coming_damage(self) -> dict[int, int]:
        """Damage (less healing) that unresolved units will deal, by character; and who counters what."""
        coming: dict[int, int] = {}
        for uid, unit in self.units.items():
            if unit["kind"] == "damage":
                for iid, points in unit["payload"].get("damage", []):
                    coming[int(iid)] = coming.get(int(iid), 0) + int(points)
                continue
            owner = int(unit["owner"])
            for effect, pick in self.unit_effects(unit):
                if isinstance(effect, Counter) and pick is not None:
                    self.counters.setdefault(pick, []).append(uid)
                if not isinstance(effect, (Damage, Heal)):
                    continue
                sign = 1 if isinstance(effect, Damage) else -1
                for subject in subjects(effect.target, owner, unit["payload"].get("iid"), pick, self):
                    if isinstance(subject, int):
                        coming[subject] = coming.get(subject, 0) + sign * effect.amount
        return coming

    def stopped(self, uid: int, ignoring: int | None = None) -> bool:
        """Whether a counter that will itself go through stands against unit ``uid`` (``ignoring`` one of them)."""
        return any(counter != ignoring and not self.stopped(counter) for counter in self.counters.get(uid, []))

    @property
    def them(self) -> int:
        """The opponent's seat."""
        return 1 - self.me

    def main(self, seat: int) -> PermanentView:
        """A seat's Main Character in play."""
        return self.perms[self.view.players[seat].main]

    def own(self, seat: int) -> list[PermanentView]:
        """A seat's cards in play."""
        return [self.perms.get(perm.iid, perm) for perm in self.view.players[seat].in_play]

    def deck(self, seat: int) -> int:
        """Cards left in a seat's deck."""
        return self.view.players[seat].deck_count

    def race(self, changed: dict[int, MainPoints] | None = None, front: dict[int, float] | None = None,
             now: dict[int, MainPoints] | None = None) -> float:
        """:func:`race` for me, with some seats' Main Character points ``changed``."""
        if changed is None and front is None and now is None:
            if self._race is None:
                self._race = self.race({})
            return self._race
        mains = {seat: self.main(seat).points for seat in (0, 1)}
        mains.update(changed or {})
        return race(self.me, {seat: p for seat, p in mains.items() if p is not None}, tests_ahead(self.view),
                    front, now, EDGE)

    def main_shift(self, seat: int, points: MainPoints, now_only: bool = False) -> float:
        """What it is worth to ``seat`` that its Main Character's points become ``points``."""
        before = self.race()
        after = self.race(now={seat: points}) if now_only else self.race({seat: points})
        return (after - before) * WIN * (1 if seat == self.me else -1)

    def in_battle(self, iid: int) -> bool:
        """Whether character ``iid`` fights in the battle being fought now."""
        if self.view.phase not in BATTLE_PHASES or self.view.battle >= len(self.view.battles):
            return False
        attackers, defenders = self.view.battles[self.view.battle]
        return iid in attackers or iid in defenders


def card_of(iid: int, board: Board) -> Card:
    """The printed card of a known instance."""
    return CARDS_BY_ID[board.view.cards[iid]]


def tests_ahead(view: WizbitsView) -> list[int]:
    """The seats of the next Break Tests, in the order they come (two per turn)."""
    active, other = view.active, 1 - view.active
    if view.phase in ("reconcile_up", "test"):
        order = [active, active]
    elif view.phase == "reconcile_down":
        order = []
    else:
        order = [active]  # the Second Test is still ahead this turn
    return (order + [other, other, active, active, other, other])[:RACE_CHECKS]


def race(me: int, mains: dict[int, MainPoints], order: list[int], front: dict[int, float] | None = None,
         now: dict[int, MainPoints] | None = None, edge: float = 0.0) -> float:
    """The chance that the opponent's Main Character fails first, less the chance that mine does.

    Each later turn adds :data:`PRESSURE` damage to both Mains: the opponent
    will not stand still, so damage that wins soon is worth more than the
    present numbers alone say.

    Args:
        mains: Each seat's Main Character's points (SCN with its damage).
        order: The seats of the coming Tests.
        front: Fail chances of checks made together before any Test (a battle's), by seat.
        now: Points that hold only for this turn's Tests (changes until end of turn).
        edge: What it is worth that the game goes on past the front and both players' next Tests.
    """
    alive, score = 1.0, 0.0
    if front:
        mine, theirs = front.get(me, 0.0), front.get(1 - me, 0.0)
        score += theirs * (1 - mine) - mine * (1 - theirs)
        alive = (1 - mine) * (1 - theirs)
    turn, going = 0, None
    for index, seat in enumerate(order):
        if index and seat != order[index - 1]:
            turn += 1
            if turn == 2:
                going = alive  # the game outlives the front and both players' next Tests
        points = (now or {}).get(seat, mains[seat]) if turn == 0 else mains[seat]
        chance = global_fail(points, PRESSURE * turn)
        score += alive * chance * (1 if seat != me else -1)
        alive *= 1 - chance
    return score + edge * (alive if going is None else going)


def damage_landing(perm: PermanentView, amount: int) -> int:
    """Damage that lands, counting Tough as always ready (the view can't tell it was used)."""
    return max(0, amount - 1) if "tough" in perm.attributes else amount


def subjects(target: Target, controller: int, source: int | None, chosen: int | None,
             board: Board) -> Iterable[int | tuple[str, int]]:
    """What a target means here: iids and uids, or ``("player", seat)``."""
    if target is Target.YOU:
        return [("player", controller)]
    if target is Target.OPPONENT:
        return [("player", 1 - controller)]
    if target in (Target.THIS_CARD, Target.THIS_CHARACTER):
        return [] if source is None else [source]
    if target is Target.YOUR_MAIN:
        return [board.view.players[controller].main]
    if target is Target.OPPONENT_MAIN:
        return [board.view.players[1 - controller].main]
    if target is Target.EACH_OWN_CHARACTER:
        return [p.iid for p in board.own(controller) if p.points is not None]
    if target is Target.EACH_OPPOSING_CHARACTER:
        return [p.iid for p in board.own(1 - controller) if p.points is not None]
    if target.is_chosen:
        return [] if chosen is None else [("unit", chosen)] if target.value.endswith("unit") else [chosen]
    return []
