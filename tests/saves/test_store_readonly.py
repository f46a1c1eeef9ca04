"""A data folder that cannot be written, and a full disk: what only reads works, what writes says why in words.

Read-only, faithfully: CI runs the tests as root, and root ignores permission bits, so a chmod would prove
nothing there. Each scenario runs in a child process with a mount namespace of its own (``unshare -m``, or
``unshare -rm`` for a user without root), in which the data folders are bind-mounted read-only: the kernel
refuses every write with EROFS, to root too, as on a read-only disk, and no other process sees the mount.
The child first checks that a new file there is refused, so no test can pass on a writable folder. The full
disk is real as well: a 1 MiB tmpfs mounted in the child's namespace and filled to its last byte. Where no
real disk is needed, SQLite's ``max_page_count`` stops the database growing: SQLite then fails with
SQLITE_FULL ("database or disk is full"), the very code and words it gives when the disk fills.

The child is this file run as a script (``python tests/saves/test_store_readonly.py SCENARIO JSON``): it runs
``coven`` commands in-process (or the app), then prints what happened as JSON on its last line.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # as a script: Coven itself and tests.helpers

import pytest  # noqa: E402

from saves import SeatInfo, SessionStore, export_session  # noqa: E402
from saves.errors import DataFolderError, DiskFullError  # noqa: E402
from saves.paths import data_dir  # noqa: E402
from saves.save_failures import DISK_FULL, FOLDER_READ_ONLY, failure_in_words, passing_reason  # noqa: E402
from saves.sharing import lock_path  # noqa: E402

SEATS = [SeatInfo("Ana"), SeatInfo("Bob", "bot", "easy")]
CHILD_BOUND = 180.0
"""Seconds before a child that hung is stopped (an end for a hang, not a speed requirement)."""


# -- the child ------------------------------------------------------------------------------------------------


def _refused_here(folder: str) -> bool:
    """True when the system refuses a new file in ``folder`` because its disk is read-only."""
    try:
        os.close(os.open(os.path.join(folder, "probe"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as error:
        return error.errno == errno.EROFS
    os.unlink(os.path.join(folder, "probe"))
    return False


def _commands(plan: list[tuple[str, list[str]]]) -> list[dict[str, Any]]:
    """Run each ``coven`` command line (with its data folder) in this process; what each printed and returned."""
    from tui.cli import main

    results = []
    for folder, argv in plan:
        os.environ["COVEN_DATA_DIR"] = folder
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        results.append({"argv": argv, "code": code, "out": out.getvalue(), "err": err.getvalue()})
    return results


def _fill(folder: Path) -> None:
    """Write a file in ``folder`` until its disk refuses another byte."""
    descriptor = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        while True:
            os.write(descriptor, b"\0" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(descriptor)


async def _in_the_app(folder: str) -> dict[str, Any]:
    """Start a game from the new-game form, then continue the saved one: what the form and the banner said."""
    from textual.widgets import Static

    from tests.helpers.waiting import until
    from tui.app import CovenApp
    from tui.games.base import GameTable
    from tui.screens.game.screen import GameScreen
    from tui.screens.menu import MainMenu
    from tui.screens.new_game import NewGameScreen
    from tui.widgets.save_banner import SaveBanner

    os.environ["COVEN_DATA_DIR"] = folder
    app = CovenApp(auto_delay=0.01)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen) and app.screen.is_mounted, "the form")
        await pilot.press("ctrl+s")

        def errors() -> Static:
            return app.screen.query_one("#form-errors", Static)

        await until(pilot, lambda: errors().display, "the form's problems")
        start = str(errors().render())
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu again")
        await pilot.press("c")

        await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.query(SaveBanner), "the game")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        shown = screen.query_one(SaveBanner)
        live = screen.live  # Ana chooses before the bot: her first move is the one that cannot be saved
        await until(pilot, lambda: 0 in live.to_act, "Ana's turn")
        screen.table.post_message(GameTable.ActionChosen(0, live.rules.legal_actions(live.state, 0)[0]))
        await until(pilot, lambda: shown.failing, "the save banner")
        return {"start": start, "banner": shown.reason, "banner_text": str(shown.render())}


def _child(scenario: str, given: dict[str, Any]) -> dict[str, Any]:
    if scenario == "crash":  # a Coven that ends without closing its store: the session is in the -wal alone
        os.environ["COVEN_DATA_DIR"] = given["folder"]
        SessionStore().create_session("wizards-cup", {}, 7, SEATS)
        print("{}", flush=True)
        os._exit(0)
    found: dict[str, Any] = {"refused": [_refused_here(folder) for folder in given.get("read_only", [])],
                             "files_refused": [not os.access(path, os.W_OK) for path in given.get("files", [])]}
    if scenario == "commands":
        found["results"] = _commands(given["plan"])
    elif scenario == "app":
        found.update(asyncio.run(_in_the_app(given["folder"])))
    elif scenario == "full":
        disk = Path(given["disk"])
        for name in ("closed", "open"):
            with SessionStore(disk / name / "coven.sqlite3") as store:
                store.create_session("wizards-cup", {}, 3, SEATS)
        with SessionStore(disk / "open" / "coven.sqlite3"):  # a Coven left open: its -shm stays, so writes fail
            _fill(disk)
            found["open"] = _commands([(str(disk / "open"), argv) for argv in given["on_the_full_disk"]])
            # The closed one has no -shm, and SQLite needs room to make it: there even opening fails.
            found["closed"] = _commands([(str(disk / "closed"), argv) for argv in given["on_the_full_disk"]])
            found["export"] = _commands([(given["roomy"], given["export"])])[0]
        found["left"] = sorted(os.listdir(disk))
    return found


# -- the tests ------------------------------------------------------------------------------------------------


def _run_child(scenario: str, given: dict[str, Any], mounts: str = "") -> dict[str, Any]:
    """Run this file as a child for ``scenario``; ``mounts`` (sh) runs first, as root of its own mount namespace."""
    command = [sys.executable, str(Path(__file__).resolve()), scenario, json.dumps(given)]
    if mounts:
        unshare = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]
        command = [*unshare, "sh", "-ec", f'{mounts}\nexec "$@"', "sh", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=CHILD_BOUND, check=False)
    assert done.returncode == 0, f"the child failed ({done.returncode}): {done.stderr[-3000:]}"
    return dict(json.loads(done.stdout.splitlines()[-1]))


def _read_only_mounts(*folders: Path) -> str:
    return "\n".join(f'mount --bind "{folder}" "{folder}"\nmount -o remount,bind,ro "{folder}"' for folder in folders)


def _saved_folder(folder: Path) -> Path:
    """A data folder with one saved session, closed as Coven closes it (no -wal or -shm left)."""
    with SessionStore(folder / "coven.sqlite3") as store:
        store.create_session("wizards-cup", {}, 5, SEATS)
    return folder


def _one_line(result: dict[str, Any]) -> str:
    lines = result["err"].strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result["err"], result
    return str(lines[0])


def test_in_a_read_only_folder_reading_works_and_writing_names_the_folder(tmp_path: Path) -> None:
    kept = _saved_folder(tmp_path / "kept")
    bare = _saved_folder(tmp_path / "bare")
    lock_path(bare / "coven.sqlite3").unlink()  # a copied folder: no lock file, and none can be made there
    crashed, unindexed, empty = tmp_path / "crashed", tmp_path / "unindexed", tmp_path / "empty"
    for folder in (crashed, unindexed):
        _run_child("crash", {"folder": str(folder)})
        assert (folder / "coven.sqlite3-wal").stat().st_size > 0 and (folder / "coven.sqlite3-shm").exists()
    (unindexed / "coven.sqlite3-shm").unlink()  # no process has it open
    empty.mkdir(mode=0o700)
    lone = _saved_folder(tmp_path / "lone")  # only the database file is read-only; its folder is not
    lone_file = lone / "coven.sqlite3"
    lost = _saved_folder(tmp_path / "lost")  # a table Coven makes again where it can write
    with contextlib.closing(sqlite3.connect(lost / "coven.sqlite3")) as conn:
        conn.execute("DROP TABLE preferences")
        conn.commit()
    out = tmp_path / "out"
    out.mkdir()
    deck = out / "deck.txt"
    assert subprocess.run([sys.executable, "-m", "tui.cli", "deck", "export-starter", "ember-dawn", str(deck)],
                          cwd=Path(__file__).resolve().parents[2], capture_output=True, check=False).returncode == 0
    before = sorted(os.listdir(kept))
    plan = [(str(kept), ["sessions"]), (str(kept), ["settings", "list"]), (str(kept), ["doctor"]),
            (str(kept), ["export", "1", str(out / "kept.json")]), (str(kept), ["deck", "list"]),
            (str(kept), ["settings", "set", "glyphs", "on"]), (str(kept), ["deck", "save", "mine", str(deck)]),
            (str(kept), ["import", str(out / "kept.json")]),
            (str(bare), ["sessions"]), (str(bare), ["doctor"]),
            (str(crashed), ["sessions"]), (str(crashed), ["export", "1", str(out / "crashed.json")]),
            (str(unindexed), ["sessions"]),
            (str(empty), ["sessions"]), (str(empty), ["settings", "set", "glyphs", "on"]), (str(empty), ["doctor"]),
            (str(lone), ["sessions"]), (str(lone), ["settings", "set", "glyphs", "on"]),
            (str(lost), ["settings", "list"])]
    folders = (kept, bare, crashed, unindexed, empty, lost)
    found = _run_child("commands", {"plan": plan, "read_only": [str(f) for f in folders], "files": [str(lone_file)]},
                       _read_only_mounts(*folders, lone_file))
    assert found["refused"] == [True] * 6 and found["files_refused"] == [True], "each really is on a read-only mount"
    results = found["results"]
    sessions, settings, doctor, export, decks = results[:5]
    assert sessions["code"] == 0 and "Ana, Bob" in sessions["out"] and sessions["err"] == ""
    assert settings["code"] == 0 and "glyphs" in settings["out"] and settings["err"] == ""
    assert doctor["code"] == 0 and "Nothing is wrong with your saves." in doctor["out"], doctor
    assert export["code"] == 0 and json.loads((out / "kept.json").read_text())["game"] == "wizards-cup"
    assert decks["code"] == 0 and "No saved decks yet" in decks["out"]
    refusal = f"Coven's data folder {kept} cannot be written, so nothing was saved."
    for result in results[5:8]:  # settings set, deck save, import
        assert result["code"] == 1 and refusal in _one_line(result), result
        assert "readonly" not in result["err"] and "unable to open" not in result["err"]
    assert sorted(os.listdir(kept)) == before
    bare_sessions, bare_doctor = results[8:10]
    assert bare_sessions["code"] == 0 and "Ana, Bob" in bare_sessions["out"]
    assert bare_doctor["code"] == 0 and "Nothing is wrong" in bare_doctor["out"]
    assert not lock_path(bare / "coven.sqlite3").exists()
    crashed_sessions, crashed_export, unindexed_sessions = results[10:13]
    assert crashed_sessions["code"] == 0 and "Ana, Bob" in crashed_sessions["out"], "the -wal's session is read"
    assert crashed_export["code"] == 0 and json.loads((out / "crashed.json").read_text())["seed"] == 7
    assert unindexed_sessions["code"] == 1 and "coven.sqlite3-shm, which is missing" in _one_line(unindexed_sessions)
    empty_sessions, empty_set, empty_doctor, lone_sessions, lone_set, lost_settings = results[13:]
    assert empty_sessions["code"] == 0 and "No saved sessions yet" in empty_sessions["out"]
    assert empty_set["code"] == 1 and f"Coven's data folder {empty} cannot be written" in _one_line(empty_set)
    assert empty_doctor["code"] == 0 and "no session database yet" in empty_doctor["out"]
    assert os.listdir(empty) == []
    assert lone_sessions["code"] == 0 and "Ana, Bob" in lone_sessions["out"]
    assert lone_set["code"] == 1 and f"The session database {lone_file} is read-only, so nothing was saved." in \
        _one_line(lone_set)
    assert lost_settings["code"] == 0 and "glyphs" in lost_settings["out"] and lost_settings["err"] == ""


def test_the_app_in_a_read_only_folder_says_so_when_a_game_starts_and_in_the_save_banner(tmp_path: Path) -> None:
    folder = _saved_folder(tmp_path / "data")
    found = _run_child("app", {"folder": str(folder), "read_only": [str(folder)]}, _read_only_mounts(folder))
    assert found["refused"] == [True]
    assert found["start"].startswith(f"Could not start the game: Coven's data folder {folder} cannot be written")
    assert found["banner"] == FOLDER_READ_ONLY
    assert f"Saving is failing: {FOLDER_READ_ONLY}" in found["banner_text"] and str(folder) not in found["banner_text"]


def test_a_full_disk_is_named_as_full_by_every_command_that_writes(tmp_path: Path) -> None:
    disk, roomy = tmp_path / "disk", _saved_folder(tmp_path / "roomy")
    disk.mkdir()
    session_file = tmp_path / "session.json"
    with SessionStore(roomy / "coven.sqlite3") as store:
        export_session(store, 1, session_file)
    given = {"disk": str(disk), "roomy": str(roomy), "export": ["export", "1", str(disk / "out.json")],
             "on_the_full_disk": [["settings", "set", "glyphs", "on"], ["import", str(session_file)]]}
    found = _run_child("full", given, f'mount -t tmpfs -o size=1m,mode=0700 coven-full "{disk}"')
    for name, outcome in (("open", "nothing was saved"), ("closed", "Coven cannot open its session database")):
        for result in found[name]:
            line = _one_line(result)
            assert result["code"] == 1 and f"The disk holding {disk / name} is full, so {outcome}." in line, result
            assert "disk I/O error" not in line and "database or disk is full" not in line
    export = found["export"]
    assert export["code"] == 1 and f"Could not write {disk / 'out.json'}: the disk holding {disk} is full." in \
        _one_line(export)
    assert found["left"] == ["closed", "filler", "open"], "no half-written export is left behind"
    assert not any(disk.iterdir()), "the tmpfs was the child's alone"


def test_a_database_that_cannot_grow_says_the_disk_is_full_and_keeps_nothing(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        assert store._conn is not None
        pages = int(store._conn.execute("PRAGMA page_count").fetchone()[0])
        store._conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLite now fails as on a full disk
        with pytest.raises(DiskFullError) as raised:
            store.create_session("wizards-cup", {}, 1, SEATS, log=[(0, {"pad": "x" * 500})] * 200)
        assert str(raised.value).startswith(f"The disk holding {coven_data_dir} is full, so nothing was saved.")
        assert passing_reason(raised.value) == DISK_FULL
        assert store.list_sessions() == []
        store._conn.execute(f"PRAGMA max_page_count = {pages * 1000}")
        store.create_session("wizards-cup", {}, 1, SEATS, log=[(0, {"pad": "x" * 500})] * 200)


def test_sqlites_read_only_words_stay_where_the_folder_can_be_written(tmp_path: Path) -> None:
    """A refusal that is not the folder's (here a connection opened read-only) is not blamed on the folder."""
    path = _saved_folder(tmp_path / "data") / "coven.sqlite3"
    reader = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as refused:
        reader.execute("DELETE FROM sessions")
    reader.close()
    assert "readonly" in str(refused.value) and failure_in_words(refused.value, path) is None


def test_a_data_folder_that_cannot_be_made_is_said_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("COVEN_DATA_DIR", str(tmp_path / "a-file" / "coven"))
    with pytest.raises(DataFolderError, match="does not exist and cannot be made"):
        data_dir()
    assert main(["sessions"]) == 1
    assert "coven: Coven's data folder" in capsys.readouterr().err


if __name__ == "__main__":
    print(json.dumps(_child(sys.argv[1], json.loads(sys.argv[2]))))
