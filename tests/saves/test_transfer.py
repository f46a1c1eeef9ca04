"""Export and import: round trips, and every kind of bad file refused cleanly."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine import GameSpec, register
from engine.core import textfile
from saves import LiveSession, SeatInfo, SessionFileError, SessionStore, export_session, import_session, transfer
from saves.transfer import FORMAT, FORMAT_VERSION, read_session_file
from tests.helpers.fake_game import next_action

SEATS = [SeatInfo("Alice"), SeatInfo("Bob", "bot", "hard")]


@pytest.fixture
def exported(fake_spec: GameSpec, store: SessionStore, tmp_path: Path) -> tuple[LiveSession, Path]:
    session = LiveSession.create(store, "count-to-ten", {"target": 15}, 21, SEATS)
    for _ in range(12):
        seat, action = next_action(session.spec, session.state)
        session.apply(seat, action)
    path = tmp_path / "game.json"
    export_session(store, session.session_id, path)
    return session, path


def rewrite(path: Path, change: Any) -> None:
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def test_export_format(exported: tuple[LiveSession, Path]) -> None:
    session, path = exported
    document = json.loads(path.read_text())
    assert document["format"] == FORMAT and document["version"] == FORMAT_VERSION
    assert document["game"] == "count-to-ten"
    assert document["options"] == {"target": 15}
    assert document["seed"] == 21
    assert document["seats"] == [
        {"name": "Alice", "kind": "human", "bot_level": None},
        {"name": "Bob", "kind": "bot", "bot_level": "hard"},
    ]
    assert len(document["log"]) == 12
    assert any(entry["seat"] is None for entry in document["log"])
    assert not list(path.parent.glob(".game.json.*"))  # no temp file left behind


def test_round_trip_gives_same_state(exported: tuple[LiveSession, Path], store: SessionStore) -> None:
    session, path = exported
    new_id = import_session(store, path)
    assert new_id != session.session_id
    imported = LiveSession.load(store, new_id)
    assert imported.digest == session.digest
    assert imported.seats == session.seats
    assert [(e.seat, e.action) for e in imported.log] == [(e.seat, e.action) for e in session.log]
    summary = next(s for s in store.list_sessions() if s.session_id == new_id)
    assert summary.status == "active" and summary.progress == session.progress


def test_finished_import_is_finished(fake_spec: GameSpec, store: SessionStore, tmp_path: Path) -> None:
    session = LiveSession.create(store, "count-to-ten", {}, 3, SEATS)
    while not session.finished:
        seat, action = next_action(session.spec, session.state)
        session.apply(seat, action)
    path = tmp_path / "done.json"
    export_session(store, session.session_id, path)
    rewrite(path, lambda d: d.update(status="active", result=None))  # stored status is not trusted
    record = store.load(import_session(store, path))
    assert record.status == "finished"
    assert record.result == "Bob won. The total reached 10."


def assert_refused(store: SessionStore, path: Path, message: str) -> None:
    before = store.list_sessions()
    with pytest.raises(SessionFileError) as caught:
        import_session(store, path)
    assert message in str(caught.value)
    assert store.list_sessions() == before


def test_tampered_action_names_its_position(exported: tuple[LiveSession, Path], store: SessionStore) -> None:
    _, path = exported
    document = json.loads(path.read_text())
    index = next(i for i, e in enumerate(document["log"]) if e["seat"] is not None and i > 4)
    document["log"][index]["action"] = {"add": 3}
    path.write_text(json.dumps(document))
    assert_refused(store, path, f"action {index + 1} is illegal: you may add only 1 or 2")


def test_swapped_seat_is_illegal(exported: tuple[LiveSession, Path], store: SessionStore) -> None:
    _, path = exported
    rewrite(path, lambda d: d["log"][1].update(seat=0))
    assert_refused(store, path, "action 2 is illegal: seat 1 is not to act now")


def test_changed_table_step_is_illegal(exported: tuple[LiveSession, Path], store: SessionStore) -> None:
    _, path = exported
    document = json.loads(path.read_text())
    index = next(i for i, e in enumerate(document["log"]) if e["seat"] is None)
    document["log"][index]["action"] = {"bump": 5}
    path.write_text(json.dumps(document))
    assert_refused(store, path, f"action {index + 1} is illegal")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="something-else"), "not a Coven session file"),
        (lambda d: d.update(version=FORMAT_VERSION + 1), f"newer Coven (format version {FORMAT_VERSION + 1}"),
        (lambda d: d.update(version="1"), "format version is missing"),
        (lambda d: d.update(version=True), "format version is missing"),
        (lambda d: d.update(game="chess"), "'chess', which this Coven does not know"),
        (lambda d: d.update(options={"target": 11}), "options are invalid"),
        (lambda d: d.update(options={"speed": 1}), "unknown option 'speed'"),
        (lambda d: d.update(seed="21"), "\"seed\""),
        (lambda d: d.update(seed=2**70), "\"seed\""),
        (lambda d: d["seats"].pop(), "played with 2 seats, but the file has 1"),
        (lambda d: d["seats"][1].update(kind="alien"), "Seat 2 is invalid"),
        (lambda d: d["seats"][0].update(name=""), "Seat 1 is invalid"),
        (lambda d: d["seats"][0].update(bot_level="hard"), "Seat 1 is invalid"),
        (
            lambda d: d["seats"][1].update(bot_level="godlike"),
            "Seat 2 (Bob) has unknown bot level 'godlike'; Count to Ten has easy, hard",
        ),
        (
            lambda d: d["seats"][1].update(bot_level=None),
            "Seat 2 (Bob) is a bot with no level; Count to Ten has easy, hard",
        ),
        (
            lambda d: d["seats"][0].update(kind="bot", bot_level="Easy"),
            "Seat 1 (Alice) has unknown bot level 'Easy'",
        ),
        (lambda d: d.update(log={}), "\"log\" must be a list"),
        (lambda d: d["log"].__setitem__(2, [0, {"add": 1}]), "Action 3 is malformed"),
        (lambda d: d["log"][3].update(seat=5), "Action 4 names seat 5"),
        (lambda d: d["log"][0].update(action={"fly": 1}), "action 1 is illegal: unknown action 'fly'"),
    ],
)
def test_invalid_files_write_nothing(
    exported: tuple[LiveSession, Path], store: SessionStore, change: Any, message: str
) -> None:
    _, path = exported
    rewrite(path, change)
    assert_refused(store, path, message)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "not valid JSON (line 1"),
        (b"[1, 2, 3]", "expected a JSON object"),
        (b"\xff\xfe\x00garbage", "not a text file"),
        (b'{"format": "coven-session", "seed": NaN}', "not valid JSON"),
    ],
)
def test_unreadable_files(fake_spec: GameSpec, store: SessionStore, tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert_refused(store, path, message)


def test_missing_file(store: SessionStore, tmp_path: Path) -> None:
    assert_refused(store, tmp_path / "absent.json", "Could not read")


def test_export_to_unwritable_place(exported: tuple[LiveSession, Path], store: SessionStore, tmp_path: Path) -> None:
    session, _ = exported
    with pytest.raises(SessionFileError, match="Could not write"):
        export_session(store, session.session_id, tmp_path / "no-such-dir" / "x.json")


def test_import_refuses_bot_seats_of_a_game_without_bots(
    exported: tuple[LiveSession, Path], store: SessionStore, fake_spec: GameSpec
) -> None:
    _, path = exported
    register(replace(fake_spec, bots={}))
    assert_refused(store, path, "Seat 2 (Bob) has unknown bot level 'hard'; Count to Ten has no bots")


def test_export_refuses_an_existing_file(exported: tuple[LiveSession, Path], store: SessionStore) -> None:
    session, path = exported
    before = path.read_bytes()
    with pytest.raises(SessionFileError) as caught:
        export_session(store, session.session_id, path)
    assert str(caught.value) == f"{path} already exists; choose another name or allow replacing it."
    assert path.read_bytes() == before
    assert not list(path.parent.glob(".game.json.*"))
    session.apply(*next_action(session.spec, session.state))
    assert export_session(store, session.session_id, path, overwrite=True) == path
    assert len(json.loads(path.read_text())["log"]) == 13
    assert not list(path.parent.glob(".game.json.*"))


def test_export_refuses_a_dangling_symlink(exported: tuple[LiveSession, Path], store: SessionStore, tmp_path: Path) -> None:
    session, _ = exported
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(SessionFileError, match="already exists"):
        export_session(store, session.session_id, link)
    assert link.is_symlink() and not (tmp_path / "elsewhere.json").exists()


def test_export_does_not_replace_a_file_created_meanwhile(
    exported: tuple[LiveSession, Path], store: SessionStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, _ = exported
    target = tmp_path / "racy.json"
    real_mkstemp = textfile.tempfile.mkstemp

    def mkstemp_then_someone_writes(*args: Any, **kwargs: Any) -> tuple[int, str]:
        result = real_mkstemp(*args, **kwargs)
        target.write_text("theirs")  # another program wins the name after our check
        return result

    monkeypatch.setattr(textfile.tempfile, "mkstemp", mkstemp_then_someone_writes)
    with pytest.raises(SessionFileError, match="already exists"):
        export_session(store, session.session_id, target)
    assert target.read_text() == "theirs"
    assert not list(tmp_path.glob(".racy.json.*"))


def call_with_deadline(function: Callable[[], object], unblock: Callable[[], None], seconds: float = 60.0) -> object:
    """Run ``function`` in a thread; if it blocks, call ``unblock`` and fail instead of hanging."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(function())
        except BaseException as error:  # noqa: BLE001 - handed back to the test
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        unblock()
        worker.join(seconds)
        pytest.fail("the call blocked instead of refusing")
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_fifo_is_refused_without_blocking(fake_spec: GameSpec, store: SessionStore, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def unblock() -> None:
        # Opening the write end releases a reader stuck in open(); closing it gives EOF.
        with open(fifo, "wb"):
            pass

    before = store.list_sessions()
    outcome = call_with_deadline(lambda: import_session(store, fifo), unblock)
    assert isinstance(outcome, SessionFileError)
    assert str(outcome) == f"{fifo} is not a regular file."
    assert store.list_sessions() == before


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/null"])
def test_devices_are_refused(store: SessionStore, special: str) -> None:
    if not os.path.exists(special):
        pytest.skip(f"no {special}")
    with pytest.raises(SessionFileError, match="is not a regular file"):
        read_session_file(special)


def test_directory_is_refused(store: SessionStore, tmp_path: Path) -> None:
    assert_refused(store, tmp_path, "is not a regular file")


def test_size_limit(exported: tuple[LiveSession, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _, path = exported
    size = path.stat().st_size
    monkeypatch.setattr(transfer, "MAX_FILE_BYTES", size)
    assert read_session_file(path)["format"] == FORMAT  # exactly at the limit is fine
    monkeypatch.setattr(transfer, "MAX_FILE_BYTES", size - 1)
    with pytest.raises(SessionFileError, match="too large"):
        read_session_file(path)


def test_file_growing_past_the_limit_is_not_read_whole(
    exported: tuple[LiveSession, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, path = exported
    size = path.stat().st_size
    monkeypatch.setattr(transfer, "MAX_FILE_BYTES", size)
    real_stat = os.stat

    def stat_before_growth(target: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        result = real_stat(target, *args, **kwargs)
        if isinstance(target, (str, os.PathLike)) and Path(target) == path:
            with path.open("ab") as file:  # the file grows between the size check and the read
                file.write(b" " * 10)
        return result

    monkeypatch.setattr(transfer.os, "stat", stat_before_growth)
    with pytest.raises(SessionFileError, match="too large"):
        read_session_file(path)
