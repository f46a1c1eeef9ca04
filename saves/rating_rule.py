"""How a rated game moves its players' ratings: OpenSkill's Plackett-Luce model (Weng-Lin), and the ranks.

OpenSkill is imported only when a game is rated, so starting Coven never pays for it. A rating is a mean
``mu`` and an uncertainty ``sigma``; players are listed by the conservative estimate ``mu - 3 sigma`` (the
library's ordinal), which a newcomer's wide ``sigma`` keeps low until games show more.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

START_MU = 25.0
"""A new player's mean, the library's default."""
START_SIGMA = 25.0 / 3.0
"""A new player's uncertainty, the library's default."""


@dataclass(frozen=True)
class Skill:
    """One player's rating at one game.

    Attributes:
        mu: The estimated skill.
        sigma: How uncertain that estimate is.
    """

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` by which players are listed."""
        return self.mu - 3.0 * self.sigma


def game_ranks(seats: int, winners: Collection[int], lost: Collection[int]) -> list[int]:
    """Each seat's rank in a finished game (1 is best; equal ranks are ties).

    Winners share rank 1 and the other seats rank 2 (a draw, no winners: everyone shares rank 1). A seat in
    ``lost`` (its player left and did not come back) ranks last, behind every seat that played on, whatever
    became of the seat afterwards: a seat a bot won for its player who left is last, and the players who
    played on then share rank 1.
    """
    kept = set(winners) - set(lost)
    ranks = [1 if not kept or seat in kept else 2 for seat in range(seats)]
    last = max((rank for seat, rank in enumerate(ranks) if seat not in lost), default=0) + 1
    return [last if seat in lost else rank for seat, rank in enumerate(ranks)]


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """Every player's rating after one game, by the Plackett-Luce model with the library's defaults.

    Args:
        teams: The players of each side (at Coven's tables every side is one player).
        ranks: Each side's rank, 1 best; equal ranks are ties.
    """
    from openskill.models import PlackettLuce  # imported here: only a rated game's end needs it

    model = PlackettLuce()
    rated = model.rate(
        [[model.rating(mu=skill.mu, sigma=skill.sigma) for skill in team] for team in teams], ranks=list(ranks)
    )
    return [[Skill(player.mu, player.sigma) for player in team] for team in rated]


def load() -> None:
    """Import the rating library now, so that a transaction about to rate a game does not wait for it."""
    import openskill.models  # noqa: F401  (imported for its side effect: loaded once, here)
