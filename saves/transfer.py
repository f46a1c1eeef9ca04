"""Export a session to a JSON file and import one back, validating everything.

An import checks the whole file, replaying every action, before it writes
anything; a bad file raises :class:`SessionFileError` and leaves the store as
it was.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeGuard

from engine import GameSpec, get_game
from engine.core import InvalidOptionsError, UnknownGameError
from engine.core.textfile import TextFileError, read_text_file
from saves.errors import SessionFileError, SessionFileExistsError
from saves.file_text import check_file_text
from saves.records import SeatInfo
from saves.session import check_bot_levels, status_of
from saves.store import SessionStore, utc_now

FORMAT = "coven-session"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 64 * 1024 * 1024
"""Larger files are refused before parsing; real sessions are far smaller."""

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
        "seats": [seat.to_json() for seat in record.seats],
        "log": [{"seat": entry.seat, "action": entry.action} for entry in record.log],
        "status": record.status,
        "progress": record.progress,
        "result": record.result,
        "created": record.created,
        "updated": record.updated,
        "exported": utc_now(),
    }
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            if overwrite:
                os.replace(temp_name, target)
            else:
                _rename_without_replacing(temp_name, target)
        finally:
            Path(temp_name).unlink(missing_ok=True)
    except OSError as error:
        raise SessionFileError(f"Could not write {target}: {error.strerror or error}") from None
    return target


def _rename_without_replacing(temp_name: str, target: Path) -> None:
    """Give the finished temporary file the name ``target`` unless that name is taken.

    A hard link fails atomically if ``target`` appeared since it was checked;
    where links are unsupported (some file systems), check once more and rename.
    """
    try:
        os.link(temp_name, target)
    except FileExistsError:
        raise SessionFileExistsError(target) from None
    except OSError:
        if os.path.lexists(target):
            raise SessionFileExistsError(target) from None
        os.replace(temp_name, target)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a session file")


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
        document = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise SessionFileError(
            f"{source} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})."
        ) from None
    except (ValueError, RecursionError) as error:
        raise SessionFileError(f"{source} is not valid JSON ({error}).") from None
    if not isinstance(document, dict):
        raise SessionFileError(f"{source} is not a Coven session file (expected a JSON object).")
    return document


def _is_int(value: object) -> TypeGuard[int]:
    # bool is an int subclass, but true/false is never a valid number here.
    return isinstance(value, int) and not isinstance(value, bool)


def _check_header(document: Mapping[str, Any]) -> GameSpec:
    if document.get("format") != FORMAT:
        raise SessionFileError("This is not a Coven session file (its \"format\" is not \"coven-session\").")
    version = document.get("version")
    if not _is_int(version):
        raise SessionFileError("The file's format version is missing or not a whole number.")
    if version > FORMAT_VERSION:
        raise SessionFileError(
            f"This file was written by a newer Coven (format version {version}; this Coven reads version "
            f"{FORMAT_VERSION}). Upgrade Coven to import it."
        )
    if version != FORMAT_VERSION:
        raise SessionFileError(f"Unsupported session file format version {version}.")
    game_id = document.get("game")
    if not isinstance(game_id, str):
        raise SessionFileError("The file does not say which game it is (\"game\" is missing).")
    try:
        return get_game(game_id)
    except UnknownGameError:
        raise SessionFileError(f"The file is a game of {game_id!r}, which this Coven does not know.") from None


def _check_seats(spec: GameSpec, data: object) -> list[SeatInfo]:
    if not isinstance(data, list):
        raise SessionFileError("The file's \"seats\" must be a list.")
    if len(data) not in spec.seat_counts:
        counts = " or ".join(str(count) for count in spec.seat_counts)
        raise SessionFileError(f"{spec.title} is played with {counts} seats, but the file has {len(data)}.")
    seats = []
    for number, item in enumerate(data, start=1):
        try:
            seats.append(SeatInfo.from_json(item))
        except ValueError as error:
            raise SessionFileError(f"Seat {number} is invalid: {error}.") from None
    return seats


def _check_log(data: object, seat_count: int) -> list[tuple[int | None, dict[str, Any]]]:
    if not isinstance(data, list):
        raise SessionFileError("The file's \"log\" must be a list.")
    log: list[tuple[int | None, dict[str, Any]]] = []
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("action"), dict):
            raise SessionFileError(f"Action {number} is malformed: expected {{\"seat\": ..., \"action\": {{...}}}}.")
        seat = item.get("seat")
        if seat is not None and (not _is_int(seat) or not 0 <= seat < seat_count):
            raise SessionFileError(f"Action {number} names seat {seat!r}, which is not at this table.")
        log.append((seat, item["action"]))
    return log


def import_session(store: SessionStore, path: str | os.PathLike[str]) -> int:
    """Validate a session file completely, then store it as a new session.

    Returns:
        The new session's id.

    Raises:
        SessionFileError: anything is wrong with the file; the message names the
            problem (e.g. "action 17 is illegal: ..."). Nothing is written.
    """
    document = read_session_file(path)
    spec = _check_header(document)
    check_file_text(document)  # every string, before any of them is used or shown
    options_data = document.get("options", {})
    if not isinstance(options_data, dict):
        raise SessionFileError("The file's \"options\" must be an object.")
    try:
        options = spec.resolve_options(options_data)
    except ValueError as error:
        raise SessionFileError(f"The file's options are invalid: {error}.") from None
    seed = document.get("seed")
    if not _is_int(seed) or not _SQLITE_INT[0] <= seed <= _SQLITE_INT[1]:
        raise SessionFileError("The file's \"seed\" is missing or not a whole number.")
    seats = _check_seats(spec, document.get("seats"))
    try:
        check_bot_levels(spec, seats)
    except InvalidOptionsError as error:
        message = str(error)
        raise SessionFileError(f"{message[:1].upper()}{message[1:]}.") from None
    log = _check_log(document.get("log"), len(seats))
    rules = spec.rules
    try:
        state = rules.replay(options, seed, len(seats), log, [seat.name for seat in seats])
        canonical = [(seat, rules.action_to_json(rules.parse_action(action))) for seat, action in log]
    except ValueError as error:  # ReplayError says "action N is illegal: ..."
        raise SessionFileError(f"The file's log does not replay: {error}.") from None
    except Exception as error:  # noqa: BLE001 - untrusted data must never crash the app
        raise SessionFileError(f"The file's log could not be replayed ({type(error).__name__}: {error}).") from None
    status, progress, result_text = status_of(rules, state, seats)
    return store.create_session(
        spec.game_id,
        options,
        seed,
        seats,
        status=status,
        progress=progress,
        result_text=result_text,
        log=canonical,
    )
