"""``coven simulate``'s arguments, apart from the simulator so building the parser loads no game or bot."""

from __future__ import annotations

import argparse

SIMULATE_DECKS = (
    "Decks (games with decks, e.g. wizbits): NAME|FILE is a starter deck's id, one of your saved decks "
    "(coven deck list; letter case aside) or a deck-list file. A saved deck wins over a file of the same "
    "spelling; to read such a file, write it with its folder (./NAME). A value with a / in it, or starting "
    "with ~, is always a file; a relative path is relative to the working directory."
)
"""``coven simulate --help``'s last paragraph, the rule :func:`tui.cli.simulate.deck_value` follows (and the
README repeats)."""


def add_simulate_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``coven simulate`` to ``commands``; the caller sets its handler."""
    simulate = commands.add_parser("simulate", help="play bot-against-bot games headless",
                                   description="Play bot games without the table and print the results.",
                                   epilog=SIMULATE_DECKS)
    simulate.add_argument("game", metavar="GAME", help="game id, e.g. wizbits")
    simulate.add_argument("--games", default="100", metavar="N", help="number of games (default 100)")
    simulate.add_argument("--bots", default="", metavar="LEVELS",
                          help="bot level per seat, comma-separated, e.g. hard,normal (default: normal,easy, the quick "
                               "levels; hard searches, so its games take far longer)")
    simulate.add_argument("--seed", default="0", metavar="S", help="seed of the first game; game g uses S+g (default 0)")
    simulate.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                          help="a game option for every game, e.g. format=limited (repeatable)")
    for seat in (1, 2):
        simulate.add_argument(f"--deck-{seat}", metavar="NAME|FILE", default=None,
                              help=f"seat {seat}'s deck: a starter, a saved deck or a deck-list file (see below)")
    return simulate
