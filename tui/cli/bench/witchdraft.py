"""``coven bench witchdraft`` (its last rows) and this module: WitchDraft Hard against another level, its results and decision times.

Every seed is played twice, Hard in each seat once, so neither the deal nor
the seat favours a side. A shared win (a tie) counts as a share. Run as a
module for other budgets::

    python -m tui.cli.bench.witchdraft 400                      # 400 seeds (800 games) against Normal
    python -m tui.cli.bench.witchdraft 100 --face-up --seed 7   # recipes face up
    python -m tui.cli.bench.witchdraft 50 --opponent easy
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table

from engine import get_game
from engine.core.rng import seeded_rng
from engine.core.words import plural
from tui.cli.bench.progress import Progress
from tui.cli.ladder import wilson_interval

DECISION_TARGET = 0.5
"""Seconds a Hard decision may take (95th percentile and maximum)."""

RATE_TARGET = 0.6
"""Share of games Hard must win or share against Normal."""

SEEDS = 40
"""Seeds ``coven bench witchdraft-bots`` plays unless ``--games`` says otherwise, each twice: 80 games, about
40 s of CPU (a game against Hard takes about half a second); the module's own default of 400 is for the
strength figure."""


@dataclass
class Tally:
    """Hard's results and decision times over a run."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    margin: int = 0
    """Hard's brew points less its opponent's, summed."""
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    other: list[float] = field(default_factory=list)
    """The opponent's decision times, wall clock."""

    @property
    def losses(self) -> int:
        """Games Hard lost."""
        return self.games - self.wins - self.draws


def play(seed: int, levels: list[str], options: dict[str, object], tally: Tally) -> tuple[int, ...]:
    """One seeded game; the winning seats. Hard's decision times go into ``tally`` by kind (pick, place)."""
    spec = get_game("witchdraft")
    rules = spec.rules
    state = spec.new_state(options, seed, len(levels))
    steps = 0
    while rules.result(state) is None:
        seat = rules.to_act(state)[0]
        view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
        rng = seeded_rng(seed, "bench", seat, steps)
        started, spent = time.perf_counter(), time.process_time()
        action = spec.bots[levels[seat]](view, legal, rng)
        if levels[seat] == "hard":
            kind = view.stage
            tally.wall.setdefault(kind, []).append(time.perf_counter() - started)
            tally.cpu.setdefault(kind, []).append(time.process_time() - spent)
        else:
            tally.other.append(time.perf_counter() - started)
        state, _ = rules.apply(state, seat, action)
        steps += 1
    result = rules.result(state)
    assert result is not None
    totals = result_totals(state)
    hard = levels.index("hard")
    tally.margin += totals[hard] - max(total for seat, total in enumerate(totals) if seat != hard)
    return tuple(result.winners)


def result_totals(state: object) -> list[int]:
    """Each seat's brew points in a finished game."""
    from engine.witchdraft.rules import player_scores
    from engine.witchdraft.scoring import total

    return [total(player_scores(player)) for player in state.players]  # type: ignore[attr-defined]


def run_games(seeds: int, opponent: str, first_seed: int, options: dict[str, object],
              report: Callable[[Tally], None] | None = None) -> Tally:
    """Each of ``seeds`` seeds twice, Hard in seat 1 then seat 2."""
    tally = Tally()
    for index in range(2 * seeds):
        hard = index % 2
        levels = ["hard", opponent] if hard == 0 else [opponent, "hard"]
        winners = play(first_seed + index // 2, levels, options, tally)
        tally.games += 1
        tally.wins += winners == (hard,)
        tally.draws += hard in winners and len(winners) > 1
        if report is not None:
            report(tally)
    return tally


def _quantile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[round(q * (len(ordered) - 1))]


def time_line(samples: list[float]) -> str:
    """p50, p95 and max of some decision times, in milliseconds."""
    if not samples:
        return "none"
    return (f"p50 {_quantile(samples, 0.5) * 1e3:.1f} ms, p95 {_quantile(samples, 0.95) * 1e3:.1f} ms, "
            f"max {max(samples) * 1e3:.1f} ms")


def add_rows(table: Table, tally: Tally, opponent: str) -> None:
    """The results, their 95% intervals and the decision times."""
    games = tally.games
    share = tally.wins + tally.draws
    low, high = wilson_interval(share, games)
    table.add_row(f"hard vs {opponent}", f"won {tally.wins}, shared {tally.draws}, lost {tally.losses} "
                  f"of {plural(games, 'game')}")
    table.add_row("  won or shared", f"{share / games:.1%} (95% interval {low:.1%}–{high:.1%})"
                  + (f", target {RATE_TARGET:.0%}" if opponent == "normal" else ""))
    points = tally.wins + tally.draws / 2
    low, high = wilson_interval(points, games)
    table.add_row("  score (a shared win as ½)", f"{points / games:.1%} (95% interval {low:.1%}–{high:.1%})")
    table.add_row("  brew-point margin per game", f"{tally.margin / games:+.2f}")
    every = [sample for samples in tally.wall.values() for sample in samples]
    table.add_row(f"  hard decisions, wall clock ({len(every)})",
                  time_line(every) + f" (target p95 and max {DECISION_TARGET} s)")
    for kind in ("pick", "place"):
        table.add_row(f"    {kind}s ({len(tally.wall.get(kind, []))})", time_line(tally.wall.get(kind, [])))
    table.add_row(f"  hard decisions, CPU time ({len(every)})",
                  time_line([sample for samples in tally.cpu.values() for sample in samples]))
    table.add_row(f"  {opponent} bot decision ({len(tally.other)})", time_line(tally.other))


def figures(table: Table, games: int, progress: Progress | None = None) -> None:
    """A short run for ``coven bench witchdraft``: a tenth of ``games`` seeds against Normal (1 to 10)."""
    seeds = max(1, min(games // 10, 10))
    tick = None if progress is None else progress.stage("hard against normal", 2 * seeds, "game", slow=True)
    add_rows(table, run_games(seeds, "normal", 50_000, {}, None if tick is None else lambda t: tick(t.games)),
             "normal")


def run(games: int = SEEDS, opponent: str = "normal", first_seed: int = 50_000, face_up: bool = False) -> int:
    """Play ``games`` seeds (each twice, seats swapped) and print the table."""
    console = Console()
    options: dict[str, object] = {"face_up": face_up}
    table = Table(title=f"WitchDraft Hard, {plural(games, 'seed')} from {first_seed}, "
                        f"recipes {'face up' if face_up else 'secret'}")
    table.add_column("measure")
    table.add_column("figure", justify="right")
    started = time.perf_counter()
    tick = Progress("coven bench witchdraft-bots").stage(f"hard against {opponent}", 2 * games, "game", slow=True)
    tally = run_games(games, opponent, first_seed, options, lambda tally: tick(tally.games))
    add_rows(table, tally, opponent)
    table.add_row("time in all", f"{time.perf_counter() - started:.0f} s")
    console.print(table)
    if tally.wall:
        console.print(f"mean hard decision {statistics.mean(s for v in tally.wall.values() for s in v) * 1e3:.1f} ms",
                      highlight=False)
    return 0


def main(argv: list[str]) -> int:
    """The command line of ``python -m tui.cli.bench.witchdraft``."""
    parser = argparse.ArgumentParser(prog="python -m tui.cli.bench.witchdraft")
    parser.add_argument("seeds", type=int, nargs="?", default=400, help="seeds, each played twice (default 400)")
    parser.add_argument("--seed", type=int, default=50_000, help="first seed (default 50000)")
    parser.add_argument("--opponent", default="normal", help="the other level (default normal)")
    parser.add_argument("--face-up", action="store_true", help="recipe and ingredient cards face up")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("seeds must be at least 1")
    return run(args.seeds, args.opponent, args.seed, args.face_up)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
