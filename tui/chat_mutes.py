"""Who a player muted at a shared table, kept across reconnects.

Muting is the player's own (see :mod:`tui.screens.chat_pane`): nobody else
learns of it. It is kept in that player's preferences under one key, as the
tables muted at most recently (at most :data:`MAX_TABLES`), each with its
names (at most :data:`MAX_NAMES`). A table's names are per table, not global:
anyone may call themselves anything at another table. What is read back is
checked like any stored value: a damaged entry is dropped, never trusted.
"""

from __future__ import annotations

from collections.abc import Iterable

from saves import SessionStore, StoreError
from saves.preferences import get_preference, set_preference
from saves.records import MAX_NAME_LENGTH
from saves.table_records import normalise_code

KEY = "chat-muted"
"""The preference that holds the mutes."""

MAX_TABLES = 8
"""Tables whose mutes are kept; the least recently changed go first."""

MAX_NAMES = 32
"""Names one player may mute at one table."""

Entry = tuple[str, frozenset[str]]


def _entries(stored: object) -> list[Entry]:
    """The well-formed ``(code, names)`` entries of a stored value, most recent first."""
    if not isinstance(stored, list):
        return []
    found: list[Entry] = []
    for item in stored[:MAX_TABLES]:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], list)):
            continue
        code, names = item
        if not isinstance(code, str) or normalise_code(code) != code or any(c == code for c, _ in found):
            continue
        kept = frozenset(name for name in names[:MAX_NAMES] if is_mutable_name(name))
        if kept:
            found.append((code, kept))
    return found


def is_mutable_name(name: object) -> bool:
    """True for a name that can be kept as muted: case-folded text a player's name could be."""
    return isinstance(name, str) and 0 < len(name) <= MAX_NAME_LENGTH and name == name.casefold() \
        and name.isprintable()


def muted_at(store: SessionStore | None, account: str | None, code: str) -> set[str]:
    """The names ``account`` muted at table ``code`` (none when nothing usable is stored)."""
    if store is None:
        return set()
    for entry_code, names in _entries(get_preference(store, account, KEY)):
        if entry_code == code:
            return set(names)
    return set()


def remember_muted(store: SessionStore | None, account: str | None, code: str, names: Iterable[str]) -> bool:
    """Keep ``names`` as ``account``'s mutes at table ``code``, replacing what was kept for it.

    Returns:
        True when stored; False when it could not be (the mute then holds for this visit only).
    """
    if store is None:
        return False
    kept = frozenset(name for name in names if is_mutable_name(name))
    entries = [(c, n) for c, n in _entries(get_preference(store, account, KEY)) if c != code]
    if kept:
        entries.insert(0, (code, kept))
    entries = entries[:MAX_TABLES]
    while True:
        try:
            set_preference(store, account, KEY, [[c, sorted(n)] for c, n in entries])
            return True
        except StoreError:
            return False
        except ValueError:  # too large for one preference: the oldest tables' mutes give way
            if len(entries) <= 1:
                return False
            entries.pop()
