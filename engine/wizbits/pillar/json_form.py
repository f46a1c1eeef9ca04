"""Pillar JSON: plain values for saves and digests, and strict parsing back.

The JSON holds only what play decided (counters, Continue units and the
unresolved units); stacks, buckets and subpillar tips are rebuilt on parsing,
which also re-checks every placement, so a hand-edited file cannot smuggle in
a pillar that play could not have built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.json_fields import json_object, whole_number
from engine.wizbits.pillar.restore import restore_pillar
from engine.wizbits.pillar.tree import (
    BASE_KINDS,
    FORMATS,
    InvalidPayloadError,
    JsonDict,
    MalformedPillarError,
    Pillar,
    Unit,
    UnitKind,
    plain_payload,
)

_UNIT_KEYS = frozenset({"uid", "kind", "owner", "name", "height", "iph", "branch", "on", "order", "payload"})
_PILLAR_KEYS = frozenset({"base", "format", "next_uid", "next_branch", "continues", "units"})
_COUNTERED = "countered"  # present only when a countered unit still matters, so older JSON stays valid


def unit_to_json(unit: Unit) -> JsonDict:
    """A unit as a JSON object; ``on`` is its foundation's uid."""
    return {
        "uid": unit.uid,
        "kind": unit.kind.value,
        "owner": unit.owner,
        "name": unit.name,
        "height": unit.height,
        "iph": unit.iph,
        "branch": unit.branch,
        "on": unit.foundation,
        "order": unit.order,
        "payload": plain_payload(unit.payload),
    }


def parse_unit(data: object) -> Unit:
    """Inverse of :func:`unit_to_json`.

    Raises:
        MalformedPillarError: a key is missing, unknown or of the wrong type.
    """
    fields = _object(data, _UNIT_KEYS, "unit")
    try:
        kind = UnitKind(fields["kind"])
    except ValueError:
        raise MalformedPillarError(f"unknown unit kind {fields['kind']!r}") from None
    name = fields["name"]
    if not isinstance(name, str):
        raise MalformedPillarError("a unit's name must be a string")
    try:
        payload = plain_payload(fields["payload"])
    except InvalidPayloadError as error:
        raise MalformedPillarError(str(error)) from None
    return Unit(
        uid=_int(fields, "uid"),
        kind=kind,
        owner=_int(fields, "owner"),
        name=name,
        height=_int(fields, "height"),
        iph=_int(fields, "iph"),
        branch=_int(fields, "branch"),
        foundation=_int(fields, "on"),
        order=_int(fields, "order"),
        payload=payload,
    )


def pillar_to_json(pillar: Pillar) -> JsonDict:
    """The pillar as plain JSON values; equal pillars give equal JSON."""
    data: JsonDict = {
        "base": pillar.base,
        "format": pillar.format,
        "next_uid": pillar.next_uid,
        "next_branch": pillar.next_branch,
        "continues": [unit_to_json(unit) for unit in pillar.continues],
        "units": [unit_to_json(unit) for unit in pillar.units()],
    }
    if pillar.countered:
        data[_COUNTERED] = [{"at": at, "unit": unit_to_json(unit)} for at, unit in pillar.countered]
    return data


def parse_pillar(data: object) -> Pillar:
    """Inverse of :func:`pillar_to_json`: ``parse_pillar(pillar_to_json(p)) == p``.

    Raises:
        MalformedPillarError: the JSON is malformed or breaks a pillar rule.
    """
    fields = _object(data, _PILLAR_KEYS, "pillar", optional=frozenset({_COUNTERED}))
    base, format = fields["base"], fields["format"]
    if base not in BASE_KINDS:
        raise MalformedPillarError(f"unknown base {base!r}")
    if format not in FORMATS:
        raise MalformedPillarError(f"unknown format {format!r}")
    continues, units = fields["continues"], fields["units"]
    countered = fields.get(_COUNTERED, [])
    if not isinstance(continues, list) or not isinstance(units, list) or not isinstance(countered, list):
        raise MalformedPillarError("continues, units and countered must be lists")
    return restore_pillar(
        base,
        format,
        _int(fields, "next_uid"),
        _int(fields, "next_branch"),
        [parse_unit(item) for item in continues],
        [parse_unit(item) for item in units],
        [(_int(entry, "at"), parse_unit(entry["unit"]))
         for entry in (_object(item, frozenset({"at", "unit"}), "countered unit") for item in countered)],
    )


def _object(data: object, keys: frozenset[str], what: str,
            optional: frozenset[str] = frozenset()) -> Mapping[str, Any]:
    return json_object(data, f"a {what}", keys | optional, keys, error=MalformedPillarError)


def _int(fields: Mapping[str, Any], key: str) -> int:
    return whole_number(fields[key], repr(key), error=MalformedPillarError)
