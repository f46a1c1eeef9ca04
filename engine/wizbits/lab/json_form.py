"""Pillar Lab scenarios as JSON: writing, strict reading, files and the scenarios Coven ships.

A scenario file is a JSON object with ``"lab": 1``; every key is checked and
every mistake is reported with where it is (``plays[2].targets[0]: ...``).
Files are only parsed, never evaluated, and read with a size bound: a regular
file of at most 64 KiB. The shipped scenarios live in ``scenarios/`` next
to this module.
"""

from __future__ import annotations

import json
import os
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from engine.core.json_fields import json_list, json_object, json_text, whole_number
from engine.core.text import text_block_problem, text_problem
from engine.core.textfile import TextFileError, read_text_file, write_text_file
from engine.wizbits.cards.card_set import CARDS_BY_ID, card_by_name
from engine.wizbits.lab.table import LabCard, LabError, LabPlay, LabSide, Scenario, build

LAB_VERSION = 1
"""The scenario format this Coven writes and reads."""

MAX_SCENARIO_BYTES = 64 * 1024
"""A scenario file larger than this is refused unread."""

_SCENARIO_KEYS = {"lab", "title", "about", "format", "rtf", "base", "active", "seed", "sides", "battle", "plays"}
_REQUIRED = {"lab", "title", "sides"}
_SIDE_KEYS = {"name", "main", "table", "hand", "deck"}
_CARD_KEYS = {"card", "damage", "seceded"}
_PLAY_KEYS = {"seat", "card", "ability_of", "ability", "damage", "on", "targets"}


class LabFileError(LabError):
    """A scenario file can't be read or isn't a valid scenario."""


# -- writing ---------------------------------------------------------------------------------


def _card_json(card: LabCard) -> dict[str, Any]:
    data: dict[str, Any] = {"card": card.card}
    if card.damage:
        data["damage"] = card.damage
    if card.seceded:
        data["seceded"] = True
    return data


def _play_json(play: LabPlay) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": play.seat}
    if play.kind == "card":
        data["card"] = play.card
    elif play.kind == "ability":
        data["ability_of"] = play.source
        data["ability"] = play.ability
    else:
        data["damage"] = [[ref, points] for ref, points in play.damage]
    data["on"] = play.on
    data["targets"] = list(play.targets)
    return data


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain JSON values (the inverse of :func:`scenario_from_json`)."""
    data: dict[str, Any] = {
        "lab": LAB_VERSION, "title": scenario.title, "about": scenario.about, "format": scenario.format,
        "rtf": scenario.rtf, "base": scenario.base, "active": scenario.active, "seed": scenario.seed,
        "sides": [{"name": side.name, "main": _card_json(side.main), "table": [_card_json(c) for c in side.table],
                   "hand": list(side.hand), "deck": side.deck if isinstance(side.deck, str) else list(side.deck)}
                  for side in scenario.sides],
        "plays": [_play_json(play) for play in scenario.plays],
    }
    if scenario.base == "damage":
        data["battle"] = {"attackers": list(scenario.attackers), "defenders": list(scenario.defenders)}
    return data


def dumps(scenario: Scenario) -> str:
    """The scenario as indented JSON text."""
    return json.dumps(scenario_to_json(scenario), indent=2, ensure_ascii=False) + "\n"


# -- reading ---------------------------------------------------------------------------------


_object = partial(json_object, error=LabFileError)
_list = partial(json_list, error=LabFileError)


def _int(value: object, where: str, low: int = 0, high: int = 2**31) -> int:
    return whole_number(value, where, low, high, error=LabFileError)


def _str(value: object, where: str, limit: int = 2000, *, block: bool = False) -> str:
    text = json_text(value, where, limit, error=LabFileError)
    # A scenario file comes from outside: its text is shown, so the one text rule applies.
    problem = text_block_problem(text) if block else text_problem(text)
    if problem is not None:
        raise LabFileError(f"{where} must not contain {problem}")
    return text


def _card_id(value: object, where: str) -> str:
    text = _str(value, where, 100)
    if text in CARDS_BY_ID:
        return text
    card = card_by_name(text)
    if card is None:
        raise LabFileError(f"{where}: unknown card {text!r}")
    return card.card_id


def _ref(value: object, where: str) -> str:
    text = _str(value, where, 40)
    parts = text.split("/")
    good = (len(parts) == 2 and parts[0] in ("0", "1") and parts[1] == "main") or (
        len(parts) == 3 and parts[0] in ("0", "1") and parts[1] in ("table", "hand") and parts[2].isdigit()) or (
        len(parts) == 2 and parts[0] in ("play", "unit") and parts[1].isdigit())
    if not good:
        raise LabFileError(f"{where}: {text!r} is not a reference like '1/main', '0/table/2' or 'play/3'")
    return text


def _lab_card(value: object, where: str) -> LabCard:
    data = _object(value, where, _CARD_KEYS, {"card"})
    seceded = data.get("seceded", False)
    if not isinstance(seceded, bool):
        raise LabFileError(f"{where}.seceded: expected true or false")
    return LabCard(_card_id(data["card"], f"{where}.card"), _int(data.get("damage", 0), f"{where}.damage", 0, 99),
                   seceded)


def _side(value: object, where: str) -> LabSide:
    data = _object(value, where, _SIDE_KEYS, {"name", "main"})
    deck_value = data.get("deck", [])
    deck: str | tuple[str, ...]
    if isinstance(deck_value, str):
        deck = deck_value
    else:
        deck = tuple(_card_id(item, f"{where}.deck[{n}]") for n, item in enumerate(_list(deck_value, f"{where}.deck")))
    return LabSide(
        _str(data["name"], f"{where}.name", 40),
        _lab_card(data["main"], f"{where}.main"),
        tuple(_lab_card(item, f"{where}.table[{n}]") for n, item in enumerate(_list(data.get("table", []),
                                                                                      f"{where}.table"))),
        tuple(_card_id(item, f"{where}.hand[{n}]") for n, item in enumerate(_list(data.get("hand", []),
                                                                                 f"{where}.hand"))),
        deck,
    )


def _play(value: object, where: str) -> LabPlay:
    data = _object(value, where, _PLAY_KEYS, {"seat"})
    kinds = [key for key in ("card", "ability_of", "damage") if key in data]
    if len(kinds) != 1:
        raise LabFileError(f"{where}: a play has exactly one of 'card', 'ability_of' or 'damage'")
    on = data.get("on")
    targets = tuple(None if item is None else _ref(item, f"{where}.targets[{n}]")
                    for n, item in enumerate(_list(data.get("targets", []), f"{where}.targets")))
    seat = _int(data["seat"], f"{where}.seat", 0, 1)
    foundation = None if on is None else _ref(on, f"{where}.on")
    if kinds == ["card"]:
        return LabPlay(seat, card=_card_id(data["card"], f"{where}.card"), on=foundation, targets=targets)
    if kinds == ["ability_of"]:
        return LabPlay(seat, source=_ref(data["ability_of"], f"{where}.ability_of"),
                       ability=_int(data.get("ability", 0), f"{where}.ability", 0, 20), on=foundation, targets=targets)
    shares = []
    for n, item in enumerate(_list(data["damage"], f"{where}.damage")):
        pair = _list(item, f"{where}.damage[{n}]")
        if len(pair) != 2:
            raise LabFileError(f"{where}.damage[{n}]: expected [character, points]")
        shares.append((_ref(pair[0], f"{where}.damage[{n}][0]"), _int(pair[1], f"{where}.damage[{n}][1]", 1, 99)))
    return LabPlay(seat, damage=tuple(shares), on=foundation, targets=targets)


def scenario_from_json(data: object) -> Scenario:
    """Read a scenario from JSON values and check it builds.

    Raises:
        LabFileError: a key is missing, unknown or of the wrong kind, or the scenario can't be built.
    """
    fields = _object(data, "scenario", _SCENARIO_KEYS, _REQUIRED)
    version = fields["lab"]
    if version != LAB_VERSION:
        raise LabFileError(f"lab: this Coven reads scenario format {LAB_VERSION}, not {version!r}")
    sides = _list(fields["sides"], "sides")
    if len(sides) != 2:
        raise LabFileError("sides: a scenario has exactly two sides")
    battle = _object(fields.get("battle", {}), "battle", {"attackers", "defenders"}, set())
    scenario = Scenario(
        title=_str(fields["title"], "title", 80),
        about=_str(fields.get("about", ""), "about", block=True),
        sides=(_side(sides[0], "sides[0]"), _side(sides[1], "sides[1]")),
        format=_str(fields.get("format", "constructed"), "format", 20),
        rtf=_int(fields.get("rtf", 1), "rtf", 1, 2),
        base=_str(fields.get("base", "turn"), "base", 20),
        active=_int(fields.get("active", 0), "active", 0, 1),
        seed=_int(fields.get("seed", 1), "seed"),
        attackers=tuple(_ref(item, f"battle.attackers[{n}]")
                        for n, item in enumerate(_list(battle.get("attackers", []), "battle.attackers"))),
        defenders=tuple(_ref(item, f"battle.defenders[{n}]")
                        for n, item in enumerate(_list(battle.get("defenders", []), "battle.defenders"))),
        plays=tuple(_play(item, f"plays[{n}]") for n, item in enumerate(_list(fields.get("plays", []), "plays"))),
    )
    try:
        build(scenario)
    except LabFileError:
        raise
    except LabError as error:
        raise LabFileError(str(error)) from None
    return scenario


def loads(text: str) -> Scenario:
    """Parse scenario JSON text.

    Raises:
        LabFileError: not JSON, or not a valid scenario.
    """
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except ValueError as error:
        raise LabFileError(f"not valid JSON: {error}") from None
    return scenario_from_json(data)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed")


# -- files -----------------------------------------------------------------------------------


def read_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read a scenario file: a regular file of at most :data:`MAX_SCENARIO_BYTES`, UTF-8 JSON.

    Raises:
        LabFileError: missing, not a regular file, too large, not text, not JSON or not a scenario.
    """
    source = Path(path)
    try:
        text = read_text_file(source, MAX_SCENARIO_BYTES, "a scenario")
    except TextFileError as error:
        raise LabFileError(str(error)) from None
    try:
        return loads(text)
    except LabFileError as error:
        raise LabFileError(f"{source}: {error}") from None


def write_scenario(path: str | os.PathLike[str], scenario: Scenario) -> None:
    """Write a scenario file (replacing a regular file that is there; never a pipe or device).

    Raises:
        LabFileError: the file can't be written, or ``path`` is not a regular file.
    """
    try:
        write_text_file(path, dumps(scenario), overwrite=True)
    except TextFileError as error:
        raise LabFileError(str(error)) from None


def shipped_scenarios() -> list[Scenario]:
    """The example scenarios that come with Coven, in file-name order."""
    folder = resources.files("engine.wizbits.lab").joinpath("scenarios")
    found = sorted((entry for entry in folder.iterdir() if entry.name.endswith(".json")), key=lambda e: e.name)
    scenarios = []
    for entry in found:
        try:
            scenarios.append(loads(entry.read_text(encoding="utf-8")))
        except LabFileError as error:
            raise LabFileError(f"shipped scenario {entry.name}: {error}") from None
    return scenarios
