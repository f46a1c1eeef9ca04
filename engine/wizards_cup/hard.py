"""The Hard Wizards Cup bot: it plays each round as a matrix game, near its equilibrium.

See docs/bots.md for the method. In short: a lineup is drawn from a
near-equilibrium mixed strategy of the round's 720x720 game, averaged over
teams the opponent could hold given this seat's view; team picks and swaps
are scored by the value of the round games they lead to, on sampled lineups.

This module imports numpy (through the matrix builder and the solver), so
:mod:`engine.wizards_cup.bots` imports it only when a Hard bot first decides.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import numpy as np

from engine.wizards_cup.actions import Action, ChooseTeam, KeepTeam, SetLineup, Swap
from engine.wizards_cup.cards import CARDS, LINEUP_SIZE, WIZARDS
from engine.wizards_cup.round_matrix import ORDERS, IntArray, lineup, round_results
from engine.wizards_cup.solver import FloatArray, Solution, solve
from engine.wizards_cup.state import Phase, PlayerView, WizardsCupView

BOTH_OUT_RATE = 0.05
"""How often a future round is taken to end with both sides out together (about 4% between random lineups)."""

OPPONENT_SAMPLES = 3
"""Opponent teams sampled for a lineup decision while the opponent's team is hidden."""

LINEUP_GAP = 0.005
"""Duality gap a lineup decision solves to when the opponent's team is known, in payoff units (range 2)."""

HIDDEN_GAP = 0.02
"""The looser gap while the opponent's team is a guess: the guess costs more than the last hundredths."""

Team = tuple[str, ...]


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


def round_payoffs(view: WizardsCupView, mine: Team, theirs: Team) -> tuple[float, float, float]:
    """What losing, both running out and winning this round are worth for the game, to this seat."""
    assert view.seat is not None
    me, them = view.players[view.seat], view.players[1 - view.seat]
    totals = sum(CARDS[c].value for c in mine), sum(CARDS[c].value for c in theirs)
    tiebreak = 0.0 if totals[0] == totals[1] else (1.0 if totals[0] < totals[1] else -1.0)
    need_me, need_them = view.tokens_to_win - me.tokens, view.tokens_to_win - them.tokens
    return (game_value(need_me, need_them - 1, tiebreak), game_value(need_me - 1, need_them - 1, tiebreak),
            game_value(need_me - 1, need_them, tiebreak))


def payoff_matrix(view: WizardsCupView, mine: Team, theirs: Team,
                  rows: IntArray | None = None, columns: IntArray | None = None) -> FloatArray:
    """Rows: my lineups; columns: theirs; entries: the round's value for the game (see :func:`round_payoffs`)."""
    values = np.array(round_payoffs(view, mine, theirs))
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
    return (them.displayed, *sorted(known), *sorted(rng.sample(unseen, LINEUP_SIZE - len(known))))


def lineup_solution(view: WizardsCupView, mine: Team, opponents: Sequence[tuple[Team, float]],
                    target_gap: float = LINEUP_GAP) -> Solution:
    """The near-equilibrium of the round game for ``mine`` against each possible opponent team, weighted."""
    matrices = [payoff_matrix(view, mine, team) for team, _ in opponents]
    return solve(matrices, [weight for _, weight in opponents], target_gap=target_gap, max_iterations=400)


def _draw(weights: FloatArray, rng: random.Random) -> int:
    """An index drawn from ``weights`` with this bot's own seeded generator."""
    cumulative = np.cumsum(weights)
    return min(int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")), len(weights) - 1)


def choose_lineup(view: WizardsCupView, rng: random.Random) -> SetLineup:
    """A lineup drawn from the round game's near-equilibrium strategy."""
    me = view.me
    assert me is not None and me.team is not None
    team = tuple(me.team)
    opponents = opponent_teams(view, rng, OPPONENT_SAMPLES)
    solution = lineup_solution(view, team, opponents, LINEUP_GAP if len(opponents) == 1 else HIDDEN_GAP)
    return SetLineup(lineup(team, _draw(solution.mine, rng))[0])


def _team_scores(view: WizardsCupView, teams: Sequence[Team], opponents: Sequence[tuple[Team, float]],
                 rng: random.Random, lineups: int, iterations: int) -> list[float]:
    """Each team's value in round games on ``lineups`` sampled lineups a side (the same for every team)."""
    rows = np.array(sorted(rng.sample(range(len(ORDERS)), lineups)), dtype=np.int32)
    columns = np.array(sorted(rng.sample(range(len(ORDERS)), lineups)), dtype=np.int32)
    scores = []
    for team in teams:
        matrices = [payoff_matrix(view, team, other, rows, columns) for other, _ in opponents]
        solved = solve(matrices, [w for _, w in opponents], target_gap=0.02, max_iterations=iterations)
        scores.append(solved.value + solved.gap / 2)  # the middle of the bracket on the game's value
    return scores


def _best_team_action(view: WizardsCupView, candidates: Sequence[tuple[Action, Team]], rng: random.Random) -> Action:
    """Two passes: every candidate on small round games, then the best few on bigger ones."""
    opponents = opponent_teams(view, rng, 2)
    quick = _team_scores(view, [team for _, team in candidates], opponents, rng, 32, 60)
    ranked = sorted(range(len(candidates)), key=lambda i: -quick[i])[:4]
    opponents = opponent_teams(view, rng, 3)
    final = _team_scores(view, [candidates[i][1] for i in ranked], opponents, rng, 96, 150)
    return candidates[ranked[max(range(len(ranked)), key=lambda i: final[i])]][0]


def choose_team(view: WizardsCupView, legal: Sequence[Action], rng: random.Random) -> Action:
    """A team among sampled candidates (and the strongest by value), by the value of its round games."""
    me = view.me
    assert me is not None
    picks = [action for action in legal if isinstance(action, ChooseTeam)]
    strongest = sorted((w for w in WIZARDS if w.card_id != me.displayed), key=lambda w: -w.value)[:LINEUP_SIZE]
    top = ChooseTeam(tuple(sorted(w.card_id for w in strongest)))
    candidates = rng.sample(picks, min(40, len(picks))) + [a for a in picks if a == top][:1]
    return _best_team_action(view, [(c, (me.displayed, *c.cards)) for c in candidates], rng)


def choose_swap(view: WizardsCupView, legal: Sequence[Action], rng: random.Random) -> Action:
    """Keep the team, or the swap whose next round game is worth the most."""
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
