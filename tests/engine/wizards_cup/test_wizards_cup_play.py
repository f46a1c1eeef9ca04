"""Random and bot play of whole games, with deterministic replay."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine import state_digest
from engine.core import Event
from engine.wizards_cup.bots import normal_bot, simulate_round
from engine.wizards_cup.cards import CARDS
from saves import LiveSession, SeatInfo, SessionStore, export_session, import_session
from tests.helpers.wizards_cup_helpers import RULES, SPEC, Log, play_random_game

SOAK_GAMES = int(os.environ.get("COVEN_RANDOM_GAMES", "0"))
"""Random games ``make soak`` plays (250, every one); ``make test`` plays until :data:`VARIETY` is seen."""
FEWEST_GAMES = 20
MOST_GAMES = 250
"""``make test`` plays at least the fewest, and fails when the most have not shown every kind of :data:`VARIETY`."""
VARIETY = frozenset({("tokens to win", tokens) for tokens in (1, 2, 3)}
                    | {("revealed", card) for card in CARDS}
                    | {("power in force", card) for card, wizard in CARDS.items() if wizard.power is not None}
                    | {("duel decided by", step) for step in ("power", "element", "value")}
                    | {("powers clashed", clash) for clash in (True, False)}
                    | {("duel won by", winner) for winner in (0, 1, None)}
                    | {("round winners", count) for count in (1, 2)}
                    | {("swapped", swapped) for swapped in (True, False)})
"""What random games must show between them: every option value, every wizard played and its power in force,
every way a duel is decided and ends, a round won by one and by both, a swap made and one passed."""


def assert_every_state_round_trips(seed: int, log: Log, options: dict[str, Any]) -> set[tuple[str, object]]:
    """Each state of the game survives JSON and plays on exactly like the original; what the game showed."""
    state = SPEC.new_state(options, seed, 2, ["Ana", "Bo"])
    shown: set[tuple[str, object]] = {("tokens to win", state.tokens_to_win)}
    for seat, action in log:
        restored = RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state))))
        assert state_digest(RULES, restored) == state_digest(RULES, state)
        state, events = RULES.apply(state, seat, action)
        restored, restored_events = RULES.apply(restored, seat, action)
        assert state_digest(RULES, restored) == state_digest(RULES, state)
        assert [e.to_json() for e in restored_events] == [e.to_json() for e in events]
        shown |= variety(events)
    return shown


def variety(events: Sequence[Event]) -> set[tuple[str, object]]:
    """The kinds of :data:`VARIETY` that ``events`` show."""
    shown: set[tuple[str, object]] = set()
    for event in events:
        data = event.data
        if event.kind == "reveal":
            shown.add(("revealed", data["card"]))
        elif event.kind == "duel":
            shown |= {("duel decided by", data["step"]), ("powers clashed", data["clash"]),
                      ("duel won by", data["winner"])}
            shown |= {("power in force", card) for card in data["powers"]}
        elif event.kind == "round_end":
            shown.add(("round winners", len(data["winners"])))
        elif event.kind == "swap":
            shown.add(("swapped", data["swapped"]))
    return shown


def test_random_games_finish_and_round_trip_through_export_and_import(tmp_path: Path) -> None:
    """Random games, every one checked whole, until they have shown every kind of VARIETY (``make soak``: 250)."""
    rng = random.Random(2026)
    store = SessionStore(tmp_path / "games.sqlite3")
    seats = [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")]
    shown: set[tuple[str, object]] = set()
    played = 0
    while played < (SOAK_GAMES or MOST_GAMES) and (SOAK_GAMES or played < FEWEST_GAMES or not VARIETY <= shown):
        seed = played
        options = {"tokens_to_win": 1 + seed % 3}
        state, log = play_random_game(seed, rng, options)
        assert RULES.result(state) is not None
        shown |= assert_every_state_round_trips(seed, log, options)
        session_id = store.create_session("wizards-cup", options, seed, seats, log=log)
        path = export_session(store, session_id, tmp_path / f"game-{seed}.json")
        imported = LiveSession.load(store, import_session(store, path))
        assert imported.digest == state_digest(RULES, state)
        assert imported.finished
        played += 1
    assert VARIETY <= shown, f"{played} random games never showed {sorted(VARIETY - shown, key=str)}"


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
