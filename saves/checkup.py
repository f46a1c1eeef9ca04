"""``coven doctor``'s checks: everything Coven can find wrong with a session database, in words.

Opening the store runs only SQLite's ``quick_check``; a full
``integrity_check`` reads every page and compares every index with its table,
which is too slow for every start on a large file. :func:`examine` runs it on
request, with Coven's own checks: the schema as Coven wrote it, every session's
rows and log, and whether each log still replays. It only reads (through a
read-only connection) and never moves or changes anything; :func:`move_aside`
does that when asked.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from engine import get_game
from engine.core import UnknownGameError
from engine.core.words import plural
from saves import sharing
from saves.errors import DamagedSessionError, StoreError
from saves.integrity import DamagedSession, lenient_text, read_record
from saves.preferences import UnreadablePreference, unreadable_preferences
from saves.read_only import read_only_uri
from saves.records import SessionRecord
from saves.schema import MIGRATIONS, SCHEMA_VERSION, is_damage
from saves.schema import move_aside as _move_aside
from saves.store_listing import list_entries
from saves.table_chat import damaged_chat_rows

_SHOWN_LINES = 10
"""How many of ``integrity_check``'s lines a report quotes."""


@dataclass
class Checkup:
    """What :func:`examine` found.

    Attributes:
        path: The database file.
        problems: Each problem found, as a sentence; empty when healthy.
        checked: What was checked and found sound, as sentences.
        damaged_sessions: The sessions that cannot be opened, each with its reason.
        unreadable_preferences: Stored preferences (settings among them) whose value cannot
            be read, so Coven uses the default in their place.
        newer: The file was written by a newer Coven; it was not checked.
    """

    path: Path
    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    damaged_sessions: list[DamagedSession] = field(default_factory=list)
    unreadable_preferences: list[UnreadablePreference] = field(default_factory=list)
    newer: bool = False

    @property
    def exists(self) -> bool:
        """Whether there is a file at :attr:`path`."""
        return self.path.exists()

    @property
    def healthy(self) -> bool:
        """True when nothing is wrong."""
        return not self.problems and not self.damaged_sessions and not self.unreadable_preferences and not self.newer


def examine(path: Path, *, timeout: float = 5.0) -> Checkup:
    """Check the database at ``path`` without changing it.

    Returns:
        The findings; a missing file is healthy (there is nothing to lose).
    """
    checkup = Checkup(path)
    if not path.exists():
        return checkup
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=timeout)  # a read-only folder too
    except sqlite3.Error as error:
        checkup.problems.append(f"SQLite cannot open it: {error}.")
        return checkup
    try:
        with lenient_text(conn):
            _examine(conn, checkup)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
        if not is_damage(error):
            raise StoreError(f"Could not check {path}: {error}") from None
        reason = "its own error message is not readable text" if isinstance(error, UnicodeDecodeError) else error
        checkup.problems.append(f"SQLite cannot read it: {reason}.")
    finally:
        conn.close()
    return checkup


def _examine(conn: sqlite3.Connection, checkup: Checkup) -> None:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        checkup.newer = True
        checkup.problems.append(
            f"It was written by a newer Coven (schema {version}; this Coven knows up to {SCHEMA_VERSION}), "
            "so this Coven cannot check it. It is not damaged for that."
        )
        return
    if version < 0:
        checkup.problems.append(f"Its schema number is {version}, which no Coven writes: its header is damaged.")
        return
    lines = [str(row[0]) for row in conn.execute("PRAGMA integrity_check")]
    if lines == ["ok"]:
        checkup.checked.append("SQLite's full integrity check (every page, every index against its table) is clean.")
    else:
        more = f" (and {len(lines) - _SHOWN_LINES} more)" if len(lines) > _SHOWN_LINES else ""
        checkup.problems.append(
            f"SQLite's full integrity check found {len(lines)} problem{'s' if len(lines) != 1 else ''}{more}: "
            + "; ".join(lines[:_SHOWN_LINES]) + "."
        )
    if version == 0:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1").fetchone():
            checkup.problems.append("It is not a Coven database: it holds another program's tables.")
        return
    schema = _schema_problems(conn, version)
    checkup.problems.extend(schema)
    if schema:
        return  # the sessions cannot be read through a schema that is not Coven's
    checkup.checked.append(f"The schema is the one Coven writes (version {version}).")
    orphans = conn.execute("PRAGMA foreign_key_check").fetchall()
    if orphans:
        tables = sorted({str(row[0]) for row in orphans})
        rows, belong = plural(len(orphans), "row"), "belongs" if len(orphans) == 1 else "belong"
        checkup.problems.append(f"{rows} of {', '.join(tables)} {belong} to no session or table.")
    if version >= 6:
        _examine_chat(conn, checkup)
    if version >= 4:
        _examine_preferences(conn, checkup)
    _examine_sessions(conn, checkup)


def _examine_preferences(conn: sqlite3.Connection, checkup: Checkup) -> None:
    """Preferences whose value cannot be read; the doctor names each (the app, its own player's settings)."""
    checkup.unreadable_preferences = unreadable_preferences(conn)
    if not checkup.unreadable_preferences:
        checkup.checked.append("Every stored setting and preference reads as it should.")


def _examine_chat(conn: sqlite3.Connection, checkup: Checkup) -> None:
    """Table talk rows Coven would never write; they are left out wherever lines are shown."""
    damaged = damaged_chat_rows(conn)
    if not damaged:
        return
    first_id, reason = damaged[0]
    which = f"line {first_id}" if first_id is not None else "the first"
    lines, are = plural(len(damaged), "table chat line"), "is" if len(damaged) == 1 else "are"
    checkup.problems.append(f"{lines} {are} damaged and left out where chat is shown ({which}: {reason}).")


def _schema_problems(conn: sqlite3.Connection, version: int) -> list[str]:
    """How the stored schema differs from what Coven's migrations up to ``version`` write."""
    expected = _expected_schema(version)
    stored = {
        str(name): (str(kind), sql)
        for kind, name, sql in conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    }
    problems = []
    for name, (kind, sql) in expected.items():
        if name not in stored:
            problems.append(f"The {kind} {name} is missing.")
            continue
        found_kind, found = stored[name]
        if found_kind != kind or not isinstance(found, str) or not _same_or_extended(found, sql):
            problems.append(f"The {kind} {name} is not defined as Coven defines it.")
    return problems


def _same_or_extended(found: str, expected: str) -> bool:
    # Columns added later (ALTER TABLE ... ADD COLUMN) are appended before the closing parenthesis.
    return found == expected or (found.startswith(expected[:-1]) and found.endswith(")") and expected.endswith(")"))


def _expected_schema(version: int) -> dict[str, tuple[str, str]]:
    conn = sqlite3.connect(":memory:")
    try:
        for statements in MIGRATIONS[:version]:
            for statement in statements:
                conn.execute(statement)
        return {
            str(name): (str(kind), str(sql))
            for kind, name, sql in conn.execute(
                "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND sql IS NOT NULL"
            )
        }
    finally:
        conn.close()


def _examine_sessions(conn: sqlite3.Connection, checkup: Checkup) -> None:
    """Every session's rows and log (as the store reads them), and whether each log still replays."""
    conn.execute("BEGIN")
    try:
        entries = list_entries(conn)
        sound = 0
        for entry in entries:
            if isinstance(entry, DamagedSession):
                checkup.damaged_sessions.append(entry)
                continue
            try:
                record = read_record(conn, entry.session_id)
            except DamagedSessionError as error:
                checkup.damaged_sessions.append(DamagedSession(entry.session_id, error.reason, entry.game_id))
                continue
            problem = _replay_problem(record)
            if problem is not None:
                checkup.damaged_sessions.append(DamagedSession(entry.session_id, problem, entry.game_id))
                continue
            sound += 1
    finally:
        conn.execute("ROLLBACK")
    checkup.checked.append(f"Saved sessions that read and replay as they should: {sound} of {len(entries)}.")


def _replay_problem(record: SessionRecord) -> str | None:
    try:
        spec = get_game(record.game_id)
    except UnknownGameError:
        return None  # another Coven's game, not damage: this one just cannot show it
    if record.rules_version > spec.rules.rules_version:
        return None  # a newer Coven's rulings, not damage either
    try:
        names = [seat.name for seat in record.seats]
        moves = [(entry.seat, entry.action) for entry in record.log]
        spec.rules.replay(spec.resolve_options(record.options), record.seed, len(record.seats), moves, names,
                          record.rules_version)
    except (ValueError, TypeError, LookupError, AttributeError, RecursionError) as error:
        return f"its log no longer replays: {error or type(error).__name__}"
    return None


def move_aside(path: Path) -> Path:
    """Move the database at ``path`` (with its -wal, -shm and -journal) aside; never delete it.

    Returns:
        Where it went.

    Raises:
        StoreError: another Coven has it open (moving it would pull it from under that
            Coven's feet), or it could not be moved.
    """
    return _move_aside(path)


def in_use(path: Path) -> bool:
    """True when another process (another Coven) has the database at ``path`` open.

    Told by Coven's own lock file (:mod:`saves.sharing`); the database's own
    files are never opened or locked here, so asking cannot drop SQLite's locks.
    """
    return sharing.in_use(path)
