"""The ``coven`` command: the table by default, plus a few housekeeping commands.

Every expected failure (damaged or newer database, bad file, unknown session
or game) prints one friendly line on stderr and returns a non-zero code.
Set ``COVEN_DEBUG=1`` to see tracebacks of unexpected errors instead.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from types import ModuleType

from engine.core import InvalidOptionsError
from engine.core.catalog import entry_for
from engine.core.text import shown_text
from engine.core.words import plural
from saves import (
    SessionFileError,
    SessionFileExistsError,
    SessionStore,
    StoreError,
    export_session,
)
from saves.integrity import DamagedSession
from saves.transfer import import_session_file
from tui.ahead import ahead_of_fork
from tui.cli.common import EXIT_ERROR, EXIT_USAGE, UsageError, fail, game_spec, tell_store_notices
from tui.cli.decks import add_deck_commands
from tui.cli.ladder_command import add_ladder_command
from tui.cli.ratings_command import add_ratings_command
from tui.cli.settings_command import add_settings_command
from tui.cli.simulate_args import add_simulate_parser
from tui.cli.simulate_command import cmd_simulate
from tui.cli.tables_command import add_tables_command
from tui.rules_docs import RULES_DIR
from tui.server.config import add_serve_parser
from tui.web.config import add_web_parser

Handler = Callable[[argparse.Namespace], int]


def _title_and_rules(game_id: str) -> tuple[str, str]:
    """A game's title and rules document, from its announcement when it has one (no import)."""
    entry = entry_for(game_id)
    if entry is not None:
        return entry.title, entry.rules_doc
    spec = game_spec(game_id)
    return spec.title, spec.rules_doc


def _open_store() -> SessionStore:
    store = SessionStore()
    tell_store_notices(store)
    return store


def _optional_module(name: str) -> ModuleType | None:
    """Import ``name`` if it exists; other import failures are real bugs and propagate."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name in (name, name.rpartition(".")[0]):
            return None
        raise


def _local_time(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


# -- commands ---------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace) -> int:
    app = _optional_module("tui.app")
    if app is None:
        fail("The card table is not available in this build.")
        return EXIT_ERROR
    if args.linear:
        from tui.player_settings import set_for_this_run

        set_for_this_run("linear", True)
    code = app.run(player_name=args.name, join_code=args.join, serve_port=args.serve_port, account=args.account,
                   serve_host=args.serve_host, signed_in=args.signed_in,
                   serve_browser=args.serve_browser)
    return code if isinstance(code, int) else 0


def _cmd_rules(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markdown import Markdown

    title, rules_doc = _title_and_rules(args.game)
    path = RULES_DIR / rules_doc
    if not rules_doc or not path.is_file():
        fail(f"The rules of {title} are not available (missing {path}).")
        return EXIT_ERROR
    Console(file=sys.stdout).print(Markdown(path.read_text(encoding="utf-8")))
    return 0


def _cmd_sessions(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    def plain(value: str) -> Text:  # read back from the database: never markup, never a terminal control
        return Text(shown_text(value))

    with _open_store() as store:
        summaries = store.list_sessions()
    console = Console(file=sys.stdout)
    if not summaries:
        console.print("No saved sessions yet. Run [bold]coven[/] to start one.")
        return 0
    table = Table(title="Saved sessions")
    for column in ("ID", "Game", "Seats", "Status", "Progress", "Last played"):
        table.add_column(column, justify="right" if column == "ID" else "left")
    for summary in summaries:
        if isinstance(summary, DamagedSession):  # listed with its reason; it cannot be opened
            table.add_row(str(summary.session_id), plain(summary.game_id or "?"), "?", "damaged",
                          plain(summary.reason), plain(_local_time(summary.updated)))
            continue
        try:
            title = _title_and_rules(summary.game_id)[0]
        except UsageError:
            title = f"{summary.game_id} (unknown)"
        finished = summary.status == "finished"
        table.add_row(
            str(summary.session_id),
            plain(title),
            plain(", ".join(summary.seat_names)),
            "finished" if finished else "in progress",
            plain((summary.result or summary.progress) if finished else summary.progress),
            plain(_local_time(summary.updated)),
        )
    console.print(table)
    if any(isinstance(summary, DamagedSession) for summary in summaries):
        console.print("A damaged session cannot be opened. Run [bold]coven doctor[/] to check the whole database.")
    return 0


def _user_file(typed: str) -> Path:
    """``typed`` as an absolute path by the one rule of :mod:`tui.user_paths` (relative: to the working directory)."""
    from tui.user_paths import NoPathError, user_path

    try:
        return user_path(typed)
    except NoPathError as error:
        raise UsageError(str(error)) from None


def _cmd_export(args: argparse.Namespace) -> int:
    target = _user_file(args.file)
    with _open_store() as store:
        try:
            # export_session alone decides whether an existing file may be replaced.
            export_session(store, args.session, target, overwrite=args.force)
        except SessionFileExistsError:
            fail(f"{target} already exists; choose another name or use --force to replace it.")
            return EXIT_ERROR
    print(f"Exported session {args.session} to {target}.")
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    with _open_store() as store:
        source = _user_file(args.file)
        imported = import_session_file(store, source)
        session_id = imported.session_id
        record = store.load(session_id)
    names = ", ".join(shown_text(seat.name) for seat in record.seats)
    print(f"Imported {shown_text(str(source))} as session {session_id} ({names}; {plural(len(record.log), 'action')}, {record.status}).")
    if imported.warning:
        fail(f"warning: {imported.warning}")
    return 0


def _cmd_doctor(args: argparse.Namespace) -> int:
    from tui.cli.doctor import run

    return run(move=args.move_aside, mend=args.repair)


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.games is not None and args.games < 1:
        raise UsageError("--games must be at least 1.")
    from tui.cli.bench.targets import TARGETS, run_target

    if args.game in TARGETS:
        return run_target(args.game, args.games)
    spec = game_spec(args.game)
    bench = _optional_module("tui.cli.bench.games")
    if bench is None or not hasattr(bench, "run"):
        fail("Benchmarking is not available in this build.")
        return EXIT_ERROR
    code = bench.run(spec.game_id, games=args.games)
    return code if isinstance(code, int) else 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from tui.server import ServeError, ServeUsageError, run_serve

    try:
        return run_serve(args)
    except ServeUsageError as error:
        raise UsageError(str(error)) from None
    except ServeError as error:
        fail(str(error))
        return EXIT_ERROR


def _cmd_web(args: argparse.Namespace) -> int:
    from tui.server import ServeError, ServeUsageError
    from tui.web.run import run_web

    try:
        return run_web(args)
    except ServeUsageError as error:
        raise UsageError(str(error)) from None
    except ServeError as error:
        fail(str(error))
        return EXIT_ERROR


def _session_id(text: str) -> int:
    """A session id as typed: a whole number that fits the store (SQLite's 64-bit integers)."""
    digits = text.strip()
    if not digits.isdecimal() or not digits.isascii() or len(digits) > 19 or not 1 <= int(digits) < 2**63:
        raise argparse.ArgumentTypeError(f"a session id is a whole number such as 3 (see `coven sessions`), "
                                         f"not {digits[:30]!r}")
    return int(digits)


# -- parsing ----------------------------------------------------------------------


_PLAY_DEFAULTS: dict[str, object] = {"name": None, "join": None, "serve_port": None, "account": None,
                                     "serve_host": None, "signed_in": False, "linear": False,
                                     "serve_browser": False}
"""What plain ``coven`` runs with: the table, as ``coven play`` with no options."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``coven``."""
    parser = argparse.ArgumentParser(
        prog="coven",
        description="Coven: a terminal table for wizarding card games. Run with no command to play.",
    )
    parser.set_defaults(handler=_cmd_play, **_PLAY_DEFAULTS)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    play = commands.add_parser("play", help="open the card table (the default)",
                               description="Open the card table. With --join, offer that table's seats at once.")
    play.add_argument("--name", metavar="NAME", help="the name offered when joining a table")
    play.add_argument("--join", metavar="CODE", help="a table's 4-letter join code")
    play.add_argument("--linear", action="store_true",
                      help="open in linear mode (each table also as lines of words), for this run")
    # Set by `coven serve` for each connection's Coven, never by hand.
    play.add_argument("--serve-port", type=int, metavar="PORT", help=argparse.SUPPRESS)
    play.add_argument("--account", metavar="ACCOUNT", help=argparse.SUPPRESS)
    play.add_argument("--serve-host", metavar="HOST", help=argparse.SUPPRESS)
    play.add_argument("--signed-in", action="store_true", help=argparse.SUPPRESS)
    # Set by `coven web` alone (no SSH door): --serve-port and --serve-host are the browser door's.
    play.add_argument("--serve-browser", action="store_true", help=argparse.SUPPRESS)
    play.set_defaults(handler=_cmd_play)

    rules = commands.add_parser("rules", help="show a game's rules", description="Print a game's rules.")
    rules.add_argument("game", metavar="GAME", help="game id, e.g. wizards-cup")
    rules.set_defaults(handler=_cmd_rules)

    sessions = commands.add_parser("sessions", help="list saved sessions", description="List saved sessions.")
    sessions.set_defaults(handler=_cmd_sessions)

    export = commands.add_parser("export", help="export a session to a file", description="Export a session as JSON.")
    export.add_argument("session", metavar="SESSION", type=_session_id, help="session id (see `coven sessions`)")
    export.add_argument("file", metavar="FILE", help="file to write")
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")
    export.set_defaults(handler=_cmd_export)

    import_ = commands.add_parser("import", help="import a session file", description="Import an exported session.")
    import_.add_argument("file", metavar="FILE", help="a file written by `coven export`")
    import_.set_defaults(handler=_cmd_import)

    doctor = commands.add_parser("doctor", help="check the session database for damage",
                                 description="Check the session database (SQLite's full integrity check and "
                                 "Coven's own checks of every session) and say what was found.")
    doctor.add_argument("--move-aside", action="store_true",
                        help="move a damaged database aside (renamed, never deleted) so Coven starts fresh")
    doctor.add_argument("--repair", action="store_true",
                        help="take out damaged rows (copied to a file beside the database first), rebuild "
                        "indexes and recreate a missing decks, settings or chat table; keeps everything else")
    doctor.set_defaults(handler=_cmd_doctor)

    bench = commands.add_parser("bench", help="benchmark a game's engine and bots", description="Play bot games.")
    bench.add_argument("game", metavar="GAME",
                       help="game id, e.g. wizards-cup; 'tables' for shared tables; 'serve' for coven serve "
                            "(--games then counts the clients connecting at once, default 8, at most 16); 'web' for a "
                            "browser session beside an SSH session through one coven web (--games then counts the "
                            "players a door, default 4); 'seat-memory' for a seat's memory "
                            "after whole games against Hard (default one Wizards Cup game; --games N plays N of each plan); 'startup' for the time to "
                            "the main menu (--games then counts the starts, default 10); 'wizbits-hard' for "
                            "Wizbits Hard against Normal (default 1 game); 'witchdraft-bots' for WitchDraft Hard "
                            "against Normal (--games then counts seeds, each played twice; default 40). Every default run takes under a minute and prints its progress on stderr")
    bench.add_argument("--games", type=int, default=None, metavar="N",
                       help="number of games (default: each bench's own plan, sized to take under a minute)")
    bench.set_defaults(handler=_cmd_bench)

    add_simulate_parser(commands).set_defaults(handler=cmd_simulate)
    add_deck_commands(commands)
    add_settings_command(commands)
    add_ladder_command(commands)
    add_ratings_command(commands)
    add_tables_command(commands)
    add_serve_parser(commands).set_defaults(handler=_cmd_serve)
    add_web_parser(commands).set_defaults(handler=_cmd_web)
    return parser


_parsers: list[argparse.ArgumentParser] = []
"""The parser :func:`shared_parser` built, once per process."""


@ahead_of_fork
def shared_parser() -> argparse.ArgumentParser:
    """The ``coven`` parser, built once per process and reused (parsing never changes it).

    ``coven serve``'s warm parent builds it before it forks, so a served player
    parses its command line without building the parser of every command.
    """
    if not _parsers:
        _parsers.append(build_parser())
    return _parsers[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``coven`` command and return its exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    if not words:
        # Plain `coven` opens the table: start-up skips building every command's parser.
        args = argparse.Namespace(handler=_cmd_play, **_PLAY_DEFAULTS)
    else:
        parser = shared_parser()
        for word in words:
            if word == "--":
                break
            # argparse turns "--flag=--" into an empty list where every handler expects text.
            if word.startswith("--") and word.endswith("=--"):
                fail(f"{word.partition('=')[0]} needs a value; '--' is not one.")
                return EXIT_USAGE
        try:
            args = parser.parse_args(words)
        except SystemExit as exit_:  # --help, or argparse's own usage message
            return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    handler: Handler = args.handler
    for stream in (sys.stdout, sys.stderr):  # a character the terminal cannot show is spelled out, never fatal
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except UsageError as error:
        fail(str(error))
        return EXIT_USAGE
    except (StoreError, SessionFileError, InvalidOptionsError, OSError, sqlite3.Error) as error:
        fail(str(error) or type(error).__name__)
        return EXIT_ERROR
    except Exception as error:
        if os.environ.get("COVEN_DEBUG"):
            raise
        fail(f"Unexpected error ({type(error).__name__}: {error}). Set COVEN_DEBUG=1 for details.")
        return EXIT_ERROR

