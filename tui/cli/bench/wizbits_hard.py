"""``coven bench wizbits-hard``: the Wizbits Hard bot against Normal, its score and its decision times.

Every seed is played four times: Hard in each seat, each with each starter
deck, so seats, decks and who moves first are all mirrored (Normal against
itself scores exactly half of such a set). A game against Hard takes 20 s
to a minute of CPU, so the default run is one game (Hard in seat 1), to stay
under a minute: it shows the figures, whose strength needs hundreds of games;
2 games mirror the seats, 4 the decks too. Hard plays with a deterministic
playout budget (no clock), so a run's games are the same on any machine.
Run as a module for longer runs or other budgets::

    python -m tui.cli.bench.wizbits_hard 400                  # 400 games, the registered budget
    python -m tui.cli.bench.wizbits_hard 40 --playouts 120 --seed 7
    python -m tui.cli.bench.wizbits_hard 8 --think-time 1     # under the app's default clock
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from engine import TABLE, get_game
from engine.core.rng import seeded_rng
from engine.core.words import plural
from tui.cli.bench.progress import Progress
from tui.cli.ladder import wilson_interval

GAMES = 1
"""Games ``coven bench wizbits-hard`` plays unless ``--games`` says otherwise (more than 1: even, and a multiple
of 4 mirrors the decks too). One game took 37 s of CPU (seed 1), two 75 s."""


def _quantile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[int(share * (len(ordered) - 1))]


def play(seed: int, hard_seat: int, swap: bool, hard: Any, timings: list[float], cpu: list[float]) -> int | None:
    """One game of ``hard`` in ``hard_seat`` against Normal (decks swapped when ``swap``); the winner.

    Each Hard decision that had a choice adds its wall-clock time to ``timings`` and its CPU time to ``cpu``.
    """
    from engine.wizbits.cards.starter_decks import STARTER_DECKS

    spec = get_game("wizbits")
    rules, normal = spec.rules, spec.bots["normal"]
    decks = list(STARTER_DECKS)
    state = spec.new_state({"deck_1": decks[swap], "deck_2": decks[not swap]}, seed, 2)
    actions = 0
    while rules.result(state) is None:
        step = rules.table_action(state)
        if step is not None:
            state, _ = rules.apply(state, TABLE, step)
        else:
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            view, rng = rules.view(state, seat), seeded_rng(seed, "bench", seat, actions)
            if seat != hard_seat:
                action = normal(view, legal, rng)
            else:
                started, spent = time.perf_counter(), time.process_time()
                action = hard(view, legal, rng)
                if len(legal) > 1:
                    timings.append(time.perf_counter() - started)
                    cpu.append(time.process_time() - spent)
            state, _ = rules.apply(state, seat, action)
        actions += 1
    winner: int | None = state.winner
    return winner


def strength(games: int, seed: int, hard: Any, timings: list[float], cpu: list[float],
             report: Callable[[int, float], None] | None = None) -> float:
    """Hard's points (a win 1, a draw ½) over ``games`` games from ``seed`` on, four to a seed."""
    points = 0.0
    for index in range(games):
        game_seed, hard_seat, swap = seed + index // 4, index % 2, bool(index // 2 % 2)
        winner = play(game_seed, hard_seat, swap, hard, timings, cpu)
        points += 1.0 if winner == hard_seat else 0.5 if winner is None else 0.0
        if report is not None:
            report(index + 1, points)
    return points


def figures(table: Table, games: int, progress: Progress | None = None) -> None:
    """For ``coven bench wizbits``: Normal's and Hard's decision times at positions of a seeded Normal game.

    ``games // 5`` positions (2 to 20) where the seat had a choice; Hard plays its registered budget.
    """
    spec = get_game("wizbits")
    rules, normal, hard = spec.rules, spec.bots["normal"], spec.bots["hard"]
    wanted = max(2, min(games // 5, 20))
    if progress is not None:
        progress.stage("hard and normal decisions at positions with a choice", wanted, "position")
    timings: dict[str, list[float]] = {"normal": [], "hard": []}
    seed = 0
    while len(timings["hard"]) < wanted:
        seed += 1
        state = spec.new_state({}, seed, 2)
        actions = 0
        while rules.result(state) is None and len(timings["hard"]) < wanted:
            step = rules.table_action(state)
            if step is not None:
                state, _ = rules.apply(state, TABLE, step)
                continue
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            view, rng = rules.view(state, seat), seeded_rng(seed, "bench", seat, actions)
            if len(legal) > 1 and actions % 5 == 0:
                for level, bot in (("hard", hard), ("normal", normal)):
                    started = time.perf_counter()
                    bot(view, legal, rng)
                    timings[level].append(time.perf_counter() - started)
            state, _ = rules.apply(state, seat, normal(view, legal, rng))
            actions += 1
    for level, samples in timings.items():
        table.add_row(f"{level} bot decision at {plural(len(samples), 'position')} with a choice",
                      f"p50 {_quantile(samples, 0.5) * 1e3:.0f} ms, p95 {_quantile(samples, 0.95) * 1e3:.0f} ms")


def run(games: int = GAMES, seed: int = 1, playouts: int | None = None, console: Console | None = None,
        think_time: float | None = None) -> int:
    """Play the games and print Hard's score with its 95% interval and its decision times.

    With ``think_time`` Hard plays under that clock, as in the app (its games then depend on the machine).
    """
    from engine.wizbits.bots.hard import HardBot

    console = console or Console()
    games = games - games % 2 if games > 1 else 1  # more than one: seats mirrored in pairs
    hard = HardBot() if playouts is None else HardBot(playouts=playouts)
    if think_time is not None:
        hard = hard.with_think_time(think_time)
    timings: list[float] = []
    cpu: list[float] = []
    started = time.perf_counter()

    tick = Progress("coven bench wizbits-hard").stage("hard against normal", games, "game", slow=True)
    points = strength(games, seed, hard, timings, cpu, tick)
    low, high = wilson_interval(points, games)
    budget = f"{hard.playouts} playouts" if hard.think_time is None else f"{hard.think_time:g} s"
    table = Table(title=f"coven bench wizbits-hard: Hard ({budget} a decision) against Normal")
    table.add_column("measure")
    table.add_column("figure", justify="right")
    mirrored = "seats and decks mirrored" if games % 4 == 0 else "seats mirrored" if games % 2 == 0 else \
        "Hard in seat 1"
    table.add_row(f"hard vs normal, {plural(games, 'game')} from seed {seed} ({mirrored})",
                  f"{points:g} points, {points / games:.1%} (95% interval {low:.1%}-{high:.1%})")
    if timings:
        table.add_row(f"hard decisions with a choice ({len(timings)})",
                      f"p50 {_quantile(timings, 0.5) * 1e3:.0f} ms, p95 {_quantile(timings, 0.95) * 1e3:.0f} ms, "
                      f"max {max(timings) * 1e3:.0f} ms, mean {statistics.mean(timings) * 1e3:.0f} ms")
        table.add_row("the same, CPU time of this process",
                      f"p50 {_quantile(cpu, 0.5) * 1e3:.0f} ms, p95 {_quantile(cpu, 0.95) * 1e3:.0f} ms")
    table.add_row("time in all", f"{time.perf_counter() - started:.0f} s")
    console.print(table)
    return 0


def main(argv: list[str]) -> int:
    """``python -m tui.cli.bench.wizbits_hard [GAMES] [--playouts N] [--seed S]``."""
    parser = argparse.ArgumentParser(prog="python -m tui.cli.bench.wizbits_hard")
    parser.add_argument("games", nargs="?", type=int, default=GAMES)
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think-time", type=float, default=None, help="seconds a decision (a clock, as in the app)")
    args = parser.parse_args(argv)
    return run(args.games, args.seed, args.playouts, think_time=args.think_time)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
