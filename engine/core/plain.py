"""A state's dataclasses as plain values, the way :func:`dataclasses.asdict` gives them, only faster.

Every saved move serialises the whole state at least once (its digest), and a
random playout does so at every step. :func:`dataclasses.asdict` deep-copies
every leaf it meets, an int or a string as much as a list, which made it a
third of the time of a Wizards Cup game. :func:`plain_fields` builds the same
dicts, lists and tuples but shares the leaves, which are immutable.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

_SHARED_LEAVES = (str, int, float, bool, type(None))
"""Leaves that cannot change, so the result may hold the very same object (enums of str or int included)."""

_EXACT_LEAVES = frozenset(_SHARED_LEAVES)
"""The leaf types themselves, for a quick lookup before any isinstance."""

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Each dataclass's field names, looked up once."""


def plain_fields(instance: Any) -> dict[str, Any]:
    """``dataclasses.asdict(instance)``: the same keys, values and container types, leaves shared.

    Raises:
        TypeError: ``instance`` is not a dataclass instance.
    """
    if not dataclasses.is_dataclass(instance) or isinstance(instance, type):
        raise TypeError(f"{type(instance).__name__} is not a dataclass instance")
    plain = plain_value(instance)
    assert isinstance(plain, dict)
    return plain


def plain_value(value: Any) -> Any:
    """One value as :func:`dataclasses.asdict` would hold it."""
    kind = type(value)
    if kind in _EXACT_LEAVES:
        return value
    if kind is list:
        return [item if type(item) in _EXACT_LEAVES else plain_value(item) for item in value]
    names = _FIELD_NAMES.get(kind)
    if names is not None:
        return {name: plain_value(getattr(value, name)) for name in names}
    if kind is dict:
        return {plain_value(key): plain_value(item) for key, item in value.items()}
    if kind is tuple:
        return tuple(plain_value(item) for item in value)
    if isinstance(value, _SHARED_LEAVES):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        _FIELD_NAMES[kind] = tuple(item.name for item in dataclasses.fields(value))
        return plain_value(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple is rebuilt field by field
        return kind(*[plain_value(item) for item in value])
    if isinstance(value, (list, tuple)):
        return kind(plain_value(item) for item in value)
    if isinstance(value, dict):
        items = [(plain_value(key), plain_value(item)) for key, item in value.items()]
        factory = getattr(value, "default_factory", None)
        return kind(factory, items) if hasattr(value, "default_factory") else kind(items)
    return copy.deepcopy(value)  # anything else (a set, an object) is copied, as asdict does
