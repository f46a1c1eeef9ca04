"""Export and import: round trips, and every kind of bad file refused cleanly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_game import next_action

from engine import GameSpec
from saves import LiveSession, SeatInfo, SessionFileError, SessionStore, export_session, import_session
from saves.transfer import FORMAT, FORMAT_VERSION

SEATS = [SeatInfo("Alice"), SeatInfo("Bob", "bot", "hard")]


@pytest.fixture
def store() -> Iterator[SessionStore]:
    with SessionStore() as opened:
        yield opened


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
        (lambda d: d.update(version=2), "newer Coven (format version 2"),
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
