"""WitchDraft Hard: picks by looking ahead over the hands still going round, and places for later bonds.

The method is explained in ``docs/bots.md`` ("WitchDraft: Hard"). In short:

- **Placing.** A spot is worth its brew-point gain plus ``edge_weight`` per
  open half symbol it leaves (see :mod:`engine.witchdraft.hard_values`),
  fading out over the last placements of the game.
- **Picking.** Every card in hand is tried as this round's pick, and the rest
  of the phase is played out on *determinizations* of the table: the other
  hands dealt from the cards this seat has not seen, the others' hidden recipe
  and ingredient cards drawn with weights from how well their potions already
  score under each. Everyone else picks as Normal would (the best immediate
  gain), this seat greedily by its own value; the hand it passes comes back
  around with whatever the others left in it. A pick is worth the mean over
  the determinizations of this seat's value over the phase, less ``deny``
  times the others' mean gain: with recipes face up that difference is what
  makes a costless hate-draft worth taking.

It sees only the seat's view and draws randomness only from ``rng``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.witchdraft.actions import Pick, Place, WitchDraftAction
from engine.witchdraft.cards import CARDS, COMPANIONS, INGREDIENT_CARDS, RECIPES, Card
from engine.witchdraft.geometry import PlacedCard, Placement, PlayArea
from engine.witchdraft.hard_values import Scorer, Spot, add_colour, pair_colours, spots
from engine.witchdraft.rules import INGREDIENT_BY_ID, RECIPE_CARDS
from engine.witchdraft.scoring import count
from engine.witchdraft.state import ApprenticeView, WitchDraftView


@dataclass(frozen=True)
class Tuning:
    """Hard's budget and weights.

    Attributes:
        samples: Determinizations of the unseen hands (and hidden cards) per pick; a fixed count, not a
            time budget, so a seeded game replays exactly.
        edge_weight: An open half symbol's worth while placements remain, in bond points (plus ``match``
            times that ingredient's points).
        match: The share of an open symbol's ingredient points counted (a matching bond collects one).
        fade: Placements left (after this one) below which open edges count for less, in proportion.
        deny: Weight of the others' gain when their recipe and ingredient cards are face up.
        deny_hidden: The same weight when they are secret (their cards are then only guessed).
        belief: How sharply a guessed recipe's weight follows how well the potion already scores under it.
        lookahead: Play the phase out when picking (off: pick the best value now, for comparisons).
        spot_candidates: Spots, best first, whose potion is scored for the coming cards when placing.
        next_weight: Weight of the coming cards' mean best value on the potion a spot leaves.
    """

    samples: int = 24
    edge_weight: float = 0.3
    match: float = 0.5
    fade: int = 3
    deny: float = 0.5
    deny_hidden: float = 0.0
    belief: float = 0.35
    lookahead: bool = True
    spot_candidates: int = 5
    next_weight: float = 2.0


DEFAULT = Tuning()


@dataclass
class Seat:
    """One apprentice as the look-ahead sees it: a scorer, the area's spots and the pair colours held."""

    scorer: Scorer
    where: list[Spot]
    pairs: tuple[int, int]
    planned: bool
    cache: dict[str, float]

    def placing(self, card_id: str) -> float:
        """The card's best placing value on the area as it is now (computed once)."""
        value = self.cache.get(card_id)
        if value is None:
            value = self.scorer.best_spot(CARDS[card_id], self.where, self.planned)[0]
            self.cache[card_id] = value
        return value

    def value(self, card_id: str, pairs: tuple[int, int]) -> float:
        """The card's whole value with ``pairs`` pair colours held."""
        return self.placing(card_id) + self.scorer.card_part(CARDS[card_id], pairs)


def area_of_view(player: ApprenticeView) -> PlayArea:
    """Any player's play area from the view (areas are public)."""
    return PlayArea(tuple(PlacedCard(card, Placement(x, y, rotation)) for card, x, y, rotation in player.area))


def placements_left(view: WitchDraftView) -> int:
    """Cards the viewing seat will place after the current one (or after the current pick)."""
    me = view.me
    assert me is not None and me.hand is not None
    in_hand = len(me.hand) + (me.picked is not None)
    dealt = in_hand + view.pick - 1  # every pick so far took one card from each hand
    placed = len(me.area) - 1
    total = (dealt - 1) + dealt
    return max(0, total - placed - 1)


def edge_weight(view: WitchDraftView, tuning: Tuning) -> float:
    """Open edges' worth now: full while enough placements remain, fading over the last few."""
    left = placements_left(view)
    return tuning.edge_weight * min(1.0, left / tuning.fade) if tuning.fade else tuning.edge_weight


def my_seat(view: WitchDraftView, tuning: Tuning, area: PlayArea, placements: Sequence[Placement]) -> Seat:
    """The viewing seat's own model: its real cards, open edges valued."""
    me = view.me
    assert me is not None and me.recipe is not None and me.ingredients is not None
    recipe = RECIPE_CARDS[me.recipe]
    scorer = Scorer(recipe, INGREDIENT_BY_ID[me.ingredients], edge_weight(view, tuning), tuning.match)
    colours = [CARDS[placed.card_id].colour for placed in area.cards]
    return Seat(scorer, spots(area, placements), pair_colours(recipe, colours), True, {})


Guess = tuple[list[str], list[float], list[str], list[float]]
"""Recipes another seat may hold and their weights, then its possible ingredient cards and theirs."""


def guess_weights(area: PlayArea, taken_recipes: set[str], taken_ingredients: set[str], belief: float) -> Guess:
    """Recipes and ingredient cards another seat may hold, weighted by how well its potion scores under each."""
    recipes = [recipe.card_id for recipe in RECIPES if recipe.card_id not in taken_recipes]
    ingredients = [card.card_id for card in INGREDIENT_CARDS if card.card_id not in taken_ingredients]
    recipe_weights = []
    for recipe_id in recipes:
        recipe = RECIPE_CARDS[recipe_id]
        counts = count(area, recipe)
        fit = (counts.companions * recipe.companion_points + counts.colour_pairs * recipe.colour_pair_points
               + counts.monochrome * recipe.monochrome_points + counts.gem_pairs * recipe.gem_pair_points)
        recipe_weights.append(fit)
    counts = count(area, RECIPES[0])
    ingredient_weights = []
    for card_id in ingredients:
        card = INGREDIENT_BY_ID[card_id]
        ingredient_weights.append(counts.bonds * card.bond_points + counts.dragon_scale * card.dragon_scale_points
                                  + counts.flea_grass * card.flea_grass_points
                                  + counts.fire_root * card.fire_root_points)
    return (recipes, _soft(recipe_weights, belief), ingredients, _soft(ingredient_weights, belief))


def _soft(fits: list[int], belief: float) -> list[float]:
    top = max(fits, default=0)
    return [math.exp(belief * (fit - top)) for fit in fits]


class Guesses:
    """Everything about the other seats that the view fixes, and how to guess the rest."""

    def __init__(self, view: WitchDraftView, tuning: Tuning) -> None:
        me = view.me
        assert me is not None and me.hand is not None and view.seat is not None
        self.view, self.tuning, self.seat = view, tuning, view.seat
        self.count = len(view.players)
        self.areas = [area_of_view(player) for player in view.players]
        self.spots = [spots(area, area.legal_placements("")) if index != self.seat else []
                      for index, area in enumerate(self.areas)]
        seen = set(me.hand) | {card for player in view.players for card, *_ in player.area}
        self.unseen = sorted(card.card_id for card in COMPANIONS if card.card_id not in seen)
        self.face_up = all(player.recipe is not None and player.ingredients is not None for player in view.players)
        self.deny = tuning.deny if self.face_up else tuning.deny_hidden
        self._scorers: dict[tuple[str, str], Scorer] = {}
        self._caches: dict[tuple[int, int, str], dict[str, float]] = {}
        self.guesses: list[Guess | None] = []
        taken_r = {player.recipe for player in view.players if player.recipe is not None}
        taken_i = {player.ingredients for player in view.players if player.ingredients is not None}
        for index, player in enumerate(view.players):
            if index == self.seat or (player.recipe is not None and player.ingredients is not None):
                self.guesses.append(None)
            else:
                self.guesses.append(guess_weights(self.areas[index], taken_r, taken_i, tuning.belief))

    def other(self, index: int, recipe_id: str, ingredients_id: str) -> Seat:
        """Seat ``index`` modelled as Normal with these cards; placing values shared across samples."""
        key = (recipe_id, ingredients_id)
        scorer = self._scorers.get(key)
        if scorer is None:
            scorer = Scorer(RECIPE_CARDS[recipe_id], INGREDIENT_BY_ID[ingredients_id], 0.0)
            self._scorers[key] = scorer
        # The placing part reads only the gem and bond points and the ingredient card.
        cache_key = (index, scorer.gem, ingredients_id)
        cache = self._caches.setdefault(cache_key, {})
        colours = [CARDS[placed.card_id].colour for placed in self.areas[index].cards]
        return Seat(scorer, self.spots[index], pair_colours(scorer.recipe, colours), False, cache)

    def sample(self, rng: random.Random) -> tuple[list[list[str]], list[Seat | None]]:
        """One determinization: the other seats' hands and models (None for this seat)."""
        me = self.view.me
        assert me is not None and me.hand is not None
        size = len(me.hand)
        pool = list(self.unseen)
        rng.shuffle(pool)
        hands: list[list[str]] = []
        models: list[Seat | None] = []
        for index, player in enumerate(self.view.players):
            if index == self.seat:
                hands.append(list(me.hand))
                models.append(None)
                continue
            hands.append(pool[:size])
            del pool[:size]
            guess = self.guesses[index]
            if guess is None:
                assert player.recipe is not None and player.ingredients is not None
                models.append(self.other(index, player.recipe, player.ingredients))
            else:
                recipes, recipe_weights, ingredients, ingredient_weights = guess
                models.append(self.other(index, rng.choices(recipes, recipe_weights)[0],
                                         rng.choices(ingredients, ingredient_weights)[0]))
        return hands, models


def _best(seat: Seat, hand: Sequence[str], pairs: tuple[int, int]) -> tuple[str, float]:
    best, best_value = hand[0], -1e9
    for card in hand:
        value = seat.value(card, pairs)
        if value > best_value:
            best, best_value = card, value
    return best, best_value


def play_out(first: str, hands: list[list[str]], models: Sequence[Seat], me: int, step: int, keep: int,
             deny: float) -> float:
    """The rest of the phase with ``first`` picked now; this seat's value less ``deny`` times the others' mean.

    Args:
        first: This seat's pick this round.
        hands: Every seat's hand (changed in place).
        models: Every seat's model, this seat's included.
        me: This seat.
        step: +1 when hands pass to the next seat, -1 to the previous.
        keep: Cards left in each hand when the phase ends (1 in phase 1, 0 in phase 2).
        deny: Weight of the others' gains.
    """
    count = len(hands)
    gained = [0.0] * count
    pairs = [model.pairs for model in models]
    pick: str | None = first
    while len(hands[me]) > keep:
        for seat in range(count):
            model = models[seat]
            if seat == me and pick is not None:
                card, value = pick, model.value(pick, pairs[seat])
                pick = None
            else:
                card, value = _best(model, hands[seat], pairs[seat])
            gained[seat] += value
            colour = CARDS[card].colour
            if colour is not None:
                pairs[seat] = add_colour(pairs[seat], colour, model.scorer.recipe)
            hands[seat].remove(card)
        hands = [hands[(index - step) % count] for index in range(count)]
    others = sum(gained) - gained[me]
    return gained[me] - deny * others / max(1, count - 1)


def choose_pick(view: WitchDraftView, legal: Sequence[WitchDraftAction], rng: random.Random,
                tuning: Tuning = DEFAULT) -> str:
    """The card whose play-outs are worth most; ties go to the first in ``legal``."""
    me = view.me
    assert me is not None and me.hand is not None and view.seat is not None
    candidates = [action.card for action in legal if isinstance(action, Pick)]
    if len(candidates) == 1:
        return candidates[0]
    area = area_of_view(me)
    mine = my_seat(view, tuning, area, area.legal_placements(""))
    if not tuning.lookahead:
        values = {card: mine.value(card, mine.pairs) for card in candidates}
        top = max(values.values())
        return next(card for card in candidates if values[card] == top)
    table = Guesses(view, tuning)
    step = 1 if view.phase == 1 else -1
    keep = 1 if view.phase == 1 else 0
    totals = dict.fromkeys(candidates, 0.0)
    for _ in range(max(1, tuning.samples)):
        hands, others = table.sample(rng)
        models = [mine if model is None else model for model in others]
        for card in candidates:
            totals[card] += play_out(card, [list(hand) for hand in hands], models, view.seat, step, keep, table.deny)
    best = max(totals.values())
    return next(card for card in candidates if totals[card] == best)


def ahead(area: PlayArea, card_id: str, placement: Placement, scorer: Scorer, coming: Sequence[Card]) -> float:
    """The mean best placing value of the ``coming`` cards once ``card_id`` lies at ``placement``."""
    after = PlayArea((*area.cards, PlacedCard(card_id, placement)))
    where = spots(after, after.legal_placements(""))
    return sum(scorer.best_spot(other, where, True)[0] for other in coming) / max(1, len(coming))


def choose_spot(view: WitchDraftView, legal: Sequence[WitchDraftAction], tuning: Tuning = DEFAULT) -> Placement:
    """The legal spot worth most: gain, open edges, and (for the best few) the coming cards' value there.

    Ties go to more open-edge value, then to the first in ``legal``.
    """
    me = view.me
    assert me is not None and me.picked is not None
    placements = [action.placement for action in legal if isinstance(action, Place)]
    area = area_of_view(me)
    mine = my_seat(view, tuning, area, placements)
    card: Card = CARDS[me.picked]
    scorer = mine.scorer
    ranked = []
    for index, spot in enumerate(mine.where):
        gain, opened = scorer.placing(card, spot)
        ranked.append((-(gain + opened), -opened, index))
    ranked.sort()
    if tuning.spot_candidates <= 1 or tuning.next_weight == 0 or placements_left(view) == 0 or len(ranked) == 1:
        return mine.where[ranked[0][2]].placement
    seen = {placed for player in view.players for placed, *_ in player.area} | {me.picked}
    coming = [other for other in COMPANIONS if other.card_id not in seen]
    best_value, best_index = -1e9, ranked[0][2]
    for negative, _, index in ranked[:tuning.spot_candidates]:
        value = -negative + tuning.next_weight * ahead(area, me.picked, mine.where[index].placement, scorer, coming)
        if value > best_value:
            best_value, best_index = value, index
    return mine.where[best_index].placement


def make_hard(tuning: Tuning = DEFAULT) -> Callable[[WitchDraftView, Sequence[WitchDraftAction], random.Random],
                                                    WitchDraftAction]:
    """A Hard bot with other weights, for tuning and tests."""

    def bot(view: WitchDraftView, legal: Sequence[WitchDraftAction], rng: random.Random) -> WitchDraftAction:
        return decide(view, legal, rng, tuning)

    return bot


def decide(view: WitchDraftView, legal: Sequence[WitchDraftAction], rng: random.Random,
           tuning: Tuning = DEFAULT) -> WitchDraftAction:
    """Hard's action: a pick from the look-ahead, or the planned spot for the revealed pick."""
    me = view.me
    if me is None or me.recipe is None or me.ingredients is None or me.hand is None or not legal:
        return rng.choice(list(legal))
    if isinstance(legal[0], Pick):
        return Pick(choose_pick(view, legal, rng, tuning))
    return Place(choose_spot(view, legal, tuning))


def hard_bot(view: WitchDraftView, legal: Sequence[WitchDraftAction], rng: random.Random) -> WitchDraftAction:
    """Look ahead over the hands coming back round, value open edges when placing (see the module docstring)."""
    return decide(view, legal, rng, DEFAULT)
