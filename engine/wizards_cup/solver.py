"""Near-equilibrium strategies for a round's matrix game, by regret matching+.

The row player chooses a lineup; the column player is one of several
*opponent types* (a team the opponent might hold), each with its own payoff
matrix and its own lineup strategy. With a single type this is the plain
two-player zero-sum matrix game. Regret matching+ (alternating updates,
averages weighted by iteration) runs until the duality gap -- how much the
two sides' best responses to each other's averages could still gain -- is
under a target, and the gap is returned with the strategies, so every
solution carries its own certificate.

numpy is imported here: import this module only when a Hard bot or a solve runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Solution:
    """A solved round game.

    Attributes:
        mine: The row player's mixed strategy over the matrices' rows.
        theirs: Each opponent type's mixed strategy over its matrix's columns.
        value: The row player's guaranteed value (its strategy against best responses).
        gap: Duality gap: an upper bound on how much a best-responding opponent gains
            against ``mine`` compared with the game's value.
        iterations: Regret matching+ iterations run.
    """

    mine: FloatArray
    theirs: tuple[FloatArray, ...]
    value: float
    gap: float
    iterations: int


def _distinct(matrix: FloatArray, axis: int) -> tuple[FloatArray, NDArray[np.intp]]:
    """The distinct rows (axis 0) or columns (axis 1), and where each original one went.

    Rows are grouped by a random projection (far cheaper than sorting whole rows), and
    the grouping is checked exactly; should two different rows ever share a projection,
    the slow exact sort is used instead.
    """
    lines = matrix if axis == 0 else matrix.T
    projection = lines @ np.random.default_rng(17).random(lines.shape[1])
    _, first, inverse = np.unique(projection, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    copies = np.flatnonzero(first[inverse] != np.arange(len(lines)))
    if not np.array_equal(lines[first[inverse[copies]]], lines[copies]):
        unique, inverse = np.unique(lines, axis=0, return_inverse=True)
        first = np.unique(inverse.reshape(-1), return_index=True)[1]
        inverse = inverse.reshape(-1)
    distinct = lines[first]
    return (distinct if axis == 0 else distinct.T), inverse


def _spread(weights: FloatArray, inverse: NDArray[np.intp]) -> FloatArray:
    """Share each distinct strategy's weight equally among the identical originals it stands for."""
    counts = np.bincount(inverse, minlength=len(weights)).astype(np.float64)
    return np.asarray(weights[inverse] / counts[inverse], dtype=np.float64)


def _normalised(regrets: FloatArray) -> FloatArray:
    total = float(regrets.sum())
    if total <= 0.0:
        return np.full(len(regrets), 1.0 / len(regrets))
    return regrets / total


def gap_of(matrices: Sequence[FloatArray], weights: Sequence[float],
           mine: FloatArray, theirs: Sequence[FloatArray]) -> tuple[float, float]:
    """The row strategy's guaranteed value, and the duality gap of the strategy profile."""
    guaranteed = sum(w * float(np.min(mine @ m)) for m, w in zip(matrices, weights, strict=True))
    best_reply = float(np.max(sum(w * (m @ y) for m, w, y in zip(matrices, weights, theirs, strict=True))))
    return guaranteed, best_reply - guaranteed


def solve(matrices: Sequence[FloatArray], weights: Sequence[float] | None = None, *,
          target_gap: float = 0.005, max_iterations: int = 4000, check_every: int = 25) -> Solution:
    """Solve the row player's side of a round game by regret matching+.

    Args:
        matrices: One payoff matrix per opponent type, rows = my lineups (the same rows for
            every type), columns = that type's lineups; payoffs are the row player's.
        weights: Each type's probability (default equal).
        target_gap: Stop once the duality gap is at most this (in payoff units).
        max_iterations: Stop after this many iterations in any case.
        check_every: How often to measure the gap.

    Returns:
        The average strategies, the row player's guaranteed value and the gap.
    """
    if weights is None:
        weights = [1.0 / len(matrices)] * len(matrices)
    # Identical lineups (they happen: a wizard's place may not matter against a team) are merged, which
    # shrinks every product below; their weight is shared back out at the end.
    stacked = np.hstack(list(matrices))
    _, row_inverse = _distinct(stacked, 0)
    first_rows = np.unique(row_inverse, return_index=True)[1]
    reduced: list[FloatArray] = []
    column_inverses: list[NDArray[np.intp]] = []
    for matrix in matrices:
        distinct, inverse = _distinct(matrix[first_rows], 1)
        reduced.append(distinct)
        column_inverses.append(inverse)
    rows = len(first_rows)
    regret_x = np.zeros(rows)
    regret_y = [np.zeros(m.shape[1]) for m in reduced]
    x = np.full(rows, 1.0 / rows)
    ys = [np.full(m.shape[1], 1.0 / m.shape[1]) for m in reduced]
    sum_x = np.zeros(rows)
    sum_y = [np.zeros(m.shape[1]) for m in reduced]
    gap, value, iteration = float("inf"), 0.0, 0
    while iteration < max_iterations:
        iteration += 1
        utility = sum(w * (m @ y) for m, w, y in zip(reduced, weights, ys, strict=True))
        regret_x = np.maximum(regret_x + utility - float(x @ utility), 0.0)
        x = _normalised(regret_x)
        sum_x += iteration * x
        for k, matrix in enumerate(reduced):
            loss = x @ matrix  # the opponent's utility is minus the row player's
            regret_y[k] = np.maximum(regret_y[k] - loss + float(loss @ ys[k]), 0.0)
            ys[k] = _normalised(regret_y[k])
            sum_y[k] += iteration * ys[k]
        if iteration % check_every == 0 or iteration == max_iterations:
            avg_x = sum_x / sum_x.sum()
            value, gap = gap_of(reduced, weights, avg_x, [s / s.sum() for s in sum_y])
            if gap <= target_gap:
                break
    avg_x = sum_x / sum_x.sum()
    mine = _spread(avg_x, row_inverse)
    theirs = tuple(_spread(s / s.sum(), inv) for s, inv in zip(sum_y, column_inverses, strict=True))
    return Solution(mine, theirs, value, gap, iteration)
