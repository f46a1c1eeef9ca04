"""``coven tables keep``: one pass of the table keeper, for hosts that run no server (cron drives it).

It does what ``coven serve``'s keeper does every minute (:mod:`tui.keeper`): every turn-based table of the save
folder that no live process drives moves on (time-outs to the host's bot, the bots' moves, half-time reminders
and notices to newly asked seats), and one line per table touched is printed. Table codes and seat names come
from the database and are printed as plain text, never as terminal control.
"""

from __future__ import annotations

import argparse

from engine.core.text import shown_text
from tui.cli.common import tell_store_notices


def add_tables_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``coven tables keep`` to ``commands``."""
    tables = commands.add_parser(
        "tables", help="look after shared tables (turn-based tables while nobody is connected)",
        description="Look after the shared tables of this save folder.")
    actions = tables.add_subparsers(title="actions", metavar="ACTION", required=True)
    keep = actions.add_parser(
        "keep", help="move turn-based tables on once (for cron, when no coven serve runs)",
        description="Move every turn-based table nobody drives on once, as coven serve does every minute: "
                    "seats whose time ran out pass to the host's bot, the bots move, and away players are told "
                    "(with --notify-url, or their own URL from Settings). Prints a line per table touched.")
    keep.add_argument("--notify-url", metavar="URL", default=None,
                      help="where notices go for players who set no URL of their own (as coven serve --notify-url)")
    keep.set_defaults(handler=run_keep)


def run_keep(args: argparse.Namespace) -> int:
    """One keeper pass over the save folder; exit code 0 (a table left for later is said on stderr)."""
    import logging
    import os

    from saves import Presence, SessionStore
    from saves.tables import TableStore
    from tui.cli.common import fail
    from tui.keeper.run import SENDER_WAIT_SECONDS
    from tui.keeper.tend import keep_tables
    from tui.notify import seat_asked
    from tui.notify.url import ENV_URL, NotifyUrlError, check_notify_url

    if args.notify_url is not None:
        try:
            os.environ[ENV_URL] = check_notify_url(args.notify_url)
        except NotifyUrlError as error:
            fail(f"--notify-url: {error}")
            return 2
    logging.basicConfig(format="coven: %(message)s", level=logging.WARNING)
    with SessionStore() as store, Presence() as presence:
        tell_store_notices(store)
        done = [tended for tended in keep_tables(TableStore(store, presence)) if tended.touched]
        for tended in done:
            print(shown_text(tended.line()))
        if not seat_asked.SENDER.wait_idle(SENDER_WAIT_SECONDS):
            fail("some notices were still being tried when time was up; they were not sent.")
    return 0


__all__ = ["add_tables_command", "run_keep"]
