"""``coven settings list|get|set|reset``: the Settings screen's settings, for scripts.

They are this machine's player's settings, or, with ``--account``, those of a
``coven serve`` account (the server keeps each account's own), found by the
server's own rule (:func:`tui.server.account_names.served_account`): a password
account in any case, a key account exactly as typed. Nothing here imports Textual.
"""

from __future__ import annotations

import argparse
import sys

from engine.core.text import shown_text, text_problem
from saves import SessionStore, StoreError
from saves.paths import data_dir
from tui.player_settings import SETTINGS, read_settings, reset_settings, setting, write_setting
from tui.server.account_names import find_account, is_key_account, served_account
from tui.server.config import ServeError, password_file_path

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


def _say_error(message: str) -> None:
    print(f"coven settings: {shown_text(message)}", file=sys.stderr)


def _account_problem(account: str | None) -> str | None:
    """Why ``account`` cannot be a ``coven serve`` account, or None."""
    if account is None:
        return None
    if not account or len(account) > 64:
        return "an account is 1 to 64 characters"
    problem = text_problem(account)
    return None if problem is None else f"an account must not contain {problem}"


def _password_file_names(typed: str | None) -> list[str]:
    """The account names in the password file (``--password-file``, else the server's default one).

    The default file may be missing (a server with ``--auth keys`` or ``none`` has none); a file
    named on the command line must be there.

    Raises:
        ServeError: the file cannot be read, or was named and does not exist.
    """
    from tui.server.accounts import read_password_file  # asyncssh comes with it: only when an account is named

    path = password_file_path(typed, data_dir())
    if typed is None and not path.exists():
        return []
    return list(read_password_file(path))


def _served_account(typed: str, password_file: str | None) -> str:
    """The account ``coven serve`` keeps ``typed``'s settings under, saying so when the password file lacks it.

    Raises:
        ServeError: the password file cannot be read.
    """
    if is_key_account(typed):
        return typed
    written = _password_file_names(password_file)
    account = served_account(typed, written)
    if written and find_account(written, typed) is None:
        _say_error(f"the password file has no account {typed!r}; using the account {account!r}")
    return account


def _run(args: argparse.Namespace) -> int:
    account = args.account
    problem = _account_problem(account)
    if problem is not None:
        _say_error(problem)
        return EXIT_USAGE
    if account is not None:
        try:
            account = _served_account(account, args.password_file)
        except ServeError as error:
            _say_error(str(error))
            return EXIT_ERROR
    try:
        named = [setting(name) for name in getattr(args, "names", None) or ()]
        if args.action in ("get", "set"):
            named = [setting(args.name)]
            value = named[0].parse(args.value) if args.action == "set" else None
    except (KeyError, ValueError) as error:
        _say_error(str(error.args[0]) if error.args else str(error))
        return EXIT_USAGE
    try:
        with SessionStore() as store:
            if args.action == "set":
                assert value is not None
                write_setting(store, account, named[0].name, value)
            elif args.action == "reset":
                reset_settings(store, account, {item.name: item for item in named} or None)
            settings = read_settings(store, account)
    except ValueError as error:  # an account name Coven refuses
        _say_error(str(error))
        return EXIT_USAGE
    except StoreError as error:
        _say_error(str(error))
        return EXIT_ERROR
    if settings.notice():
        _say_error(str(settings.notice()))
    if args.action == "get":
        print(named[0].shown(settings[named[0].name]))
        return EXIT_OK
    shown = named if args.action in ("set", "reset") and named else list(SETTINGS)
    width = max(len(item.name) for item in shown)
    for item in shown:
        value_now = item.shown(settings[item.name])
        mark = "" if settings[item.name] == item.default else "   (default " + item.shown(item.default) + ")"
        line = f"{item.name:<{width}}  {value_now}{mark}"
        if args.action == "list" and args.verbose:
            choices = ", ".join(item.shown(choice) for choice in item.choices)
            line += f"\n{'':<{width}}  {item.about} Choices: {choices}."
        print(line)
    return EXIT_OK


def add_settings_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``settings`` and its subcommands to the ``coven`` parser's commands."""
    parser = commands.add_parser(
        "settings", help="list, read and change your settings",
        description="Your settings, as the Settings screen shows them (theme, colour, motion, notifications, "
                    "what New game offers). A value Coven does not offer falls back to its default.")
    parser.add_argument("--account", metavar="ACCOUNT", default=None,
                        help="a `coven serve` account's settings instead of this machine's: a password "
                             "account in any case (Ana, ANA and ana are one; only ASCII letters fold), as the "
                             "password file spells it; a key account (key-...) exactly as typed")
    parser.add_argument("--password-file", metavar="FILE", default=None,
                        help="the password file `coven serve` reads, to find an --account's spelling "
                             "(default: DATA_DIR/passwords, as for `coven serve`)")
    def show_help(args: argparse.Namespace) -> int:
        parser.print_help()
        return EXIT_USAGE

    parser.set_defaults(handler=show_help)
    sub = parser.add_subparsers(title="settings commands", metavar="ACTION")
    listing = sub.add_parser("list", help="every setting and its value", description="List every setting.")
    listing.add_argument("-v", "--verbose", action="store_true", help="say what each does and its choices")
    listing.set_defaults(handler=_run, action="list")
    get = sub.add_parser("get", help="one setting's value", description="Print one setting's value.")
    get.add_argument("name", metavar="NAME")
    get.set_defaults(handler=_run, action="get")
    set_ = sub.add_parser("set", help="change a setting", description="Change one setting (on/off for a switch).")
    set_.add_argument("name", metavar="NAME")
    set_.add_argument("value", metavar="VALUE")
    set_.set_defaults(handler=_run, action="set")
    reset = sub.add_parser("reset", help="settings back to their defaults",
                           description="Set the named settings (all when none is named) back to their defaults.")
    reset.add_argument("names", metavar="NAME", nargs="*")
    reset.set_defaults(handler=_run, action="reset")
