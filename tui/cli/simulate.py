"""``coven simulate GAME``: bot-against-bot games played headless, and what came of them.

Any registered game can be simulated; Wizbits adds its turns and the size and
depth of its pillars (see :mod:`engine.wizbits.stats`). Seats rotate from
game to game, so each bot plays every seat (and, in Wizbits, every deck)
equally often; the first player is chosen by each game's seed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from engine import TABLE, Event, GameSpec
from engine.core.rng import seeded_rng

Watcher = Callable[[Any, Sequence[Event]], None]


def play_game(spec: GameSpec, seed: int, levels: Sequence[str], watch: Watcher | None = None,
              options: Mapping[str, object] | None = None) -> tuple[Any, int]:
    """Play one game with the bot level of each seat; return the final state and the number of actions.

    ``watch`` sees every state and the events that led to it.
    """
    rules = spec.rules
    state = spec.new_state(options or {}, seed, len(levels))
    actions = 0
    while rules.result(state) is None:
        step = rules.table_action(state)
        if step is not None:
            state, events = rules.apply(state, TABLE, step)
        else:
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            bot = spec.bots[levels[seat]]
            action = bot(rules.view(state, seat), legal, seeded_rng(seed, "simulate", seat, actions))
            state, events = rules.apply(state, seat, action)
        actions += 1
        if watch is not None:
            watch(state, events)
    return state, actions


@dataclass
class Tally:
    """What a batch of games came to."""

    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    actions: int = 0
    turns: int = 0
    pillars: list[Any] = field(default_factory=list)


def _labels(bots: Sequence[str]) -> list[str]:
    """Bot names, numbered when the same level plays more than once."""
    return [f"{name} #{index + 1}" if bots.count(name) > 1 else name for index, name in enumerate(bots)]


def simulate(spec: GameSpec, games: int, bots: Sequence[str], seed: int,
             advance: Callable[[], None] | None = None, options: Mapping[str, object] | None = None) -> Tally:
    """Play ``games`` games; game ``g`` seats bot ``(s + g) mod n`` in seat ``s``, with seed ``seed + g``."""
    tally = Tally(wins=[0] * len(bots))
    wizbits = spec.game_id == "wizbits"
    for game in range(games):
        order = [(seat + game) % len(bots) for seat in range(len(bots))]
        watch = None
        if wizbits:
            from engine.wizbits.stats import PillarWatch

            watcher = PillarWatch()
            watch = watcher.observe
        state, actions = play_game(spec, seed + game, [bots[index] for index in order], watch, options)
        result = spec.rules.result(state)
        assert result is not None
        tally.games += 1
        tally.actions += actions
        if result.is_draw:
            tally.draws += 1
        for seat in result.winners:
            tally.wins[order[seat]] += 1
        if wizbits:
            watcher.finish()
            tally.turns += int(state.turn)
            tally.pillars.extend(watcher.pillars)
        if advance is not None:
            advance()
    return tally


def report(spec: GameSpec, tally: Tally, bots: Sequence[str], seed: int,
           options: Mapping[str, object] | None = None) -> list[str]:
    """The figures as plain lines."""
    games = tally.games
    lines = [(f"{spec.title}: {games} game{'s' if games != 1 else ''}, seed {seed}, "
              f"{' vs '.join(bots)} (seats rotate each game)")]
    if options:
        lines.append("options: " + ", ".join(f"{name}={value}" for name, value in options.items()))
    for label, wins in zip(_labels(bots), tally.wins, strict=False):
        lines.append(f"{label}: {wins} win{'s' if wins != 1 else ''} ({100 * wins / games:.1f}%)")
    lines.append(f"draws: {tally.draws} ({100 * tally.draws / games:.1f}%)")
    lines.append(f"average actions: {tally.actions / games:.1f}")
    if spec.game_id == "wizbits":
        from engine.wizbits.stats import summarise

        pillars = summarise(tally.pillars)
        lines.append(f"average turns: {tally.turns / games:.2f}")
        lines.append(f"pillars: {pillars.pillars} opened, {pillars.built} with units played")
        lines.append(f"average pillar size: {pillars.mean_units:.2f} units (largest {pillars.max_units})")
        lines.append(f"average pillar depth: {pillars.mean_depth:.2f} (deepest {pillars.max_depth})")
    return lines


def run(spec: GameSpec, games: int, bots: Sequence[str], seed: int, options: Mapping[str, object] | None = None) -> int:
    """Simulate with a progress bar on a terminal, then print the figures."""
    console = Console(file=sys.stdout)
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    # Off a terminal the bar would only litter the output, so it stays off.
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task(f"Simulating {spec.title}", total=games)
        tally = simulate(spec, games, bots, seed, advance=lambda: progress.advance(task), options=options)
    for line in report(spec, tally, bots, seed, options):
        print(line)
    return 0
