"""A timeline keeps only some states (engine.core.undo.KEEP_EVERY) and works the rest out again, exactly.

Random seeded games of every game, with undos taken wherever the rule allows
one, are read back moment by moment in a shuffled order: each state has the
digest it had when it was played. Reading costs a bounded number of actions,
and the timeline lets go of the states it did not keep.
"""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import pytest

from engine import get_game, state_digest
from engine.core.undo import KEEP_EVERY, RECENT, Timeline, undo_entry
from saves import LiveSession, SeatInfo, SessionStore

GAMES = ["wizards-cup", "witchdraft", "wizbits"]
NAMES = ["Ana", "Bo"]
LEVEL = "easy"
"""The bots that play both seats: quick, and their Wizbits games long enough."""


class CountingRules:
    """A game's rules that count the actions applied through them."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.applied = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def apply(self, state: Any, seat: int | None, action: Any) -> Any:
        self.applied += 1
        return self.rules.apply(state, seat, action)


def play_random_game(game_id: str, seed: int, moves: int = 400) -> tuple[Timeline, CountingRules, list[str], list[Any]]:
    """A random game with undos; its timeline, counting rules, each moment's digest as played, and weak
    references to every state played."""
    spec = get_game(game_id)
    rules = CountingRules(spec.rules)
    rng = random.Random(seed)
    bot = spec.bots[LEVEL]
    opening = spec.new_state({}, seed, 2, NAMES)
    timeline = Timeline(rules, opening, NAMES)
    digests = [state_digest(spec.rules, opening)]
    played: list[Any] = []
    for _ in range(moves):
        state = timeline.state
        if spec.rules.result(state) is not None:
            break
        last = timeline.last_mover
        if last is not None and rng.random() < 0.3 and timeline.undo_refusal(last) is None:
            moment = timeline.play(last, undo_entry())
        else:
            acting = spec.rules.to_act(state)
            seat = rng.choice(acting) if acting else None
            if seat is None:
                action = spec.rules.table_action(state)
            else:
                action = bot(spec.rules.view(state, seat), spec.rules.legal_actions(state, seat), rng)
            moment = timeline.play(seat, spec.rules.action_to_json(action) if rng.random() < 0.5 else action)
        digests.append(state_digest(spec.rules, moment.state))
        if hasattr(type(moment.state), "__weakref__"):
            played.append(weakref.ref(moment.state))
    return timeline, rules, digests, played


def long_random_game(game_id: str, first_seed: int, moments: int) -> tuple[Timeline, CountingRules, list[str], list[Any]]:
    """The first of the random games from ``first_seed`` on with at least ``moments`` moments and an undo."""
    for seed in range(first_seed, first_seed + 40):
        game = play_random_game(game_id, seed)
        if len(game[0]) >= moments and game[0].undo_moments:
            return game
    raise AssertionError(f"no {game_id} game from seed {first_seed} on was long enough to leave states out")


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", [1, 100])
def test_every_state_read_back_in_any_order_is_the_one_played(game_id: str, seed: int) -> None:
    timeline, rules, digests, _ = long_random_game(game_id, seed, 2 * KEEP_EVERY + 8)
    assert len(timeline) == len(digests)
    assert timeline.undo_moments, "no undo was taken: the playout checked nothing of them"
    order = list(range(len(digests)))
    random.Random(seed).shuffle(order)
    for index in order:
        assert state_digest(rules.rules, timeline.state_at(index)) == digests[index], f"moment {index}"
    rules.applied = 0
    timeline._recent.clear()
    later = timeline.moments[1:]  # a slice works nothing out until it is read
    assert rules.applied == 0 and len(later) == len(digests) - 1
    assert [state_digest(rules.rules, moment.state) for moment in later[::-1][:5]] == digests[:-6:-1]
    moments = timeline.moments
    assert [state_digest(rules.rules, moment.state) for moment in reversed(moments)] == digests[::-1]
    assert state_digest(rules.rules, moments[-1].state) == state_digest(rules.rules, timeline.state)


@pytest.mark.parametrize("game_id", GAMES)
def test_reading_a_state_applies_fewer_actions_than_keep_every(game_id: str) -> None:
    timeline, rules, _, _ = long_random_game(game_id, 3, 2 * KEEP_EVERY + 8)
    worst = 0
    for index in random.Random(3).sample(range(len(timeline)), len(timeline)):
        timeline._recent.clear()  # as if nothing near it had been read lately
        rules.applied = 0
        timeline.state_at(index)
        worst = max(worst, rules.applied)
    assert 0 < worst < KEEP_EVERY
    timeline._recent.clear()
    rules.applied = 0
    for _ in timeline.moments:  # in order, as a resumed game writes its history: one action a moment at most
        pass
    assert rules.applied < len(timeline)


def test_a_long_timeline_lets_go_of_the_states_it_does_not_keep() -> None:
    timeline, _, digests, played = long_random_game("wizbits", 4, 6 * KEEP_EVERY)
    assert len(played) == len(digests) - 1
    gc.collect()
    alive = sum(1 for ref in played if ref() is not None)
    assert alive <= len(played) // KEEP_EVERY + RECENT + 2, f"{alive} of {len(played)} states are still held"
    timeline.state_at(len(timeline) // 2)  # worked out again, then let go of too once newer ones are read
    for index in range(1, len(timeline), 1 + RECENT):
        timeline.state_at(index)
    gc.collect()
    assert sum(1 for ref in played if ref() is not None) <= alive


# -- a session's history, in the process that played it and in another that followed it ---------------


def test_a_long_session_reads_the_same_history_where_it_was_played_where_it_was_followed_and_reloaded(
        store: SessionStore) -> None:
    spec = get_game("wizbits")
    rules = spec.rules
    bot = spec.bots[LEVEL]
    played = LiveSession.create(store, "wizbits", None, 7, [SeatInfo("Ana"), SeatInfo("Bo")])
    followed = LiveSession.load(store, played.session_id)  # another process at the table, catching up by sync
    rng = random.Random(7)
    digests = [state_digest(rules, played.state)]
    while played.result is None and len(digests) < 12 * KEEP_EVERY:
        last = played.last_mover
        if last is not None and rng.random() < 0.3 and played.undo_refusal(last) is None:
            played.undo(last)
        elif played.table_action is not None:
            played.play_table()
        else:
            seat = played.to_act[0]
            played.apply(seat, bot(rules.view(played.state, seat), rules.legal_actions(played.state, seat), rng))
        digests.append(state_digest(rules, played.state))
        if len(digests) % 7 == 0:
            followed.sync()
    followed.sync()
    assert len(digests) > 3 * KEEP_EVERY and played.undo_steps, "too short, or no undo: nothing was left to work out"
    reloaded = LiveSession.load(store, played.session_id)
    for live in (played, followed, reloaded):
        history = live.history()
        assert [state_digest(rules, step.state) for step in history] == digests
        assert [state_digest(rules, state) for state in live.states()[::-1]] == digests[::-1]
        assert live.events_history() == [step.events for step in history]
        assert live.to_act_history() == [tuple(rules.to_act(step.state)) for step in history]
        assert live.undone == played.undone and live.undo_steps == played.undo_steps
