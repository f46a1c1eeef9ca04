"""Saved deck lists: named, per game, kept as the plain text a player wrote.

A deck is stored as its deck-list text with a name, a game id and two times;
nothing is pickled or evaluated, and the text is checked by the game's own
deck rules before it is written. A session never refers to a saved deck: the
game option ``deck_1``/``deck_2`` holds a copy of the text, so editing or
deleting a deck later cannot break a session's replay.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core.text import UnsafeTextError, check_name
from engine.core.textfile import TextFileError, read_text_file
from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.decklist import (
    MAX_DECKLIST_BYTES,
    DeckProblem,
    check_decklist,
    parse_decklist,
    separator_problem,
    split_lines,
)
from saves.store import SessionStore, utc_now

MAX_DECK_BYTES = MAX_DECKLIST_BYTES
"""A deck list (file or stored text) may be at most this long; a full one is under 4 KiB."""

MAX_DECK_NAME = 64

DeckChecker = Callable[[str], Sequence[DeckProblem]]

DECK_CHECKERS: dict[str, DeckChecker] = {"wizbits": check_decklist}
"""Each game that has deck lists, with the function that lists a deck list's problems."""


class DeckError(ValueError):
    """A deck could not be saved, found or read; the message says why, in one line."""


class InvalidDeckError(DeckError):
    """A deck list breaks the game's deck rules; nothing was saved.

    Attributes:
        problems: Every problem, line-numbered where it has a line.
    """

    def __init__(self, problems: Sequence[DeckProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


class DeckNotFoundError(DeckError, LookupError):
    """No saved deck has the name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"There is no saved deck named {name!r}.")
        self.name = name


class DeckExistsError(DeckError):
    """Another saved deck of the same game already has the name (letter case aside)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"A deck named {name!r} is already saved; choose another name.")
        self.name = name


class DeckFileError(DeckError):
    """A deck-list file is missing, unreadable, not text or too large."""


@dataclass(frozen=True)
class SavedDeck:
    """One saved deck list.

    Attributes:
        name: The deck's name, unique per game whatever its letter case.
        game_id: Registry id of the game it is for.
        text: The deck list exactly as saved.
        created: When it was first saved, UTC ISO-8601.
        updated: When its text or name last changed, UTC ISO-8601.
    """

    name: str
    game_id: str
    text: str
    created: str
    updated: str


def clean_deck_name(name: str) -> str:
    """Return ``name`` without surrounding spaces, or raise :class:`DeckError` if it is unusable."""
    try:
        return check_name(name, "A deck's name", max_length=MAX_DECK_NAME)
    except UnsafeTextError as error:
        raise DeckError(f"{error.reason}.") from None


def deck_problems(text: str, game_id: str = "wizbits") -> list[DeckProblem]:
    """Every problem of a deck list under ``game_id``'s rules (empty when it is a legal deck).

    Raises:
        DeckError: the game has no deck lists.
    """
    checker = DECK_CHECKERS.get(game_id)
    if checker is None:
        raise DeckError(f"The game {game_id!r} has no deck lists.")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_DECK_BYTES:
        return [DeckProblem(f"the deck list is longer than {MAX_DECK_BYTES // 1024} KiB")]
    # Control characters (escape sequences, say) are refused so a saved list is always safe to print.
    # Lines are numbered as the deck rules number them (an editor's lines), not as str.splitlines would.
    refused: dict[int, DeckProblem] = {}
    for number, line in enumerate(split_lines(text), start=1):
        separator = separator_problem(line)
        if separator is not None:
            refused[number] = DeckProblem(separator, number)
        elif any(char != "\t" and unicodedata.category(char) == "Cc" for char in line):
            refused[number] = DeckProblem("a control character; a deck list is plain text", number)
    problems = list(checker(text))
    if not refused:
        return problems
    # A refused line hides nothing else: the other lines' problems are reported with it, in line order.
    # The deck-wide rules wait, as they wait for any unreadable line, so a count is never misleading.
    others = [problem for problem in problems if problem.line is not None and problem.line not in refused]
    return sorted([*refused.values(), *others], key=lambda problem: problem.line or 0)


def deck_summary(text: str) -> str:
    """A Wizbits deck list in a few words, e.g. "60 cards, Main Character Cinderwing Archmage".

    Raises:
        DeckListError: the text is not a legal deck.
    """
    deck = parse_decklist(text)
    main = CARDS_BY_ID[deck.main].name if deck.main is not None else "none"
    return f"{deck.size} cards, Main Character {main}"


def read_deck_file(path: str | os.PathLike[str]) -> str:
    """Read a deck-list file as text, refusing anything that cannot be one.

    Only a regular file is read, and at most ``MAX_DECK_BYTES + 1`` bytes of it,
    with :func:`engine.core.textfile.read_text_file`, as session files are.

    Raises:
        DeckFileError: missing, not a regular file, unreadable, too large or not UTF-8 text.
    """
    try:
        return read_text_file(path, MAX_DECK_BYTES, "a deck list")
    except TextFileError as error:
        raise DeckFileError(str(error)) from None


class DeckStore:
    """The saved deck lists of one game, in a :class:`SessionStore`'s database.

    Each write is one short ``BEGIN IMMEDIATE`` transaction of that store, so
    decks and sessions share its locking and crash safety.
    """

    def __init__(self, store: SessionStore, game_id: str = "wizbits") -> None:
        if game_id not in DECK_CHECKERS:
            raise DeckError(f"The game {game_id!r} has no deck lists.")
        self.store = store
        self.game_id = game_id

    def save_deck(self, name: str, text: str, *, replace: bool = False) -> SavedDeck:
        """Check a deck list by the game's rules, then save it under ``name``.

        Args:
            name: The deck's name; surrounding spaces are dropped.
            text: The deck list.
            replace: Replace the text of a saved deck with this name instead of refusing.

        Raises:
            InvalidDeckError: the list breaks the deck rules; nothing was saved.
            DeckExistsError: the name is taken and ``replace`` is false.
            DeckError: the name is unusable.
        """
        name = clean_deck_name(name)
        problems = deck_problems(text, self.game_id)
        if problems:
            raise InvalidDeckError(problems)
        now = utc_now()
        with self.store._write() as conn:
            row = conn.execute(
                "SELECT name, created FROM decks WHERE game_id = ? AND name = ?", (self.game_id, name)
            ).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO decks (game_id, name, text, created, updated) VALUES (?, ?, ?, ?, ?)",
                    (self.game_id, name, text, now, now),
                )
                return SavedDeck(name, self.game_id, text, now, now)
            if not replace:
                raise DeckExistsError(str(row[0]))
            conn.execute(
                "UPDATE decks SET text = ?, updated = ? WHERE game_id = ? AND name = ?",
                (text, now, self.game_id, name),
            )
            return SavedDeck(str(row[0]), self.game_id, text, str(row[1]), now)

    def list_decks(self) -> list[SavedDeck]:
        """Every saved deck of this game, by name."""
        with self.store._read() as conn:
            rows = conn.execute(
                "SELECT name, text, created, updated FROM decks WHERE game_id = ? ORDER BY name, id",
                (self.game_id,),
            ).fetchall()
        return [SavedDeck(str(n), self.game_id, str(t), str(c), str(u)) for n, t, c, u in rows]

    def load_deck(self, name: str) -> SavedDeck:
        """The saved deck called ``name`` (letter case aside).

        Raises:
            DeckNotFoundError: no such deck.
        """
        with self.store._read() as conn:
            row = conn.execute(
                "SELECT name, text, created, updated FROM decks WHERE game_id = ? AND name = ?",
                (self.game_id, name.strip()),
            ).fetchone()
        if row is None:
            raise DeckNotFoundError(name)
        return SavedDeck(str(row[0]), self.game_id, str(row[1]), str(row[2]), str(row[3]))

    def delete_deck(self, name: str) -> None:
        """Delete a saved deck. Sessions that played it keep their own copy of its text.

        Raises:
            DeckNotFoundError: no such deck.
        """
        with self.store._write() as conn:
            cursor = conn.execute("DELETE FROM decks WHERE game_id = ? AND name = ?", (self.game_id, name.strip()))
            if cursor.rowcount == 0:
                raise DeckNotFoundError(name)

    def rename_deck(self, old: str, new: str) -> SavedDeck:
        """Give a saved deck a new name (a change of letter case alone is allowed).

        Raises:
            DeckNotFoundError: no deck is called ``old``.
            DeckExistsError: another deck is already called ``new``.
            DeckError: ``new`` is unusable.
        """
        new = clean_deck_name(new)
        now = utc_now()
        with self.store._write() as conn:
            row = conn.execute(
                "SELECT id, text, created FROM decks WHERE game_id = ? AND name = ?", (self.game_id, old.strip())
            ).fetchone()
            if row is None:
                raise DeckNotFoundError(old)
            clash = conn.execute(
                "SELECT name FROM decks WHERE game_id = ? AND name = ? AND id != ?", (self.game_id, new, row[0])
            ).fetchone()
            if clash is not None:
                raise DeckExistsError(str(clash[0]))
            conn.execute("UPDATE decks SET name = ?, updated = ? WHERE id = ?", (new, now, row[0]))
        return SavedDeck(new, self.game_id, str(row[1]), str(row[2]), now)
