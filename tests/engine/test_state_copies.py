"""The fast state copies and serialisation give exactly what the generic ones gave.

Each game copies its state by hand on every apply (``__deepcopy__``) and
serialises it with :func:`engine.core.plain.plain_fields` instead of
:func:`dataclasses.asdict`, for speed. A field added to a state and forgotten in
its copy, or a list the copy shares with the original, would make one move
change another state; these checks catch both along random games.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import OrderedDict, defaultdict, namedtuple
from collections.abc import Iterator
from enum import Enum, StrEnum
from typing import Any

import pytest

from engine import GameSpec, all_games
from engine.core.contract import TABLE, Seat
from engine.core.plain import plain_fields

STEPS = 120
SHARED_ON_PURPOSE = {"wizbits": {"cards", "owners"}}
"""Fields a game's copy shares with the original by design: tables fixed at setup, never changed after."""


def _states(spec: GameSpec, seats: int, seed: int) -> Iterator[Any]:
    """The states of one random game (its first :data:`STEPS` moves)."""
    rules, rng = spec.rules, random.Random(seed)
    state = spec.new_state(spec.resolve_options({}), seed, seats, ["Ana", "Bea", "Cai", "Dov", "Eli"][:seats])
    for _ in range(STEPS):
        yield state
        if rules.result(state) is not None:
            return
        pending = rules.table_action(state)
        seat: Seat | None = TABLE if pending is not None else rng.choice(rules.to_act(state))
        action = pending if pending is not None else rng.choice(rules.legal_actions(state, seat))
        state, _ = rules.apply(state, seat, action)


def _containers(value: Any, path: str, skip: set[str]) -> Iterator[tuple[str, Any]]:
    """Every list, dict and dataclass object inside ``value``, with where it is."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield path, value
        for item in dataclasses.fields(value):
            if item.name not in skip:
                yield from _containers(getattr(value, item.name), f"{path}.{item.name}", set())
    elif isinstance(value, (list, dict)):
        yield path, value
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            yield from _containers(item, f"{path}[{key!r}]", set())


@pytest.mark.parametrize("spec", all_games(), ids=lambda spec: spec.game_id)
def test_each_copy_equals_its_state_and_shares_nothing_that_changes(spec: GameSpec) -> None:
    seen = 0
    skip = SHARED_ON_PURPOSE.get(spec.game_id, set())
    for state in _states(spec, max(spec.seat_counts), seed=11):
        clone = copy.deepcopy(state)
        assert clone == state
        assert spec.rules.state_to_json(clone) == spec.rules.state_to_json(state)
        original = {id(item): where for where, item in _containers(state, "state", skip)}
        shared = [where for where, item in _containers(clone, "state", skip) if id(item) in original]
        assert not shared, f"the copy shares {shared[:3]}"
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("spec", all_games(), ids=lambda spec: spec.game_id)
def test_plain_fields_is_asdict_for_every_state_of_a_game(spec: GameSpec) -> None:
    for state in _states(spec, min(spec.seat_counts), seed=12):
        assert plain_fields(state) == dataclasses.asdict(state)


class Colour(Enum):
    RED = 1


class Tone(StrEnum):
    DUSK = "dusk"


Point = namedtuple("Point", "x y")


@dataclasses.dataclass
class Leaf:
    colour: Colour
    tone: Tone
    ratio: float


@dataclasses.dataclass
class Tree:
    leaves: list[Leaf]
    pair: tuple[Leaf, int]
    point: Point
    named: dict[str, Leaf]
    ordered: OrderedDict[str, list[int]]
    tags: set[str]
    empty: None = None


@dataclasses.dataclass
class Holder:
    counted: defaultdict[str, list[Leaf]]


def test_plain_fields_keeps_every_container_type_asdict_keeps() -> None:
    leaf = Leaf(Colour.RED, Tone.DUSK, 0.5)
    tree = Tree([leaf, leaf], (leaf, 3), Point(leaf, 2), {"k": leaf}, OrderedDict(b=[1]), {"x"})
    expected, got = dataclasses.asdict(tree), plain_fields(tree)
    assert got == expected
    assert [type(got[name]) for name in expected] == [type(expected[name]) for name in expected]
    assert type(got["point"]) is Point
    assert got["leaves"][0] is not got["leaves"][1]  # a leaf met twice is two dicts, as asdict gives
    assert got["tags"] is not tree.tags
    counted = plain_fields(Holder(defaultdict(list, {"a": [leaf]})))["counted"]  # Python 3.12's asdict keeps it
    assert type(counted) is defaultdict and counted.default_factory is list
    assert counted == {"a": [{"colour": Colour.RED, "tone": Tone.DUSK, "ratio": 0.5}]}
    with pytest.raises(TypeError):
        plain_fields(Tree)
    with pytest.raises(TypeError):
        plain_fields({"not": "a dataclass"})
