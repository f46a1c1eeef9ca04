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
from collections.abc import Callable, Collection, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from engine.core.json_fields import json_text, key_problems, kind_of, whole_number
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


T = TypeVar("T")


class LabFileError(LabError):
    """A scenario file can't be read or isn't a valid scenario.

    Attributes:
        source: The file, when the mistakes are in one; the error's text then starts each line with it.
    """

    def __init__(self, *mistakes: str, source: str | None = None) -> None:
        super().__init__(*mistakes)
        self.source = source
        if source is not None:
            self.args = ("\n".join(f"{source}: {mistake}" for mistake in mistakes),)


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


_ABSENT = object()
"""Stands for a key the file leaves out: its mistake (if it is required) is the object's, not the value's."""


class _Mistakes:
    """Every mistake of one scenario file, so reading goes on past the first and the player fixes them all at once.

    Each reader below returns a stand-in value (never used) where the file is wrong, and notes why.
    """

    def __init__(self) -> None:
        self.found: list[str] = []

    def read(self, default: T, reader: Callable[..., T], value: object, where: str, *args: object) -> T:
        """``reader(value, where, *args)``; ``default`` where the value is absent or wrong (and why is noted)."""
        if value is _ABSENT:
            return default
        try:
            return reader(value, where, *args)
        except LabFileError as error:
            self.found.extend(error.mistakes)
            return default

    def fields(self, value: object, where: str, keys: Collection[str], required: Collection[str]) -> Mapping[str, Any]:
        """``value`` as a JSON object (empty where it is absent or not one), its unknown and missing keys noted."""
        if value is _ABSENT:
            return {}
        if not isinstance(value, Mapping):
            self.found.append(f"{where} must be an object, not {kind_of(value)}")
            return {}
        self.found.extend(key_problems(value, where, keys, required))
        return value

    def items(self, value: object, where: str) -> list[Any]:
        """``value`` as a JSON list (empty where it is absent or not one, which is noted)."""
        if value is _ABSENT:
            return []
        if not isinstance(value, list):
            self.found.append(f"{where} must be a list, not {kind_of(value)}")
            return []
        return value

    def check(self) -> None:
        """Raise every mistake noted, one a line, in the order they were found.

        Raises:
            LabFileError: something was noted.
        """
        if self.found:
            raise LabFileError(*self.found)


def _int(value: object, where: str, low: int = 0, high: int = 2**31) -> int:
    return whole_number(value, where, low, high, error=LabFileError)


def _str(value: object, where: str, limit: int = 2000, block: bool = False) -> str:
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


def _refs(m: _Mistakes, value: object, where: str) -> tuple[str, ...]:
    return tuple(m.read("", _ref, item, f"{where}[{n}]") for n, item in enumerate(m.items(value, where)))


def _card_ids(m: _Mistakes, value: object, where: str) -> tuple[str, ...]:
    return tuple(m.read("", _card_id, item, f"{where}[{n}]") for n, item in enumerate(m.items(value, where)))


def _lab_card(m: _Mistakes, value: object, where: str) -> LabCard:
    data = m.fields(value, where, _CARD_KEYS, {"card"})
    seceded = data.get("seceded", False)
    if not isinstance(seceded, bool):
        m.found.append(f"{where}.seceded: expected true or false")
        seceded = False
    return LabCard(m.read("", _card_id, data.get("card", _ABSENT), f"{where}.card"),
                   m.read(0, _int, data.get("damage", 0), f"{where}.damage", 0, 99), seceded)


def _side(m: _Mistakes, value: object, where: str) -> LabSide:
    data = m.fields(value, where, _SIDE_KEYS, {"name", "main"})
    deck_value = data.get("deck", [])
    deck = deck_value if isinstance(deck_value, str) else _card_ids(m, deck_value, f"{where}.deck")
    return LabSide(
        m.read("", _str, data.get("name", _ABSENT), f"{where}.name", 40),
        _lab_card(m, data.get("main", _ABSENT), f"{where}.main"),
        tuple(_lab_card(m, item, f"{where}.table[{n}]")
              for n, item in enumerate(m.items(data.get("table", []), f"{where}.table"))),
        _card_ids(m, data.get("hand", []), f"{where}.hand"),
        deck,
    )


def _play(m: _Mistakes, value: object, where: str) -> LabPlay:
    data = m.fields(value, where, _PLAY_KEYS, {"seat"})
    kinds = [key for key in ("card", "ability_of", "damage") if key in data]
    if isinstance(value, Mapping) and len(kinds) != 1:
        m.found.append(f"{where}: a play has exactly one of 'card', 'ability_of' or 'damage'")
    seat = m.read(0, _int, data.get("seat", _ABSENT), f"{where}.seat", 0, 1)
    on = data.get("on")
    foundation = None if on is None else m.read("", _ref, on, f"{where}.on")
    targets = tuple(None if item is None else m.read("", _ref, item, f"{where}.targets[{n}]")
                    for n, item in enumerate(m.items(data.get("targets", []), f"{where}.targets")))
    if kinds == ["card"]:
        return LabPlay(seat, card=m.read("", _card_id, data["card"], f"{where}.card"), on=foundation, targets=targets)
    if kinds == ["ability_of"]:
        return LabPlay(seat, source=m.read("", _ref, data["ability_of"], f"{where}.ability_of"),
                       ability=m.read(0, _int, data.get("ability", 0), f"{where}.ability", 0, 20), on=foundation,
                       targets=targets)
    shares = []
    for n, item in enumerate(m.items(data.get("damage", _ABSENT), f"{where}.damage")):
        pair = m.items(item, f"{where}.damage[{n}]")
        if isinstance(item, list) and len(pair) != 2:
            m.found.append(f"{where}.damage[{n}]: expected [character, points]")
        elif len(pair) == 2:
            shares.append((m.read("", _ref, pair[0], f"{where}.damage[{n}][0]"),
                           m.read(1, _int, pair[1], f"{where}.damage[{n}][1]", 1, 99)))
    return LabPlay(seat, damage=tuple(shares), on=foundation, targets=targets)


def scenario_from_json(data: object) -> Scenario:
    """Read a scenario from JSON values and check it builds.

    Every field is read, so one error lists every mistake in the file's fields; the set-up is then
    checked as a whole (:func:`~engine.wizbits.lab.table.build`), and the plays in order.

    Raises:
        LabFileError: a key is missing, unknown or of the wrong kind, or the scenario can't be built;
            its ``mistakes`` are all of them, each saying where it is.
    """
    m = _Mistakes()
    fields = m.fields(data, "scenario", _SCENARIO_KEYS, _REQUIRED)
    version = fields.get("lab", _ABSENT)
    if version is not _ABSENT and version != LAB_VERSION:
        # Another format's file: its other fields may mean something else, so this is the one mistake to tell.
        raise LabFileError(f"lab: this Coven reads scenario format {LAB_VERSION}, not {version!r}")
    # Read in the order Coven writes the fields, so the mistakes are listed in the order a saved file shows them.
    title = m.read("", _str, fields.get("title", _ABSENT), "title", 80)
    about = m.read("", _str, fields.get("about", ""), "about", 2000, True)
    format_ = m.read("", _str, fields.get("format", "constructed"), "format", 20)
    rtf = m.read(1, _int, fields.get("rtf", 1), "rtf", 1, 2)
    base = m.read("", _str, fields.get("base", "turn"), "base", 20)
    active = m.read(0, _int, fields.get("active", 0), "active", 0, 1)
    seed = m.read(1, _int, fields.get("seed", 1), "seed")
    sides_value = fields.get("sides", _ABSENT)
    sides = [_side(m, item, f"sides[{n}]") for n, item in enumerate(m.items(sides_value, "sides"))]
    if isinstance(sides_value, list) and len(sides) != 2:
        m.found.append("sides: a scenario has exactly two sides")
    plays = tuple(_play(m, item, f"plays[{n}]") for n, item in enumerate(m.items(fields.get("plays", []), "plays")))
    battle = m.fields(fields.get("battle", _ABSENT), "battle", {"attackers", "defenders"}, set())
    stand_in = LabSide("", LabCard(""))
    scenario = Scenario(
        title=title, about=about, sides=(sides[0] if sides else stand_in, sides[1] if len(sides) > 1 else stand_in),
        format=format_, rtf=rtf, base=base, active=active, seed=seed,
        attackers=_refs(m, battle.get("attackers", []), "battle.attackers"),
        defenders=_refs(m, battle.get("defenders", []), "battle.defenders"), plays=plays,
    )
    m.check()
    try:
        build(scenario)
    except LabFileError:
        raise
    except LabError as error:
        raise LabFileError(*error.mistakes) from None
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
        raise LabFileError(*error.mistakes, source=str(source)) from None


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
            raise LabFileError(*(f"shipped scenario {entry.name}: {mistake}" for mistake in error.mistakes)) from None
    return scenarios
