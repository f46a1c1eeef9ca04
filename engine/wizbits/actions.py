"""Wizbits actions as small frozen values, and their JSON form.

Cards are named by instance id (``iid``), pillar units by ``uid``. Chosen
targets are listed in the order the unit's effects run (see
:func:`engine.wizbits.resolve.chosen_slots`); ``None`` stands for "no legal
choice". ``parse_action`` / ``action_to_json`` are the name pair for JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from engine.core.errors import MalformedActionError
from engine.core.json_fields import json_list, whole_number

JsonDict = dict[str, Any]
Targets = tuple[int | None, ...]


@dataclass(frozen=True)
class Payment:
    """How Secession points are gathered: top cards of the deck (1 each) and cards seceded (2 each).

    Points granted by effects are spent first, automatically.
    """

    deck: int = 0
    secede: tuple[int, ...] = ()


@dataclass(frozen=True)
class PlayCard:
    """Play card ``card`` from hand onto foundation ``on`` (None: the main Current Foundation)."""

    card: int
    on: int | None = None
    targets: Targets = ()
    pay: Payment = Payment()


@dataclass(frozen=True)
class Activate:
    """Use Trigger ability ``ability`` of card ``card`` in play (a flip ability while it is seceded)."""

    card: int
    ability: int
    on: int | None = None
    targets: Targets = ()
    pay: Payment = Payment()


@dataclass(frozen=True)
class Pass:
    """Declare yourself finished with this pillar (pass Priority)."""


@dataclass(frozen=True)
class Attack:
    """Declare attackers (possibly none)."""

    attackers: tuple[int, ...] = ()


@dataclass(frozen=True)
class Block:
    """The defender's answer: pairs of (own character, attacker it battles)."""

    blocks: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Assign:
    """The attacker sends unblocked attackers at opposing characters: pairs of (attacker, defender)."""

    assignments: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Divide:
    """Split the side's total Strength as damage: pairs of (opposing character, points)."""

    damage: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class DiscardCards:
    """Discard these cards from hand (Reconcile with more than seven cards)."""

    cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class ChooseTargets:
    """Choose targets for the first pending flip Income."""

    targets: Targets = ()


@dataclass(frozen=True)
class Step:
    """An automatic step played by the table: reconcile, test, resolve, second_test, end_turn."""

    step: str


Action = Union[PlayCard, Activate, Pass, Attack, Block, Assign, Divide, DiscardCards, ChooseTargets, Step]

STEPS = ("reconcile", "test", "resolve", "second_test", "end_turn")


def _targets_json(targets: Targets) -> list[int | None]:
    return list(targets)


def _payment_json(pay: Payment) -> JsonDict:
    return {"deck": pay.deck, "secede": list(pay.secede)}


def action_to_json(action: Action) -> JsonDict:
    """The action as plain JSON, the inverse of :func:`parse_action`."""
    if isinstance(action, PlayCard):
        return {"type": "play", "card": action.card, "on": action.on, "targets": _targets_json(action.targets),
                "pay": _payment_json(action.pay)}
    if isinstance(action, Activate):
        return {"type": "activate", "card": action.card, "ability": action.ability, "on": action.on,
                "targets": _targets_json(action.targets), "pay": _payment_json(action.pay)}
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, Attack):
        return {"type": "attack", "attackers": list(action.attackers)}
    if isinstance(action, Block):
        return {"type": "block", "blocks": [list(pair) for pair in action.blocks]}
    if isinstance(action, Assign):
        return {"type": "assign", "assignments": [list(pair) for pair in action.assignments]}
    if isinstance(action, Divide):
        return {"type": "divide", "damage": [list(pair) for pair in action.damage]}
    if isinstance(action, DiscardCards):
        return {"type": "discard", "cards": list(action.cards)}
    if isinstance(action, ChooseTargets):
        return {"type": "choose", "targets": _targets_json(action.targets)}
    return {"type": "step", "step": action.step}


def _int(value: object, what: str) -> int:
    return whole_number(value, what, low=0, error=MalformedActionError)


def _ints(value: object, what: str) -> tuple[int, ...]:
    return tuple(_int(item, what) for item in json_list(value, what, error=MalformedActionError))


def _pairs(value: object, what: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise MalformedActionError(f"{what} must be a list of pairs")
    pairs = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise MalformedActionError(f"each of {what} must be a pair")
        pairs.append((_int(item[0], what), _int(item[1], what)))
    return tuple(pairs)


def _targets(value: object) -> Targets:
    if not isinstance(value, list):
        raise MalformedActionError("targets must be a list")
    return tuple(None if item is None else _int(item, "a target") for item in value)


def _payment(value: object) -> Payment:
    if not isinstance(value, Mapping) or set(value) != {"deck", "secede"}:
        raise MalformedActionError("pay must be an object with deck and secede")
    return Payment(_int(value["deck"], "deck"), _ints(value["secede"], "secede"))


_KEYS: dict[str, frozenset[str]] = {
    "play": frozenset({"type", "card", "on", "targets", "pay"}),
    "activate": frozenset({"type", "card", "ability", "on", "targets", "pay"}),
    "pass": frozenset({"type"}),
    "attack": frozenset({"type", "attackers"}),
    "block": frozenset({"type", "blocks"}),
    "assign": frozenset({"type", "assignments"}),
    "divide": frozenset({"type", "damage"}),
    "discard": frozenset({"type", "cards"}),
    "choose": frozenset({"type", "targets"}),
    "step": frozenset({"type", "step"}),
}


def parse_action(data: object) -> Action:
    """Turn JSON into an action.

    Raises:
        MalformedActionError: ``data`` is not a Wizbits action.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise MalformedActionError("an action is an object with a type")
    kind = data["type"]
    if kind not in _KEYS:
        raise MalformedActionError(f"unknown action type {kind!r}")
    if set(data) != _KEYS[kind]:
        raise MalformedActionError(f"a {kind} action has exactly the keys {sorted(_KEYS[kind])}")
    on = None if data.get("on") is None else _int(data.get("on"), "on")
    if kind == "play":
        return PlayCard(_int(data["card"], "card"), on, _targets(data["targets"]), _payment(data["pay"]))
    if kind == "activate":
        return Activate(_int(data["card"], "card"), _int(data["ability"], "ability"), on,
                        _targets(data["targets"]), _payment(data["pay"]))
    if kind == "pass":
        return Pass()
    if kind == "attack":
        return Attack(_ints(data["attackers"], "attackers"))
    if kind == "block":
        return Block(_pairs(data["blocks"], "blocks"))
    if kind == "assign":
        return Assign(_pairs(data["assignments"], "assignments"))
    if kind == "divide":
        return Divide(_pairs(data["damage"], "damage"))
    if kind == "discard":
        return DiscardCards(_ints(data["cards"], "cards"))
    if kind == "choose":
        return ChooseTargets(_targets(data["targets"]))
    step = data["step"]
    if step not in STEPS:
        raise MalformedActionError(f"unknown step {step!r}")
    return Step(step)
