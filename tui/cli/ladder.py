"""``coven ladder [GAME] --games N --seed S``: every bot level against every other, and how strong each is.

Each pairing plays ``N`` games as ``N/2`` seat-mirrored pairs: the same seed
twice, each level in each seat once, so neither the seat nor the deal favours
one side. A win scores 1, a draw (or a shared win) ½. Each pairing's score is
shown with a 95% Wilson interval, and every level gets an Elo rating fitted to
all the pairings at once (a Bradley–Terry fit, the first level anchored at
1000; a virtual draw in every pairing keeps a level that never wins finite).
The figures are two-player games; WitchDraft is played by two.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine import GameSpec
from tui.cli.simulate import play_game

Z_95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""

ANCHOR = 1000.0
"""The Elo rating the first (weakest-named) level is given."""


@dataclass(frozen=True)
class Pairing:
    """What one level scored against another.

    Attributes:
        first: The level whose score this is.
        second: Its opponent.
        games: Games played (both seatings of each seed).
        points: ``first``'s points: 1 a win, ½ a draw.
    """

    first: str
    second: str
    games: int
    points: float

    @property
    def rate(self) -> float:
        """``first``'s score per game."""
        return self.points / self.games if self.games else 0.5


def wilson_interval(points: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``points`` in ``games`` (draws as half points)."""
    if games <= 0:
        return 0.0, 1.0
    rate = points / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def elo_ratings(levels: Sequence[str], pairings: Sequence[Pairing], rounds: int = 2000) -> dict[str, float]:
    """Each level's Elo rating from all the pairings (Bradley–Terry by minorisation–maximisation)."""
    wins = {level: 0.0 for level in levels}
    games: dict[tuple[str, str], float] = {}
    for pairing in pairings:
        # One virtual draw per pairing: a level that never scores still gets a finite rating.
        wins[pairing.first] += pairing.points + 0.5
        wins[pairing.second] += pairing.games - pairing.points + 0.5
        key = (pairing.first, pairing.second) if pairing.first < pairing.second else (pairing.second, pairing.first)
        games[key] = games.get(key, 0.0) + pairing.games + 1
    strength = {level: 1.0 for level in levels}
    for _ in range(rounds):
        updated = {}
        for level in levels:
            denominator = sum(count / (strength[a] + strength[b])
                              for (a, b), count in games.items() if level in (a, b))
            updated[level] = wins[level] / denominator if denominator else strength[level]
        total = sum(updated.values())
        strength = {level: value * len(levels) / total for level, value in updated.items()}
    base = strength[levels[0]]
    return {level: ANCHOR + 400 * math.log10(strength[level] / base) for level in levels}


def play_pairing(spec: GameSpec, first: str, second: str, games: int, seed: int,
                 advance: Callable[[], None] = lambda: None) -> Pairing:
    """``games`` games of ``first`` against ``second``, each seed with both seatings."""
    points = 0.0
    for index in range(games):
        game_seed = seed + index // 2
        mine = index % 2  # the seat ``first`` takes: 0 on the seed's first game, 1 on its mirror
        levels = [first, second] if mine == 0 else [second, first]
        state, _ = play_game(spec, game_seed, levels)
        result = spec.rules.result(state)
        assert result is not None
        winners = set(result.winners)
        if winners == {mine}:
            points += 1
        elif winners != {1 - mine}:
            points += 0.5
        advance()
    return Pairing(first, second, games, points)


def ladder(spec: GameSpec, games: int, seed: int, advance: Callable[[], None] = lambda: None) -> list[Pairing]:
    """Every pairing of the game's bot levels (``games`` games each)."""
    return [play_pairing(spec, first, second, games, seed, advance)
            for first, second in combinations(spec.bot_levels, 2)]


def report_lines(spec: GameSpec, pairings: Sequence[Pairing], markdown: bool = False) -> list[str]:
    """The ladder as lines: each pairing's score and interval, then each level's Elo."""
    ratings = elo_ratings(list(spec.bot_levels), pairings)
    lines: list[str] = []
    if markdown:
        lines += [f"**{spec.title}**", "", "| pairing | games | score of the first | 95% interval |", "|---|---|---|---|"]
    else:
        lines.append(f"{spec.title}: {len(pairings)} pairings")
    for pairing in pairings:
        low, high = wilson_interval(pairing.points, pairing.games)
        if markdown:
            lines.append(f"| {pairing.first} vs {pairing.second} | {pairing.games} | {pairing.rate:.1%} | "
                         f"{low:.1%}–{high:.1%} |")
        else:
            lines.append(f"  {pairing.first} vs {pairing.second}: {pairing.rate:.1%} of {pairing.games} games "
                         f"(95% interval {low:.1%}–{high:.1%})")
    order = sorted(ratings, key=lambda level: -ratings[level])
    elo = ", ".join(f"{level} {ratings[level]:.0f}" for level in order)
    lines += (["", f"Elo: {elo}", ""] if markdown else [f"  Elo: {elo}"])
    return lines
