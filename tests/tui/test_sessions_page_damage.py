"""The Sessions screen over damaged pages: never a traceback, never "No saved sessions yet" while sessions exist.

An index entry ``quick_check`` passes but SQLite cannot decode, an index page
it fails (the file is moved aside), a sessions table SQLite cannot read, and
seeded single-bit flips in the pages behind the list. The flips run against
the store's listing (what the screen shows), and a few of them, those that
used to fail among them, through the screen itself.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from saves import DamagedSession, DamagedSessionError, SeatInfo, SessionStore, StoreError, db_path
from saves.store_listing import DamagedListError
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.sessions_listing import (
    EMPTY_SERVED_TEXT,
    EMPTY_TEXT,
    MOVED_ASIDE_SERVED_TEXT,
    MOVED_ASIDE_TEXT,
    UNREADABLE_TEXT,
    read_listing,
)

MOVES = (2, 3, 4)
"""The moves of each test session: nine log entries, so every table and index of the list fits one page."""

LISTING = ("sessions", "seats", "actions", "sqlite_autoindex_actions_1", "sqlite_autoindex_seats_1",
           "sessions_by_updated")
"""The tables and indexes the sessions list reads (with page 1, the file's header and the schema's root)."""

FLIPS = 200
ON_SCREEN = 5
SEED = 22
SCREEN_ORDER = ("moved aside", "list damaged", "damaged", "refused", "intact")
"""Which outcomes of the flips are shown on the screen first, after two that used to fail."""


def _few_sessions(path: Path | None = None) -> list[int]:
    """Three sessions of two seats, with :data:`MOVES` moves each; their ids."""
    seats = [SeatInfo("Ana"), SeatInfo("Bot Bea", "bot", "easy")]
    with SessionStore(path) as store:
        return [store.create_session("count-to-ten", {"target": 10}, seed, seats,
                                     log=[(seq % 2, {"add": 1}) for seq in range(moves)])
                for seed, moves in enumerate(MOVES, start=1)]


def _layout(path: Path) -> tuple[int, dict[str, int]]:
    """The page size and each b-tree's root page, read while no store is open."""
    conn = sqlite3.connect(path)
    try:
        size = int(conn.execute("PRAGMA page_size").fetchone()[0])
        return size, {str(name): int(root) for name, root in conn.execute(
            "SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0")}
    finally:
        conn.close()


def _used_offsets(data: bytes, page: int, size: int) -> list[int]:
    """Where in the file a b-tree page keeps its header, cell pointers and cells (not the free space between)."""
    start = (page - 1) * size
    header = start + (100 if page == 1 else 0)  # page 1 begins with the file's own header
    cells = int.from_bytes(data[header + 3:header + 5], "big")
    content = int.from_bytes(data[header + 5:header + 7], "big") or 65536
    pointers = header + (8 if data[header] in (10, 13) else 12) + 2 * cells
    return [*range(start, pointers), *range(start + content, start + size)]


def _checks(path: Path) -> tuple[str, str]:
    """SQLite's quick and full integrity checks' first lines."""
    conn = sqlite3.connect(path)
    try:
        return (str(conn.execute("PRAGMA quick_check").fetchone()[0]),
                str(conn.execute("PRAGMA integrity_check").fetchone()[0]))
    finally:
        conn.close()


def _break_index_entry(position: int) -> None:
    """Make the log index's ``position``-th entry claim a record header longer than the record.

    The page itself stays well formed, so ``quick_check`` (which never decodes
    an index's entries) passes and nothing is moved aside, but a scan of the
    whole index fails with "database disk image is malformed".
    """
    size, roots = _layout(db_path())
    data = bytearray(db_path().read_bytes())
    start = (roots["sqlite_autoindex_actions_1"] - 1) * size
    assert data[start] == 10 and int.from_bytes(data[start + 3:start + 5], "big") == sum(MOVES)  # one leaf
    cell = start + int.from_bytes(data[start + 8 + 2 * position:start + 10 + 2 * position], "big")
    data[cell + 1] = 0x7F  # after the one-byte payload size: the record's header size
    db_path().write_bytes(bytes(data))
    quick, full = _checks(db_path())
    assert quick == "ok" and full != "ok"


async def _open_sessions(pilot: Pilot[None], app: CovenApp) -> None:
    await until(pilot, lambda: type(app.screen).__name__ == "MainMenu", "the main menu")
    await pilot.press("s")
    await until(pilot, lambda: type(app.screen).__name__ == "SessionsScreen", "the Sessions screen")


def _rows(app: CovenApp) -> dict[int, dict[str, str]]:
    """The Sessions table's rows by session id, each cell by its column's label."""
    table = app.screen.query_one(DataTable)
    labels = [str(column.label) for column in table.ordered_columns]
    rows = [dict(zip(labels, map(str, table.get_row_at(index)), strict=True)) for index in range(table.row_count)]
    return {int(row["ID"]): row for row in rows} if table.display else {}


def _in_place_of_the_table(app: CovenApp) -> str:
    line = app.screen.query_one("#sessions-empty", Static)
    return str(line.render()) if line.display else ""


# -- one kind of damage at a time -------------------------------------------------------


async def test_an_index_entry_sqlite_cannot_read_names_the_session_it_belongs_to() -> None:
    first, second, last = _few_sessions()
    _break_index_entry(position=sum(MOVES[:-1]))  # the last session's first move
    with SessionStore() as store:
        assert store.moved_to is None
        entries = {entry.session_id: entry for entry in store.list_sessions()}
        damaged = entries[last]
        assert isinstance(damaged, DamagedSession) and "index of its log" in damaged.reason
        with pytest.raises(DamagedSessionError, match="index of its log"):
            store.load(last)
        assert [len(store.load(session_id).log) for session_id in (first, second)] == list(MOVES[:2])
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_sessions(pilot, app)
        rows = _rows(app)
        assert _in_place_of_the_table(app) == ""  # before: "No saved sessions yet"
        assert [rows[session_id]["Status"] for session_id in (first, second, last)] == \
            ["in progress", "in progress", "damaged"]
        app.screen.query_one(DataTable).move_cursor(row=list(rows).index(last))
        await until(pilot, lambda: f"Session {last} is damaged"
                    in str(app.screen.query_one("#session-detail", Static).render()), "the damaged session's detail")
        detail = str(app.screen.query_one("#session-detail", Static).render())
        assert f"Session {last} is damaged and cannot be opened: the index of its log" in detail
        assert "coven doctor" in detail


async def test_an_index_page_quick_check_fails_is_moved_aside_and_the_screen_says_so() -> None:
    _few_sessions()
    size, roots = _layout(db_path())
    data = bytearray(db_path().read_bytes())
    page = roots["sessions_by_updated"]
    data[(page - 1) * size:page * size] = b"\xff" * size
    db_path().write_bytes(bytes(data))
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_sessions(pilot, app)
        assert app.store is not None and app.store.moved_to is not None
        assert app.store.moved_to.read_bytes() == bytes(data)  # kept as it was, never deleted
        said = _in_place_of_the_table(app)
        assert said.startswith("Your saved sessions are damaged") and str(app.store.moved_to) in said
        assert "No saved sessions" not in said


async def test_a_sessions_table_sqlite_cannot_read_says_the_list_is_damaged_and_names_the_doctor() -> None:
    _few_sessions()
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "MainMenu", "the main menu")
        # A broken program under a running Coven: the sessions table now starts on an index's page.
        other = sqlite3.connect(db_path(), isolation_level=None)
        other.execute("PRAGMA writable_schema = ON")
        version = int(other.execute("PRAGMA schema_version").fetchone()[0])
        other.execute("UPDATE sqlite_master SET rootpage = (SELECT rootpage FROM sqlite_master WHERE name ="
                      " 'sqlite_autoindex_seats_1') WHERE name = 'sessions'")
        other.execute(f"PRAGMA schema_version = {version + 1}")
        other.close()
        assert app.store is not None
        with pytest.raises(DamagedListError):
            app.store.list_sessions()
        await _open_sessions(pilot, app)
        said = _in_place_of_the_table(app)
        assert said.startswith("Your saved sessions are damaged") and "Run `coven doctor` to see what is wrong" in said
        assert "No saved sessions" not in said
        await pilot.press("enter")
        await until(pilot, lambda: (type(app.screen).__name__ == "SessionsScreen"),
                    'type(app.screen).__name__ == "SessionsScreen"')


def test_what_the_screen_says_in_place_of_the_table(tmp_path: Path) -> None:
    db_path().parent.mkdir(parents=True, exist_ok=True)
    db_path().write_bytes(b"not a database, " * 512)
    with SessionStore() as store:
        assert store.moved_to is not None
        entries, said = read_listing(store, None, served=False)
        assert entries == [] and said == MOVED_ASIDE_TEXT.format(moved_to=store.moved_to)
        _, served_said = read_listing(store, "ana", served=True)
        assert served_said == MOVED_ASIDE_SERVED_TEXT and str(tmp_path) not in served_said  # no server path over SSH
    _, closed_said = read_listing(store, None, served=False)  # a store that fails, not a damaged one
    assert closed_said == UNREADABLE_TEXT.format(error="The session store is closed.")
    with SessionStore(tmp_path / "fresh" / "coven.sqlite3") as fresh:
        assert read_listing(fresh, None, served=False) == ([], EMPTY_TEXT)  # only when it is so
        assert read_listing(fresh, "ana", served=True) == ([], EMPTY_SERVED_TEXT)


# -- seeded bit flips ---------------------------------------------------------------------


def _listing_outcome(path: Path, damaged_bytes: bytes) -> tuple[str, set[int]]:
    """Open and list the store at ``path`` as the screen does; the outcome, checked, and the damaged sessions.

    Outcomes: "refused" in words on opening, "moved aside", "list damaged",
    or a listing of every session: "intact", "damaged" (some named damaged)
    or "index" (some damaged by their log's index, which used to fail the list).
    """
    try:
        store = SessionStore(path)
    except StoreError as error:  # the schema number now reads as a newer Coven's, say
        assert str(error)
        return "refused", set()
    with store:
        try:
            entries = store.list_sessions()
        except DamagedListError as error:
            assert "coven doctor" in str(error)
            return "list damaged", set()
        if store.moved_to is not None:
            assert entries == [] and store.notice is not None and str(store.moved_to) in store.notice
            assert store.moved_to.read_bytes() == damaged_bytes
            return "moved aside", set()
        assert len(entries) == len(MOVES)
        damaged = {entry.session_id for entry in entries if isinstance(entry, DamagedSession)}
        for entry in entries:
            if isinstance(entry, DamagedSession):
                assert "coven doctor" in entry.message
                with pytest.raises(DamagedSessionError):
                    store.load(entry.session_id)  # the list and opening agree
            else:
                try:
                    store.load(entry.session_id)
                except DamagedSessionError:
                    pass  # a move's JSON: the list checks only the log's numbers
        if any("index" in entry.reason for entry in entries if isinstance(entry, DamagedSession)):
            return "index", damaged
        return ("damaged" if damaged else "intact"), damaged


async def test_seeded_bit_flips_list_the_sessions_or_say_they_are_damaged(tmp_path: Path) -> None:
    source = tmp_path / "source" / "coven.sqlite3"
    _few_sessions(source)
    size, roots = _layout(source)
    original = source.read_bytes()
    pages = [1, *(roots[name] for name in LISTING)]
    rng = random.Random(SEED)
    flips: list[tuple[bytes, str, set[int]]] = []
    for number in range(FLIPS):
        page = rng.choice(pages)
        offset = rng.choice(_used_offsets(original, page, size))
        flipped = bytearray(original)
        flipped[offset] ^= 1 << rng.randrange(8)
        path = tmp_path / f"flip-{number}" / "coven.sqlite3"
        path.parent.mkdir()
        path.write_bytes(bytes(flipped))
        flips.append((bytes(flipped), *_listing_outcome(path, bytes(flipped))))
    outcomes = [outcome for _, outcome, _ in flips]
    assert "index" in outcomes  # the damage that used to end in "No saved sessions yet" is in the sample
    # On the screen: two of those that used to fail, then the first flip of each other outcome.
    chosen = [number for number, kind in enumerate(outcomes) if kind == "index"][:2]
    chosen += [outcomes.index(kind) for kind in SCREEN_ORDER if kind in outcomes]
    for number in sorted(chosen[:ON_SCREEN]):
        data, outcome, damaged = flips[number]
        path = tmp_path / f"screen-{number}" / "coven.sqlite3"
        path.parent.mkdir()
        path.write_bytes(data)
        app = CovenApp(store_path=path)
        async with app.run_test(size=(80, 24)) as pilot:
            if outcome == "refused":
                assert app.store_problem
                continue
            await _open_sessions(pilot, app)
            rows, said = _rows(app), _in_place_of_the_table(app)
            assert "No saved sessions" not in said, (number, outcome)
            if outcome in ("moved aside", "list damaged"):
                assert said.startswith("Your saved sessions are damaged"), (number, said)
            else:
                assert len(rows) == len(MOVES) and said == ""
                assert {session_id for session_id, row in rows.items() if row["Status"] == "damaged"} == damaged
