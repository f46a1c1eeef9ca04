"""LiveSession: play, save-before-show, resume after a crash, replay stepping."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from engine import GameSpec, IllegalActionError, MalformedActionError, register, state_digest
from engine.core import InvalidOptionsError, UnknownGameError
from saves import LiveSession, LogConflictError, SeatInfo, SessionLoadError, SessionStore
from tests.helpers.fake_game import Add, next_action

SEATS = [SeatInfo("Alice"), SeatInfo("Bob", "bot", "easy")]
REPO = Path(__file__).resolve().parents[2]


def play(session: LiveSession, steps: int) -> None:
    for _ in range(steps):
        seat, action = next_action(session.spec, session.state)
        session.apply(seat, action)


def test_create_apply_and_load(fake_spec: GameSpec) -> None:
    store = SessionStore()
    session = LiveSession.create(store, "count-to-ten", {}, 7, SEATS)
    assert session.options == {"target": 10}
    assert session.to_act == (0,)
    events = session.apply(0, Add(2))
    assert events[0].text == "Alice adds 2; the total is 2."
    play(session, 2)  # the third move leaves a table step waiting
    assert not session.to_act
    assert session.table_action is not None
    session.play_table()
    assert session.log[-1].seat is None
    resumed = LiveSession.load(store, session.session_id)
    assert resumed.digest == session.digest
    assert resumed.log == session.log
    assert store.list_sessions()[0].progress == session.progress
    store.close()


def test_rejected_action_stores_nothing(fake_spec: GameSpec) -> None:
    store = SessionStore()
    session = LiveSession.create(store, "count-to-ten", {}, 7, SEATS)
    before = session.digest
    with pytest.raises(IllegalActionError, match="only 1 or 2"):
        session.apply(0, Add(3))
    with pytest.raises(IllegalActionError, match="not to act"):
        session.apply(1, Add(1))
    with pytest.raises(MalformedActionError):  # malformed JSON is refused where it is read, before any apply
        session.apply(0, session.rules.parse_action({"jump": 1}))
    assert session.digest == before
    assert session.log == ()
    assert store.load(session.session_id).log == ()
    store.close()


def test_finished_game_updates_status(fake_spec: GameSpec) -> None:
    store = SessionStore()
    session = LiveSession.create(store, "count-to-ten", {}, 3, SEATS)
    while not session.finished:
        play(session, 1)
    summary = store.list_sessions()[0]
    assert summary.status == "finished"
    assert summary.result == "Bob won. The total reached 10."
    assert store.latest_unfinished() is None
    store.close()


def test_bad_create_arguments(fake_spec: GameSpec) -> None:
    with SessionStore() as store:
        with pytest.raises(UnknownGameError):
            LiveSession.create(store, "no-such-game", {}, 1, SEATS)
        with pytest.raises(InvalidOptionsError):
            LiveSession.create(store, "count-to-ten", {"target": 11}, 1, SEATS)
        with pytest.raises(InvalidOptionsError):
            LiveSession.create(store, "count-to-ten", {}, 1, SEATS[:1])
        assert store.list_sessions() == []


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (
            [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "godlike")],
            "seat 2 (Merlin) has unknown bot level 'godlike'; Count to Ten has easy, hard",
        ),
        ([SeatInfo("Merlin", "bot"), SeatInfo("Ana")], "seat 1 (Merlin) is a bot with no level; Count to Ten has easy, hard"),
    ],
)
def test_unknown_bot_level_is_refused(fake_spec: GameSpec, seats: list[SeatInfo], message: str) -> None:
    with SessionStore() as store:
        with pytest.raises(InvalidOptionsError) as caught:
            LiveSession.create(store, "count-to-ten", {}, 1, seats)
        assert str(caught.value) == message
        assert store.list_sessions() == []


def test_bot_seat_in_a_game_without_bots_is_refused(fake_spec: GameSpec) -> None:
    register(replace(fake_spec, bots={}))
    with SessionStore() as store:
        with pytest.raises(InvalidOptionsError, match="seat 2 \\(Bob\\) has unknown bot level 'easy'; Count to Ten has no bots"):
            LiveSession.create(store, "count-to-ten", {}, 1, SEATS)
        LiveSession.create(store, "count-to-ten", {}, 1, [SeatInfo("Ann"), SeatInfo("Bob")])
        assert len(store.list_sessions()) == 1


def test_wizards_cup_bot_levels_are_checked() -> None:
    from engine import get_game

    spec = get_game("wizards-cup")
    with SessionStore() as store:
        with pytest.raises(InvalidOptionsError) as caught:
            LiveSession.create(store, "wizards-cup", None, 1, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "godlike")])
        assert str(caught.value) == (
            f"seat 2 (Merlin) has unknown bot level 'godlike'; {spec.title} has {', '.join(spec.bot_levels)}"
        )
        level = spec.bot_levels[0]
        LiveSession.create(store, "wizards-cup", None, 1, [SeatInfo("Ana"), SeatInfo("Merlin", "bot", level)])


def test_two_processes_cannot_fork(fake_spec: GameSpec) -> None:
    first_store, second_store = SessionStore(), SessionStore()
    first = LiveSession.create(first_store, "count-to-ten", {}, 1, SEATS)
    second = LiveSession.load(second_store, first.session_id)
    first.apply(0, Add(1))
    before = second.digest
    with pytest.raises(LogConflictError):
        second.apply(0, Add(2))
    assert second.digest == before and second.log == ()
    assert [e.action for e in LiveSession.load(second_store, first.session_id).log] == [{"add": 1}]
    first_store.close()
    second_store.close()


def test_unknown_game_or_broken_log_is_a_load_error(fake_spec: GameSpec) -> None:
    with SessionStore() as store:
        orphan = store.create_session("vanished-game", {}, 1, SEATS)
        with pytest.raises(SessionLoadError, match="does not know"):
            LiveSession.load(store, orphan)
        broken = store.create_session("count-to-ten", {"target": 10}, 1, SEATS, log=[(0, {"add": 1}), (0, {"add": 1})])
        with pytest.raises(SessionLoadError, match="action 2 is illegal: seat 1 is not to act now"):
            LiveSession.load(store, broken)


def test_history_has_each_step_of_a_played_and_of_a_loaded_session(fake_spec: GameSpec) -> None:
    store = SessionStore()
    session = LiveSession.create(store, "count-to-ten", {"target": 1000}, 11, SEATS)
    play(session, 80)
    rules = session.rules
    opening = fake_spec.new_state({"target": 1000}, 11, 2, ["Alice", "Bob"])
    for live in (session, LiveSession.load(store, session.session_id)):
        history = live.history()
        assert len(history) == 81 and history[0].events == ()
        assert state_digest(rules, history[0].state) == state_digest(rules, opening)
        assert history[-1].state is live.state
        for n in (1, 4, 33, 64, 80):  # each step agrees with a fresh replay
            expected = rules.replay(live.options, 11, 2, [(e.seat, e.action) for e in live.log[:n]], ["Alice", "Bob"])
            assert state_digest(rules, history[n].state) == state_digest(rules, expected)
        assert history[1].events[0].text == "Alice adds 1; the total is 1."
        table_step = next(e.seq for e in live.log if e.seat is None)
        assert history[table_step].events[0].kind == "count" and "table" in history[table_step].events[0].text
    events = session.apply(*next_action(session.spec, session.state))
    assert len(history) == 81  # a history already read does not change...
    assert session.history()[-1] == (session.state, tuple(events))  # ...a new one has the new step
    store.close()


CHILD = textwrap.dedent(
    """
    import time
    from engine import register
    from tests.helpers.fake_game import SPEC, next_action
    from saves import LiveSession, SeatInfo, SessionStore

    register(SPEC)
    store = SessionStore()
    session = LiveSession.create(store, "count-to-ten", {"target": 1000}, 5, [SeatInfo("A"), SeatInfo("B")])
    print("session", session.session_id, flush=True)
    while True:
        seat, action = next_action(SPEC, session.state)
        session.apply(seat, action)
        # Printed only after apply() returned, i.e. after the commit.
        print("saved", len(session.log), flush=True)
        time.sleep(0.02)
    """
)


def test_killed_process_resumes_at_last_saved_action(fake_spec: GameSpec, tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = dict(os.environ, PYTHONPATH=str(REPO))  # Coven and tests.helpers
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdout is not None
    lines: list[list[str]] = []
    try:
        while len(lines) < 7:
            line = child.stdout.readline()
            assert line, "child exited early"
            lines.append(line.split())
    finally:
        child.send_signal(signal.SIGKILL)
        rest, _ = child.communicate(timeout=60)
    assert child.returncode == -signal.SIGKILL
    lines += [line.split() for line in rest.splitlines()]
    session_id = int(lines[0][1])
    last_printed = int(lines[-1][1])
    assert last_printed >= 6
    with SessionStore() as store:
        resumed = LiveSession.load(store, session_id)
        # It may have committed one more action without living to print it.
        assert len(resumed.log) in (last_printed, last_printed + 1)
        assert [e.seq for e in resumed.log] == list(range(1, len(resumed.log) + 1))
        fresh = fake_spec.rules.replay(
            resumed.options, 5, 2, [(e.seat, e.action) for e in resumed.log], ["A", "B"]
        )
        assert resumed.digest == state_digest(fake_spec.rules, fresh)
        # And play continues from there.
        play(resumed, 3)
        assert len(LiveSession.load(store, session_id).log) == len(resumed.log)
