"""Many processes, one database: Coven never touches SQLite's files, tells who has them open, and notices loss.

The defect these guard against: POSIX locks belong to a process, so a Coven
that opened and closed the database's ``-shm`` (to ask whether it was in use)
or the database itself (to make it private) dropped its own connection's
locks; the next process to quit then deleted the ``-wal`` and ``-shm`` that
the first still wrote into.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from saves import LiveSession, SeatInfo, SessionStore, StoreError, db_path
from saves.checkup import in_use, move_aside
from saves.sharing import StoreHold, StoreInUseError, lock_path, sole_use

ROOT = Path(__file__).resolve().parents[2]
PROBE = ROOT / "tests" / "helpers" / "store_files_probe.py"
BOUND = 60.0

_HOLDER = """
import sys
from saves import LiveSession, SeatInfo, SessionStore
store = SessionStore()
live = LiveSession.create(store, "witchdraft", None, 3, [SeatInfo("Ana"), SeatInfo("Bea")])
print(live.session_id, flush=True)
for line in sys.stdin:
    if line.strip() == "move":
        seat = live.to_act[0]
        try:
            live.apply(seat, live.rules.legal_actions(live.state, seat)[0])
        except Exception as error:
            print(f"failed {type(error).__name__}: {error}", flush=True)
            continue
        print(f"saved {len(live.log)}", flush=True)
    elif line.strip() == "close":
        store.close()
        print("closed", flush=True)
"""


class Holder:
    """Another Coven process with the store open, playing a move whenever asked."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", _HOLDER], cwd=ROOT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.session_id = int(self._line())

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the holding process ended early"
        return line.strip()

    def say(self, command: str) -> str:
        """Send one command; its answer."""
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self._line()

    def deleted_files(self) -> list[str]:
        """The database files this process has open that are no longer in the folder."""
        folder = Path(f"/proc/{self.process.pid}/fd")
        targets = []
        for fd in folder.iterdir():
            try:
                targets.append(os.readlink(fd))
            except OSError:
                continue
        return [target for target in targets if "coven.sqlite3" in target and target.endswith(" (deleted)")]

    def stop(self) -> None:
        """End the process (closing stdin ends it cleanly)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=BOUND)


@pytest.fixture
def holder(coven_data_dir: Path) -> Iterator[Holder]:
    """A second Coven with the database open."""
    with SessionStore():
        pass  # the database exists before the holder starts, as after a first run of Coven
    other = Holder()
    try:
        yield other
    finally:
        other.stop()


def _coven(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.cli", *argv], cwd=ROOT, text=True, capture_output=True,
                          timeout=BOUND, env=os.environ.copy())


def _probe(extra: dict[str, str] | None = None) -> dict[str, object]:
    env = {**os.environ, **(extra or {})}
    done = subprocess.run([sys.executable, str(PROBE)], cwd=ROOT, text=True, capture_output=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def test_commands_beside_a_running_coven_leave_its_journal_in_place(holder: Holder) -> None:
    """The issue's repro: `coven sessions` (and the other reading commands) beside an open Coven."""
    assert holder.say("move") == "saved 1"
    for argv in (["sessions"], ["doctor"], ["settings", "list"], ["settings", "--account", "x", "list"],
                 ["deck", "list"], ["doctor", "--move-aside"]):
        done = _coven(*argv)
        assert "Traceback" not in done.stderr, done.stderr
        assert holder.deleted_files() == [], argv
        assert holder.say("move").startswith("saved"), argv
    assert (db_path().parent / "coven.sqlite3-wal").exists()
    holder.process.kill()
    holder.process.wait(timeout=BOUND)
    with SessionStore() as fresh:
        assert fresh.log_length(holder.session_id) == 7  # every move the killed process was told was saved


def test_no_command_touches_the_database_files_of_a_process_that_has_it_open(coven_data_dir: Path) -> None:
    """Every store-opening command, run in a process with a store open, opens none of its files (an audit hook)."""
    report = _probe()
    assert report["touches"] == []
    results = report["results"]
    assert isinstance(results, list)
    for result in results:
        argv, code, text = result["argv"], result["code"], result["text"]
        named = next((word for word in argv if "coven.sqlite3" in word), None)
        if named is None:
            assert code == 0, (argv, text)
        else:
            assert code != 0, (argv, text)
            assert "Traceback" not in text
            if os.path.exists(named) or named.endswith(("coven.sqlite3", "-wal", "-shm")) and "export" in argv:
                assert "part of Coven's session database" in text, (argv, text)
    # Every move between the commands was saved where a fresh process reads it.
    with SessionStore() as fresh:
        session = report["session"]
        assert isinstance(session, int)
        assert fresh.log_length(session) == report["moves"]
        assert len(fresh.list_sessions()) == 2  # the game and its import; nothing replaced by an export


def test_the_audit_hook_sees_a_touch(coven_data_dir: Path) -> None:
    """What Coven once did (open and close the -shm) is reported: the check above can fail."""
    report = _probe({"COVEN_PROBE_TOUCH": "1"})
    touches = report["touches"]
    assert isinstance(touches, list) and any("coven.sqlite3-shm" in touch for touch in touches)


_ALLOWED_LOCKERS = {"saves/sharing.py", "saves/presence.py"}
"""The only modules that lock files: Coven's own lock file, and presence claims. Neither is SQLite's."""


def test_only_the_sharing_module_locks_files() -> None:
    """No other module calls fcntl's lock functions, so no new path can unlock SQLite's byte ranges."""
    offenders = []
    for folder in ("engine", "saves", "tui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                        and node.value.id == "fcntl" and node.attr in {"lockf", "flock"}
                        and relative not in _ALLOWED_LOCKERS):
                    offenders.append(f"{relative}:{node.lineno}")
    assert offenders == []


def test_in_use_sees_other_processes_only(holder: Holder) -> None:
    assert in_use(db_path())
    with pytest.raises(StoreInUseError, match="in use by another Coven"):
        move_aside(db_path())
    assert db_path().exists()
    holder.say("close")
    assert not in_use(db_path())
    with SessionStore():  # this process's own store does not count: POSIX locks of a process never conflict
        assert not in_use(db_path())


def test_a_store_waits_while_another_process_moves_the_database(coven_data_dir: Path) -> None:
    """sole_use keeps new stores out until it is done; one that waits too long says why."""
    with SessionStore():
        pass
    script = ("import sys, saves.sharing as s, pathlib\n"
              f"with s.sole_use(pathlib.Path({str(db_path())!r})):\n"
              "    print('alone', flush=True); sys.stdin.readline()\n")
    mover = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert mover.stdout is not None and mover.stdout.readline() == "alone\n"
        with pytest.raises(StoreError, match="moving .* aside"):
            SessionStore(timeout=0.2)
        assert mover.stdin is not None
        mover.stdin.write("\n")
        mover.stdin.flush()
        assert mover.wait(timeout=BOUND) == 0
    finally:
        if mover.poll() is None:
            mover.kill()
            mover.wait(timeout=BOUND)
    with SessionStore(timeout=BOUND) as store:
        assert store.list_sessions() == []


def test_the_hold_is_released_with_the_last_store_and_the_lock_file_is_private(coven_data_dir: Path) -> None:
    first, second = SessionStore(), SessionStore()
    assert (lock_path(db_path()).stat().st_mode & 0o777) == 0o600
    first.close()
    with sole_use(db_path()):  # this process alone: allowed, and the second store keeps its hold after
        pass
    second.close()
    second.close()  # twice is safe
    hold = StoreHold(db_path(), 1.0)
    hold.release()
    hold.release()


_LOSER = """
import os, sys
from saves import LiveSession, SeatInfo, SessionStore, StoreError
store = SessionStore()
live = LiveSession.create(store, "witchdraft", None, 3, [SeatInfo("Ana"), SeatInfo("Bea")])
def move():
    seat = live.to_act[0]
    live.apply(seat, live.rules.legal_actions(live.state, seat)[0])
move()
print(live.session_id, len(live.log), flush=True)
assert store.checkpoint()  # the other process folds the log into the database, then removes it:
for suffix in sys.argv[1].split(","):  # what an older Coven's last close did to this one
    os.unlink(str(store.path) + suffix)
messages = []
for _ in range(2):
    try:
        move()
        messages.append("saved")
    except StoreError as error:
        messages.append(str(error))
try:
    store.create_session("witchdraft", live.options, 4, live.seats)
    messages.append("saved")
except StoreError as error:
    messages.append(str(error))
print(len(live.log), flush=True)
for message in messages:
    print(message, flush=True)
store.close()
print("closed", flush=True)
"""


@pytest.mark.parametrize("removed", ["-wal,-shm", "-wal", ""])
def test_a_journal_unlinked_under_a_coven_stops_its_saving(coven_data_dir: Path, removed: str) -> None:
    """It says why, the move is not counted as saved, and closing never folds the lost log into the database."""
    with SessionStore():
        pass
    if not removed:  # the database itself moved away (renamed) under it
        script = _LOSER.replace("os.unlink(str(store.path) + suffix)",
                                "os.rename(store.path, str(store.path) + '.moved'); break")
    else:
        script = _LOSER
    done = subprocess.run([sys.executable, "-c", script, removed], cwd=ROOT, text=True, capture_output=True,
                          timeout=BOUND)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    session_id, saved = (int(word) for word in lines[0].split())
    assert int(lines[1]) == saved  # neither later move counts as saved
    for message in lines[2:4]:  # a game's move: held unsaved, the reason in words, the game waits
        assert message.startswith("Not saved: another program removed Coven's save files"), message
        assert "quit Coven and start it again" in message
    assert "Coven stopped saving" in lines[4] and "removed or replaced by another program" in lines[4]
    assert "Quit Coven and start it again" in lines[4]
    assert lines[5] == "closed"
    if removed:
        with SessionStore() as fresh:
            assert fresh.log_length(session_id) == saved
            assert fresh.load(session_id).log[-1].seq == saved


def test_a_checkpoint_that_empties_the_log_is_not_taken_for_loss(coven_data_dir: Path) -> None:
    """The -wal truncated to 0 bytes is still the same file: a healthy store writes on."""
    with SessionStore() as store:
        live = LiveSession.create(store, "witchdraft", None, 3, [SeatInfo("Ana"), SeatInfo("Bea")])
        for _ in range(5):
            seat = live.to_act[0]
            live.apply(seat, live.rules.legal_actions(live.state, seat)[0])
            assert store.checkpoint()
        assert len(live.log) == 5


def test_another_name_for_the_database_is_refused_and_a_new_file_beside_it_is_not(coven_data_dir: Path) -> None:
    from engine.core.textfile import TextFileError, read_text_file, write_text_file

    with SessionStore():
        link = coven_data_dir.parent / "innocent.txt"
        os.link(db_path(), link)
        with pytest.raises(TextFileError, match="part of Coven's session database"):
            read_text_file(link, 10_000_000, "a deck list")
        with pytest.raises(TextFileError, match="part of Coven's session database"):
            write_text_file(link, "text", overwrite=True)
        with pytest.raises(TextFileError, match="part of Coven's session database"):
            write_text_file(Path(f"{db_path()}-journal"), "text")  # not there now, and never made by hand
        beside = coven_data_dir / "notes.txt"
        write_text_file(beside, "kept")
        assert read_text_file(beside, 100, "notes") == "kept"


def test_a_schema_another_coven_makes_while_this_one_looks_is_not_taken_for_a_foreign_file(
    coven_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two Covens start on a new folder at once: one commits the schema between the other's first two reads.

    Read apart, the second saw "version 0" and then the first one's tables, took the file for another
    program's and tried to move it aside from under the first ("in use by another Coven").
    """
    import sqlite3

    from saves.schema import MIGRATIONS

    coven_data_dir.mkdir(parents=True, mode=0o700)
    maker = sqlite3.connect(db_path(), isolation_level=None)  # the other Coven, half-way through creating it
    maker.execute("PRAGMA journal_mode=WAL")
    maker.execute("BEGIN IMMEDIATE")
    for statement in MIGRATIONS[0]:
        maker.execute(statement)
    maker.execute("PRAGMA user_version = 1")
    real_connect = sqlite3.connect

    def connect(*args: object, **kwargs: object) -> sqlite3.Connection:
        conn = real_connect(*args, **kwargs)  # type: ignore[call-overload]

        def between_reads(statement: str) -> None:
            if "quick_check" in statement and maker.in_transaction:
                maker.execute("COMMIT")  # right after this Coven read the version, before it looks at tables

        conn.set_trace_callback(between_reads)
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    with SessionStore() as store:
        assert store.moved_to is None and store.notice is None
        monkeypatch.undo()
        assert not maker.in_transaction  # the commit did land between the reads
        live = LiveSession.create(store, "witchdraft", None, 3, [SeatInfo("Ana"), SeatInfo("Bea")])
        assert store.log_length(live.session_id) == 0
    maker.close()
    assert not [path for path in coven_data_dir.iterdir() if ".corrupt-" in path.name]


def test_a_negative_schema_number_is_damage_not_a_crash(coven_data_dir: Path) -> None:
    """A flipped top bit of the header's schema number: moved aside on opening, named by the doctor."""
    import sqlite3

    from saves.checkup import examine

    with SessionStore():
        pass
    conn = sqlite3.connect(db_path())
    conn.execute("PRAGMA user_version = -2147483640")
    conn.close()
    assert any("no Coven writes" in problem for problem in examine(db_path()).problems)
    with SessionStore() as store:
        assert store.moved_to is not None and store.list_sessions() == []
