"""``coven bench GAME``: engine and bot figures measured on this machine."""

from __future__ import annotations

import gc
import math
import statistics
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from engine import GameSpec, get_game, state_digest
from engine.core.rng import seeded_rng
from engine.core.words import plural
from tui.cli.bench.progress import Progress


def _play(spec: GameSpec, seed: int, pickers: list[Any], timings: dict[str, list[float]]) -> tuple[Any, int]:
    """Play one game; ``pickers`` are bot levels per seat or None for uniform random."""
    rules = spec.rules
    state = spec.new_state({}, seed, spec.seat_counts[0])
    actions = 0
    while rules.result(state) is None:
        seats = rules.to_act(state)
        if not seats:
            state, _ = rules.apply(state, None, rules.table_action(state))
        else:
            seat = seats[0]
            legal = rules.legal_actions(state, seat)
            level = pickers[seat]
            rng = seeded_rng(seed, "bench", seat, actions)
            if level is None:
                action = rng.choice(legal)
            else:
                started = time.perf_counter()
                action = spec.bots[level](rules.view(state, seat), legal, rng)
                timings.setdefault(level, []).append(time.perf_counter() - started)
            state, _ = rules.apply(state, seat, action)
        actions += 1
    return state, actions


def _read_in_order(moments: Any) -> None:
    """Read every moment's state in order, keeping none (as a game screen writing its history does)."""
    for moment in moments:
        moment.state  # noqa: B018 - reading it is the work timed


def _timeline_figures(spec: GameSpec, table: Table, games: int, progress: Progress) -> None:
    """What a session's timeline costs, keeping one state in :data:`~engine.core.undo.KEEP_EVERY`: loading a
    log, reading its history in order (a game screen opening) and reading steps at random (a replay)."""
    from engine.core.undo import KEEP_EVERY, replay_timeline

    rules = spec.rules
    seats = spec.seat_counts[0]
    count = max(1, min(games, 20))
    progress.stage("timelines: load, read in order, read at random", count, "game")
    loading: list[float] = []
    in_order: list[float] = []
    at_random: list[float] = []
    steps = 0
    for seed in range(count):
        state = opening = spec.new_state({}, 40_000 + seed, seats)
        log: list[tuple[int | None, Any]] = []
        rng = seeded_rng(seed, "bench-timeline")
        while rules.result(state) is None:
            acting = rules.to_act(state)
            seat = acting[0] if acting else None
            action = rules.table_action(state) if seat is None else rng.choice(rules.legal_actions(state, seat))
            state, _ = rules.apply(state, seat, action)
            log.append((seat, rules.action_to_json(action)))
        steps += len(log)
        loading.append(_timed(lambda log=log, opening=opening: replay_timeline(rules, opening, log)))
        timeline = replay_timeline(rules, opening, log)
        in_order.append(_timed(lambda timeline=timeline: _read_in_order(timeline.moments)))
        for index in rng.sample(range(len(timeline)), min(len(timeline), 20)):
            at_random.append(_timed(lambda index=index, timeline=timeline: timeline.state_at(index)))
    at_random.sort()
    table.add_row(f"timeline: load a log ({plural(count, 'game')}, {steps:,} steps)",
                  f"{sum(loading) / steps * 1e6:.0f} µs/step")
    table.add_row("timeline: read its history in order", f"{sum(in_order) / steps * 1e6:.0f} µs/step")
    table.add_row(f"timeline: read a step at random (1 state in {KEEP_EVERY} kept)",
                  f"median {statistics.median(at_random) * 1e3:.2f} ms, max {at_random[-1] * 1e3:.2f} ms")


def _witchdraft_figures(table: Table, games: int, progress: Progress) -> None:
    """Every legal placement of one card in a 12-card area, with each one's score change."""
    from engine.witchdraft.cards import COMPANIONS
    from engine.witchdraft.rules import INGREDIENT_BY_ID, RECIPE_CARDS, area_of
    from engine.witchdraft.scoring import score_gain

    spec = get_game("witchdraft")
    samples: list[float] = []
    areas = max(1, min(games, 50))
    progress.stage("placements in a 12-card area", areas, "area")
    for seed in range(areas):
        state, _ = _play(spec, seed, [None, None], {})
        player = state.players[0]
        area = area_of(player)  # 2 players end with the apprentice and 11 companions
        recipe, ingredients = RECIPE_CARDS[player.recipe], INGREDIENT_BY_ID[player.ingredients]
        card = next(c.card_id for c in COMPANIONS if c.card_id not in {p.card_id for p in area.cards})
        fresh = type(area)(area.cards)  # no cached lookups from the game
        started = time.perf_counter()
        for placement in fresh.legal_placements(card):
            score_gain(fresh, card, placement, recipe, ingredients)
        samples.append(time.perf_counter() - started)
    samples.sort()
    table.add_row("placements + gains, 12-card area",
                  f"median {statistics.median(samples) * 1e3:.2f} ms, max {samples[-1] * 1e3:.2f} ms")
    from tui.cli.bench.witchdraft import figures as hard_figures  # Hard against Normal: its own module

    hard_figures(table, games, progress)


PILLAR_SIZES = (1_000, 10_000, 100_000)
"""Pillar sizes benchmarked for Wizbits (the target: under 0.5 s at 10,000 units, growing at most n log n)."""
PILLAR_TARGET = (10_000, 0.5)
GAME_TARGET = 0.2
"""Seconds a Wizbits bot-against-bot game may take on average."""


def _timed(work: Any) -> float:
    """Seconds ``work()`` takes, the collector paused as :mod:`timeit` does."""
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter()
        work()
        return time.perf_counter() - started
    finally:
        gc.enable()


def _wizbits_pillars(table: Table, progress: Progress) -> None:
    from engine.wizbits.pillar.workload import random_pillar, resolve_all

    progress.stage(f"pillars of {', '.join(f'{n:,}' for n in PILLAR_SIZES)} units", 0)
    scaled = []
    for n in PILLAR_SIZES:
        tries = 3 if n <= 10_000 else 1
        best = min(_timed(lambda n=n, seed=seed: resolve_all(random_pillar(n, seed))) for seed in range(tries))
        target = f", target {PILLAR_TARGET[1]} s" if n == PILLAR_TARGET[0] else ""
        table.add_row(f"pillar of {n:,} units", f"{best:.3f} s ({best / n * 1e6:.1f} µs/unit{target})")
        scaled.append(f"{best / (n * math.log2(n)) * 1e9:.0f}")
    # Flat figures here mean the cost grows as n log n.
    table.add_row("pillar time / (n log2 n)", " / ".join(scaled) + " ns")


def _wizbits_games(table: Table, games: int, progress: Progress) -> None:
    from tui.cli.simulate import play_game

    spec = get_game("wizbits")
    count = max(2, min(games, 50))
    progress.stage("normal against easy, then against normal", 2 * count, "game")
    for pair in (("normal", "easy"), ("normal", "normal")):
        samples = []
        for seed in range(count):
            levels = list(pair) if seed % 2 == 0 else list(reversed(pair))
            samples.append(_timed(lambda seed=seed, levels=levels: play_game(spec, 20_000 + seed, levels)))
        table.add_row(f"{pair[0]} vs {pair[1]} game ({count})",
                      f"mean {statistics.mean(samples) * 1e3:.0f} ms, max {max(samples) * 1e3:.0f} ms "
                      f"(target {GAME_TARGET * 1e3:.0f})")


def _wizbits_legal(table: Table, games: int, progress: Progress) -> None:
    from engine import TABLE

    spec = get_game("wizbits")
    rules = spec.rules
    samples: list[float] = []
    sizes: list[int] = []
    count = max(1, min(games, 10))
    progress.stage("legal actions through whole games", count, "game")
    for seed in range(count):
        state = spec.new_state({}, 30_000 + seed, 2)
        steps = 0
        while rules.result(state) is None:
            step = rules.table_action(state)
            if step is not None:
                state, _ = rules.apply(state, TABLE, step)
                continue
            seat = rules.to_act(state)[0]
            started = time.perf_counter()
            legal = rules.legal_actions(state, seat)
            samples.append(time.perf_counter() - started)
            sizes.append(len(legal))
            action = spec.bots["normal" if seat == seed % 2 else "easy"](
                rules.view(state, seat), legal, seeded_rng(seed, "bench-legal", steps))
            state, _ = rules.apply(state, seat, action)
            steps += 1
    samples.sort()
    p95 = samples[int(0.95 * (len(samples) - 1))]
    table.add_row(f"legal actions ({plural(len(samples), 'call')})",
                  f"mean {statistics.mean(samples) * 1e3:.2f} ms, p95 {p95 * 1e3:.2f}, max {samples[-1] * 1e3:.2f}")
    table.add_row("legal actions per call", f"mean {statistics.mean(sizes):.0f}, max {max(sizes)}")


def _wizbits_figures(table: Table, games: int, progress: Progress) -> None:
    """Pillar building and resolution at three sizes, bot game times and legal-action generation."""
    _wizbits_pillars(table, progress)
    _wizbits_games(table, games, progress)
    _wizbits_legal(table, games, progress)
    from tui.cli.bench.wizbits_hard import figures as hard_figures  # Hard's decision times: its own module

    hard_figures(table, games, progress)


def _wizards_cup_figures(table: Table, games: int, progress: Progress) -> None:
    """The round's 720x720 payoff matrix against the per-pair loop, and the Hard bot (its own module)."""
    from tui.cli.bench.wizards_cup import figures

    figures(table, games, progress)


EXTRA_FIGURES = {"witchdraft": _witchdraft_figures, "wizbits": _wizbits_figures,
                 "wizards-cup": _wizards_cup_figures}
"""Game-specific measurements added to the generic ones."""


@dataclass(frozen=True)
class Plan:
    """How much one ``coven bench GAME`` run plays: the whole cost of a run is in these counts.

    Attributes:
        random_games: Games between uniformly random players (throughput, actions applied).
        digests: Finished games whose state digest is timed.
        matches: Games of the strong bot level against the weakest (decision times, who won).
        extra: The count handed to the game's own figures (:data:`EXTRA_FIGURES`), which scale from it.
        strong: The level that plays the weakest; None for the strongest.
    """

    random_games: int
    digests: int
    matches: int
    extra: int
    strong: str | None = None


DEFAULT_PLANS = {
    "wizards-cup": Plan(random_games=100, digests=50, matches=6, extra=40),
    "witchdraft": Plan(random_games=100, digests=50, matches=20, extra=100),
    # One Wizbits game against Hard takes 20 s to a minute of CPU: Hard's figures here are its decision times
    # at a few positions; `coven bench wizbits-hard` plays its games.
    "wizbits": Plan(random_games=100, digests=50, matches=20, extra=10, strong="normal"),
}
"""Each game's plan when ``--games`` is left out, sized to take under a minute on a 2-core machine.

A Hard bot's game costs from under a second (WitchDraft) to a minute of CPU (Wizbits), so the
strong-against-weakest games, the slow part, are counted per game rather than from one number.
"""


def plan(game_id: str, games: int | None = None) -> Plan:
    """The plan for ``games`` (None: the game's default plan, :data:`DEFAULT_PLANS`)."""
    if games is None:
        return DEFAULT_PLANS.get(game_id, Plan(100, 50, 20, 100))
    return Plan(random_games=games, digests=min(games, 50), matches=max(1, min(games // 5, 20)), extra=games)


def run(game_id: str, games: int | None = None, progress: Progress | None = None) -> int:
    """Measure random-play throughput, replay speed and bot decision times (``games``: see :func:`plan`)."""
    spec = get_game(game_id)
    seats = spec.seat_counts[0]
    planned = plan(game_id, games)
    progress = progress or Progress(f"coven bench {game_id}")
    console = Console()
    table = Table(title=f"coven bench {game_id}")
    table.add_column("measure")
    table.add_column("figure", justify="right")

    progress.stage("random games", planned.random_games, "game")
    started = time.perf_counter()
    total_actions = 0
    logs = []
    for seed in range(planned.random_games):
        state, actions = _play(spec, seed, [None] * seats, {})
        total_actions += actions
        logs.append((seed, state))
    elapsed = time.perf_counter() - started
    table.add_row(f"random games ({planned.random_games})", f"{planned.random_games / elapsed:.1f} games/s")
    table.add_row("actions applied", f"{total_actions / elapsed:,.0f} actions/s")

    digests = min(planned.digests, len(logs))
    started = time.perf_counter()
    for _seed, state in logs[:digests]:
        state_digest(spec.rules, state)
    table.add_row("state digest", f"{(time.perf_counter() - started) / max(1, digests) * 1e3:.2f} ms")

    matches = planned.matches
    timings: dict[str, list[float]] = {}
    levels = list(spec.bot_levels)
    strongest, weakest = planned.strong or levels[-1], levels[0]
    strong_wins = 0
    tick = progress.stage(f"{strongest} against {weakest}", matches, "game", slow=True)
    for seed in range(matches):
        order = [strongest, weakest] if seed % 2 == 0 else [weakest, strongest]
        state, _ = _play(spec, 10_000 + seed, order + [weakest] * (seats - 2), timings)
        result = spec.rules.result(state)
        strong_seat = order.index(strongest)
        strong_wins += int(result is not None and strong_seat in result.winners and len(result.winners) == 1)
        tick(seed + 1)
    for level in levels:
        samples = timings.get(level, [])
        if samples:
            samples.sort()
            p95 = samples[int(0.95 * (len(samples) - 1))]
            table.add_row(f"{level} bot decision", f"mean {statistics.mean(samples) * 1e3:.0f} ms, "
                          f"p95 {p95 * 1e3:.0f} ms, max {samples[-1] * 1e3:.0f} ms")
    table.add_row(f"{strongest} vs {weakest} ({plural(matches, 'game')})", f"{strongest} won {strong_wins}")
    _timeline_figures(spec, table, planned.digests, progress)
    extra = EXTRA_FIGURES.get(game_id)
    if extra is not None:
        extra(table, planned.extra, progress)
    progress.stage("done", 0)
    console.print(table)
    return 0
