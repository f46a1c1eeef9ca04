"""``coven deck ...``: check, save, list, show, rename and delete Wizbits deck lists.

Kept apart from :mod:`tui.cli` (the package), which only adds these commands to its parser.
Exit codes: 0 done, 1 a deck list breaks the rules or a saved deck is
missing or taken, 2 a file cannot be read (or an unknown starter deck).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.core.text import shown_text
from saves import SessionStore
from tui.cli.common import tell_store_notices
from tui.user_paths import NoPathError, user_path

# The deck rules, Wizbits' cards and the deck store are imported by the handlers that use them,
# so building the parser (every `coven` start) never loads a game's card data.
if TYPE_CHECKING:
    from engine.wizbits.decklist import DeckProblem
    from saves.decks import DeckStore

EXIT_INVALID = 1
EXIT_FILE = 2
STARTER_IDS = ("ember-dawn", "tidal-dusk")
"""The starter decks' ids, for the help text (``engine.wizbits.cards.starter_decks.STARTER_DECKS`` has the decks)."""

_Handler = Callable[[argparse.Namespace], int]

FORMAT_HELP = (
    "A deck list is UTF-8 text, at most 64 KiB, one card per line: a count from 1 to 4 and the card's name; "
    "'*' after the name marks the Main Character, '#' starts a comment. Lines end with a line feed, a carriage "
    "return or both; any other separator (form feed, vertical tab, NEL, U+2028, U+2029) is refused on its line. "
    "`coven rules wizbits` has the whole format."
)


def _fail(message: str) -> None:
    print(f"coven: {' '.join(shown_text(message).split())}", file=sys.stderr)  # never a terminal control


def _print_problems(problems: tuple[DeckProblem, ...] | list[DeckProblem]) -> None:
    for problem in problems:
        print(problem)


def _decks(store: SessionStore) -> DeckStore:
    from saves.decks import DeckStore

    tell_store_notices(store)
    return DeckStore(store)


def _cmd_check(args: argparse.Namespace) -> int:
    from saves.decks import deck_problems, deck_summary, read_deck_file

    text = read_deck_file(user_path(args.file))
    problems = deck_problems(text)
    if problems:
        _print_problems(problems)
        return EXIT_INVALID
    print(f"OK: {deck_summary(text)}")
    return 0


def _cmd_save(args: argparse.Namespace) -> int:
    from saves import SessionStore
    from saves.decks import InvalidDeckError, deck_summary, read_deck_file

    source = user_path(args.file)
    text = read_deck_file(source)
    with SessionStore() as store:
        try:
            saved = _decks(store).save_deck(args.name, text, replace=args.force)
        except InvalidDeckError as error:
            _print_problems(error.problems)
            _fail(f"{source} is not a legal deck list; nothing was saved.")
            return EXIT_INVALID
    print(f"Saved deck {saved.name!r}: {deck_summary(text)}.")
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    from saves import SessionStore
    from saves.decks import deck_problems, deck_summary

    with SessionStore() as store:
        saved = _decks(store).list_decks()
    if not saved:
        print("No saved decks yet. Save one with `coven deck save NAME FILE`.")
        return 0
    width = max(len(deck.name) for deck in saved)
    for deck in saved:
        # A list saved under older cards may have stopped being legal; say so rather than fail.
        problems = deck_problems(deck.text)
        about = f"needs fixing ({problems[0]})" if problems else deck_summary(deck.text)
        print(f"{shown_text(deck.name):<{width}}  {about}")  # read back from the database
    return 0


def _saved_name(name: str) -> str:
    """``name`` if a saved deck could have it; a lone surrogate (undecodable bytes typed) never could."""
    from saves.decks import DeckNotFoundError

    if any("\ud800" <= char <= "\udfff" for char in name):
        raise DeckNotFoundError(name)
    return name


def _cmd_show(args: argparse.Namespace) -> int:
    with SessionStore() as store:
        text = _decks(store).load_deck(_saved_name(args.name)).text
    sys.stdout.write(text if text.endswith("\n") else f"{text}\n")
    return 0


def _cmd_rename(args: argparse.Namespace) -> int:
    with SessionStore() as store:
        renamed = _decks(store).rename_deck(_saved_name(args.name), args.new_name)
    print(f"Renamed deck {args.name!r} to {renamed.name!r}.")
    return 0


def _cmd_delete(args: argparse.Namespace) -> int:
    with SessionStore() as store:
        decks = _decks(store)
        deck = decks.load_deck(_saved_name(args.name))
        decks.delete_deck(deck.name)
    print(f"Deleted deck {deck.name!r}.")
    return 0


def _cmd_export_starter(args: argparse.Namespace) -> int:
    from engine.core.textfile import TextFileError, TextFileExistsError, write_text_file
    from engine.wizbits.cards.starter_decks import STARTER_DECKS
    from engine.wizbits.decklist import decklist

    starter = STARTER_DECKS.get(args.starter)
    if starter is None:
        _fail(f"Unknown starter deck {args.starter!r}. Starter decks: {', '.join(STARTER_DECKS)}.")
        return EXIT_FILE
    target = user_path(args.file)
    try:
        # Never opens the target itself, so a FIFO or device named FILE can't make this wait forever.
        write_text_file(target, decklist(starter.deck, starter.name), overwrite=args.force)
    except TextFileExistsError:
        _fail(f"{target} already exists; choose another name or use --force to replace it.")
        return EXIT_INVALID
    except TextFileError as error:
        _fail(str(error))
        return EXIT_INVALID
    print(f"Wrote the {starter.name} starter deck to {target}.")
    return 0


def _guarded(handler: _Handler) -> _Handler:
    """Turn a deck error into one line on stderr and its exit code."""

    def run(args: argparse.Namespace) -> int:
        from saves.decks import DeckError, DeckFileError

        try:
            return handler(args)
        except (DeckFileError, NoPathError) as error:
            _fail(str(error))
            return EXIT_FILE
        except DeckError as error:
            _fail(str(error))
            return EXIT_INVALID

    return run


def add_deck_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``deck`` and its subcommands to the ``coven`` parser's commands."""
    deck = commands.add_parser(
        "deck", help="check and keep Wizbits deck lists", description="Check, save and show Wizbits deck lists.",
        epilog=FORMAT_HELP,
    )

    def show_help(args: argparse.Namespace) -> int:
        deck.print_help()
        return EXIT_FILE

    deck.set_defaults(handler=show_help)
    sub = deck.add_subparsers(title="deck commands", metavar="DECK_COMMAND")

    def add(name: str, handler: _Handler, help_: str, *arguments: tuple[str, str]) -> argparse.ArgumentParser:
        parser = sub.add_parser(name, help=help_, description=help_[:1].upper() + help_[1:] + ".",
                                epilog=FORMAT_HELP if "file" in (dest for dest, _ in arguments) else None)
        for dest, text in arguments:
            parser.add_argument(dest, metavar=dest.upper(), help=text)
        parser.set_defaults(handler=_guarded(handler))
        return parser

    add("check", _cmd_check, "check a deck-list file against the deck rules", ("file", "a deck-list text file"))
    add("list", _cmd_list, "list saved decks")
    save = add("save", _cmd_save, "check a deck-list file and save it under a name",
               ("name", "the deck's name"), ("file", "a deck-list text file"))
    save.add_argument("--force", action="store_true", help="replace a saved deck with the same name")
    add("show", _cmd_show, "print a saved deck's list", ("name", "a saved deck's name"))
    add("rename", _cmd_rename, "rename a saved deck", ("name", "a saved deck's name"), ("new_name", "its new name"))
    add("delete", _cmd_delete, "delete a saved deck", ("name", "a saved deck's name"))
    export = add("export-starter", _cmd_export_starter, "write a starter deck's list to a file, as a template",
                 ("starter", f"starter deck id: {', '.join(STARTER_IDS)}"), ("file", "file to write"))
    export.add_argument("--force", action="store_true", help="replace FILE if it exists")
