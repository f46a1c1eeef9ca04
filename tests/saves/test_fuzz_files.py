"""Fuzzing what Coven reads from files: mutated session exports of all three games, and deck-list text.

Every mutated file must end in a clean import or a :class:`SessionFileError`
whose message is words (never a Python exception's name or a traceback), and a
refused file must write nothing. The seed is fixed and the example counts
small, so the whole module takes seconds and fails the same way every time.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import TABLE, get_game
from engine.core.rng import seeded_rng
from engine.wizbits.cards.starter_decks import EMBER_DAWN
from engine.wizbits.decklist import DeckProblem, check_decklist, decklist
from saves import LiveSession, SeatInfo, SessionFileError, SessionStore, export_session
from saves.decks import deck_problems
from saves.transfer import import_session_file

GAMES = ("wizards-cup", "witchdraft", "wizbits")
ACTIONS = 16
"""Each game's export holds this many actions: enough to mutate in the middle, quick to replay."""

INTERNALS = ("Traceback", "Unexpected error", "TypeError", "KeyError", "AttributeError", "IndexError",
             "unhashable", "object has no attribute", "RecursionError", "OverflowError", "UnicodeEncodeError",
             "UnicodeDecodeError", "sys.set_int_max_str_digits", "NoneType")

FUZZ = settings(derandomize=True, max_examples=250, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _played(store: SessionStore, game_id: str) -> int:
    """A session of ``game_id`` with :data:`ACTIONS` actions chosen by the weakest bot."""
    spec = get_game(game_id)
    session = LiveSession.create(store, game_id, {}, 7, [SeatInfo("Ana"), SeatInfo("Bea")])
    rules = spec.rules
    bot = spec.bots[spec.bot_levels[0]]
    for number in range(ACTIONS):
        step = rules.table_action(session.state)
        if step is not None:
            session.apply(TABLE, step)
            continue
        seat = rules.to_act(session.state)[0]
        legal = rules.legal_actions(session.state, seat)
        session.apply(seat, bot(rules.view(session.state, seat), legal, seeded_rng(7, "fuzz", number)))
    return session.session_id


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """One real export of each game, as parsed JSON."""
    folder = tmp_path_factory.mktemp("exports")
    documents = {}
    with SessionStore(folder / "coven.db") as store:
        for game_id in GAMES:
            path = folder / f"{game_id}.json"
            export_session(store, _played(store, game_id), path)
            documents[game_id] = json.loads(path.read_text(encoding="utf-8"))
    return documents


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document (the document itself excluded)."""
    found: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found.append((*here, key))
        found.extend(_paths(item, (*here, key)))
    return found


def _parent(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        document = document[key]
    return document


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
ODD_SCALARS = st.sampled_from([10**30, -(10**30), 2**63, -1, 0, 1.5, True, None, "", "0", [], {}, {"a": {}},
                               [[[]]], "\u202e", "\ud800", "x" * 300])
CONTROLS = st.sampled_from(["\x00", "\x1b[2J", "\x1b]0;owned\x07", "\x7f", "\x85", "\u2028", "\u202e", "\u200b",
                            "\r", "\t", "\ud800", "\x9b31m"])


@st.composite
def mutated(draw: st.DrawFn, exports: dict[str, dict[str, Any]]) -> tuple[str, bytes]:
    """One export of a drawn game with one drawn kind of damage, as the bytes of a file."""
    game_id = draw(st.sampled_from(GAMES))
    document = copy.deepcopy(exports[game_id])
    paths = _paths(document)
    kind = draw(st.sampled_from(["retype", "field", "drop", "huge", "nest", "controls", "illegal", "duplicate", "bytes",
                                 "truncate", "reorder"]))
    if kind == "retype":
        path = draw(st.sampled_from(paths))
        _parent(document, path)[path[-1]] = draw(JSON | ODD_SCALARS)
    elif kind == "field":  # a field Coven reads (a seat's or an action's), not one it ignores
        read = [path for path in paths if path[0] in ("seats", "log", "options") and isinstance(path[-1], str)]
        path = draw(st.sampled_from(read))
        _parent(document, path)[path[-1]] = draw(st.sampled_from([{}, [], {"a": 1}, [1], [[]]]) | ODD_SCALARS | JSON)
    elif kind == "drop":
        path = draw(st.sampled_from(paths))
        parent = _parent(document, path)
        del parent[path[-1]]
    elif kind == "huge":
        path = draw(st.sampled_from(paths))
        _parent(document, path)[path[-1]] = draw(st.sampled_from([10**19, 2**64, -(2**64), 10**400]))
    elif kind == "nest":
        path = draw(st.sampled_from(paths))
        value = _parent(document, path)[path[-1]]
        for _ in range(draw(st.integers(1, 60))):
            value = [value] if draw(st.booleans()) else {"x": value}
        _parent(document, path)[path[-1]] = value
    elif kind == "controls":
        control = draw(CONTROLS)
        stack: list[Any] = [document]
        while stack:  # a control character in every string
            node = stack.pop()
            for key, item in list(node.items() if isinstance(node, dict) else enumerate(node)):
                if isinstance(item, str):
                    node[key] = item[: len(item) // 2] + control + item[len(item) // 2:]
                elif isinstance(item, (dict, list)):
                    stack.append(item)
    elif kind == "illegal":
        log = document["log"]
        index = draw(st.integers(1, len(log) - 2))
        log[index] = copy.deepcopy(log[draw(st.integers(0, len(log) - 1))])
        log[index]["seat"] = draw(st.sampled_from([None, 0, 1]))
    elif kind == "duplicate":
        log = document["log"]
        index = draw(st.integers(0, len(log) - 1))
        log.insert(index, copy.deepcopy(log[index]))
    elif kind == "reorder":
        log = document["log"]
        first, second = draw(st.integers(0, len(log) - 1)), draw(st.integers(0, len(log) - 1))
        log[first], log[second] = log[second], log[first]
    raw = json.dumps(document, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if kind == "bytes":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xfe\xff"])) + raw[at:]
    elif kind == "truncate":
        raw = raw[: draw(st.integers(0, len(raw) - 1))]
    return kind, raw


def _assert_words(message: str) -> None:
    for internal in INTERNALS:
        assert internal not in message, message
    assert message.strip(), "an empty refusal"


@FUZZ
@given(data=st.data())
def test_a_mutated_export_is_imported_or_refused_in_words(
    data: st.DataObject, exports: dict[str, dict[str, Any]], store: SessionStore, tmp_path: Path
) -> None:
    kind, raw = data.draw(mutated(exports), label="file")
    path = tmp_path / "mutated.json"
    path.write_bytes(raw)
    before = len(store.list_sessions())
    try:
        imported = import_session_file(store, path)
    except SessionFileError as error:
        _assert_words(str(error))
        assert len(store.list_sessions()) == before, "a refused file wrote something"
    else:
        # Accepted: only when it still replays by the rules, and it opens like any other session.
        assert store.load(imported.session_id).game_id in GAMES, kind


@settings(derandomize=True, max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game_id=st.sampled_from(GAMES))
def test_an_unchanged_export_of_each_game_imports_without_a_warning(
    game_id: str, exports: dict[str, dict[str, Any]], store: SessionStore, tmp_path: Path
) -> None:
    path = tmp_path / "real.json"
    path.write_text(json.dumps(exports[game_id]), encoding="utf-8")
    imported = import_session_file(store, path)
    assert imported.warning is None
    assert len(store.load(imported.session_id).log) == ACTIONS


# -- deck-list text ---------------------------------------------------------------------

LEGAL = decklist(EMBER_DAWN.deck, "Ember Dawn").splitlines()
DECK_PIECES = st.sampled_from(["4", "1", "0", "5", "9" * 5000, "-1", "٣", " ", "*", "#", "\t", "\r", "\n", "\r\n",
                               "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\x1b[31m", "\x00", "\ud800",
                               "Sparkswarm Volley", "Cinderwing Archmage", "Fireball", "x" * 200])


@settings(derandomize=True, max_examples=150, deadline=None)
@given(lines=st.lists(st.lists(DECK_PIECES | st.text(max_size=6), max_size=5).map("".join), max_size=8),
       where=st.integers(0, len(LEGAL)))
def test_deck_list_text_gets_line_numbered_problems_within_its_lines(lines: list[str], where: int) -> None:
    text = "\n".join(LEGAL[:where] + lines + LEGAL[where:]) + "\n"
    editor_lines = len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n")) - 1
    for checker in (check_decklist, deck_problems):
        problems: list[DeckProblem] = list(checker(text))
        for problem in problems:
            _assert_words(problem.message)
            assert problem.line is None or 1 <= problem.line <= editor_lines, (problem, editor_lines)
    # Lines the fuzz left alone keep the number an editor gives them.
    if not lines:
        assert check_decklist(text) == []
