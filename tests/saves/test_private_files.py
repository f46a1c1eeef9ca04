"""Secrets at rest: the data folder is 0700 and every file Coven keeps in it 0600.

The database holds hidden picks, hands and seat-token hashes, so no other
local user may read it, its -wal and -shm, or the presence locks. Each test
runs under the usual umask 022, which would otherwise give 0755 and 0644.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from saves import LiveSession, Presence, SeatInfo, SessionStore, db_path
from saves.paths import make_private
from tests.helpers.waiting import until
from tui import cli
from tui.app import CovenApp

SEATS = [SeatInfo("Alice"), SeatInfo("Bob", "bot", "easy")]


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The umask most desktops use, so the tests see what a player's Coven would."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def play_a_little(store: SessionStore) -> None:
    """Write a session, so that SQLite has created its -wal and -shm files."""
    live = LiveSession.create(store, "wizards-cup", {}, 3, SEATS)
    assert live.session_id


def older_covens_folder(folder: Path) -> None:
    """What an older Coven left under umask 022: a 0755 folder with 0644 files, presence included."""
    folder.mkdir(parents=True)
    conn = sqlite3.connect(folder / "coven.sqlite3")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE scratch (x)")
    conn.commit()
    (folder / "presence").mkdir()
    (folder / "presence" / "0123456789abcdef.lock").write_text("")
    (folder / "serve.log").write_text("ana connected\n")
    (folder / "exports").mkdir()
    (folder / "exports" / "deck.txt").write_text("4 Ember Witch\n")
    assert (folder / "coven.sqlite3-wal").exists() and (folder / "coven.sqlite3-shm").exists()
    conn.close()  # the last connection's close may remove -wal and -shm; recreate them as an older Coven's
    for suffix in ("-wal", "-shm"):
        (folder / f"coven.sqlite3{suffix}").touch()
    for path in [folder, *folder.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)


def test_a_new_data_folder_and_every_file_in_it_are_private(coven_data_dir: Path) -> None:
    assert not coven_data_dir.exists()
    with SessionStore() as store, Presence() as presence:
        play_a_little(store)
        assert store.notice is None  # nothing was ever open, so nothing to say
        database = db_path()
        files = [database, Path(f"{database}-wal"), Path(f"{database}-shm"),
                 coven_data_dir / "presence" / f"{presence.claim}.lock"]
        for path in files:
            assert path.exists(), path
            assert mode(path) == 0o600, (path, oct(mode(path)))
        assert mode(coven_data_dir) == 0o700
        assert mode(coven_data_dir / "presence") == 0o700


def test_a_fresh_database_after_a_damaged_one_is_private_too(coven_data_dir: Path) -> None:
    coven_data_dir.mkdir(mode=0o700)
    db_path().write_bytes(b"not a database" * 100)
    os.chmod(db_path(), 0o644)
    with SessionStore() as store:
        assert store.moved_to is not None
        play_a_little(store)
        for suffix in ("", "-wal", "-shm"):
            assert mode(Path(f"{db_path()}{suffix}")) == 0o600, suffix


def test_an_older_covens_loose_folder_is_tightened_with_a_notice(coven_data_dir: Path) -> None:
    older_covens_folder(coven_data_dir)
    someone_elses = coven_data_dir / "notes.txt"  # COVEN_DATA_DIR may share a folder with other files
    someone_elses.write_text("mine")
    # A host key others could read may have been copied: `coven serve` refuses it rather than hide that.
    exposed_key = coven_data_dir / "ssh_host_ed25519_key"
    exposed_key.write_text("key")
    for path in (someone_elses, exposed_key):
        os.chmod(path, 0o644)
    with SessionStore() as store:
        assert store.folder_notice is not None and not store.folder_notice.exposed
        assert str(coven_data_dir) in str(store.folder_notice) and "now private to you" in str(store.folder_notice)
        assert "private" not in (store.notice or "")  # news about the folder is not a warning
        play_a_little(store)
    assert mode(coven_data_dir) == 0o700
    for name in ("presence", "exports"):
        assert mode(coven_data_dir / name) == 0o700
    for name in ("coven.sqlite3", "coven.sqlite3-wal", "coven.sqlite3-shm", "presence/0123456789abcdef.lock",
                 "serve.log", "exports/deck.txt"):
        path = coven_data_dir / name
        if path.exists():  # -wal and -shm go when the last connection closes
            assert mode(path) == 0o600, name
    assert mode(someone_elses) == 0o644  # not Coven's to change
    assert mode(exposed_key) == 0o644
    with SessionStore() as store:
        assert store.notice is None and store.folder_notice is None  # said once


def test_loose_files_behind_a_private_folder_are_fixed_quietly(coven_data_dir: Path) -> None:
    coven_data_dir.mkdir(mode=0o700)
    sqlite3.connect(db_path()).close()  # 0644 under umask 022, but nobody else could reach it
    assert mode(db_path()) == 0o644
    with SessionStore() as store:
        assert store.notice is None
    assert mode(db_path()) == 0o600


def test_a_folder_of_another_user_is_left_alone(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    if os.geteuid() == 0:
        os.chown(theirs, 4242, -1)
    else:
        theirs = Path("/tmp")  # root's
    before = mode(theirs)
    assert make_private(theirs) is None
    assert mode(theirs) == before


def test_a_shared_sticky_folder_is_left_alone(tmp_path: Path) -> None:
    """Such as /tmp, even for a Coven run as root with COVEN_DATA_DIR=/tmp."""
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)
    assert make_private(shared) is None
    assert mode(shared) == 0o1777


def test_links_are_not_followed_out_of_the_folder(coven_data_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not Coven's")
    os.chmod(outside, 0o644)
    coven_data_dir.mkdir(mode=0o755)
    (coven_data_dir / "serve.log").symlink_to(outside)
    assert make_private(coven_data_dir) is not None
    assert mode(coven_data_dir) == 0o700 and mode(outside) == 0o644


def test_the_command_line_says_the_folder_was_tightened(coven_data_dir: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    older_covens_folder(coven_data_dir)
    assert cli.main(["sessions"]) == 0
    err = capsys.readouterr().err
    assert "now private to you" in err and "Traceback" not in err
    assert mode(coven_data_dir) == 0o700 and mode(db_path()) == 0o600


def folder_toasts(app: CovenApp, directory: Path) -> list[tuple[str, str]]:
    """``(severity, message)`` of every toast that names the data folder."""
    return [(note.severity, str(note.message)) for note in app._notifications if str(directory) in str(note.message)]


def test_the_app_says_once_and_calmly_that_the_folder_was_made_private(coven_data_dir: Path) -> None:
    coven_data_dir.mkdir()  # made by the player or another tool, 0755 under umask 022
    assert mode(coven_data_dir) == 0o755
    told: list[list[tuple[str, str]]] = []

    async def start() -> None:
        app = CovenApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.screen.is_current, "the main menu")
            told.append(folder_toasts(app, coven_data_dir))

    asyncio.run(start())
    assert mode(coven_data_dir) == 0o700
    asyncio.run(start())  # the next start finds it private
    first, second = told
    assert len(first) == 1 and "now private to you" in first[0][1]
    assert first[0][0] == "information"  # news about something done, not a warning to act on
    assert second == []


def test_the_app_says_nothing_of_a_data_folder_it_made_itself(coven_data_dir: Path) -> None:
    assert not coven_data_dir.exists()

    async def start() -> None:
        app = CovenApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.screen.is_current, "the main menu")
            assert folder_toasts(app, coven_data_dir) == []

    asyncio.run(start())
    assert mode(coven_data_dir) == 0o700
