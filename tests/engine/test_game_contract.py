"""One contract suite for every game: random seeded playouts over each registered game and the fake one.

This is OpenSpiel's random-simulation idea: a fourth game gets every check
here for free by registering itself. Each playout picks uniformly among the
legal actions of a seat to act (or plays the table's automatic step) and
checks, at every step:

- ``apply`` never mutates its input state;
- the state survives a JSON round trip, and replaying the log from the seed
  reaches the same digest;
- every seat to act has a legal action, and a waiting table step is legal;
- every bot returns one of the legal actions, deciding from its seat's view (a searching bot, Wizbits
  Hard, on a small budget: its strength is `coven bench`'s);
- while several seats choose in secret (``choices_are_secret``), one seat's
  choice never changes what another seat still choosing can see;
- a seat's hidden cards drawn anew (``vary_secrets``: a hand, a deck's order,
  a Waiting Card) change no other seat's view, nor a spectator's.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import GameSpec, all_games, state_digest
from engine.core import registry
from engine.core.contract import TABLE, GameRules, Seat

PLAYOUTS = 3
"""Seeded random games per game and seat count (a few each keeps the suite quick)."""
STEP_LIMIT = 400
"""Random Wizbits games can run long; the checks are as strong on a prefix."""
ROUND_TRIP_EVERY = 7
SECRETS_EVERY = 3
"""Every few steps, each seat's secrets are drawn anew (``vary_secrets``) and the others' views compared."""
SECRETS_VARIED: dict[str, int] = {}
"""How often a playout of each game really varied a secret: a hook that never does checks nothing."""
"""Replays and round trips cost a whole game each, so they run every few steps and at the end."""


def _specs() -> list[GameSpec]:
    from tests.helpers.fake_game import SPEC

    return [*all_games(), SPEC]


@pytest.fixture(params=[spec.game_id for spec in _specs()])
def spec(request: pytest.FixtureRequest) -> Iterator[GameSpec]:
    """Each bundled game, and the test-only fake game registered for the duration."""
    chosen = next(candidate for candidate in _specs() if candidate.game_id == request.param)
    added = chosen.game_id not in {game.game_id for game in registry.registered_specs()}
    if added:
        registry.register(chosen)
    yield chosen
    if added:
        registry._REGISTRY.pop(chosen.game_id, None)


def _names(seats: int) -> list[str]:
    return ["Ana", "Bea", "Cai", "Dov", "Eli"][:seats]


def _snapshot(spec: GameSpec, state: Any) -> str:
    return json.dumps(spec.rules.state_to_json(state), sort_keys=True)


SEARCH_PLAYOUTS = 8
"""A searching bot's budget here (Wizbits Hard: 48): two sampled states for its four candidates, so its choice
weighs one against another (over one sample it would keep Normal's)."""


def _small_budget(bot: Any) -> Any:
    """``bot`` with a small search budget, when it has one (Wizbits Hard's ``playouts``).

    The search, the sampling and the choice all run, and the action chosen must be legal; how well the full
    budget plays is measured by ``coven bench`` and ``coven ladder``.
    """
    if dataclasses.is_dataclass(bot) and not isinstance(bot, type) and hasattr(bot, "playouts"):
        return dataclasses.replace(bot, playouts=SEARCH_PLAYOUTS)
    return bot


def _check_bots(spec: GameSpec, state: Any, seat: Seat, legal: list[Any], rng: random.Random) -> None:
    rules = spec.rules
    for level, bot in spec.bots.items():
        view = rules.view(state, seat)
        chosen = _small_budget(bot)(view, legal, random.Random(rng.random()))
        assert chosen in legal, f"{level} bot chose an action that is not legal for seat {seat + 1}"


def _check_secret_choices(spec: GameSpec, state: Any, acting: tuple[Seat, ...], rng: random.Random) -> None:
    """While several seats choose at once, one seat's choice stays out of the others' views."""
    rules = spec.rules
    for chooser in acting:
        legal = rules.legal_actions(state, chooser)
        if len(legal) < 2:
            continue
        first, second = rng.sample(legal, 2)
        after_first, _ = rules.apply(state, chooser, first)
        after_second, _ = rules.apply(state, chooser, second)
        for other in acting:
            if other != chooser and other in rules.to_act(after_first) and other in rules.to_act(after_second):
                assert rules.view(after_first, other) == rules.view(after_second, other), (
                    f"seat {chooser + 1}'s secret choice shows in seat {other + 1}'s view")


def _check_secrets_stay_hidden(spec: GameSpec, state: Any, seats: int, rng: random.Random) -> bool:
    """Another seat's secrets drawn anew change no other seat's view, nor a spectator's; whether any varied."""
    rules = spec.rules
    varied_any = False
    for owner in range(seats):
        varied = rules.vary_secrets(state, owner, random.Random(rng.random()))
        if varied is None:
            continue
        varied_any = varied_any or state_digest(rules, varied) != state_digest(rules, state)
        for viewer in [*(seat for seat in range(seats) if seat != owner), None]:
            assert rules.view(varied, viewer) == rules.view(state, viewer), (
                f"seat {owner + 1}'s secrets show in {'a spectator' if viewer is None else f'seat {viewer + 1}'}'s view")
    return varied_any


def _check_round_trip(spec: GameSpec, state: Any, options: dict[str, Any], seed: int, seats: int,
                      log: list[tuple[Seat | None, dict[str, Any]]]) -> None:
    rules = spec.rules
    data = json.loads(json.dumps(rules.state_to_json(state)))
    assert state_digest(rules, rules.state_from_json(data)) == state_digest(rules, state)
    wire_log = json.loads(json.dumps(log))
    replayed = rules.replay(options, seed, seats, [(seat, action) for seat, action in wire_log], _names(seats))
    assert state_digest(rules, replayed) == state_digest(rules, state)


def _playout(spec: GameSpec, seats: int, seed: int) -> int:
    """Play one random game (or its first :data:`STEP_LIMIT` steps), checking the contract; its length."""
    rules = spec.rules
    rng = random.Random(seed)
    options = spec.resolve_options({})
    state = spec.new_state(options, seed, seats, _names(seats))
    log: list[tuple[Seat | None, dict[str, Any]]] = []
    secrets_varied = 0
    for step in range(STEP_LIMIT):
        if rules.result(state) is not None:
            break
        if step % SECRETS_EVERY == 0:
            secrets_varied += _check_secrets_stay_hidden(spec, state, seats, rng)
        pending = rules.table_action(state)
        acting = rules.to_act(state)
        if pending is not None:
            assert pending in rules.legal_actions(state, TABLE) or not rules.legal_actions(state, TABLE)
            seat: Seat | None = TABLE
            action = pending
        else:
            assert acting, "the game is not over, yet no seat is to act and no table step waits"
            for each in acting:
                legal_now = rules.legal_actions(state, each)
                assert legal_now, f"seat {each + 1} is to act but has no legal action"
            if len(acting) > 1 and rules.choices_are_secret(state) and step % 3 == 0:
                _check_secret_choices(spec, state, acting, rng)
            seat = rng.choice(acting)
            legal = rules.legal_actions(state, seat)
            if step % 5 == 0:
                _check_bots(spec, state, seat, legal, rng)
            action = rng.choice(legal)
        before = _snapshot(spec, state)
        action_json = rules.action_to_json(action)
        state, _events = rules.apply(state, seat, action_json)
        assert _snapshot(spec, rules.state_from_json(json.loads(before))) == before
        log.append((seat, action_json))
        if step % ROUND_TRIP_EVERY == 0:
            _check_round_trip(spec, state, options, seed, seats, log)
    _check_round_trip(spec, state, options, seed, seats, log)
    SECRETS_VARIED[spec.game_id] = SECRETS_VARIED.get(spec.game_id, 0) + secrets_varied
    return len(log)


def _apply_leaves_input_unchanged(spec: GameSpec, seats: int, seed: int) -> None:
    """``apply`` on a state leaves that very object as it was (the caller keeps it on refusal too)."""
    rules = spec.rules
    rng = random.Random(seed)
    state = spec.new_state({}, seed, seats, _names(seats))
    for _ in range(60):
        if rules.result(state) is not None:
            return
        pending = rules.table_action(state)
        seat: Seat | None = TABLE if pending is not None else rng.choice(rules.to_act(state))
        action = pending if pending is not None else rng.choice(rules.legal_actions(state, seat))
        before = _snapshot(spec, state)
        state_after, _ = rules.apply(state, seat, action)
        assert _snapshot(spec, state) == before, "apply changed its input state"
        if seat is not TABLE:
            with pytest.raises(ValueError):
                rules.apply(state_after if rules.result(state_after) is not None else state, seat,
                            {"type": "no-such-action"})
            assert _snapshot(spec, state) == before
        state = state_after


def test_random_playouts_keep_the_contract(spec: GameSpec) -> None:
    lengths = []
    for seats in spec.seat_counts[:2]:
        for playout in range(PLAYOUTS):
            lengths.append(_playout(spec, seats, seed=1000 * seats + playout))
    assert all(length > 0 for length in lengths)
    if spec.rules.vary_secrets.__func__ is not GameRules.vary_secrets:  # type: ignore[attr-defined]
        assert SECRETS_VARIED.get(spec.game_id, 0) > 0, "vary_secrets never changed a state"


def test_apply_never_mutates_its_input(spec: GameSpec) -> None:
    for seed in range(2):
        _apply_leaves_input_unchanged(spec, spec.seat_counts[0], seed)


def test_bots_are_registered_weakest_first_and_take_a_view_legal_actions_and_a_generator(spec: GameSpec) -> None:
    import inspect

    for level, bot in spec.bots.items():
        assert list(inspect.signature(bot).parameters) == ["view", "legal", "rng"], level
