"""The Wizards Cup coach: what a lineup is worth, and what a finished game's rounds gave up.

The coach reads only a seat's view (:func:`advise_lineup`) or what a finished
game made public (:func:`review_rounds`); it never takes a state, so it cannot
see what the seat could not. Its numbers come from the Hard bot's own pieces
(:mod:`engine.wizards_cup.hard`): the teams the opponent could hold, Hard's
model of how each would line up, and the round's matrix game solved by
regret matching+. Those modules import numpy, so this one imports them only
inside its functions: importing the coach (the screens do, for its types)
loads no numpy. See docs/bots.md, "The coach".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.core.rng import seeded_rng
from engine.wizards_cup.cards import LINEUP_SIZE
from engine.wizards_cup.state import WizardsCupView

if TYPE_CHECKING:
    from engine.wizards_cup.round_matrix import ResultArray
    from engine.wizards_cup.solver import FloatArray

Team = tuple[str, ...]

OPPONENT_TEAMS = 8
"""Opponent teams the coach guesses at while the opponent's team is hidden (as many as Hard)."""

TOP = 3
"""How many of the equilibrium's most-played lineups are shown."""


@dataclass(frozen=True)
class Chances:
    """How a round goes for one side, in a player's terms.

    Attributes:
        win: Chance of winning the round.
        both: Chance that both sides run out together (both take a Cup Token).
        lose: Chance of losing the round.
        value: The round's worth for the game (Hard's payoff, -1..+1): game chance won minus lost.
        game: The chance of winning the Cup this leads to, a shared Cup counting half: ``(1 + value) / 2``.
    """

    win: float
    both: float
    lose: float
    value: float

    @property
    def game(self) -> float:
        """See the class docstring."""
        return (1.0 + self.value) / 2.0


@dataclass(frozen=True)
class Suggestion:
    """One lineup of a mixed strategy: five wizards in duel order, the Waiting Card, and how often it is played."""

    order: tuple[str, ...]
    waiting: str
    weight: float


@dataclass(frozen=True)
class ModelTeam:
    """One team the opponent could hold, its weight, and Hard's model of its lineups (number, weight)."""

    team: Team
    weight: float
    lineups: tuple[tuple[int, float], ...]


@dataclass(frozen=True)
class LineupAdvice:
    """What the coach says about one lineup (see :func:`advise_lineup`).

    Attributes:
        order: The lineup's five wizards in duel order.
        waiting: Its Waiting Card.
        opponent: The opponent's name.
        known: True when the view pins the opponent's team down.
        yours: The lineup against Hard's model of the opponent.
        mix: Hard's equilibrium mixture against the same model.
        top: The mixture's most-played lineups, most played first.
        guessed: The lineup against an opponent who guessed it (each possible team best-responding).
        mix_guessed: The mixture against an opponent who knew the mixture (but not the draw from it).
        model: The opponent model itself, for whoever wants to check the numbers.
    """

    order: tuple[str, ...]
    waiting: str
    opponent: str
    known: bool
    yours: Chances
    mix: Chances
    top: tuple[Suggestion, ...]
    guessed: Chances
    mix_guessed: Chances
    model: tuple[ModelTeam, ...]


class CoachError(ValueError):
    """The view is not one the coach can advise on; ``reason`` says why in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def chances_of(results: ResultArray, payoffs: tuple[float, float, float],
             rows: FloatArray, columns: FloatArray) -> Chances:
    """The chances of row weights ``rows`` against column weights ``columns`` in one table of round results."""
    import numpy as np

    used_rows, used_columns = np.flatnonzero(rows > 0), np.flatnonzero(columns > 0)
    pairs = np.outer(rows[used_rows], columns[used_columns])
    block = results[np.ix_(used_rows, used_columns)].astype(np.intp) + 1  # 0 lost, 1 both out, 2 won
    lose, both, win = (float(share) for share in np.bincount(block.ravel(), weights=pairs.ravel(), minlength=3))
    return Chances(win, both, lose, payoffs[0] * lose + payoffs[1] * both + payoffs[2] * win)


def _sum(parts: Sequence[tuple[float, Chances]]) -> Chances:
    """The weighted mixture of several teams' chances."""
    return Chances(*(sum(w * getattr(c, name) for w, c in parts) for name in ("win", "both", "lose", "value")))


def one_hot(size: int, index: int) -> FloatArray:
    """Weights that put everything on ``index``: a single lineup played for sure."""
    import numpy as np

    vector = np.zeros(size)
    vector[index] = 1.0
    return vector


def top_lineups(team: Team, weights: FloatArray, count: int = TOP) -> tuple[Suggestion, ...]:
    """The ``count`` most-played lineups of ``weights`` (ties by lineup number, so the same every time)."""
    import numpy as np

    from engine.wizards_cup.round_matrix import lineup

    ranked = np.lexsort((np.arange(len(weights)), -np.round(weights, 12)))[:count]
    return tuple(Suggestion(*lineup(team, int(i)), float(weights[i])) for i in ranked)


def advise_lineup(view: WizardsCupView, order: Sequence[str], seed: int = 0) -> LineupAdvice:
    """What the lineup ``order`` (five of the seat's six, in duel order) is worth, from the seat's view alone.

    While the opponent's team is hidden, the coach guesses at it as Hard does
    (:func:`~engine.wizards_cup.hard.opponent_teams`) and models each guess's play
    (:func:`~engine.wizards_cup.hard.opponent_model`); Hard's mixture is the same game
    Hard solves for its own lineups. When the view pins the team down, the model is
    the round game's equilibrium. The same view, order and seed give the same advice.

    Raises:
        CoachError: a spectator's view, a seat without a team, or an order that is not
            five of the team's wizards.
    """
    import numpy as np

    from engine.wizards_cup import hard
    from engine.wizards_cup.round_matrix import ORDERS, lineup_number, round_results
    from engine.wizards_cup.solver import solve

    me = view.me
    if view.seat is None or me is None or not me.team:
        raise CoachError("The coach advises a seat on its own lineup; this view has none.")
    team = tuple(me.team)
    if len(order) != LINEUP_SIZE or len(set(order)) != LINEUP_SIZE or not set(order) <= set(team):
        raise CoachError("A lineup is five different wizards of your team.")
    row = lineup_number(team, order)
    rng = seeded_rng(seed, "coach", view.round)
    opponents = hard.opponent_teams(view, rng, OPPONENT_TEAMS)
    tables = [round_results(team, other) for other, _ in opponents]
    payoffs = [hard.round_payoffs(view, team, other) for other, _ in opponents]
    matrices = [np.array(p)[t.astype(np.intp) + 1] for t, p in zip(tables, payoffs, strict=True)]
    models: list[FloatArray] = []
    if len(opponents) == 1:
        solution = solve(matrices, target_gap=hard.LINEUP_GAP, max_iterations=2000)
        mix, models = solution.mine, [solution.theirs[0]]
    else:
        # The game Hard's lineup_strategy solves, with its model kept so it can be shown and checked.
        parts: list[FloatArray] = []
        weights: list[float] = []
        expected = np.zeros(len(ORDERS))
        for (other, weight), matrix in zip(opponents, matrices, strict=True):
            columns, model = hard.opponent_model(view, other, rng)
            full = np.zeros(len(ORDERS))
            full[columns] = model
            models.append(full)
            parts.append(matrix[:, columns])
            weights.append(hard.SAFETY * weight)
            expected += weight * (matrix @ full)
        parts.append(expected.reshape(-1, 1))
        weights.append(1.0 - hard.SAFETY)
        mix = solve(parts, weights, target_gap=hard.HIDDEN_GAP, max_iterations=400).mine
    yours, mixed, guessed, mix_guessed = [], [], [], []
    mine = one_hot(len(ORDERS), row)
    for (_, weight), results, payoff, matrix, model in zip(opponents, tables, payoffs, matrices, models,
                                                           strict=True):
        yours.append((weight, chances_of(results, payoff, mine, model)))
        mixed.append((weight, chances_of(results, payoff, mix, model)))
        # A best response: the opponent's lineup that leaves this row (or this mixture) the least.
        guessed.append((weight, chances_of(results, payoff, mine, one_hot(len(ORDERS), int(np.argmin(matrix[row]))))))
        worst = int(np.argmin(mix @ matrix))
        mix_guessed.append((weight, chances_of(results, payoff, mix, one_hot(len(ORDERS), worst))))
    model_teams = tuple(
        ModelTeam(other, weight, tuple((int(c), float(model[c])) for c in np.flatnonzero(model > 0)))
        for (other, weight), model in zip(opponents, models, strict=True))
    waiting = next(card for card in team if card not in order)
    return LineupAdvice(tuple(order), waiting, view.players[1 - view.seat].name, len(opponents) == 1,
                        _sum(yours), _sum(mixed), top_lineups(team, mix), _sum(guessed), _sum(mix_guessed), model_teams)


def with_tokens(view: WizardsCupView, tokens: tuple[int, int]) -> WizardsCupView:
    """``view`` with each side holding ``tokens`` Cup Tokens: the payoffs of a round played from that score."""
    players = (replace(view.players[0], tokens=tokens[0]), replace(view.players[1], tokens=tokens[1]))
    return replace(view, players=players)
