"""The Hard Wizards Cup bot: it plays each round as a matrix game, near its equilibrium.

See docs/bots.md for the method. In short: a lineup is drawn from a
near-equilibrium mixed strategy of the round's 720x720 game, averaged over
teams the opponent could hold given this seat's view; team picks and swaps
are scored by the value of the round games they lead to, on sampled lineups.

This module imports numpy (through the matrix builder and the solver), so
:mod:`engine.wizards_cup.bots` imports it only when a Hard bot first decides.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

import numpy as np

from engine.wizards_cup.actions import Action, ChooseTeam, KeepTeam, SetLineup, Swap
from engine.wizards_cup.cards import CARDS, LINEUP_SIZE, WIZARDS
from engine.wizards_cup.pick_rates import PICK_FLOOR, PICK_RATES
from engine.wizards_cup.round_matrix import ORDERS, IntArray, lineup, round_results
from engine.wizards_cup.solver import FloatArray, Solution, solve
from engine.wizards_cup.state import Phase, PlayerView, WizardsCupView

BOTH_OUT_RATE = 0.05
"""How often a future round is taken to end with both sides out together (about 4% between random lineups)."""

OPPONENT_SAMPLES = 8
"""Opponent teams sampled for a lineup decision while the opponent's team is hidden."""

MODEL_LINEUPS = 96
"""Lineups sampled a side when modelling a guessed opponent team's own choice."""

MODEL_GUESSES = 3
"""Teams of this seat a modelled opponent guesses at."""

SAFETY = 0.3
"""Share of each hidden opponent's play assumed to best-respond to this seat's lineups."""

QUICK_OPPONENTS, QUICK_LINEUPS = 10, 24
"""Opponent teams and lineups a side for the quick score every candidate team or swap gets."""

FINAL_OPPONENTS, FINAL_LINEUPS, FINALISTS = 12, 80, 5
"""The bigger sample the best few candidates are played on, and how many they are."""

TEAM_CANDIDATES = 40
"""Random teams considered besides the strongest by value and the best one's neighbours."""

LINEUP_GAP = 0.005
"""Duality gap a lineup decision solves to when the opponent's team is known, in payoff units (range 2)."""

HIDDEN_GAP = 0.02
"""The looser gap while the opponent's team is a guess: the guess costs more than the last hundredths."""

Team = tuple[str, ...]


@lru_cache(maxsize=256)
def game_value(mine: int, theirs: int, tiebreak: float) -> float:
    """My chance of winning minus theirs, when I need ``mine`` more Cup Tokens and they need ``theirs``.

    A cheap model of the rounds to come: each is even, and ends with both sides out
    together at :data:`BOTH_OUT_RATE`. ``tiebreak`` is the value when both reach the
    target together (+1 my team's total is lower, -1 higher, 0 equal).
    """
    if mine <= 0 or theirs <= 0:
        return tiebreak if mine <= 0 and theirs <= 0 else (1.0 if mine <= 0 else -1.0)
    even = (1.0 - BOTH_OUT_RATE) / 2
    return (even * (game_value(mine - 1, theirs, tiebreak) + game_value(mine, theirs - 1, tiebreak))
            + BOTH_OUT_RATE * game_value(mine - 1, theirs - 1, tiebreak))


def round_payoffs(view: WizardsCupView, mine: Team, theirs: Team, seat: int | None = None) -> tuple[float, float, float]:
    """What losing, both running out and winning this round are worth for the game, to ``seat``.

    ``seat`` defaults to the viewing seat; ``mine`` is that seat's team.
    """
    seat = view.seat if seat is None else seat
    assert seat is not None
    me, them = view.players[seat], view.players[1 - seat]
    totals = sum(CARDS[c].value for c in mine), sum(CARDS[c].value for c in theirs)
    tiebreak = 0.0 if totals[0] == totals[1] else (1.0 if totals[0] < totals[1] else -1.0)
    need_me, need_them = view.tokens_to_win - me.tokens, view.tokens_to_win - them.tokens
    return (game_value(need_me, need_them - 1, tiebreak), game_value(need_me - 1, need_them - 1, tiebreak),
            game_value(need_me - 1, need_them, tiebreak))


def payoff_matrix(view: WizardsCupView, mine: Team, theirs: Team,
                  rows: IntArray | None = None, columns: IntArray | None = None, seat: int | None = None) -> FloatArray:
    """Rows: ``seat``'s lineups; columns: the other's; entries: the round's value for the game to ``seat``."""
    values = np.array(round_payoffs(view, mine, theirs, seat))
    return np.asarray(values[round_results(mine, theirs, rows, columns).astype(np.intp) + 1], dtype=np.float64)


def opponent_teams(view: WizardsCupView, rng: random.Random, count: int) -> list[tuple[Team, float]]:
    """Teams the opponent could hold given this seat's view, with their sampled weights.

    The displayed card is always there. Wizards seen in the Duel zone are kept, up to
    five; when swaps have shown more than five, later-seen ones are likelier to be kept
    (an early one is the likelier to have been swapped out). The rest are drawn from
    the wizards never seen.
    """
    assert view.seat is not None
    them = view.players[1 - view.seat]
    samples: Counter[Team] = Counter()
    for _ in range(count):
        samples[_sample_team(them, rng)] += 1
    return [(team, n / count) for team, n in samples.items()]


def _sample_team(them: PlayerView, rng: random.Random) -> Team:
    seen = [card for card in them.seen if card != them.displayed]
    known: list[str] = []
    pool = list(seen)
    weights = [float(i + 1) for i in range(len(pool))]
    while pool and len(known) < LINEUP_SIZE:
        pick = rng.choices(range(len(pool)), weights)[0]
        known.append(pool.pop(pick))
        weights.pop(pick)
    unseen = [w.card_id for w in WIZARDS if w.card_id != them.displayed and w.card_id not in seen]
    return (them.displayed, *sorted(known), *sorted(_likely_picks(unseen, LINEUP_SIZE - len(known), rng)))


def _likely_picks(cards: Sequence[str], count: int, rng: random.Random) -> list[str]:
    """``count`` of ``cards``, drawn without replacement in proportion to how often strong players take them.

    Each card gets the key ``u ** (1 / weight)`` for a uniform ``u``, kept as its logarithm
    ``log(u) / weight`` so that small keys do not underflow; the highest keys win
    (Efraimidis and Spirakis' weighted sampling).

    Raises:
        ValueError: ``count`` is negative or more than there are cards.
    """
    if not 0 <= count <= len(cards):
        raise ValueError(f"cannot draw {count} of {len(cards)} cards")
    keyed = []
    for card in cards:
        u = rng.random()
        weight = max(PICK_RATES.get(card, 0.0), 0.0) + PICK_FLOOR
        keyed.append((math.log(u) / weight if u > 0.0 else -math.inf, card))
    return [card for _, card in sorted(keyed, reverse=True)[:count]]


def lineup_solution(view: WizardsCupView, mine: Team, opponents: Sequence[tuple[Team, float]],
                    target_gap: float = LINEUP_GAP, columns: Sequence[IntArray | None] | None = None) -> Solution:
    """The near-equilibrium of the round game for ``mine`` against each possible opponent team, weighted.

    ``columns`` optionally limits each opponent team to some of its lineups (default all 720).
    """
    picked = columns if columns is not None else [None] * len(opponents)
    matrices = [payoff_matrix(view, mine, team, None, cols) for (team, _), cols in zip(opponents, picked, strict=True)]
    # A known team gets as many iterations as its gap needs (a few hundred in practice); guesses get fewer.
    iterations = 2000 if len(opponents) == 1 else 400
    return solve(matrices, [weight for _, weight in opponents], target_gap=target_gap, max_iterations=iterations)


def _draw(weights: FloatArray, rng: random.Random) -> int:
    """An index drawn from ``weights`` with this bot's own seeded generator."""
    cumulative = np.cumsum(weights)
    return min(int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")), len(weights) - 1)


def _sampled(count: int, rng: random.Random) -> IntArray:
    return np.array(sorted(rng.sample(range(len(ORDERS)), count)), dtype=np.int32)


def opponent_model(view: WizardsCupView, theirs: Team, rng: random.Random) -> tuple[IntArray, FloatArray]:
    """How an opponent holding ``theirs`` might line up, not knowing this seat's team either.

    The opponent sees only this seat's displayed card and the wizards it has seen, so it is
    modelled as solving its own round game against the teams it could think this seat holds:
    a sample of its lineups (returned) and its near-equilibrium weights on them.
    """
    assert view.seat is not None
    them = 1 - view.seat
    rows = _sampled(MODEL_LINEUPS, rng)
    guesses = [_sample_team(view.players[view.seat], rng) for _ in range(MODEL_GUESSES)]
    matrices = [payoff_matrix(view, theirs, guess, rows, _sampled(MODEL_LINEUPS, rng), seat=them) for guess in guesses]
    return rows, solve(matrices, target_gap=0.03, max_iterations=200).mine


def choose_lineup(view: WizardsCupView, rng: random.Random) -> SetLineup:
    """A lineup drawn from the round game's near-equilibrium strategy (see :func:`lineup_strategy`)."""
    me = view.me
    assert me is not None and me.team is not None
    team = tuple(me.team)
    return SetLineup(lineup(team, _draw(lineup_strategy(view, team, rng), rng))[0])


def lineup_strategy(view: WizardsCupView, team: Team, rng: random.Random) -> FloatArray:
    """Weights on this seat's 720 lineups.

    When the view pins the opponent's team down, this is the round game's near-equilibrium.
    While it is hidden, each guessed opponent team is assumed to play as :func:`opponent_model`
    says, except for a :data:`SAFETY` share in which it best-responds to this seat's lineups:
    Hard solves that game, which keeps it hard to exploit without assuming the opponent can see
    a team it cannot.
    """
    opponents = opponent_teams(view, rng, OPPONENT_SAMPLES)
    if len(opponents) == 1:
        return lineup_solution(view, team, opponents, LINEUP_GAP).mine
    matrices: list[FloatArray] = []
    weights: list[float] = []
    expected = np.zeros(len(ORDERS))
    for other, weight in opponents:
        columns, model = opponent_model(view, other, rng)
        matrix = payoff_matrix(view, team, other, None, columns)
        matrices.append(matrix)
        weights.append(SAFETY * weight)
        expected += weight * (matrix @ model)
    # The modelled play enters as one more "opponent" with a single, fixed column.
    matrices.append(expected.reshape(-1, 1))
    weights.append(1.0 - SAFETY)
    return solve(matrices, weights, target_gap=HIDDEN_GAP, max_iterations=400).mine


class _Field:
    """Opponent teams and sampled lineups shared by every candidate team, so all are compared alike."""

    def __init__(self, view: WizardsCupView, rng: random.Random, teams: int, lineups: int) -> None:
        self.view = view
        self.opponents = opponent_teams(view, rng, teams)
        self.rows = _sampled(lineups, rng)
        self.columns = [_sampled(lineups, rng) for _ in self.opponents]
        self.scores: dict[Team, float] = {}

    def quick(self, team: Team) -> float:
        """The team's mean round value over the sampled lineups: its strength against the field."""
        if team not in self.scores:
            self.scores[team] = sum(weight * float(payoff_matrix(self.view, team, other, self.rows, columns).mean())
                                    for (other, weight), columns in zip(self.opponents, self.columns, strict=True))
        return self.scores[team]

    def solved(self, team: Team, iterations: int) -> float:
        """The team's value in the sampled round games, played near their equilibrium."""
        matrices = [payoff_matrix(self.view, team, other, self.rows, columns)
                    for (other, _), columns in zip(self.opponents, self.columns, strict=True)]
        solution = solve(matrices, [w for _, w in self.opponents], target_gap=0.02, max_iterations=iterations)
        return solution.value + solution.gap / 2  # the middle of the bracket on the game's value


def _best_team_action(view: WizardsCupView, candidates: Sequence[tuple[Action, Team]], rng: random.Random,
                      neighbours: Callable[[Team], list[tuple[Action, Team]]] | None = None) -> Action:
    """A quick field score for every candidate (and, for team picks, a step of hill climbing from the
    best), then the best few played near equilibrium on a bigger sample."""
    field = _Field(view, rng, QUICK_OPPONENTS, QUICK_LINEUPS)
    pool = dict((team, action) for action, team in candidates)
    if neighbours is not None:
        best = max(pool, key=field.quick)
        pool.update((team, action) for action, team in neighbours(best))
    ranked = sorted(pool, key=lambda team: -field.quick(team))[:FINALISTS]
    final = _Field(view, rng, FINAL_OPPONENTS, FINAL_LINEUPS)
    return pool[max(ranked, key=lambda team: final.solved(team, 150))]


def _in_set_order(cards: Iterable[str]) -> tuple[str, ...]:
    """Card ids in the set's order, the order legal team picks list them in."""
    return tuple(sorted(cards, key=lambda card: CARDS[card].value))


def choose_team(view: WizardsCupView, legal: Sequence[Action], rng: random.Random) -> Action:
    """A team by the value of its round games: sampled teams, the strongest by value, and their neighbours."""
    me = view.me
    assert me is not None
    picks = [action for action in legal if isinstance(action, ChooseTeam)]
    strongest = sorted((w for w in WIZARDS if w.card_id != me.displayed), key=lambda w: -w.value)[:LINEUP_SIZE]
    top = ChooseTeam(_in_set_order(w.card_id for w in strongest))
    candidates = rng.sample(picks, min(TEAM_CANDIDATES, len(picks))) + [a for a in picks if a == top][:1]

    def neighbours(team: Team) -> list[tuple[Action, Team]]:
        found: list[tuple[Action, Team]] = []
        for out in team[1:]:
            for wizard in WIZARDS:
                if wizard.card_id not in team:
                    cards = _in_set_order(wizard.card_id if c == out else c for c in team[1:])
                    found.append((ChooseTeam(cards), (me.displayed, *cards)))
        return found

    return _best_team_action(view, [(c, (me.displayed, *c.cards)) for c in candidates], rng, neighbours)


def choose_swap(view: WizardsCupView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Keep the team, or the swap whose next round games are worth the most."""
    me = view.me
    assert me is not None and me.team is not None
    candidates: list[tuple[Action, Team]] = []
    for action in legal:
        team = list(me.team)
        if isinstance(action, Swap):
            team[team.index(action.out)] = action.take
        elif not isinstance(action, KeepTeam):
            continue
        candidates.append((action, tuple(team)))
    return _best_team_action(view, candidates, rng)


def hard_bot(view: WizardsCupView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Decide a team, lineup or swap by the matrix game of the round (see the module docstring)."""
    if not legal:
        raise ValueError("the bot has no legal action to choose from")
    if view.me is None:
        return legal[0]
    if view.phase is Phase.LINEUP and view.me.team is not None:
        choice: Action = choose_lineup(view, rng)
    elif view.phase is Phase.TEAM:
        choice = choose_team(view, legal, rng)
    elif view.phase is Phase.SWAP and view.me.team is not None:
        choice = choose_swap(view, legal, rng)
    else:
        return legal[0]
    return choice if choice in legal else legal[0]
