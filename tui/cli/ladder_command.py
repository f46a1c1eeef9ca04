"""The ``coven ladder`` command: its arguments, the progress bar, and the README's ladder tables."""

from __future__ import annotations

import argparse
import os
import sys
from itertools import combinations
from pathlib import Path

from engine import GameSpec, all_games, get_game
from engine.core import UnknownGameError
from engine.core.text import shown_text
from tui.user_paths import NoPathError, user_path

README_START = "<!-- ladder:start -->"
README_END = "<!-- ladder:end -->"
"""The README's ladder tables sit between these lines, one marked section a game (:func:`game_markers`);
``--readme`` rewrites the sections of the games it played."""

MAX_GAMES = 100_000
"""More games per pairing than anyone needs; a bound, so a typo cannot run for days."""


class LadderUsageError(ValueError):
    """The command's arguments cannot be run as given."""


def _fail(message: str) -> None:
    print(f"coven ladder: {' '.join(shown_text(message).split())}", file=sys.stderr)  # a path may hold anything


def _games(args: argparse.Namespace) -> list[GameSpec]:
    if args.game is None:
        return [spec for spec in all_games() if len(spec.bot_levels) > 1 and 2 in spec.seat_counts]
    try:
        spec = get_game(args.game)
    except UnknownGameError as error:
        raise LadderUsageError(str(error)) from None
    if len(spec.bot_levels) < 2 or 2 not in spec.seat_counts:
        raise LadderUsageError(f"{spec.title} has no two bot levels to compare in a two-player game")
    return [spec]


def game_markers(game_id: str) -> tuple[str, str]:
    """The lines around one game's tables inside the README's ladder block."""
    return f"<!-- ladder:{game_id}:start -->", f"<!-- ladder:{game_id}:end -->"


MAX_README_BYTES = 4 * 1024 * 1024
"""A README larger than this is refused unread (Coven's is under 64 KiB)."""


def _read_block(path: Path) -> tuple[str, int, int]:
    """The README's text and where its ladder block starts and ends.

    Raises:
        LadderUsageError: the file can't be read as text, or has no ladder block; the message names it.
    """
    from engine.core.textfile import TextFileError, read_text_file

    try:
        text = read_text_file(path, MAX_README_BYTES, "a README")
    except TextFileError as error:
        raise LadderUsageError(str(error)) from None
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        raise LadderUsageError(f"{path} has no {README_START} … {README_END} block to rewrite")
    return text, start, end


def check_readme(path: Path) -> None:
    """Refuse a ``--readme`` that could not be rewritten, before any game is played.

    Raises:
        LadderUsageError: it can't be read, has no ladder block, or its folder can't be written.
    """
    _read_block(path)
    # The new text goes to a temporary file beside the README, renamed over it: the folder must take it.
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise LadderUsageError(f"Could not write {path}: its folder {path.parent} is not writable.")


def _replace_block(path: Path, sections: dict[str, list[str]]) -> None:
    """Rewrite each game's section of the ladder block, keeping the other games' sections as they were.

    A game with no section yet gets one at the end of the block. Games can be measured
    with different numbers of games (a slow Hard bot), so each section names its own command.
    The file is read again here: it may have been edited while the games were played.

    Raises:
        LadderUsageError: the file can't be read or written, or has no ladder block; the message names it.
    """
    from engine.core.textfile import TextFileError, write_text_file

    text, start, end = _read_block(path)
    block = text[start + len(README_START):end]
    for game_id, lines in sections.items():
        opening, closing = game_markers(game_id)
        section = "\n".join([opening, *lines, closing])
        first, last = block.find(opening), block.find(closing)
        if first >= 0 and last > first:
            block = block[:first] + section + block[last + len(closing):]
        else:
            block = block.rstrip("\n") + "\n\n" + section + "\n\n"
    try:
        write_text_file(path, text[:start] + README_START + block + text[end:], overwrite=True)
    except TextFileError as error:
        raise LadderUsageError(str(error)) from None


def run_ladder(args: argparse.Namespace) -> int:
    """Play the ladder(s) and print them (or write them into the README)."""
    # Imported here, not at the top: every `coven` start builds this command's parser, few run it.
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from tui.cli.ladder import ladder, report_lines

    try:
        if not 2 <= args.games <= MAX_GAMES or args.games % 2:
            raise LadderUsageError(f"--games must be an even number from 2 to {MAX_GAMES} (each seed is played "
                                   "twice, seats swapped)")
        specs = _games(args)
    except LadderUsageError as error:
        print(f"coven ladder: {error}", file=sys.stderr)
        return 2
    readme = None
    if args.readme is not None:
        try:
            readme = user_path(args.readme)
            # Checked now, not after minutes of games: a typo in the path must not cost the whole run.
            check_readme(readme)
        except (LadderUsageError, NoPathError) as error:
            _fail(str(error))
            return 1
    console = Console(stderr=True)
    total = sum(len(list(combinations(spec.bot_levels, 2))) * args.games for spec in specs)
    lines: list[str] = []
    sections: dict[str, list[str]] = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("ladder", total=total)
        for spec in specs:
            progress.update(task, description=spec.title)
            pairings = ladder(spec, args.games, args.seed, lambda: progress.advance(task))
            lines += report_lines(spec, pairings)
            command = f"`coven ladder {spec.game_id} --games {args.games} --seed {args.seed}`"
            sections[spec.game_id] = ["", *report_lines(spec, pairings, markdown=True),
                                      f"Measured by {command}.", ""]
    if readme is not None:
        try:
            _replace_block(readme, sections)
        except LadderUsageError as error:
            _fail(str(error))
            return 1
        print(f"Wrote the ladder tables into {readme}.")
        return 0
    print("\n".join(lines))
    return 0


def add_ladder_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ladder`` to the ``coven`` parser's commands."""
    parser = commands.add_parser(
        "ladder", help="every bot level against every other: win rates and Elo",
        description="Play every bot level of a game (or of every game) against every other in seat-mirrored "
                    "pairs, then print each pairing's score with a 95% interval and each level's Elo rating.")
    parser.add_argument("game", nargs="?", metavar="GAME", help="game id (all games when left out)")
    parser.add_argument("--games", type=int, default=100, metavar="N",
                        help="games per pairing, an even number (default 100)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the first seed (default 1)")
    parser.add_argument("--readme", metavar="FILE", default=None,
                        help="write the tables of the games played into FILE, between its ladder markers, instead of "
                             "printing them; other games' tables stay")
    parser.set_defaults(handler=run_ladder)
