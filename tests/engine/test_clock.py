"""The Fischer clock's rules, driven by a fake time (plain numbers): nothing here sleeps or reads wall time."""

from __future__ import annotations

import json

import pytest

from engine.core.clock import PRESETS, Fischer, TableClock, clock_text, time_words

FIVE_TEN = Fischer(5, 10)


def started(fischer: Fischer = FIVE_TEN, asked: tuple[int, ...] = (0,), now: float = 1000.0) -> TableClock:
    clock = TableClock(fischer, since=now)
    clock.follow(0, asked, [], now)
    return clock


def test_only_the_asked_seat_runs_and_a_move_adds_the_increment() -> None:
    clock = started()
    assert clock.left_at(0, 1030.0) == 270.0
    assert clock.left_at(1, 1030.0) == 300.0  # not asked: its time stands
    clock.follow(1, [1], [(1, 0)], 1030.0)  # seat 0 moved after 30 s
    assert clock.left_at(0, 1100.0) == 280.0  # 300 - 30 + 10, and no longer running
    assert clock.left_at(1, 1100.0) == 230.0
    assert clock.marks[-1].seq == 1 and clock.marks[-1].seat == 0 and clock.marks[-1].left == 280.0


def test_simultaneous_choices_run_every_asked_seat_and_each_mover_gets_its_own_increment() -> None:
    clock = started(asked=(0, 1, 2))
    clock.follow(1, [1, 2], [(1, 0)], 1020.0)
    assert clock.left_at(0, 1050.0) == 290.0
    assert clock.left_at(1, 1050.0) == 250.0 and clock.left_at(2, 1050.0) == 250.0
    clock.follow(3, [0], [(2, 2), (3, 1)], 1060.0)
    assert clock.left_at(1, 1060.0) == 250.0 and clock.left_at(2, 1060.0) == 250.0


def test_a_caller_behind_the_clock_changes_nothing() -> None:
    clock = started()
    clock.follow(2, [1], [(1, 0), (2, 0)], 1010.0)
    assert not clock.follow(1, [0], [(1, 0)], 1020.0)  # a process that has not caught up
    assert clock.running() == {1}


def test_curtain_and_dropped_seat_stop_the_clock() -> None:
    clock = started()
    clock.stop_for(curtain=True, now=1010.0)
    assert clock.left_at(0, 1500.0) == 290.0
    clock.stop_for(curtain=False, now=1500.0)
    clock.stop_for(dropped=True, now=1520.0)
    assert clock.left_at(0, 2000.0) == 270.0
    clock.stop_for(dropped=False, now=2000.0)
    assert clock.left_at(0, 2005.0) == 265.0


def test_double_time_doubles_base_and_increment() -> None:
    clock = TableClock(Fischer(3, 2), asks={1: "double"}, since=0.0)
    clock.follow(0, [0, 1], [], 0.0)
    assert clock.left_at(0, 0.0) == 180.0 and clock.left_at(1, 0.0) == 360.0
    clock.follow(1, [0], [(1, 1)], 60.0)
    assert clock.left_at(1, 60.0) == 360.0 - 60.0 + 4.0


def test_double_time_asked_mid_game_adds_one_base() -> None:
    clock = started()
    clock.set_ask(0, "double", 1100.0)
    assert clock.left_at(0, 1100.0) == 200.0 + 300.0


def test_no_clock_never_runs_out() -> None:
    clock = TableClock(Fischer(3, 2), asks={0: "none"}, since=0.0)
    clock.follow(0, [0, 1], [], 0.0)
    assert clock.running() == {1}
    assert clock.out_of_time(10_000.0) == [1]
    clock.follow(1, [0], [(1, 0)], 10.0)
    assert clock.marks == []  # nothing to record for a seat without a clock


def test_running_out_then_hand_over_and_take_back() -> None:
    clock = started(fischer=Fischer(3, 2))
    assert clock.out_of_time(1179.0) == []
    assert clock.out_of_time(1180.0) == [0]
    clock.take_off(0, 1181.0)
    assert clock.running() == set() and clock.out_of_time(5000.0) == []
    clock.put_back(0, 5000.0)
    assert clock.left_at(0, 5000.0) == 60.0 and clock.out_of_time(5060.0) == [0]


def test_a_stored_clock_reads_back_and_bad_data_is_refused() -> None:
    clock = started()
    clock.set_ask(1, "none", 1000.0)
    clock.follow(1, [1], [(1, 0)], 1030.0)
    again = TableClock.from_json(json.loads(json.dumps(clock.to_json())), 2)
    assert again.to_json() == clock.to_json()
    for broken in ({**clock.to_json(), "asks": {"7": "none"}}, {**clock.to_json(), "left": {"0": "x"}},
                   {**clock.to_json(), "base": 0}, {**clock.to_json(), "curtain": 1}, [], {"base": True}):
        with pytest.raises(ValueError):
            TableClock.from_json(broken, 2)


def test_presets_and_words() -> None:
    assert [preset.label for preset in PRESETS] == ["5+10", "10+5", "3+2"]
    assert clock_text(245.2) == "4:06" and clock_text(-3) == "0:00"
    assert time_words(65) == "1 minute 5 seconds" and time_words(0) == "no time"
    with pytest.raises(ValueError):
        Fischer(0, 5)
