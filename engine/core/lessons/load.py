"""Reading a lesson file strictly, then checking it by playing its whole game through the rules.

A lesson file is a JSON object with ``"lesson": 1``. Every key is checked, every
text must be safe to show, and every mistake names where it is: the file's line
for bad JSON, the step (and the line it starts on) for a bad step. Then the
script is played from the fixed seed: each move must be legal and by the seat
whose turn it is, each rule a step names must happen there (the game's own
checks, in its ``lesson_rules`` module, read the engine's events), a step that
accepts other moves (``"accept"``, see :mod:`engine.core.lessons.accept`) must
name a known condition its own move meets, and the game must be over when the
script ends. A file that loads is a lesson that plays.

Between the steps, table steps the file does not list (a duel nobody needs to
hear about) play by themselves: :func:`plays_by_itself` says when, for the
checker here and for the screen alike.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engine.core.catalog import entry_for
from engine.core.errors import ActionError, InvalidOptionsError, UnknownGameError
from engine.core.json_fields import is_whole_number, json_list, json_object, json_text, kind_of
from engine.core.lessons.accept import is_accepted, meets, move_for
from engine.core.lessons.model import (
    ANY_MOVE,
    LEARNER,
    Lesson,
    LessonError,
    LessonFormatError,
    LessonRule,
    LessonRuleError,
    LessonStep,
    LessonStepError,
)
from engine.core.registry import GameSpec, get_game
from engine.core.terms import Event, Seat
from engine.core.text import UnsafeTextError, check_name, text_problem

LESSON_VERSION = 1
"""The lesson format this Coven reads."""

MAX_LESSON_BYTES = 64 * 1024
"""A lesson larger than this is refused unread."""

MAX_WORDS = 400
"""The longest text a lesson may say at once, in characters: the less there is to read the better."""

MAX_NAME = 32
"""The longest seat name a lesson may give."""

MAX_STEPS = 500
"""The most steps a lesson may have."""

_KEYS = {"lesson", "id", "game", "title", "seed", "options", "names", "intro", "end", "steps"}
_REQUIRED = {"lesson", "id", "game", "title", "seed", "names", "intro", "end", "steps"}
_STEP_KEYS = {"by", "seat", "move", "say", "more", "show", "rules", "after", "accept"}
_BY = ("you", "bot", "table")
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


@dataclass(frozen=True)
class Played:
    """One action of a lesson's game, as the script plays it.

    Attributes:
        step: The index of the script step this action is (None: a table step played by itself).
        seat: The acting seat (None: the table).
        action: The game's action value.
        events: What it did.
    """

    step: int | None
    seat: Seat | None
    action: Any
    events: tuple[Event, ...]


def _words(value: object, field: str, *, required: bool = False) -> str:
    """``value`` as safe text of at most :data:`MAX_WORDS` characters."""
    text = json_text(value, field, MAX_WORDS, error=LessonFormatError)
    problem = text_problem(text)
    if problem is not None:
        raise LessonFormatError(f"{field} holds {problem}")
    if required and not text.strip():
        raise LessonFormatError(f"{field} must say something")
    return text.strip()


def _name(value: object, index: int) -> str:
    """A seat's name, as a seat's name must be (the session rules: safe, not blank, short)."""
    try:
        return check_name(value, f"names[{index}]", max_length=MAX_NAME)
    except UnsafeTextError as error:
        raise LessonFormatError(str(error)) from None


def _step_lines(text: str) -> list[int]:
    """The line each step object starts on, or [] when they can't be found (the messages then give no line)."""
    found = re.search(r'"steps"\s*:\s*\[', text)
    if found is None:
        return []
    decoder = json.JSONDecoder()
    lines: list[int] = []
    index = found.end()
    try:
        while True:
            while index < len(text) and text[index] in " \t\r\n,":
                index += 1
            if index >= len(text) or text[index] == "]":
                return lines
            lines.append(text.count("\n", 0, index) + 1)
            _, index = decoder.raw_decode(text, index)
    except ValueError:
        return []


def _step(data: object, number: int, line: int, seats: int) -> LessonStep:
    """One step read from ``data``."""
    where = f"step {number}" + (f" (line {line})" if line else "")
    step = json_object(data, where, _STEP_KEYS, ("by",), error=LessonFormatError)
    by = step["by"]
    if by not in _BY:
        raise LessonFormatError(f"{where}: by must be one of {', '.join(_BY)}, not {kind_of(by) if not isinstance(by, str) else repr(by[:20])}")
    seat: Seat | None = None if by == "table" else LEARNER if by == "you" else 1
    if "seat" in step:
        given = step["seat"]
        if by != "bot" or not is_whole_number(given) or not 1 <= given < seats:
            raise LessonFormatError(f"{where}: seat is for a bot's step, a whole number from 1 to {seats - 1}")
        seat = given
    move = step.get("move")
    if move is not None and not isinstance(move, dict):
        raise LessonFormatError(f"{where}: move must be an object, not {kind_of(move)}")
    if move is None and by != "table":
        raise LessonFormatError(f"{where}: a move by {by} needs its move")
    after = step.get("after", 0)
    if not is_whole_number(after) or not 0 <= after <= MAX_STEPS or (after and by != "table"):
        raise LessonFormatError(f"{where}: after is for a table step, a whole number of table steps from 0")
    accept = ""
    if "accept" in step:
        if by != "you":
            raise LessonFormatError(f"{where}: accept is for a learner's step")
        accept = json_text(step["accept"], f"{where}: accept", 40, error=LessonFormatError)
        if not accept.strip():
            raise LessonFormatError(f"{where}: accept must name {ANY_MOVE!r} or one of the game's rules")
    say = _words(step.get("say", ""), f"{where}: say", required=by == "you")
    rules = tuple(json_text(rule, f"{where}: rules[{index}]", 40, error=LessonFormatError)
                  for index, rule in enumerate(json_list(step.get("rules", []), f"{where}: rules",
                                                         error=LessonFormatError)))
    return LessonStep(number=number, by=by, seat=seat, move=move, say=say,
                      more=_words(step.get("more", ""), f"{where}: more"),
                      show=_words(step.get("show", ""), f"{where}: show", required=by == "you"), rules=rules, after=after,
                      accept=accept, line=line)


def rule_book(game_id: str) -> Mapping[str, LessonRule]:
    """The rules the lessons of ``game_id`` may name: its package's ``lesson_rules.RULES``.

    Raises:
        LessonRuleError: the game has no rules for lessons.
    """
    entry = entry_for(game_id)
    package = entry.module.rpartition(".")[0] if entry is not None and entry.module else ""
    try:
        module = importlib.import_module(f"{package}.lesson_rules") if package else None
    except ModuleNotFoundError:
        module = None
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, Mapping):
        raise LessonRuleError(f"{game_id} has no lessons yet")
    return rules


def plays_by_itself(step: LessonStep | None, quiet: int, spec: GameSpec, state: Any) -> bool:
    """Whether the table's waiting step plays now without a key, ``quiet`` table steps after the last step.

    It does unless the script's next step is the table's and its ``after`` quiet
    steps have been played. After the last step (``step`` None) the table plays
    the game out by itself.
    """
    rules = spec.rules
    if rules.result(state) is not None or rules.table_action(state) is None or rules.to_act(state):
        return False
    return step is None or step.by != "table" or quiet < step.after


def play_script(lesson: Lesson, spec: GameSpec | None = None, upto: int | None = None,
                own: Mapping[int, Any] | None = None) -> list[Played]:
    """Every action of ``lesson``'s game, in order: its steps (the first ``upto`` of them) and the table steps
    between them. After the last step (``upto`` None) the game is played to its end.

    ``own`` (when resuming) gives the learner's own moves as JSON by step index: each plays in its step's place
    when that step accepts it there; every other step that accepts other moves plays what ``s`` would (the
    script's move while it still fits), so the learner's earlier choices never leave the replay stuck.

    Raises:
        LessonStepError: a step is not that seat's turn, or its move is refused.
    """
    spec = spec or get_game(lesson.game_id)
    book = rule_book(lesson.game_id) if own is not None else {}
    rules = spec.rules
    state = spec.new_state(lesson.options, lesson.seed, len(lesson.names), lesson.names)
    played: list[Played] = []
    steps = lesson.steps if upto is None else lesson.steps[:upto]
    for index, step in enumerate(steps):
        quiet = 0
        while plays_by_itself(step, quiet, spec, state):
            pending = rules.table_action(state)
            state, events = rules.apply(state, None, pending)
            played.append(Played(None, None, pending, tuple(events)))
            quiet += 1
        if quiet < step.after:
            raise LessonStepError(f"{step.where}: only {quiet} table steps play before it, not {step.after}")
        if own is not None and step.accept:
            action = _own_action(step, spec, state, own.get(index), book)
        else:
            action = _step_action(step, spec, state)
        try:
            state, events = rules.apply(state, step.seat, action)
        except ActionError as error:
            raise LessonStepError(f"{step.where}: {error.reason}") from None
        played.append(Played(index, step.seat, action, tuple(events)))
    if upto is None:
        while plays_by_itself(None, 0, spec, state):
            pending = rules.table_action(state)
            state, events = rules.apply(state, None, pending)
            played.append(Played(None, None, pending, tuple(events)))
        if rules.result(state) is None:
            raise LessonStepError("the lesson ends before its game does: add the steps that finish it")
    return played


def _own_action(step: LessonStep, spec: GameSpec, state: Any, move: Any,
                book: Mapping[str, LessonRule]) -> Any:
    """The learner's own ``move`` (stored JSON, so checked here) when ``step`` takes it, else what ``s`` plays."""
    if move is not None:
        try:
            action = spec.rules.parse_action(move)
        except ActionError:
            action = None
        if action is not None and is_accepted(step, spec, state, action, book):
            return action
    try:
        return move_for(step, spec, state, book)
    except ActionError as error:
        raise LessonStepError(f"{step.where}: {error.reason}") from None


def _step_action(step: LessonStep, spec: GameSpec, state: Any) -> Any:
    """The action ``step`` plays in ``state``, checked against whose turn it is."""
    rules = spec.rules
    if rules.result(state) is not None:
        raise LessonStepError(f"{step.where}: the game is already over")
    if step.by == "table":
        pending = rules.table_action(state)
        if pending is None or rules.to_act(state):
            raise LessonStepError(f"{step.where}: no table step is waiting here; a seat is to choose")
        if step.move is not None and _parsed(step, spec) != pending:
            raise LessonStepError(f"{step.where}: the table's waiting step is not this move")
        return pending
    to_act = rules.to_act(state)
    if step.seat not in to_act:
        who = "the learner" if step.by == "you" else f"seat {step.seat}"
        raise LessonStepError(f"{step.where}: it is not {who}'s turn to choose here")
    if step.by == "bot" and LEARNER in to_act:
        raise LessonStepError(f"{step.where}: the learner chooses first when both are asked; put the learner's "
                              "step before this one")
    action = _parsed(step, spec)
    if step.by == "you" and action not in rules.legal_actions(state, step.seat):
        try:  # the rules' own reason, if they refuse it
            rules.check_action(state, step.seat, action)
        except ActionError as error:
            raise LessonStepError(f"{step.where}: {error.reason}") from None
        raise LessonStepError(f"{step.where}: the move is not written as the game lists it (check its order)")
    return action


def _parsed(step: LessonStep, spec: GameSpec) -> Any:
    try:
        return spec.rules.parse_action(step.move)
    except ActionError as error:
        raise LessonStepError(f"{step.where}: {error.reason}") from None


def _check_rules(lesson: Lesson, played: Sequence[Played], spec: GameSpec) -> None:
    """Each rule a step names must happen between that step and the next step that says something, and each
    learner's step that accepts other moves must take its own."""
    book = rule_book(lesson.game_id)
    rules = spec.rules
    state = spec.new_state(lesson.options, lesson.seed, len(lesson.names), lesson.names)
    windows: list[tuple[LessonStep, list[Event], Any]] = []
    for entry in played:
        step = lesson.steps[entry.step] if entry.step is not None else None
        if step is not None and step.accept:
            _check_accept(lesson, step, spec, state, entry.action, book)
        state, _ = rules.apply(state, entry.seat, entry.action)
        if step is not None and (step.say or step.rules or not windows):
            windows.append((step, [], state))
        if windows:
            windows[-1][1].extend(entry.events)
            windows[-1] = (windows[-1][0], windows[-1][1], state)
    for step, events, after in windows:
        for name in step.rules:
            rule = book.get(name)
            if rule is None:
                known = ", ".join(sorted(book))
                raise LessonRuleError(f"{step.where}: {lesson.game_id} has no rule {name!r} (known: {known})")
            if not rule.happened(events, after):
                raise LessonRuleError(f"{step.where}: {rule.words} ({name}) does not happen here")


def _check_accept(lesson: Lesson, step: LessonStep, spec: GameSpec, state: Any, action: Any,
                  book: Mapping[str, LessonRule]) -> None:
    """A step's condition is known, and the script's own move meets it."""
    if step.accept != ANY_MOVE and step.accept not in book:
        known = ", ".join([ANY_MOVE, *sorted(book)])
        raise LessonRuleError(f"{step.where}: accept names no rule of {lesson.game_id}: {step.accept!r} "
                              f"(known: {known})")
    if not meets(step, spec, state, action, book):
        raise LessonRuleError(f"{step.where}: its own move does not show {book[step.accept].words} "
                              f"({step.accept}), which the step accepts")


def loads(text: str) -> Lesson:
    """Read and check one lesson file's text.

    Raises:
        LessonFormatError: it is not a lesson file (the message gives the line of bad JSON).
        LessonStepError: a step does not play.
        LessonRuleError: a step names a rule that is unknown, or does not happen there.
    """
    if len(text) > MAX_LESSON_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_LESSON_BYTES:
        raise LessonFormatError(f"a lesson file holds at most {MAX_LESSON_BYTES // 1024} KiB")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LessonFormatError(f"line {error.lineno}: not JSON: {error.msg}") from None
    except RecursionError:
        raise LessonFormatError("the JSON is nested too deeply") from None
    top = json_object(data, "the lesson", _KEYS, _REQUIRED, error=LessonFormatError)
    if top["lesson"] != LESSON_VERSION:
        raise LessonFormatError(f"lesson must be {LESSON_VERSION} (the format this Coven reads)")
    given_id = json_text(top["id"], "id", 40, error=LessonFormatError)
    if not _ID.fullmatch(given_id):
        raise LessonFormatError("id must be lower-case letters, digits and dashes")
    game_id = json_text(top["game"], "game", 40, error=LessonFormatError)
    try:
        spec = get_game(game_id)
    except UnknownGameError as error:
        raise LessonFormatError(f"game: {error}") from None
    seed = top["seed"]
    if not is_whole_number(seed) or not 0 <= seed < 2 ** 63:
        raise LessonFormatError("seed must be a whole number from 0")
    options = json_object(top.get("options", {}), "options", {o.name for o in spec.options},
                          error=LessonFormatError)
    try:
        options = spec.resolve_options(options)
    except InvalidOptionsError as error:
        raise LessonFormatError(f"options: {error}") from None
    names = tuple(_name(name, index)
                  for index, name in enumerate(json_list(top["names"], "names", error=LessonFormatError)))
    if len(names) not in spec.seat_counts:
        raise LessonFormatError(f"names: {spec.title} is played by {' or '.join(map(str, spec.seat_counts))}")
    raw_steps = json_list(top["steps"], "steps", error=LessonFormatError)
    if not raw_steps or len(raw_steps) > MAX_STEPS:
        raise LessonFormatError(f"steps must hold from 1 to {MAX_STEPS} steps")
    lines = _step_lines(text)
    steps = tuple(_step(raw, number, lines[number - 1] if len(lines) >= number else 0, len(names))
                  for number, raw in enumerate(raw_steps, start=1))
    if not any(step.by == "you" for step in steps):
        raise LessonFormatError("steps: a lesson needs at least one move by the learner")
    lesson = Lesson(lesson_id=given_id, game_id=spec.game_id,
                    title=_words(top["title"], "title", required=True), seed=seed, options=options,
                    names=names, intro=_words(top["intro"], "intro", required=True),
                    end=_words(top["end"], "end", required=True), steps=steps)
    _check_rules(lesson, play_script(lesson, spec), spec)
    return lesson


def _shipped_files() -> list[Any]:
    folder = resources.files("engine.core.lessons").joinpath("files")
    return sorted((entry for entry in folder.iterdir() if entry.name.endswith(".json")), key=lambda e: e.name)


def shipped_lesson_ids() -> list[str]:
    """The ids of the lessons Coven ships, from their file names (``1_wizards-cup.json``), without reading them.

    The menu counts lessons with it; :func:`shipped_lessons` checks each file's id is its name's.
    """
    return [entry.name.removesuffix(".json").partition("_")[2] for entry in _shipped_files()]


def shipped_lessons() -> list[Lesson]:
    """The lessons that come with Coven, in file-name order.

    Raises:
        LessonError: a shipped file is broken, or its id is not its file name's (the message names it).
    """
    lessons = []
    for entry, lesson_id in zip(_shipped_files(), shipped_lesson_ids(), strict=True):
        try:
            lesson = loads(entry.read_text(encoding="utf-8"))
        except LessonError as error:
            raise type(error)(f"shipped lesson {entry.name}: {error}") from None
        if lesson.lesson_id != lesson_id:
            raise LessonFormatError(f"shipped lesson {entry.name}: its id is {lesson.lesson_id!r}, not {lesson_id!r}")
        lessons.append(lesson)
    return lessons
