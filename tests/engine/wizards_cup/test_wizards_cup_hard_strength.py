"""Hard against Normal over whole seeded games: the suite's short form of the 400-game ladder figure.

The issue's target is a 65% score against Normal; ``coven ladder wizards-cup`` measures it
over 400 games. Here 32 games (16 seeds, each played in both seatings) must reach the score
a 65% bot falls short of only 5% of the time, so a Hard that lost its edge fails.
"""

from __future__ import annotations

import math

from engine import get_game
from tui.cli.ladder import play_pairing

GAMES = 32
TARGET = 0.65
ONE_SIDED_95 = 1.645


def test_hard_scores_like_a_65_percent_bot_against_normal() -> None:
    pairing = play_pairing(get_game("wizards-cup"), "hard", "normal", GAMES, seed=20_000)
    floor = GAMES * (TARGET - ONE_SIDED_95 * math.sqrt(TARGET * (1 - TARGET) / GAMES))
    assert pairing.games == GAMES
    assert pairing.points >= math.ceil(floor), f"Hard scored {pairing.points} of {GAMES} against Normal"
