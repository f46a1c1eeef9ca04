"""Table talk: short lines said at a shared table, and who watches it.

A line is said by whoever holds a seat (under that seat's name), the host, or
a spectator the table lists (when the host lets spectators talk). It is
cleaned by the one text rule (:func:`engine.core.text.clean_text`), bounded to
:data:`MAX_LINE_LENGTH` characters, and limited to :data:`RATE_LINES` lines
every :data:`RATE_SECONDS` seconds per connection. Each line is kept with the
table and, once the game started, with its session and the number of actions
its log held, so a replay shows it where it was said. Rows are checked again
when read: a damaged one reads as nothing here and is listed by ``coven doctor``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from math import ceil
from typing import cast

from engine.core.text import clean_text, text_problem
from saves.integrity import lenient_text
from saves.records import MAX_NAME_LENGTH
from saves.store import SessionStore
from saves.table_hosting import TableHosting
from saves.table_records import TableError, TableInfo, TableNotFoundError, as_utc, parse_time
from saves.table_rows import clean_name, read_table

MAX_LINE_LENGTH = 200
"""The longest line a player may say, in characters (after cleaning)."""

RATE_LINES = 5
RATE_SECONDS = 10.0
"""At most :data:`RATE_LINES` lines every :data:`RATE_SECONDS` seconds from one connection at one table."""

_COLUMNS = "id, table_id, session_id, after_seq, seat, claim, name, line, said"


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
        if len(value) > longest:
            return f"{what} is longer than {longest} characters"
    return None


def _lines(rows: Iterable[tuple[object, ...]]) -> list[ChatLine]:
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
            f"SELECT {_COLUMNS} FROM table_chat WHERE table_id IN (SELECT id FROM tables WHERE session_id = ?)"
            " ORDER BY id",
            (session_id,),
        ).fetchall()
    return _lines(rows)


def damaged_chat_rows(conn: sqlite3.Connection) -> list[tuple[int | None, str]]:
    """Each stored chat row that does not read as a line: its id (when it is a number) and why."""
    found = []
    for row in conn.execute(f"SELECT {_COLUMNS} FROM table_chat ORDER BY rowid"):
        problem = row_problem(tuple(row))
        if problem is not None:
            found.append((row[0] if isinstance(row[0], int) else None, problem))
    return found


class TableChatting(TableHosting):
    """Talking at a table and watching it; :class:`saves.tables.TableStore` builds on this."""

    def _table(self, conn: sqlite3.Connection, table_id: int) -> TableInfo:
        """Table ``table_id`` while people may talk there: live, or its game just ended (a "good game")."""
        info = read_table(conn, "t.id = ?", (table_id,))
        if info is None:
            raise TableNotFoundError(str(table_id))
        if info.status == "closed":
            finished = info.session_id is not None and conn.execute(
                "SELECT 1 FROM sessions WHERE id = ? AND status = 'finished'", (info.session_id,)
            ).fetchone()
            if not finished:
                raise ChatError(f"Table {info.code} is closed; nobody is there to hear it.")
        return info

    def say(self, table_id: int, text: str) -> ChatLine:
        """Say ``text`` at table ``table_id`` as whoever this connection is there.

        Returns:
            The line as stored (cleaned).

        Raises:
            ChatError: nothing left once cleaned, too long, not at the table, or a spectator
                while the host keeps spectators quiet.
            ChatThrottledError: too many lines too quickly.
            TableNotFoundError: no such table.
        """
        line = clean_text(text) if isinstance(text, str) else ""
        if not line:
            raise ChatError("Nothing to say: the line is empty once control characters are taken out.")
        if len(line) > MAX_LINE_LENGTH:
            raise ChatError(f"A line holds at most {MAX_LINE_LENGTH} characters; this one has {len(line)}.")
        now = as_utc(self.clock())
        with self.store._write() as conn:
            info = self._table(conn, table_id)
            seat, name = self._speaker(conn, info)
            recent = [str(row[0]) for row in conn.execute(
                "SELECT said FROM table_chat WHERE table_id = ? AND claim = ? ORDER BY id DESC LIMIT ?",
                (info.table_id, self.claim, RATE_LINES))]
            if len(recent) >= RATE_LINES:
                oldest = _parsed(recent[-1])
                free_at = now if oldest is None else oldest + timedelta(seconds=RATE_SECONDS)
                if free_at > now:
                    raise ChatThrottledError(max(1, ceil((free_at - now).total_seconds())))
            after = 0
            if info.session_id is not None:
                after = int(conn.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE session_id = ?",
                                         (info.session_id,)).fetchone()[0])
            said = now.isoformat(timespec="microseconds")
            cursor = conn.execute(
                "INSERT INTO table_chat (table_id, session_id, after_seq, seat, claim, name, line, said)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (info.table_id, info.session_id, after, seat, self.claim, name, line, said),
            )
            line_id = int(cursor.lastrowid or 0)
        return ChatLine(line_id, name, line, seat, self.claim, after, said)

    def _speaker(self, conn: sqlite3.Connection, info: TableInfo) -> tuple[int | None, str]:
        """This connection's seat (None: watching) and name at ``info``, or refuse it a voice."""
        held = info.seats_of(self.claim)
        if held:
            return held[0], info.seats[held[0]].name
        if info.host_claim == self.claim:
            return None, info.host_name
        for watcher in info.watchers:
            if watcher.claim == self.claim:
                if not info.spectator_chat:
                    raise ChatError(f"{info.host_name}, the host, has turned spectators' chat off.")
                return None, watcher.name
        raise ChatError(f"Only the players and spectators at table {info.code} can talk there.")

    def chat_since(self, table_id: int, after_id: int = 0) -> list[ChatLine]:
        """The readable lines said at table ``table_id`` after line ``after_id``, in order."""
        with self.store._read() as conn, lenient_text(conn):
            rows = conn.execute(f"SELECT {_COLUMNS} FROM table_chat WHERE table_id = ? AND id > ? ORDER BY id",
                                (table_id, after_id)).fetchall()
        return _lines(rows)

    def watch(self, code: str, name: str) -> TableInfo:
        """List this connection as watching the live table ``code`` under ``name``.

        Raises:
            TableNotFoundError: no live table has the code.
            TableError: the host allows no spectators, or an unusable name.
        """
        name = clean_name(name, "your name")
        with self.store._write() as conn:
            info = self._live(conn, code)
            if not info.allow_spectators:
                raise TableError(f"The host of table {info.code} allows no spectators.")
            conn.execute(
                "INSERT OR REPLACE INTO table_watchers (table_id, claim, name, since) VALUES (?, ?, ?, ?)",
                (info.table_id, self.claim, name, self._now()),
            )
            return self._live(conn, code)

    def set_spectator_chat(self, code: str, allowed: bool) -> TableInfo:
        """Let spectators talk at table ``code``, or keep them quiet (host only).

        Raises:
            TableError: not the host, or no live table has the code.
        """
        with self.store._write() as conn:
            info = self._hosted(conn, code)
            conn.execute("UPDATE tables SET spectator_chat = ?, updated = ? WHERE id = ?",
                         (int(allowed), self._now(), info.table_id))
            return self._live(conn, code)


def _parsed(text: str) -> datetime | None:
    """A stored time, or None when it does not read as one (a damaged row never blocks anyone)."""
    try:
        return parse_time(text)
    except (ValueError, TypeError):
        return None
