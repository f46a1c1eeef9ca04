"""Taking back a move (engine.core.undo): one rule for every game, kept in the log.

Random seeded games of each game with undos tried at every point: where the
rule allows one, the state after it has the digest it had before the undone
action and every view is what it was; where it refuses, it says why and nothing
changes. Then each game's own cases, the store, tables and files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import IllegalActionError, get_game, state_digest
from engine.core import ReplayError
from engine.core.undo import Timeline, is_undo, replay_timeline, undo_entry
from engine.wizards_cup.state import Phase as CupPhase
from saves import LiveSession, SeatInfo, SessionLoadError, SessionStore, export_session, import_session

GAMES = ["wizards-cup", "witchdraft", "wizbits"]
NAMES = ["Ana", "Bo", "Cy"]


def views(rules: Any, state: Any, seats: int) -> list[str]:
    return [json.dumps(rules.view(state, seat), default=repr, sort_keys=True) for seat in [None, *range(seats)]]


def random_moves(timeline: Timeline, rng: random.Random) -> tuple[int | None, Any] | None:
    rules, state = timeline.rules, timeline.state
    if rules.result(state) is not None:
        return None
    acting = rules.to_act(state)
    if not acting:
        return None, rules.table_action(state)
    seat = rng.choice(acting)
    legal = rules.legal_actions(state, seat)
    # Half the time a player who keeps their deck (a Wizbits payment from it shows cards, which ends the undo).
    thrifty = [action for action in legal if getattr(getattr(action, "pay", None), "deck", 0) == 0]
    return seat, rng.choice(thrifty if thrifty and len(thrifty) < len(legal) and rng.random() < 0.5 else legal)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_with_undos_return_exactly_to_where_they_were(game_id: str, seed: int) -> None:
    spec = get_game(game_id)
    rules, seats = spec.rules, 2
    rng = random.Random(seed)
    timeline = Timeline(rules, spec.new_state({}, seed, seats, NAMES[:seats]), NAMES[:seats])
    log: list[tuple[int | None, Any]] = []
    undos = 0
    for _ in range(400):
        if rng.random() < 0.35:
            # Mostly the seat that just moved, as a player would ask; sometimes the other, which must be refused.
            last = timeline.last_mover
            seat = last if last is not None and rng.random() < 0.7 else rng.randrange(seats)
            reason = timeline.undo_refusal(seat)
            if reason is None:
                moment = timeline.play(seat, undo_entry())
                assert moment.undoes is not None and timeline.moments[moment.undoes].seat == seat
                expected = _state_before(timeline, moment.undoes)
                assert state_digest(rules, timeline.state) == state_digest(rules, expected)
                assert views(rules, timeline.state, seats) == views(rules, expected, seats)
                log.append((seat, undo_entry()))
                undos += 1
                continue
            assert isinstance(reason, str) and reason
            with pytest.raises(IllegalActionError, match="cannot take back a move"):
                timeline.play(seat, undo_entry())
        move = random_moves(timeline, rng)
        if move is None:
            break
        seat, action = move
        timeline.play(seat, action)
        log.append((seat, rules.action_to_json(action)))
    assert undos > 0, "the rule never allowed an undo: the playout checked nothing"
    # The log, undos included, replays to the same place.
    replayed = replay_timeline(rules, spec.new_state({}, seed, seats, NAMES[:seats]), log, NAMES[:seats])
    assert state_digest(rules, replayed.state) == state_digest(rules, timeline.state)
    assert replayed.undone == timeline.undone


def _state_before(timeline: Timeline, undone: int) -> Any:
    """The state in force just before moment ``undone`` was recorded (replaying the entries before it)."""
    shadow = Timeline(timeline.rules, timeline.moments[0].state, timeline.names)
    for moment in timeline.moments[1:undone]:
        shadow.record(moment)
    return shadow.state


def test_an_undo_entry_is_exactly_one_field() -> None:
    assert is_undo({"type": "undo"}) and not is_undo({"type": "undo", "n": 2}) and not is_undo(["undo"])


# -- each game's own cases --------------------------------------------------------------------------


def test_wizards_cup_a_team_can_be_taken_back_until_the_other_seat_chooses() -> None:
    spec = get_game("wizards-cup")
    rules = spec.rules
    timeline = Timeline(rules, spec.new_state({}, 4, 2, NAMES[:2]), NAMES[:2])
    opening = state_digest(rules, timeline.state)
    assert timeline.undo_refusal(0) == "nothing to take back"
    team = rules.legal_actions(timeline.state, 0)[0]
    timeline.play(0, team)
    assert timeline.undo_refusal(1) == "nothing of yours to take back"
    timeline.play(0, undo_entry())
    assert state_digest(rules, timeline.state) == opening
    timeline.play(0, team)
    timeline.play(1, rules.legal_actions(timeline.state, 1)[0])  # both teams are in: they are shown
    assert rules.view(timeline.state, 0).phase is CupPhase.LINEUP
    assert timeline.undo_refusal(1) == "all secret choices are shown"
    assert timeline.undo_refusal(0) == "Bo has moved since"


def test_the_answer_is_worked_out_once_a_moment_and_again_after_each_move(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("witchdraft")
    rules = spec.rules
    timeline = Timeline(rules, spec.new_state({}, 4, 2, NAMES[:2]), NAMES[:2])
    asked: list[int] = []
    barrier = rules.undo_barrier
    monkeypatch.setattr(rules, "undo_barrier", lambda *args: asked.append(1) or barrier(*args))
    for seat in (0, 1):
        timeline.play(seat, rules.legal_actions(timeline.state, seat)[0])  # both pick: the picks are shown
    placing = timeline.state
    timeline.play(0, rules.legal_actions(placing, 0)[0])
    assert [timeline.undo_refusal(0) for _ in range(5)] == [None] * 5  # a screen asks at every redraw
    assert len(asked) == 1
    timeline.play(0, undo_entry())
    assert timeline.undo_refusal(0) == "Bo has moved since"  # the moment count changed: not the old answer
    assert state_digest(rules, timeline.state) == state_digest(rules, placing)
    timeline.play(0, rules.legal_actions(timeline.state, 0)[0])
    assert timeline.undo_refusal(0) is None and len(asked) == 2  # a new moment: asked afresh


def test_witchdraft_a_placement_can_be_taken_back_before_the_next_reveal() -> None:
    spec = get_game("witchdraft")
    rules = spec.rules
    timeline = Timeline(rules, spec.new_state({}, 4, 3, NAMES), NAMES)
    before = state_digest(rules, timeline.state)
    first = rules.to_act(timeline.state)[0]
    timeline.play(first, rules.legal_actions(timeline.state, first)[0])
    assert timeline.undo_refusal(first) is None
    timeline.play(first, undo_entry())
    assert state_digest(rules, timeline.state) == before
    for seat in rules.to_act(timeline.state):  # everyone places: the picks are revealed
        timeline.play(seat, rules.legal_actions(timeline.state, seat)[0])
    assert all(timeline.undo_refusal(seat) is not None for seat in range(3))


def test_wizbits_a_unit_paid_by_seceding_is_refunded_exactly_and_one_paid_from_the_deck_is_not() -> None:
    """Ruling (docs/rules/wizbits.md): a payment from the deck shows its cards, so it ends the undo.

    Every card that draws or shows a card has its own case in test_wizbits_undo.py.
    """
    from tests.helpers.wizbits_game import Game

    rules = get_game("wizbits").rules
    game = Game()
    game.to_phase("elements")
    seat = game.state.active
    game.give(seat, "halo-lantern", "play")  # no flip ability: seceding it shows nothing
    before = game.state
    plays = [action for action in rules.legal_actions(before, seat)
             if type(action).__name__ == "PlayCard" and getattr(action, "pay", None)]
    from_hand = [play for play in plays if play.pay.deck == 0 and play.pay.secede]
    from_deck = [play for play in plays if play.pay.deck > 0 and not play.pay.secede]
    assert from_hand and from_deck
    timeline = Timeline(rules, before, NAMES[:2])
    timeline.play(seat, from_hand[0])
    assert seat in rules.to_act(timeline.state)  # still holds Priority
    assert timeline.undo_refusal(seat) is None
    timeline.play(seat, undo_entry())
    after = timeline.state.players[seat]
    assert after.deck == before.players[seat].deck and after.discard == before.players[seat].discard
    assert [p.seceded for p in after.in_play] == [p.seceded for p in before.players[seat].in_play]
    assert after.hand == before.players[seat].hand
    assert state_digest(rules, timeline.state) == state_digest(rules, before)
    # Passing hands Priority to the other player: the turn moved on.
    timeline.play(seat, next(a for a in rules.legal_actions(timeline.state, seat) if type(a).__name__ == "Pass"))
    assert timeline.undo_refusal(seat) == "the turn has moved on"

    deck_timeline = Timeline(rules, before, NAMES[:2])
    deck_timeline.play(seat, from_deck[0])
    assert deck_timeline.undo_refusal(seat) == "deck cards were shown"


# -- the store, tables and files ---------------------------------------------------------------------


def cup_with_a_team(store: SessionStore) -> tuple[LiveSession, Any]:
    live = LiveSession.create(store, "wizards-cup", None, 3, [SeatInfo("Ana"), SeatInfo("Bo")])
    before = live.digest
    live.apply(0, live.rules.legal_actions(live.state, 0)[0])
    return live, before


def test_an_undo_is_saved_replayed_and_never_erases_the_log(store: SessionStore) -> None:
    live, before = cup_with_a_team(store)
    (event,) = live.undo(0)
    assert event.text == "Ana took back a move." and live.digest == before
    assert [entry.action for entry in live.log][-1] == {"type": "undo"} and len(live.log) == 2
    loaded = LiveSession.load(store, live.session_id)
    assert loaded.digest == before and loaded.undone == frozenset({1}) and len(loaded.history()) == 3
    with pytest.raises(IllegalActionError, match="nothing to take back"):
        loaded.undo(0)
    assert len(LiveSession.load(store, live.session_id).log) == 2  # a refusal stores nothing


def test_another_process_sees_the_undo(store: SessionStore) -> None:
    live, before = cup_with_a_team(store)
    other = LiveSession.load(store, live.session_id)
    live.undo(0)
    (events,) = other.sync()
    assert [event.text for event in events] == ["Ana took back a move."] and other.digest == before


def test_a_log_with_an_undo_the_rule_forbids_is_refused(store: SessionStore) -> None:
    spec = get_game("wizards-cup")
    opening = spec.new_state({}, 3, 2, NAMES[:2])
    with pytest.raises(ReplayError, match="action 1 is illegal: cannot take back a move: nothing to take back"):
        replay_timeline(spec.rules, opening, [(0, undo_entry())], NAMES[:2])
    live, _ = cup_with_a_team(store)
    store.append_action(live.session_id, 2, 1, undo_entry())  # Bo takes back Ana's team: tampering
    with pytest.raises(SessionLoadError, match="nothing of yours to take back"):
        LiveSession.load(store, live.session_id)


def test_exports_keep_undos_and_imports_check_them(store: SessionStore, tmp_path: Path) -> None:
    live, before = cup_with_a_team(store)
    live.undo(0)
    path = tmp_path / "game.json"
    export_session(store, live.session_id, path)
    document = json.loads(path.read_text())
    assert document["log"][-1] == {"seat": 0, "action": {"type": "undo"}}
    imported = LiveSession.load(store, import_session(store, path))
    assert imported.digest == before and imported.undone == frozenset({1})
    document["log"][-1]["seat"] = 1
    del document["digest"]
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match="log\\[1\\]"):
        import_session(store, path)
