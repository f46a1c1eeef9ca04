"""Checks for the fields of JSON that comes from outside (files, saved actions).

Every check names the field in its message ("seat must be a whole number from
0 to 1, not 'x'") and raises the caller's own error class, so a Lab file, a
pillar and an action each keep their error type while sharing one wording.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, TypeGuard

_SHOWN = 40
"""How many characters of a bad value a message quotes: a hostile file may hold megabytes."""


class FieldError(ValueError):
    """A JSON field holds the wrong kind of value; the message names the field."""


def kind_of(value: object) -> str:
    """What a JSON value is, in words for a message: "an object", "text", "null"..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "an object"


def is_whole_number(value: object) -> TypeGuard[int]:
    """True for a JSON integer; true/false is not one, though Python's bool is an int."""
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """A bad value for a message: a number or short text as itself, anything else by its kind."""
    if is_whole_number(value) or (isinstance(value, str) and len(value) <= _SHOWN):
        return repr(value)
    return kind_of(value)


def whole_number(value: object, field: str, low: int | None = None, high: int | None = None,
                 *, error: type[Exception] = FieldError) -> int:
    """``value`` as an int within ``low..high`` (either bound may be open).

    Raises:
        error: ``value`` is not a whole number in range.
    """
    if is_whole_number(value) and (low is None or value >= low) and (high is None or value <= high):
        return value
    if low is not None and high is not None:
        wanted = f"a whole number from {low} to {high}"
    elif low is not None:
        wanted = f"a whole number of at least {low}"
    elif high is not None:
        wanted = f"a whole number of at most {high}"
    else:
        wanted = "a whole number"
    raise error(f"{field} must be {wanted}, not {_shown(value)}")


def json_text(value: object, field: str, limit: int, *, error: type[Exception] = FieldError) -> str:
    """``value`` as text of at most ``limit`` characters.

    Raises:
        error: ``value`` is not text, or too long.
    """
    if not isinstance(value, str):
        raise error(f"{field} must be text, not {kind_of(value)}")
    if len(value) > limit:
        raise error(f"{field} must be text of at most {limit} characters, not {len(value)}")
    return value


def json_list(value: object, field: str, *, error: type[Exception] = FieldError) -> list[Any]:
    """``value`` as a JSON list.

    Raises:
        error: ``value`` is not a list.
    """
    if not isinstance(value, list):
        raise error(f"{field} must be a list, not {kind_of(value)}")
    return value


def json_object(value: object, field: str, keys: Collection[str], required: Collection[str] = (),
                *, error: type[Exception] = FieldError) -> Mapping[str, Any]:
    """``value`` as a JSON object whose keys are among ``keys`` and include ``required``.

    Raises:
        error: ``value`` is not an object, has a key not in ``keys``, or lacks a required one.
    """
    if not isinstance(value, Mapping):
        raise error(f"{field} must be an object, not {kind_of(value)}")
    problems = key_problems(value, field, keys, required)
    if problems:
        raise error(problems[0])
    return value


def key_problems(value: Mapping[Any, Any], field: str, keys: Collection[str],
                 required: Collection[str] = ()) -> list[str]:
    """Every unknown key of the object ``value``, then every missing required one, each as a message.

    The wording is :func:`json_object`'s, for a reader that reports every mistake instead of the first.
    """
    unknown = sorted(str(key) for key in value if key not in keys)
    missing = sorted(key for key in required if key not in value)
    return [*(f"{field} has an unknown key {_shown(key)}" for key in unknown),
            *(f"{field} is missing key {key!r}" for key in missing)]
