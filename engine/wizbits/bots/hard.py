"""The Wizbits Hard bot: determinized Monte Carlo search over Normal's best few actions.

Hard looks at its own view only. For each of its searches it samples whole
states the view could have come from (:mod:`engine.wizbits.bots.determinize`: the
opponent's hand, both decks' order and the future dice drawn afresh), tries
each of its candidate actions in every sample, and lets the Normal policy play
both seats on from there for a few turns, scoring where that leaves the game.
Every candidate meets the same samples (common random numbers), so their
scores are compared pairwise. Hard plays Normal's own choice unless another
candidate beats it by a clear margin over those pairs. See docs/bots.md.
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.wizbits.actions import Action, Pass
from engine.wizbits.bots.determinize import determinize
from engine.wizbits.bots.heuristics import race, tests_ahead
from engine.wizbits.bots.normal import normal_bot, normal_scorer
from engine.wizbits.bots.useful import useful_actions
from engine.wizbits.rules import WizbitsRules
from engine.wizbits.state import WizbitsState
from engine.wizbits.views import WizbitsView

RULES = WizbitsRules()

CANDIDATES = 4
"""How many of Normal's best-scored actions the search compares (passing is always one in a pillar)."""
HORIZON = 2
"""A playout stops when the turn number has grown by this much: the rest of the decision's turn and the next."""
STEP_LIMIT = 400
"""A bound on a playout's steps, whatever happens."""
CONFIDENCE = 1.0
"""How many standard errors a candidate must beat Normal's choice by, over the paired samples, to be played."""
MATERIAL = 0.03
"""What one card more than the opponent (in hand and in play) adds to a scored position (a win is 1)."""
PLAYOUTS = 48
"""Hard's playouts a decision when no clock is set (the ladder's and the tests' deterministic budget)."""
CLOCKED_PLAYOUTS = 100_000
"""Hard's playout cap under a clock: far more than a second allows, so the clock decides."""


@dataclass(frozen=True)
class HardBot:
    """The Hard bot with its budget, called as ``bot(view, legal, rng)`` like every bot.

    Attributes:
        think_time: Seconds a decision may take (None: no clock, only ``playouts``, so a seeded
            game plays the same on any machine).
        playouts: At most this many playouts a decision.
    """

    think_time: float | None = None
    playouts: int = PLAYOUTS

    def with_think_time(self, seconds: float) -> HardBot:
        """This bot under a clock of ``seconds`` a decision (its playout cap lifted, so the clock decides)."""
        return replace(self, think_time=seconds, playouts=max(self.playouts, CLOCKED_PLAYOUTS))

    def __call__(self, view: WizbitsView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Hard's choice among ``legal``; one legal action is taken at once, without searching."""
        if len(legal) == 1 or view.seat is None:
            return legal[0]
        return decide(view, legal, rng, self.think_time, self.playouts)


hard_bot = HardBot()
"""Hard with its deterministic budget; the app gives it the player's thinking time (``bots.think_time``)."""


def decide(view: WizbitsView, legal: Sequence[Action], rng: random.Random, think_time: float | None,
           playouts: int) -> Action:
    """Hard's choice among ``legal`` for ``view``'s seat (see :class:`HardBot`); never a use of a Trigger that
    would do nothing."""
    legal = useful_actions(view, legal)
    if len(legal) == 1 or view.seat is None:
        return legal[0]
    candidates = candidate_actions(view, legal)
    if len(candidates) == 1:
        return candidates[0]
    deadline = None if think_time is None else time.perf_counter() + think_time
    try:
        scores = search(view, candidates, rng, playouts, deadline)
    except Exception:  # noqa: BLE001
        # The search plays sampled states, never the real one: should a sample ever reach something the
        # rules refuse (a bug), Hard still moves, as Normal would, rather than stall the player's game.
        return candidates[0]
    return choose(candidates, scores)


def candidate_actions(view: WizbitsView, legal: Sequence[Action]) -> list[Action]:
    """Normal's choice first, then its next best, up to :data:`CANDIDATES` (passing kept in a pillar)."""
    chosen = normal_bot(view, legal, random.Random(0))
    floor, score = normal_scorer(view, legal)
    if score is None:
        return [chosen]
    ranked = sorted(range(len(legal)), key=lambda index: -score(legal[index]))
    picked = [chosen]
    if floor is not None:
        picked += [action for action in legal if isinstance(action, Pass) and action != chosen][:1]
    for index in ranked:
        if len(picked) >= CANDIDATES:
            break
        if legal[index] not in picked:
            picked.append(legal[index])
    return picked


def search(view: WizbitsView, candidates: Sequence[Action], rng: random.Random, playouts: int,
           deadline: float | None) -> list[list[float]]:
    """Each candidate's playout values (index i of every list: the i-th sampled state).

    Each round samples one state and plays every candidate in it; rounds stop at ``playouts`` in all,
    or (after at least one round) when another round as long as the longest so far would pass ``deadline``.
    """
    assert view.seat is not None
    me = view.seat
    scores: list[list[float]] = [[] for _ in candidates]
    rounds = max(1, playouts // len(candidates))
    longest = 0.0
    for _ in range(rounds):
        started = time.perf_counter()
        sample = determinize(view, random.Random(rng.getrandbits(64)))
        for index, action in enumerate(candidates):
            scores[index].append(playout(sample, me, action))
        now = time.perf_counter()
        longest = max(longest, now - started)
        if deadline is not None and now + longest >= deadline:
            break
    return scores


def choose(candidates: Sequence[Action], scores: Sequence[Sequence[float]]) -> Action:
    """Normal's choice (the first candidate) unless another beats it by :data:`CONFIDENCE` standard errors."""
    base = scores[0]
    best, best_margin = candidates[0], 0.0
    for action, values in zip(candidates[1:], scores[1:], strict=True):
        diffs = [value - first for value, first in zip(values, base, strict=True)]
        count = len(diffs)
        mean = sum(diffs) / count
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (count - 1)) if count > 1 else math.inf
        margin = mean - CONFIDENCE * spread / math.sqrt(count)
        if margin > best_margin:
            best, best_margin = action, margin
    return best


def playout(sample: WizbitsState, me: int, action: Action,
            policy: Callable[[WizbitsView, Sequence[Action], random.Random], Action] = normal_bot) -> float:
    """``action`` in a copy of ``sample``, then ``policy`` for both seats to the horizon: the value for ``me``."""
    state = copy.deepcopy(sample)
    stop = state.turn + HORIZON
    rng = random.Random(0)  # Normal draws nothing from it; a fixed one keeps the playout a function of the sample
    RULES._apply(state, me, action)
    for _ in range(STEP_LIMIT):
        if state.over or state.turn >= stop:
            break
        step = RULES.table_action(state)
        if step is not None:
            RULES._apply(state, None, step)
            continue
        seats = RULES.to_act(state)
        if not seats:
            break
        seat = seats[0]
        legal = RULES.legal_actions(state, seat)
        # A forced move needs no view: drawing one is most of a playout's cost.
        RULES._apply(state, seat, legal[0] if len(legal) == 1 else policy(RULES.view(state, seat), legal, rng))
    return evaluate(state, me)


def evaluate(state: WizbitsState, me: int) -> float:
    """A position's value for ``me``: 1 a win, -1 a loss, 0 a draw; else the race between the Mains and material."""
    if state.over:
        return 0.0 if state.winner is None else (1.0 if state.winner == me else -1.0)
    view = RULES.view(state, me)
    mains = {}
    for seat, player in enumerate(view.players):
        main = next(perm for perm in player.in_play if perm.iid == player.main)
        assert main.points is not None
        mains[seat] = main.points
    score = race(me, mains, tests_ahead(view))
    cards = [player.hand_count + len(player.in_play) for player in view.players]
    return max(-1.0, min(1.0, score + MATERIAL * (cards[me] - cards[1 - me])))
