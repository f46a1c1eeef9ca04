"""Who a player muted at a shared table, kept across reconnects.

Muting is the player's own (see :mod:`tui.screens.chat_pane`): nobody else
learns of it. It is kept in that player's preferences under one key, as the
tables muted at most recently (at most :data:`MAX_TABLES`), each with its
names (at most :data:`MAX_NAMES`), but only for an account that is the
player's alone (``CovenContext.account_is_private``): over ``coven serve
--auth none`` everyone who joins with ``ssh CODE@host`` shares one account,
so there a mute lasts for the visit. A table's names are per table, not
global: anyone may call themselves anything at another table. What is read
back is checked like any stored value: a damaged entry is dropped, never
trusted; a store that cannot be read is never taken for an empty one.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.text import text_problem
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


MAX_FOLDED_LENGTH = 3 * MAX_NAME_LENGTH
"""The longest case-folded name: folding can lengthen a name (``ß`` becomes ``ss``) up to three times."""


def is_mutable_name(name: object) -> bool:
    """True for a name that can be kept as muted: the case-folded form of a name a player could have."""
    return isinstance(name, str) and 0 < len(name) <= MAX_FOLDED_LENGTH and name == name.casefold() \
        and text_problem(name) is None


def muted_at(store: SessionStore | None, account: str | None, code: str) -> set[str] | None:
    """The names ``account`` muted at table ``code`` (none when nothing usable is stored); None when unreadable."""
    if store is None:
        return set()
    try:
        stored = get_preference(store, account, KEY, strict=True)
    except StoreError:
        return None
    for entry_code, names in _entries(stored):
        if entry_code == code:
            return set(names)
    return set()


def remember_muted(store: SessionStore | None, account: str | None, code: str, names: Iterable[str]) -> bool:
    """Keep ``names`` as ``account``'s mutes at table ``code``, replacing what was kept for it.

    At most :data:`MAX_NAMES` are kept (the first in sorted order); the chat pane refuses more.

    Returns:
        True when stored; False when it could not be (the mute then holds for this visit only).
        The other tables' mutes are read first: if they cannot be, nothing is written over them.
    """
    if store is None:
        return False
    kept = frozenset(sorted(name for name in names if is_mutable_name(name))[:MAX_NAMES])
    try:
        stored = get_preference(store, account, KEY, strict=True)
    except StoreError:
        return False
    entries = [(c, n) for c, n in _entries(stored) if c != code]
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
