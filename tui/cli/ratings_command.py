"""``coven ratings [GAME]``: the rated players of each game, best conservative estimate first.

A rating is OpenSkill's (:mod:`saves.rating_rule`); players are listed by ``mu - 3 sigma``, so a newcomer
with few games sits low until games show more. Account names come from the database and are printed as
plain text, never as markup or terminal control; damaged rows are counted and skipped, and said so.
"""

from __future__ import annotations

import argparse

from engine.core.text import shown_text
from tui.cli.common import fail, game_spec, known_game_ids, tell_store_notices


def add_ratings_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``coven ratings`` to ``commands``."""
    ratings = commands.add_parser(
        "ratings", help="list players' ratings from rated tables",
        description="List the signed-in players rated at shared tables, per game, by the conservative "
                    "estimate mu - 3 sigma (OpenSkill), with the rated games each played.",
    )  # fmt: skip
    ratings.add_argument("game", metavar="GAME", nargs="?", help="only this game, e.g. witchdraft")
    ratings.set_defaults(handler=run_ratings)


def rating_lines(listed: list[tuple[str, float, float, float, int]]) -> list[str]:
    """The table's lines for (account, estimate, mu, sigma, games) rows, best first; accounts as plain text."""
    names = [shown_text(account) for account, *_ in listed]
    width = max([len("Player"), *(len(name) for name in names)])
    lines = [f"{'#':>3}  {'Player':<{width}}  {'Rating':>7}  {'mu':>6}  {'sigma':>6}  {'Games':>5}"]
    for place, (name, (_, estimate, mu, sigma, games)) in enumerate(zip(names, listed, strict=True), start=1):
        lines.append(f"{place:>3}  {name:<{width}}  {estimate:>7.1f}  {mu:>6.1f}  {sigma:>6.2f}  {games:>5}")
    return lines


def run_ratings(args: argparse.Namespace) -> int:
    """Print the ratings of ``args.game`` (or of every game that has any)."""
    from saves import SessionStore
    from saves.ratings import ratings

    game_ids = [game_spec(args.game).game_id] if args.game is not None else known_game_ids()
    with SessionStore() as store:
        tell_store_notices(store)
        read = ratings(store, args.game)
    shown = 0
    for game_id in game_ids:
        rows = [(r.account, r.ordinal, r.skill.mu, r.skill.sigma, r.games) for r in read.ratings if r.game_id == game_id]
        if not rows:
            continue
        print(("\n" if shown else "") + f"{game_spec(game_id).title}: rated players, best first")
        print("\n".join(rating_lines(rows)))
        shown += 1
    if not shown:
        where = f" at {game_spec(args.game).title}" if args.game is not None else ""
        print(f"Nobody is rated{where} yet. Games between signed-in players at rated tables (coven serve) count.")
    if read.damaged:
        were = "row was" if read.damaged == 1 else "rows were"
        fail(f"{read.damaged} damaged rating {were} skipped; the database may be damaged.")
    return 0  # what could be read was listed


__all__ = ["add_ratings_command", "rating_lines", "run_ratings"]
