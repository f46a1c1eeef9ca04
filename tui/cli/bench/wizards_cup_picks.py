"""Measure how often Hard takes each Wizards Cup wizard into its team: the prior in ``engine.wizards_cup.pick_rates``.

Run as ``python -m tui.cli.bench.wizards_cup_picks [SEEDS] [FIRST_SEED]`` (default 120 seeds from 500).
Each seed's deal is offered to both seats; a wizard counts as available to a seat unless
it is that seat's displayed card. The output is the table to paste into the data module.
"""

from __future__ import annotations

import sys

from engine import get_game
from engine.core.rng import seeded_rng
from engine.wizards_cup.actions import ChooseTeam
from engine.wizards_cup.cards import WIZARDS


def pick_rates(seeds: int, first_seed: int) -> dict[str, float]:
    """Each wizard's share of Hard's team choices over ``seeds`` deals, where it could be chosen."""
    spec = get_game("wizards-cup")
    rules = spec.rules
    taken = dict.fromkeys((w.card_id for w in WIZARDS), 0)
    offered = dict.fromkeys((w.card_id for w in WIZARDS), 0)
    for seed in range(first_seed, first_seed + seeds):
        state = rules.new_state({}, seed, 2, ["A", "B"])
        for seat in rules.to_act(state):
            view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
            choice = spec.bots["hard"](view, legal, seeded_rng(seed, "picks", seat))
            assert isinstance(choice, ChooseTeam)
            displayed = view.players[seat].displayed
            for card in offered:
                offered[card] += card != displayed
            for card in choice.cards:
                taken[card] += 1
    return {card: taken[card] / offered[card] for card in taken if offered[card]}


def main(argv: list[str]) -> int:
    """Print the measured rates as the data module's table, most-taken first."""
    seeds = int(argv[0]) if argv else 120
    first_seed = int(argv[1]) if len(argv) > 1 else 500
    rates = pick_rates(seeds, first_seed)
    print("PICK_RATES: dict[str, float] = {")
    for card, rate in sorted(rates.items(), key=lambda item: -item[1]):
        print(f'    "{card}": {rate:.2f},')
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
