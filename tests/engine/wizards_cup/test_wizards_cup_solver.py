"""The round's payoff matrix matches the engine's play, and Hard's lineup strategy is near-equilibrium."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np

from engine.wizards_cup.actions import PlayDuel, SetLineup
from engine.wizards_cup.cards import CARDS, WIZARDS, Check, Effect, Timing, element_beats
from engine.wizards_cup.hard import lineup_solution, opponent_teams, payoff_matrix
from engine.wizards_cup.round_matrix import ORDERS, lineup, round_results
from engine.wizards_cup.state import Phase
from tests.helpers.wizards_cup_helpers import RULES, lineup_state

REPO = Path(__file__).resolve().parents[3]
IDS = [w.card_id for w in WIZARDS]


def random_teams(rng: random.Random) -> tuple[list[str], list[str]]:
    """Two teams of six; the same wizard may be in both, as each player owns a whole set."""
    return rng.sample(IDS, 6), rng.sample(IDS, 6)


def engine_round(team0: list[str], team1: list[str], first: int, second: int) -> int:
    """The round the engine plays from these two lineups: +1 seat 0 wins, -1 seat 1, 0 both."""
    state = lineup_state(team0, team1)
    state, _ = RULES.apply(state, 0, SetLineup(lineup(team0, first)[0]))
    state, _ = RULES.apply(state, 1, SetLineup(lineup(team1, second)[0]))
    while state.phase is Phase.DUEL:
        state, _ = RULES.apply(state, None, PlayDuel())
    return {(0,): 1, (1,): -1, (0, 1): 0}[tuple(state.round_winners)]


def test_matrix_entries_are_the_rounds_the_engine_plays() -> None:
    rng = random.Random(1717)
    checked = 0
    for _ in range(12):
        team0, team1 = random_teams(rng)
        results = round_results(team0, team1)
        assert results.shape == (720, 720)
        for _ in range(25):
            first, second = rng.randrange(720), rng.randrange(720)
            assert results[first, second] == engine_round(team0, team1, first, second), (team0, team1, first, second)
            checked += 1
    assert checked == 300


def _holds(check: Check, number: int, element: object, side: tuple[str, bool, str, list[str]], other: str,
           duel: int) -> bool:
    card, _, waiting, pile = side
    return {Check.OPPONENT_VALUE_AT_LEAST: CARDS[other].value >= number,
            Check.OPPONENT_VALUE_AT_MOST: CARDS[other].value <= number,
            Check.OPPONENT_ELEMENT: CARDS[other].element == element,
            Check.OWN_ELEMENT: CARDS[card].element == element,
            Check.DUEL_AT_MOST: duel <= number,
            Check.DUEL_AT_LEAST: duel >= number,
            Check.WAITING_ELEMENT: CARDS[waiting].element == element,
            Check.DISCARDS_AT_LEAST: len(pile) >= number}[check]


def _independent_duel(sides: list[tuple[str, bool, str, list[str]]], duel: int) -> int | None:
    """A duel decided straight from the rules document: A powers, B elements, C values."""
    powers = []
    for index, side in enumerate(sides):
        card, fresh, _, pile = side
        own = CARDS[card].power
        top = CARDS[pile[-1]].power if pile else None
        sources = [p for p in (own, top) if p is not None and (
            (p is own and (p.timing is Timing.ONGOING or (p.timing is Timing.INSTANT and fresh)))
            or (p is top and p.timing is Timing.DISCARD))]
        for power in sources:
            if all(_holds(c.check, c.number, c.element, side, sides[1 - index][0], duel) for c in power.conditions):
                powers.append((index, power.effect))
    said = {index if effect is Effect.WIN else None for index, effect in powers
            if effect in (Effect.WIN, Effect.BOTH_DISCARDED)}
    if len(said) == 1:
        return said.pop()
    a, b = CARDS[sides[0][0]], CARDS[sides[1][0]]
    if element_beats(a.element, b.element):
        return 0
    if element_beats(b.element, a.element):
        return 1
    if a.value == b.value:
        ties = {index for index, effect in powers if effect is Effect.WIN_TIES}
        return ties.pop() if len(ties) == 1 else None
    lower_wins = any(effect is Effect.LOWER_WINS for _, effect in powers)
    return 0 if (a.value > b.value) != lower_wins else 1


def _independent_round(team0: list[str], team1: list[str], first: int, second: int) -> int:
    lineups = [lineup(team0, first), lineup(team1, second)]
    sent = [0, 0]
    piles: list[list[str]] = [[], []]
    fresh, duel = [True, True], 0
    while True:
        duel += 1
        sides = [(lineups[i][0][sent[i]], fresh[i], lineups[i][1], piles[i]) for i in (0, 1)]
        winner = _independent_duel(sides, duel)
        fresh = [False, False]
        for loser in ((0, 1) if winner is None else (1 - winner,)):
            piles[loser] = [*piles[loser], lineups[loser][0][sent[loser]]]
            sent[loser] += 1
            fresh[loser] = True
        out = [sent[i] == 5 for i in (0, 1)]
        if any(out):
            return 0 if all(out) else (1 if out[1] else -1)


def test_matrix_entries_agree_with_an_independent_round_simulation() -> None:
    rng = random.Random(99)
    for _ in range(10):
        team0, team1 = random_teams(rng)
        results = round_results(team0, team1)
        for _ in range(40):
            first, second = rng.randrange(720), rng.randrange(720)
            assert results[first, second] == _independent_round(team0, team1, first, second)


def test_a_sub_matrix_is_the_same_rounds_as_the_full_one() -> None:
    team0, team1 = random_teams(random.Random(5))
    rows, columns = np.array([3, 700, 41], dtype=np.int32), np.array([0, 719], dtype=np.int32)
    assert (round_results(team0, team1, rows, columns) == round_results(team0, team1)[np.ix_(rows, columns)]).all()


def test_hard_lineup_strategy_is_within_a_hundredth_of_the_payoff_range_of_equilibrium() -> None:
    """A best-responding opponent gains at most 1% of the payoff range against Hard's known-team strategy.

    The check is a certificate computed here from the matrix: no column strategy can hold
    the row player below min_j (x A)_j, and the game's value is at most max_i (A y)_i for
    any y, so x's exploitability is at most their difference.
    """
    rng = random.Random(2024)
    for pair in range(20):
        team0, team1 = random_teams(rng)
        state = lineup_state(team0, team1, tokens=(pair % 2, (pair // 2) % 2))
        state.players[1].seen = list(team1)  # every opponent wizard seen: the view pins the team down
        view = RULES.view(state, 0)
        opponents = opponent_teams(view, random.Random(pair), 5)
        assert [sorted(team) for team, _ in opponents] == [sorted(team1)]
        solution = lineup_solution(view, tuple(team0), opponents)
        matrix = payoff_matrix(view, tuple(team0), opponents[0][0])
        x, y = solution.mine, solution.theirs[0]
        assert x.shape == (720,) and abs(x.sum() - 1) < 1e-9 and (x >= 0).all()
        best_reply_to_x = float(np.min(x @ matrix))  # the opponent's best pure reply is a best reply
        value_at_most = float(np.max(matrix @ y))
        payoff_range = float(matrix.max() - matrix.min())
        assert value_at_most - best_reply_to_x <= 0.01 * payoff_range + 1e-12, pair


def test_the_solved_value_of_a_lopsided_game_is_exact() -> None:
    """A team that wins every round whatever the order: the solve must say so, with no gap."""
    team0 = ["pyre-lord", "echo-warden", "deepwater-regent", "mist-warden", "lantern-knight", "sunforged-saint"]
    team1 = ["dawn-acolyte", "moss-hermit", "tide-caller", "grave-lurker", "ember-adept", "umbral-tyrant"]
    results = round_results(team0, team1)
    state = lineup_state(team0, team1)
    state.players[1].seen = list(team1)
    view = RULES.view(state, 0)
    solution = lineup_solution(view, tuple(team0), [(tuple(team1), 1.0)])
    matrix = payoff_matrix(view, tuple(team0), tuple(team1))
    guaranteed = float(np.min(solution.mine @ matrix))
    best_row = float(np.max(matrix.min(axis=1)))  # the best pure lineup's worst case
    assert guaranteed >= best_row - 1e-9
    if (results == 1).all(axis=1).any():
        assert solution.gap <= 1e-9 and abs(guaranteed - matrix.max()) < 1e-9


def test_lineup_numbers_cover_every_order_once() -> None:
    team = IDS[:6]
    orders = {lineup(team, n) for n in range(len(ORDERS))}
    assert len(orders) == 720 and all(waiting not in five for five, waiting in orders)


def test_numpy_loads_with_the_first_hard_decision_not_with_the_game() -> None:
    code = (
        "import random, sys\n"
        "import engine\n"
        "spec = engine.get_game('wizards-cup')\n"
        "print('numpy' in sys.modules, 'hard' in spec.bots)\n"
        "from tests.helpers.wizards_cup_helpers import RULES, lineup_state\n"
        "state = lineup_state(['pyre-lord', 'echo-warden', 'mist-warden', 'tide-caller', 'moss-hermit',"
        " 'lantern-knight'], ['ember-adept', 'hollow-sage', 'thornmother', 'brine-witch', 'cinder-duelist',"
        " 'night-whisper'])\n"
        "spec.bots['hard'](RULES.view(state, 0), RULES.legal_actions(state, 0), random.Random(1))\n"
        "print('numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["False", "True", "True"]
