"""``coven bench GAME``: engine and bot figures measured on this machine."""

from __future__ import annotations

import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from engine import GameSpec, get_game, state_digest
from engine.core.rng import seeded_rng


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


def _witchdraft_figures(table: Table, games: int) -> None:
    """Every legal placement of one card in a 12-card area, with each one's score change."""
    from engine.witchdraft.cards import COMPANIONS
    from engine.witchdraft.rules import INGREDIENT_BY_ID, RECIPE_CARDS, area_of
    from engine.witchdraft.scoring import score_gain

    spec = get_game("witchdraft")
    samples: list[float] = []
    for seed in range(max(1, min(games, 50))):
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


EXTRA_FIGURES = {"witchdraft": _witchdraft_figures}
"""Game-specific measurements added to the generic ones."""


def run(game_id: str, games: int = 100) -> int:
    """Measure random-play throughput, replay speed and bot decision times."""
    spec = get_game(game_id)
    seats = spec.seat_counts[0]
    console = Console()
    table = Table(title=f"coven bench {game_id}")
    table.add_column("measure")
    table.add_column("figure", justify="right")

    started = time.perf_counter()
    total_actions = 0
    logs = []
    for seed in range(games):
        state, actions = _play(spec, seed, [None] * seats, {})
        total_actions += actions
        logs.append((seed, state))
    elapsed = time.perf_counter() - started
    table.add_row(f"random games ({games})", f"{games / elapsed:.1f} games/s")
    table.add_row("actions applied", f"{total_actions / elapsed:,.0f} actions/s")

    started = time.perf_counter()
    for seed, state in logs[: min(games, 50)]:
        state_digest(spec.rules, state)
    table.add_row("state digest", f"{(time.perf_counter() - started) / min(games, 50) * 1e3:.2f} ms")

    matches = max(1, min(games // 5, 20))
    timings: dict[str, list[float]] = {}
    levels = list(spec.bot_levels)
    strongest, weakest = levels[-1], levels[0]
    strong_wins = 0
    for seed in range(matches):
        order = [strongest, weakest] if seed % 2 == 0 else [weakest, strongest]
        state, _ = _play(spec, 10_000 + seed, order + [weakest] * (seats - 2), timings)
        result = spec.rules.result(state)
        strong_seat = order.index(strongest)
        strong_wins += int(result is not None and strong_seat in result.winners and len(result.winners) == 1)
    for level in levels:
        samples = timings.get(level, [])
        if samples:
            samples.sort()
            p95 = samples[int(0.95 * (len(samples) - 1))]
            table.add_row(f"{level} bot decision", f"mean {statistics.mean(samples) * 1e3:.0f} ms, "
                          f"p95 {p95 * 1e3:.0f} ms, max {samples[-1] * 1e3:.0f} ms")
    table.add_row(f"{strongest} vs {weakest} ({matches} games)", f"{strongest} won {strong_wins}")
    extra = EXTRA_FIGURES.get(game_id)
    if extra is not None:
        extra(table, games)
    console.print(table)
    return 0
