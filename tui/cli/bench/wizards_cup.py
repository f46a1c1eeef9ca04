"""``coven bench wizards-cup``: the round's payoff matrix, its solve, and the Hard bot's time and strength.

Run as a module for the long strength figures alone::

    python -m tui.cli.bench.wizards_cup 400            # against Easy, then Normal
    python -m tui.cli.bench.wizards_cup 400 normal     # against Normal only
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from engine import get_game
from engine.core.words import plural
from tui.cli.bench.progress import Progress

TEAMS = (
    ("pyre-lord", "ember-adept", "night-whisper", "tide-caller", "lantern-knight", "starless-oracle"),
    ("sunforged-saint", "hollow-sage", "brine-witch", "thornmother", "cinder-duelist", "moss-hermit"),
)
"""The pair of teams whose matrix is built: between them they use every kind of power."""

LOOP_SAMPLE = 3_000
"""Rounds the straightforward one-duel-at-a-time loop plays, to extrapolate its time for all 518,400."""

STRENGTH_GAMES = (2, 10)
"""Games Hard plays against each level in ``coven bench wizards-cup``: at least 2 (seats alternate), at most 10."""

MATRIX_TARGET = 0.2
DECISION_TARGET = 1.0
SCORE_TARGETS = {"normal": 0.65, "easy": 0.95}
"""Hard's score (a win 1, a draw half) to reach against each level over the long run (docs/bots.md)."""


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[int(0.95 * (len(ordered) - 1))]


def play(seed: int, levels: list[str], timings: dict[str, list[float]] | None = None,
         cpu: dict[str, list[float]] | None = None) -> tuple[int, ...]:
    """One seeded game between two bot levels; the winning seats (both or none for a draw).

    Each bot decision's wall-clock time goes into ``timings`` and its CPU time into ``cpu``
    (by level): on a busy machine the CPU time is what this process itself spent.
    """
    from engine.core.rng import seeded_rng

    spec = get_game("wizards-cup")
    rules = spec.rules
    state = spec.new_state({}, seed, 2)
    actions = 0
    while rules.result(state) is None:
        seats = rules.to_act(state)
        actions += 1  # every step counts, table steps too, as in `coven bench`'s other games
        if not seats:
            state, _ = rules.apply(state, None, rules.table_action(state))
            continue
        seat = seats[0]
        view, legal, rng = rules.view(state, seat), rules.legal_actions(state, seat), seeded_rng(seed, "bench", seat, actions - 1)
        started, spent = time.perf_counter(), time.process_time()
        action = spec.bots[levels[seat]](view, legal, rng)
        for record, figure in ((timings, time.perf_counter() - started), (cpu, time.process_time() - spent)):
            if record is not None:
                record.setdefault(levels[seat], []).append(figure)
        state, _ = rules.apply(state, seat, action)
    result = rules.result(state)
    assert result is not None
    return tuple(result.winners)


def strength(games: int, opponent: str, timings: dict[str, list[float]] | None = None,
             report: Callable[[int, int, int], None] | None = None,
             cpu: dict[str, list[float]] | None = None) -> tuple[int, int, int]:
    """Hard's wins, draws and losses over ``games`` seeded games, seats alternating.

    ``report(games played, wins, draws)`` is called after each game.
    """
    wins = draws = 0
    for seed in range(games):
        levels = ["hard", opponent] if seed % 2 == 0 else [opponent, "hard"]
        winners = play(40_000 + seed, levels, timings, cpu)
        wins += winners == (levels.index("hard"),)
        draws += len(winners) != 1
        if report is not None:
            report(seed + 1, wins, draws)
    return wins, draws, games - wins - draws


def matrix_figures(table: Table) -> None:
    """The full matrix's build time, the straightforward loop's, their ratio, and the solve."""
    started = time.perf_counter()
    from engine.wizards_cup.round_matrix import ORDERS, lineup, round_results, simulate_round
    from engine.wizards_cup.solver import solve

    table.add_row("numpy and the matrix builder imported", f"{(time.perf_counter() - started) * 1e3:.0f} ms")
    started = time.perf_counter()
    results = round_results(*TEAMS)
    first = time.perf_counter() - started
    builds = []
    for _ in range(5):
        started = time.perf_counter()
        results = round_results(*TEAMS)
        builds.append(time.perf_counter() - started)
    build = min(builds)
    table.add_row(f"full {len(ORDERS)}x{len(ORDERS)} matrix, first build (duels resolved as met)",
                  f"{first:.3f} s")
    table.add_row(f"full {len(ORDERS)}x{len(ORDERS)} matrix with powers (best of 5)",
                  f"{build:.3f} s (median {statistics.median(builds):.3f}, target {MATRIX_TARGET} s)")
    rng = random.Random(7)
    pairs = [(rng.randrange(len(ORDERS)), rng.randrange(len(ORDERS))) for _ in range(LOOP_SAMPLE)]
    started = time.perf_counter()
    for row, column in pairs:
        assert simulate_round(lineup(TEAMS[0], row), lineup(TEAMS[1], column)) == results[row, column]
    per_round = (time.perf_counter() - started) / LOOP_SAMPLE
    loop = per_round * len(ORDERS) ** 2
    table.add_row(f"per-pair loop, {LOOP_SAMPLE:,} rounds extrapolated", f"{loop:.1f} s ({per_round * 1e6:.0f} µs/round)")
    table.add_row("matrix speed-up over the loop", f"{loop / build:.0f}x (target at least 10x)")
    started = time.perf_counter()
    solved = solve([results.astype("float64")], target_gap=0.005)
    table.add_row("regret matching+ solve, gap 0.005 (results as payoffs)",
                  f"{time.perf_counter() - started:.3f} s, {solved.iterations} iterations, gap {solved.gap:.4f}")


def figures(table: Table, games: int, progress: Progress | None = None) -> None:
    """Matrix figures, then Hard's decision times and results against each level over a few games."""
    if progress is not None:
        progress.stage("the round matrix, the per-pair loop and the solve", 0)
    matrix_figures(table)
    fewest, most = STRENGTH_GAMES
    count = max(fewest, min(games // 10, most))
    timings: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for opponent in ("normal", "easy"):
        tick = None if progress is None else progress.stage(f"hard against {opponent}", count, "game", slow=True)
        wins, draws, losses = strength(count, opponent, timings, cpu=cpu, report=tick)
        table.add_row(f"hard vs {opponent} ({plural(count, 'game')})", f"won {wins}, drew {draws}, lost {losses}")
    for level in ("hard", "normal"):
        samples = timings.get(level, [])
        target = f" (target p95 {DECISION_TARGET:.0f} s)" if level == "hard" else ""
        table.add_row(f"{level} bot decision in these games ({plural(len(samples), 'decision')})",
                      f"mean {statistics.mean(samples) * 1e3:.0f} ms, p95 {_p95(samples) * 1e3:.0f} ms, "
                      f"max {max(samples) * 1e3:.0f} ms{target}")
        spent = cpu.get(level, [])
        table.add_row(f"{level} bot decision, CPU time of this process",
                      f"mean {statistics.mean(spent) * 1e3:.0f} ms, p95 {_p95(spent) * 1e3:.0f} ms, "
                      f"max {max(spent) * 1e3:.0f} ms")


def main(argv: list[str]) -> int:
    """Hard against Easy and Normal (or the levels named after N) over N seeded games each (default 400)."""
    from tui.cli.ladder import wilson_interval

    games = int(argv[0]) if argv else 400
    levels = argv[1:] or ["easy", "normal"]
    console = Console()
    table = Table(title=f"Wizards Cup Hard over {plural(games, 'game')} per level")
    table.add_column("measure")
    table.add_column("figure", justify="right")
    for opponent in levels:
        timings: dict[str, list[float]] = {}
        started = time.perf_counter()

        def progress(played: int, wins: int, draws: int, opponent: str = opponent) -> None:
            if played % 20 == 0:
                console.print(f"  {played} games against {opponent}: hard won {wins}, drew {draws}", highlight=False)

        wins, draws, losses = strength(games, opponent, timings, progress)
        hard = timings["hard"]
        table.add_row(f"hard vs {opponent}", f"won {wins} ({wins / games:.1%}), drew {draws}, lost {losses}")
        score = wins + draws / 2
        low, high = wilson_interval(score, games)
        target = f", target at least {SCORE_TARGETS[opponent]:.0%}" if opponent in SCORE_TARGETS else ""
        table.add_row(f"  hard's score vs {opponent}", f"{score / games:.1%} (95% interval {low:.1%}-{high:.1%}{target})")
        table.add_row(f"  hard decisions ({len(hard)})", f"mean {statistics.mean(hard) * 1e3:.0f} ms, "
                      f"p95 {_p95(hard) * 1e3:.0f} ms, max {max(hard) * 1e3:.0f} ms; "
                      f"{time.perf_counter() - started:.0f} s in all")
        console.print(f"hard vs {opponent}: won {wins}/{games}, drew {draws}, lost {losses}; "
                      f"p95 {_p95(hard) * 1e3:.0f} ms", highlight=False)
    console.print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
