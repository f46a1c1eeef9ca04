"""Random and bot play of whole games, with deterministic replay."""

from __future__ import annotations

import json
import random
from pathlib import Path

from engine import state_digest
from engine.wizards_cup.bots import normal_bot, simulate_round
from saves import LiveSession, SeatInfo, SessionStore, export_session, import_session
from tests.helpers.wizards_cup_helpers import RULES, SPEC, Log, play_random_game


def assert_every_state_round_trips(seed: int, log: Log) -> None:
    """Each state of the game survives JSON and plays on exactly like the original."""
    state = SPEC.new_state({}, seed, 2, ["Ana", "Bo"])
    for seat, action in log:
        restored = RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state))))
        assert state_digest(RULES, restored) == state_digest(RULES, state)
        state, events = RULES.apply(state, seat, action)
        restored, restored_events = RULES.apply(restored, seat, action)
        assert state_digest(RULES, restored) == state_digest(RULES, state)
        assert [e.to_json() for e in restored_events] == [e.to_json() for e in events]


def test_250_random_games_finish_and_round_trip_through_export_and_import(tmp_path: Path) -> None:
    rng = random.Random(2026)
    store = SessionStore(tmp_path / "games.sqlite3")
    seats = [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")]
    finished = 0
    for seed in range(250):
        state, log = play_random_game(seed, rng)
        assert RULES.result(state) is not None
        assert_every_state_round_trips(seed, log)
        session_id = store.create_session("wizards-cup", {"tokens_to_win": 2}, seed, seats, log=log)
        path = export_session(store, session_id, tmp_path / f"game-{seed}.json")
        imported = LiveSession.load(store, import_session(store, path))
        assert imported.digest == state_digest(RULES, state)
        assert imported.finished
        finished += 1
    assert finished == 250


def test_same_seed_and_log_give_identical_state_and_seed_matters() -> None:
    state, log = play_random_game(77, random.Random(1))
    again = RULES.replay({}, 77, 2, log, ["Ana", "Bo"])
    assert state_digest(RULES, again) == state_digest(RULES, state)
    displayed = {tuple(p.displayed for p in SPEC.new_state({}, seed, 2).players) for seed in range(20)}
    assert len(displayed) > 1


def test_replaying_a_log_with_a_changed_action_names_the_entry() -> None:
    _, log = play_random_game(78, random.Random(2))
    index = next(i for i, (_, a) in enumerate(log) if a["type"] == "lineup")
    seat, action = log[index]
    log[index] = (seat, {"type": "lineup", "order": action["order"][:4]})
    try:
        RULES.replay({}, 78, 2, log)
    except ValueError as error:
        assert str(error).startswith(f"action {index + 1} is illegal:")
    else:
        raise AssertionError("a tampered log replayed")


def test_normal_bot_beats_random_lineups_more_often_than_not() -> None:
    rng = random.Random(3)
    state = SPEC.new_state({}, 4, 2)
    wins = 0
    for trial in range(6):
        # Give the bot a fixed team and the opponent a random one, then compare lineups.
        team = RULES.legal_actions(state, 0)[trial * 97]
        state1, _ = RULES.apply(state, 0, RULES.action_to_json(team))
        other = RULES.legal_actions(state1, 1)[trial * 131]
        state2, _ = RULES.apply(state1, 1, RULES.action_to_json(other))
        choice = normal_bot(RULES.view(state2, 0), RULES.legal_actions(state2, 0), rng)
        my_team = state2.players[0].team
        mine = (choice.order, next(c for c in my_team if c not in choice.order))  # type: ignore[union-attr]
        opponent_team = state2.players[1].team
        for _ in range(20):
            order = rng.sample(opponent_team, 6)
            wins += simulate_round(mine, (tuple(order[:5]), order[5]))
            random_mine = rng.sample(my_team, 6)
            wins -= simulate_round((tuple(random_mine[:5]), random_mine[5]), (tuple(order[:5]), order[5]))
    assert wins > 0


def test_bot_games_finish() -> None:
    rng = random.Random(8)
    state = SPEC.new_state({}, 12, 2, ["Norma", "Eddie"])
    bots = [SPEC.bots["normal"], SPEC.bots["easy"]]
    while RULES.result(state) is None:
        seats = RULES.to_act(state)
        if not seats:
            state, _ = RULES.apply(state, None, RULES.table_action(state))
            continue
        seat = seats[0]
        action = bots[seat](RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
        state, _ = RULES.apply(state, seat, action)
    assert RULES.result(state) is not None
