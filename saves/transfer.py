"""Export a session to a JSON file and import one back, validating everything.

An import checks the whole file, replaying every action, before it writes
anything; a bad file raises :class:`SessionFileError` and leaves the store as
it was. Each refusal names the field (a JSON path such as ``log[3].seat``,
counting from 0) and the problem in words.

Since format version 2 an export carries a SHA-256 digest of its content, so a
file edited or damaged after export is told apart from a real one. Such a file
is still imported when it is valid (a player may fix a typo in a name), with a
warning; the digest is no security boundary, since anyone can recompute it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import GameSpec, get_game
from engine.core import (
    InvalidOptionsError,
    UnknownGameError,
    UnknownRulesVersionError,
    canonical_json,
    check_rules_version,
)
from engine.core.json_fields import is_whole_number, kind_of
from engine.core.registry import MAX_OPTION_BYTES
from engine.core.textfile import TextFileError, TextFileExistsError, read_text_file, write_text_file
from engine.core.undo import Timeline, is_undo, undo_entry
from saves.errors import SessionFileError, SessionFileExistsError
from saves.file_text import check_file_text
from saves.records import SeatInfo
from saves.session import check_bot_levels, status_of
from saves.store import SessionStore, utc_now
from saves.table_clock import session_clock

FORMAT = "coven-session"
FORMAT_VERSION = 3
"""Version 2 added the ``digest``, version 3 the ``rules`` version the game is played under; older files still
import (without a ``rules`` field a session was played under rules version 1)."""
MAX_FILE_BYTES = 16 * 1024 * 1024
"""Larger files are refused before parsing; a long real session is well under 1 MiB."""
MAX_ACTIONS = 50_000
"""The most actions a file's log may hold; real games take a few hundred."""
MAX_DEPTH = 32
"""How deeply a file may nest objects and lists; Coven's own exports use fewer than 10 levels."""
MAX_NUMBER_DIGITS = 40
"""Longer numbers are refused while parsing (none of Coven's numbers needs more than 20 digits)."""
CHANGED_WARNING = ("This file was changed after export (its content does not match its digest). It was imported "
                   "because it still replays by the rules; the digest is no security boundary.")

_SQLITE_INT = (-(2**63), 2**63 - 1)


def export_session(
    store: SessionStore, session_id: int, path: str | os.PathLike[str], *, overwrite: bool = False
) -> Path:
    """Write one session to ``path`` as a ``coven-session`` JSON file.

    The file is written to a temporary name and renamed, so a failed export
    never leaves a half-written file behind. An existing file is replaced
    only when ``overwrite`` is true; this is the one place that decides.

    Returns:
        The path written.

    Raises:
        SessionNotFoundError: no such session.
        SessionFileExistsError: ``path`` exists and ``overwrite`` is false;
            nothing was written.
        SessionFileError: the file cannot be written.
    """
    target = Path(path)
    if not overwrite and os.path.lexists(target):
        raise SessionFileExistsError(target)
    record = store.load(session_id)
    try:
        title = get_game(record.game_id).title
    except UnknownGameError:
        title = record.game_id
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": record.game_id,
        "title": title,
        "options": record.options,
        "seed": record.seed,
        "rules": record.rules_version,
        "seats": [seat.to_json() for seat in record.seats],
        "log": [{"seat": entry.seat, "action": entry.action} for entry in record.log],
        "status": record.status,
        "progress": record.progress,
        "result": record.result,
        "created": record.created,
        "updated": record.updated,
        "exported": utc_now(),
    }
    clock = session_clock(store, session_id)
    if clock is not None:  # played at a table with a clock: its time control and every move's time left
        data = clock.to_json()
        document["clock"] = {key: data[key] for key in ("base", "increment", "asks", "marks")}
    document["digest"] = content_digest(document)
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    try:
        # A temporary file renamed into place: never half a file, never a FIFO or device opened.
        return write_text_file(target, text, overwrite=overwrite)
    except TextFileExistsError:
        raise SessionFileExistsError(target) from None
    except TextFileError as error:
        raise SessionFileError(str(error)) from None


def content_digest(document: Mapping[str, Any]) -> str:
    """``"sha256:<hex>"`` of a session file's canonical JSON, its ``digest`` field left out.

    Canonical JSON (sorted keys, no spaces, ASCII escapes) makes the digest
    independent of how the file was indented or re-saved by an editor.
    """
    content = {key: value for key, value in document.items() if key != "digest"}
    return "sha256:" + hashlib.sha256(canonical_json(content).encode("ascii")).hexdigest()


def _parse_int(digits: str) -> int:
    # Bounded before int(): Python refuses more than 4300 digits with a message about its own limits.
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"it holds a number {len(digits)} digits long; at most {MAX_NUMBER_DIGITS} are accepted")
    return int(digits)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def read_session_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and parse a session file without validating its contents.

    Only a regular file is read (never a pipe or device such as ``/dev/zero``,
    which could block or never end), and at most ``MAX_FILE_BYTES + 1`` bytes
    of it, so a file that grows while being read cannot exhaust memory.

    Raises:
        SessionFileError: not a regular file, unreadable, too large, not UTF-8
            or not a JSON object.
    """
    source = Path(path)
    try:
        text = read_text_file(source, MAX_FILE_BYTES, "a Coven session file")
    except TextFileError as error:
        raise SessionFileError(str(error)) from None
    try:
        document = json.loads(text, parse_constant=_reject_constant, parse_int=_parse_int)
    except json.JSONDecodeError as error:
        raise SessionFileError(
            f"{source} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})."
        ) from None
    except RecursionError:
        raise SessionFileError(f"{source} nests objects and lists deeper than {MAX_DEPTH} levels.") from None
    except ValueError as error:
        raise SessionFileError(f"{source} is not a Coven session file: {error}.") from None
    if not isinstance(document, dict):
        raise SessionFileError(f"{source} is not a Coven session file (expected a JSON object).")
    return document


def _cut(text: str, limit: int = 160) -> str:
    """``text`` shortened for a message: an engine's reason may quote a value megabytes long."""
    return text if len(text) <= limit else f"{text[:limit]}..."


def _shape_problem(document: object) -> str | None:
    """Where ``document`` nests deeper than :data:`MAX_DEPTH` or holds overlong text, or None.

    Only lengths are looked at, so a file of megabyte-long strings is refused
    before anything reads them character by character.
    """
    stack: list[tuple[object, int, str]] = [(document, 0, "")]
    while stack:
        value, depth, where = stack.pop()
        if depth > MAX_DEPTH:
            return f"The file nests objects and lists deeper than {MAX_DEPTH} levels (at {_cut(where, 60)})."
        if isinstance(value, str) and len(value) > MAX_OPTION_BYTES:
            return (f"The file's {_cut(where, 60) or 'text'} is longer than {MAX_OPTION_BYTES // 1024} KiB; "
                    f"no text in a session is that long.")
        if isinstance(value, dict):
            if any(len(key) > MAX_OPTION_BYTES for key in value):
                return f"A key in the file's {_cut(where, 60) or 'top level'} is longer than " \
                       f"{MAX_OPTION_BYTES // 1024} KiB."
            stack.extend((item, depth + 1, f"{where}.{key}" if where else str(key)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, depth + 1, f"{where}[{index}]") for index, item in enumerate(value))
    return None


def _check_header(document: Mapping[str, Any]) -> GameSpec:
    if document.get("format") != FORMAT:
        raise SessionFileError("This is not a Coven session file (its \"format\" is not \"coven-session\").")
    version = document.get("version")
    if not is_whole_number(version):
        raise SessionFileError(f"The file's format version is missing or not a whole number (\"version\" is "
                               f"{kind_of(version)}).")
    if version > FORMAT_VERSION:
        raise SessionFileError(
            f"This file was written by a newer Coven (format version {version}; this Coven reads version "
            f"{FORMAT_VERSION}). Upgrade Coven to import it."
        )
    if version < 1:
        raise SessionFileError(f"Unsupported session file format version {version}.")
    game_id = document.get("game")
    if not isinstance(game_id, str):
        raise SessionFileError(f"The file does not say which game it is (\"game\" is {kind_of(game_id)}, "
                               f"not a game id).")
    try:
        return get_game(game_id)
    except UnknownGameError:
        raise SessionFileError(f"The file is a game of {game_id!r}, which this Coven does not know.") from None


def _check_seats(spec: GameSpec, data: object) -> list[SeatInfo]:
    if not isinstance(data, list):
        raise SessionFileError(f"The file's \"seats\" must be a list, not {kind_of(data)}.")
    if len(data) not in spec.seat_counts:
        counts = " or ".join(str(count) for count in spec.seat_counts)
        raise SessionFileError(f"{spec.title} is played with {counts} seats, but the file has {len(data)}.")
    seats = []
    for index, item in enumerate(data):
        where = f"seats[{index}] (seat {index + 1})"
        if not isinstance(item, dict):
            raise SessionFileError(f"Seat {index + 1} is invalid: {where} must be an object with a name, a kind "
                                   f"and a bot_level, not {kind_of(item)}.")
        # Types first, so a seat's checks never meet an object where text belongs.
        for key, allowed, wanted in (("name", (str,), "text"), ("kind", (str,), "text"),
                                     ("bot_level", (str, type(None)), "text or null")):
            if key in item and not isinstance(item[key], allowed):
                raise SessionFileError(f"Seat {index + 1} is invalid: seats[{index}].{key} must be {wanted}, "
                                       f"not {kind_of(item[key])}.")
        try:
            seats.append(SeatInfo.from_json(item))
        except ValueError as error:
            raise SessionFileError(f"Seat {index + 1} is invalid ({where}): {error}.") from None
    return seats


def _check_log(data: object, seat_count: int) -> list[tuple[int | None, dict[str, Any]]]:
    if not isinstance(data, list):
        raise SessionFileError(f"The file's \"log\" must be a list, not {kind_of(data)}.")
    if len(data) > MAX_ACTIONS:
        raise SessionFileError(f"The file's log has {len(data)} actions; at most {MAX_ACTIONS} are accepted.")
    log: list[tuple[int | None, dict[str, Any]]] = []
    for index, item in enumerate(data):
        number = index + 1
        if not isinstance(item, dict):
            raise SessionFileError(f"Action {number} is malformed: log[{index}] must be an object "
                                   f"{{\"seat\": ..., \"action\": {{...}}}}, not {kind_of(item)}.")
        if not isinstance(item.get("action"), dict):
            raise SessionFileError(f"Action {number} is malformed: log[{index}].action must be an object, "
                                   f"not {kind_of(item.get('action')) if 'action' in item else 'missing'}.")
        seat = item.get("seat")
        if seat is not None and not is_whole_number(seat):
            raise SessionFileError(f"Action {number} is malformed: log[{index}].seat must be a whole number "
                                   f"or null, not {kind_of(seat)}.")
        if seat is not None and not 0 <= seat < seat_count:
            raise SessionFileError(f"Action {number} names seat {_cut(str(seat), 20)}, which is not at this table "
                                   f"(log[{index}].seat).")
        log.append((seat, item["action"]))
    return log


def _rules_version(spec: GameSpec, document: Mapping[str, Any]) -> int:
    """The rules version a file's session is played under (1 in files from before format version 3)."""
    if document.get("version", 1) < 3:
        return 1
    version = document.get("rules")
    if not is_whole_number(version):
        raise SessionFileError(f"The file's \"rules\" must be a whole number (the version of {spec.title}'s "
                               f"rulings it was played under), not {kind_of(version)}.")
    try:
        return check_rules_version(spec.rules, version)
    except UnknownRulesVersionError as error:
        raise SessionFileError(f"This {spec.title} game cannot be imported: {error}.") from None


def _replay(spec: GameSpec, options: Mapping[str, Any], seed: int, seats: list[SeatInfo],
            log: list[tuple[int | None, dict[str, Any]]],
            rules_version: int) -> tuple[Any, list[tuple[int | None, dict[str, Any]]]]:
    """Replay the log action by action; return the final state and the log in its canonical form."""
    rules = spec.rules
    try:
        state = rules.new_state(options, seed, len(seats), [seat.name for seat in seats])
        state = rules.under_rules(state, rules_version)
    except ValueError as error:
        raise SessionFileError(f"The file's game cannot be set up: {error}.") from None
    canonical: list[tuple[int | None, dict[str, Any]]] = []
    timeline = Timeline(rules, state, [seat.name for seat in seats])
    for index, (seat, action) in enumerate(log):
        try:
            timeline.play(seat, action)
            canonical.append((seat, undo_entry() if is_undo(action)
                              else rules.action_to_json(rules.parse_action(action))))
        except ValueError as error:  # MalformedActionError and IllegalActionError carry a reason
            reason = _cut(getattr(error, "reason", None) or str(error))
            raise SessionFileError(f"The file's log does not replay: action {index + 1} is illegal: {reason} "
                                   f"(log[{index}].action).") from None
        except Exception:  # noqa: BLE001 - untrusted data must never crash the app, nor show its internals
            raise SessionFileError(f"The file's log does not replay: action {index + 1} is not a {spec.title} "
                                   f"action; one of its fields holds the wrong kind of value "
                                   f"(log[{index}].action).") from None
    return timeline.state, canonical


@dataclass(frozen=True)
class ImportedSession:
    """What an import stored.

    Attributes:
        session_id: The new session's id.
        warning: Said to the player alongside success (the file was changed after export), or None.
    """

    session_id: int
    warning: str | None = None


def import_session(store: SessionStore, path: str | os.PathLike[str]) -> int:
    """Validate a session file completely, then store it as a new session.

    Returns:
        The new session's id (:func:`import_session_file` also says whether the file was changed).

    Raises:
        SessionFileError: anything is wrong with the file; the message names the
            problem (e.g. "action 17 is illegal: ..."). Nothing is written.
    """
    return import_session_file(store, path).session_id


def _changed_warning(document: Mapping[str, Any]) -> str | None:
    """:data:`CHANGED_WARNING` when a digest-carrying file no longer matches it (version 1 had none)."""
    if document.get("version") == 1 and "digest" not in document:
        return None
    digest = document.get("digest")
    if isinstance(digest, str) and digest == content_digest(document):
        return None
    return CHANGED_WARNING


def import_session_file(store: SessionStore, path: str | os.PathLike[str]) -> ImportedSession:
    """Validate a session file completely, then store it as a new session.

    A valid file whose digest no longer matches its content is imported with a
    warning (:data:`CHANGED_WARNING`); an invalid one is refused either way.

    Raises:
        SessionFileError: anything is wrong with the file; the message names the
            field and the problem. Nothing is written.
    """
    document = read_session_file(path)
    shape = _shape_problem(document)
    if shape is not None:
        raise SessionFileError(shape)
    spec = _check_header(document)
    check_file_text(document)  # every string, before any of them is used or shown
    options_data = document.get("options", {})
    if not isinstance(options_data, dict):
        raise SessionFileError(f"The file's \"options\" must be an object, not {kind_of(options_data)}.")
    try:
        options = spec.resolve_options(options_data)
    except ValueError as error:
        raise SessionFileError(f"The file's options are invalid: {error}.") from None
    seed = document.get("seed")
    if not is_whole_number(seed):
        raise SessionFileError(f"The file's \"seed\" must be a whole number, not {kind_of(seed)}.")
    if not _SQLITE_INT[0] <= seed <= _SQLITE_INT[1]:
        raise SessionFileError("The file's \"seed\" is too large (at most 19 digits, as Coven writes it).")
    seats = _check_seats(spec, document.get("seats"))
    try:
        check_bot_levels(spec, seats)
    except InvalidOptionsError as error:
        message = str(error)
        raise SessionFileError(f"{message[:1].upper()}{message[1:]}.") from None
    log = _check_log(document.get("log"), len(seats))
    rules_version = _rules_version(spec, document)
    state, canonical = _replay(spec, options, seed, seats, log, rules_version)
    status, progress, result_text = status_of(spec.rules, state, seats)
    session_id = store.create_session(
        spec.game_id,
        options,
        seed,
        seats,
        status=status,
        progress=progress,
        result_text=result_text,
        log=canonical,
        rules_version=rules_version,
    )
    return ImportedSession(session_id, _changed_warning(document))
