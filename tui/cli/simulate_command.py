"""``coven simulate``'s handler: what was typed is checked here before any game or bot is loaded."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from engine import GameSpec
from engine.core import InvalidOptionsError
from tui.cli.common import UsageError, game_spec, whole_number


def default_bots(spec: GameSpec) -> list[str]:
    """Normal against Easy, the quick levels (a Hard bot searches: a game takes it seconds, not milliseconds)."""
    quick = [level for level in ("normal", "easy") if level in spec.bots]
    if len(quick) == 2:
        return quick
    return [spec.bot_levels[-1], spec.bot_levels[0]] if spec.bot_levels else []


def cmd_simulate(args: argparse.Namespace) -> int:
    """``coven simulate``: check what was typed, then play the games headless and print the results."""
    spec = game_spec(args.game)
    games = whole_number(args.games, "--games", least=1)
    seed = whole_number(args.seed, "--seed")
    bots = [name.strip() for name in args.bots.split(",")] if args.bots else default_bots(spec)
    levels = ", ".join(spec.bot_levels) or "none"
    for name in bots:
        if name not in spec.bots:
            raise UsageError(f"Unknown bot level {name!r} for {spec.title}. Levels: {levels}.")
    if len(bots) not in spec.seat_counts:
        seats = " or ".join(str(count) for count in spec.seat_counts)
        raise UsageError(f"{spec.title} needs {seats} bots in --bots, not {len(bots)}.")
    from tui.cli.simulate import DeckChoiceError, deck_options, run

    options = game_options(spec, args.option)
    try:
        decks, shown = deck_options(spec, {1: args.deck_1, 2: args.deck_2}, options)
        options.update(decks)
        spec.resolve_options(options)
    except DeckChoiceError as error:
        raise UsageError(str(error)) from None
    except InvalidOptionsError as error:
        raise UsageError(f"{error}.") from None
    return run(spec, games, bots, seed, options, shown)


def game_options(spec: GameSpec, items: Sequence[str]) -> dict[str, object]:
    """``NAME=VALUE`` pairs as game options, numbers where the option takes numbers."""
    given: dict[str, object] = {}
    defaults = {option.name: option.default for option in spec.options}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"--option takes NAME=VALUE, not {item!r}.")
        default = defaults.get(name)
        given[name] = int(value) if isinstance(default, int) and value.lstrip("-").isdigit() else value
    try:
        spec.resolve_options(given)
    except InvalidOptionsError as error:
        raise UsageError(f"{error}.") from None
    return given
