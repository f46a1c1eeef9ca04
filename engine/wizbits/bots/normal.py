"""Wizbits bots. They decide from their own seat's view and legal actions only.

Easy plays any legal action. Normal scores each legal action with the
estimates of :mod:`engine.wizbits.bots.heuristics` (check odds and the race
between the Main Characters), :mod:`engine.wizbits.bots.values` and
:mod:`engine.wizbits.bots.conflict`: what its effects are worth
(above all, how much likelier it makes a Main Character fail its Break
checks), what paying for it costs (cards off a thinning deck, or cards seceded
from play), and, in Conflict, how each battle is likely to go. It passes
rather than spend more than a play is worth.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.wizbits.actions import (
    Action,
    Activate,
    Assign,
    Attack,
    Block,
    ChooseTargets,
    DiscardCards,
    Divide,
    Pass,
    Payment,
    PlayCard,
)
from engine.wizbits.bots.conflict import assign_score, attack_score, block_score, divide_score
from engine.wizbits.bots.heuristics import Board, card_of
from engine.wizbits.bots.useful import useful_actions
from engine.wizbits.bots.values import deck_card_cost, effect_value, permanent_worth, static_value
from engine.wizbits.dice import die_level
from engine.wizbits.effects import Counter, Damage
from engine.wizbits.interpret import chosen_slots
from engine.wizbits.model import Ability, AbilityType, Card, Category
from engine.wizbits.terms import Attribute
from engine.wizbits.views import WizbitsView

Bot = Callable[[WizbitsView, Sequence[Action], random.Random], Action]

PASS_MARGIN = 0.25
"""A play must be worth this much more than it costs, or Normal passes."""


def easy_bot(view: WizbitsView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly at random."""
    return rng.choice(list(legal))


def normal_bot(view: WizbitsView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The legal action the heuristic scores highest (ties go to the earliest listed), never a use of a Trigger
    that would do nothing."""
    legal = useful_actions(view, legal)
    if len(legal) == 1 or view.seat is None:
        return legal[0]
    floor, score = normal_scorer(view, legal)
    if score is None:
        return legal[0]
    return _best(legal, score, floor)


def normal_scorer(view: WizbitsView, legal: Sequence[Action]
                  ) -> tuple[float | None, Callable[[Action], float] | None]:
    """How Normal scores these legal actions of ``view``'s seat: (the floor a play must beat, the scorer).

    The floor is 0 in a pillar (passing scores 0) and None elsewhere; the scorer is None when Normal
    has no opinion (it takes the first action listed).
    """
    assert view.seat is not None
    board = Board(view, view.seat)
    first = legal[0]
    if isinstance(first, (Pass, PlayCard, Activate)):
        return 0.0, _PillarScorer(board).score
    scorers: dict[type, Callable[[Board, Action], float]] = {
        Attack: attack_score, Block: block_score, Assign: assign_score, Divide: divide_score,
        ChooseTargets: _targets_score, DiscardCards: _discard_score,
    }
    scorer = scorers.get(type(first))
    if scorer is None:
        return None, None
    return None, lambda action: scorer(board, action)


def _best(legal: Sequence[Action], score: Callable[[Action], float], floor: float | None = None) -> Action:
    """The highest-scoring action; with a ``floor``, passing unless something beats it."""
    if floor is None:
        best, best_score = legal[0], score(legal[0])
    else:
        best, best_score = next((a for a in legal if isinstance(a, Pass)), legal[0]), floor
    for action in legal:
        value = score(action)
        if value > best_score:
            best, best_score = action, value
    return best


# -- building pillars ---------------------------------------------------------------


class _PillarScorer:
    """Scores card plays and ability uses; passing scores 0. Caches what repeats across payments."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.gains: dict[tuple[object, ...], float] = {}
        self.secede_costs: dict[int, float] = {}
        units = board.units.values()
        main_units = [int(u["height"]) for u in units if int(u["branch"]) == 0]
        self.main_height = max(main_units, default=0)

    def score(self, action: Action) -> float:
        """Gain less cost less :data:`PASS_MARGIN`; passing (or anything else) scores 0."""
        if isinstance(action, PlayCard):
            key: tuple[object, ...] = ("play", self.board.view.cards[action.card], action.targets, action.on)
            if key not in self.gains:
                self.gains[key] = self._play_gain(action)
            cost = self._payment_cost(action.pay)
        elif isinstance(action, Activate):
            key = ("use", action.card, action.ability, action.targets, action.on)
            if key not in self.gains:
                self.gains[key] = self._activate_gain(action)
            cost = self._payment_cost(action.pay)
        else:
            return 0.0
        return self.gains[key] - cost - PASS_MARGIN

    def _height(self, on: int | None) -> int:
        """The height of a foundation (None: the main Current Foundation)."""
        if on is None:
            return self.main_height
        return int(self.board.units.get(on, {}).get("height", 0))

    def _effects_gain(self, abilities: Sequence[Ability], source: int, targets: Sequence[int | None],
                      on: int | None) -> float:
        """What the effects of ``abilities`` are worth with these chosen targets, built on ``on``."""
        board, me = self.board, self.board.me
        chosen = list(targets)
        gain = 0.0
        for ability in abilities:
            for effect in ability.effects:
                pick = chosen.pop(0) if effect.target.is_chosen and chosen else None
                if isinstance(effect, Counter):
                    # A counter must resolve before its target: build higher than it stands.
                    target = board.units.get(pick) if pick is not None else None
                    if target is None or self._height(on) + 1 <= int(target["height"]):
                        continue
                gain += effect_value(effect, me, source, pick, board)
        return gain

    def _play_gain(self, action: PlayCard) -> float:
        board, me = self.board, self.board.me
        card = card_of(action.card, board)
        gain = self._effects_gain(card.incomes, action.card, action.targets, action.on)
        gain += _entering_value(card, board)
        # The card leaves the hand: the next Reconcile takes a card off the deck to replace it.
        gain -= 0.3 + deck_card_cost(me, board, 1)
        if card.has_conflict_speed and board.view.phase not in ("respond", "damage"):
            gain -= 0.4  # worth more held for a battle
        return gain

    def _activate_gain(self, action: Activate) -> float:
        board = self.board
        perm = board.perms[action.card]
        card = card_of(action.card, board)
        abilities = card.flip_abilities if perm.seceded else card.abilities
        ability = abilities[action.ability]
        gain = self._effects_gain((ability,), action.card, action.targets, action.on)
        cost = ability.cost
        if cost is not None:
            if cost.secede_this:
                gain -= self._secede_cost(action.card)
            gain -= 0.7 * cost.discard
        return gain

    def _payment_cost(self, pay: Payment) -> float:
        """Cards off the deck plus what the seceded cards were worth."""
        cost = deck_card_cost(self.board.me, self.board, pay.deck) if pay.deck else 0.0
        return cost + sum(self._secede_cost(iid) for iid in pay.secede)

    def _secede_cost(self, iid: int) -> float:
        """What seceding card ``iid`` loses, less what its flip Incomes give."""
        if iid not in self.secede_costs:
            board = self.board
            perm = board.perms[iid]
            card = card_of(iid, board)
            flips = sum(_best_effects(card.flip_incomes, iid, board))
            self.secede_costs[iid] = permanent_worth(perm, board) - flips
        return self.secede_costs[iid]


def _best_effects(abilities: Sequence[Ability], source: int, board: Board) -> list[float]:
    """Each effect's value with its best target (flip Incomes choose theirs when they happen)."""
    values = []
    for ability in abilities:
        for effect in ability.effects:
            if effect.target.is_chosen:
                options = [perm.iid for perm in board.perms.values()]
                values.append(max([effect_value(effect, board.me, source, o, board) for o in options] + [0.0]))
            else:
                values.append(effect_value(effect, board.me, source, None, board))
    return values


def _entering_value(card: Card, board: Board) -> float:
    """What having ``card`` in play is worth: a fighter or a lasting effect, and later a payment."""
    me = board.me
    if card.category is Category.ELEMENT:
        return 0.0
    payment = 0.9 if Attribute.OFFERING in card.attributes else 0.6
    lasting = sum(static_value(static, me, board) for ability in card.abilities
                  if ability.type is AbilityType.CONTINUE for static in ability.statics)
    lasting += sum(0.4 for ability in card.abilities if ability.type is AbilityType.TRIGGER)
    if card.is_character:
        assert card.main_points is not None
        fighters = sum(1 for perm in board.own(me) if perm.points is not None and not perm.seceded)
        guard = 1.0 if fighters < 3 else 0.3  # more bodies to battle attackers away from the Main
        return 0.6 + die_level(card.main_points.strength) / 8 + guard + lasting
    return payment + lasting


# -- other choices --------------------------------------------------------------------


def _targets_score(board: Board, action: Action) -> float:
    """Targets for an owed flip Income, by what its effects are worth."""
    assert isinstance(action, ChooseTargets)
    pending = board.view.pending
    if pending is None:
        return 0.0
    iid = int(pending["iid"])
    card = card_of(iid, board)
    ability = (card.flip_abilities if pending.get("flip", True) else card.abilities)[int(pending["ability"])]
    slots = chosen_slots((ability,))
    return sum(effect_value(effect, board.me, iid, pick, board) for effect, pick in zip(slots, action.targets, strict=False))


def keep_value(card: Card) -> float:
    """How much a card in hand is worth keeping (discards drop the lowest)."""
    value = 1.0 + (0.4 if card.has_conflict_speed else 0.0) - 0.1 * card.cost
    if any(isinstance(effect, Damage) for effect in card.effects):
        value += 0.5
    return value


def _discard_score(board: Board, action: Action) -> float:
    """Discarding the cards least worth keeping scores highest."""
    assert isinstance(action, DiscardCards)
    return -sum(keep_value(card_of(iid, board)) for iid in action.cards)
