"""Table talk: short lines said at a shared table, and who watches it.

A line is said by whoever holds a seat (under that seat's name), the host, or
a spectator the table lists (when the host lets spectators talk). It is
cleaned by the one text rule (:func:`engine.core.text.clean_text`), bounded to
:data:`MAX_LINE_LENGTH` characters (a letter with its accents is one), and limited
to :data:`RATE_LINES` lines every :data:`RATE_SECONDS` seconds per connection. Each line is kept with the
table and, once the game started, with its session and the number of actions
its log held, so a replay shows it where it was said. Rows are checked again
when read: a damaged one reads as nothing here and is listed by ``coven doctor``.
Saying a line and watching a table are :class:`saves.tables.TableStore`'s.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from engine.core.text import grapheme_count, text_problem
from saves.integrity import lenient_text
from saves.records import MAX_NAME_LENGTH
from saves.store import SessionStore
from saves.table_records import TableError, parse_time

MAX_LINE_LENGTH = 200
"""The longest line a player may say, in characters as a reader counts them (after cleaning): a letter
with its accents is one (:func:`engine.core.text.grapheme_count`)."""

MAX_LINE_CODE_POINTS = 4 * MAX_LINE_LENGTH
"""The most code points a line may hold: accents are counted with their letter, but a letter buried
under dozens of them is no word anyone says, and the stored row stays small."""

RATE_LINES = 5
RATE_SECONDS = 10.0
"""At most :data:`RATE_LINES` lines every :data:`RATE_SECONDS` seconds from one connection at one table."""

CHAT_COLUMNS = "id, table_id, session_id, after_seq, seat, claim, name, line, said"
"""The columns of a ``table_chat`` row, in the order :func:`lines_of` and :func:`row_problem` read them."""


class ChatError(TableError):
    """A line was not said; the message says why."""


class ChatThrottledError(ChatError):
    """The speaker said too many lines too quickly.

    Attributes:
        wait: Whole seconds until another line may be said.
    """

    def __init__(self, wait: int) -> None:
        super().__init__(
            f"Slow down: at most {RATE_LINES} lines every {RATE_SECONDS:g} seconds."
            f" You may talk again in {wait} second{'s' if wait != 1 else ''}."
        )
        self.wait = wait


@dataclass(frozen=True)
class ChatLine:
    """One line said at a table.

    Attributes:
        line_id: Database id; lines read in id order are in the order they were said.
        name: Who said it.
        text: What they said: one line of plain text, never markup.
        seat: The speaker's seat, or None for a spectator (or a host with no seat).
        claim: The speaker's presence claim (tells this connection's own lines).
        after_seq: How many actions the game's log held when it was said (0 in the lobby).
        said: UTC ISO-8601 time.
    """

    line_id: int
    name: str
    text: str
    seat: int | None
    claim: str
    after_seq: int
    said: str

    @property
    def spectator(self) -> bool:
        """Said by someone watching rather than playing."""
        return self.seat is None


def row_problem(row: tuple[object, ...]) -> str | None:
    """What makes a stored chat row unusable, in words, or None when it reads as a line."""
    line_id, table_id, session_id, after_seq, seat, claim, name, text, said = row
    numbers = {"its id": line_id, "its table": table_id, "its log position": after_seq}
    for what, value in numbers.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"{what} is not a number"
    if session_id is not None and not isinstance(session_id, int):
        return "its session is not a number"
    if seat is not None and (not isinstance(seat, int) or seat < 0):
        return "its seat is not a seat number"
    for what, value, longest in (("its speaker's name", name, MAX_NAME_LENGTH), ("its text", text, MAX_LINE_LENGTH),
                                 ("its claim", claim, 64), ("its time", said, 64)):
        if not isinstance(value, str) or not value.strip():
            return f"{what} is not text"
        problem = text_problem(value)
        if problem is not None:
            return f"{what} holds {problem}"
        if what == "its text":
            if grapheme_count(value) > longest or len(value) > MAX_LINE_CODE_POINTS:
                return f"{what} is longer than {longest} characters"
        elif len(value) > longest:
            return f"{what} is longer than {longest} characters"
    return None


def line_problem(line: str) -> str | None:
    """Why a cleaned line is too long to say, in words, or None when it may be said."""
    count = grapheme_count(line)
    if count > MAX_LINE_LENGTH:
        return f"A line holds at most {MAX_LINE_LENGTH} characters; this one has {count}."
    if len(line) > MAX_LINE_CODE_POINTS:
        return f"This line carries too many accents and marks to keep (at most {MAX_LINE_CODE_POINTS} code points)."
    return None


def lines_of(rows: Iterable[tuple[object, ...]]) -> list[ChatLine]:
    """The rows that read as lines; damaged ones are left out (``coven doctor`` lists them)."""
    lines = []
    for row in rows:
        if row_problem(row) is not None:
            continue
        line_id, _, _, after_seq, seat, claim, name, text, said = row
        lines.append(ChatLine(cast(int, line_id), str(name), str(text), cast("int | None", seat), str(claim),
                              cast(int, after_seq), str(said)))
    return lines


def session_chat(store: SessionStore, session_id: int) -> list[ChatLine]:
    """Every readable line said at the table that played ``session_id`` (lobby lines included), in order."""
    with store._read() as conn, lenient_text(conn):
        rows = conn.execute(
            f"SELECT {CHAT_COLUMNS} FROM table_chat WHERE table_id IN (SELECT id FROM tables WHERE session_id = ?)"
            " ORDER BY id",
            (session_id,),
        ).fetchall()
    return lines_of(rows)


def damaged_chat_rows(conn: sqlite3.Connection) -> list[tuple[int | None, str]]:
    """Each stored chat row that does not read as a line: its id (when it is a number) and why."""
    found = []
    for row in conn.execute(f"SELECT {CHAT_COLUMNS} FROM table_chat ORDER BY rowid"):
        problem = row_problem(tuple(row))
        if problem is not None:
            found.append((row[0] if isinstance(row[0], int) else None, problem))
    return found


def said_time(text: str) -> datetime | None:
    """A stored time, or None when it does not read as one (a damaged row never blocks anyone)."""
    try:
        return parse_time(text)
    except (ValueError, TypeError):
        return None
