"""What the Sessions screen lists, and what it says in place of an empty table.

"No saved sessions yet" only when that is so: a sessions list SQLite cannot
read, a database moved aside on opening for damage, and a store that fails
(busy, locked, a full disk) each say what happened instead.
"""

from __future__ import annotations

from saves import SessionStore, StoreError
from saves.store_listing import DamagedListError, SessionListEntry

EMPTY_TEXT = "No saved sessions yet. Press n to start a new game, or i to import one from a file."
EMPTY_SERVED_TEXT = "No saved sessions of yours yet. Press n to start a new game."
"""Shown instead of the table when there is nothing saved."""

UNREADABLE_TEXT = "Your saved sessions cannot be read just now: {error}"
"""Shown when the store fails for a reason other than damage; the error says which."""

MOVED_ASIDE_TEXT = (
    "Your saved sessions are damaged: SQLite could not read the session database, so Coven moved it to "
    "{moved_to} (nothing was deleted) and started a fresh one, which holds none yet. Press n to start a new game."
)
MOVED_ASIDE_SERVED_TEXT = (
    "The saved sessions are damaged: Coven could not read its session database and set it aside, so this "
    "fresh one holds none yet. Press n to start a new game."
)
"""Shown instead of "No saved sessions yet" when the store moved a damaged database aside on opening.

The doctor checks the database in place, which is now the fresh one, so these say where the old one
went instead; over SSH the server's path is not shown."""


def read_listing(store: SessionStore | None, account: str | None, served: bool) -> tuple[list[SessionListEntry], str]:
    """The sessions ``account`` may see in ``store``, and the sentence for the screen when there are none."""
    try:
        entries = store.list_sessions(account) if store is not None else []
    except DamagedListError as error:
        return [], str(error)  # the sessions are there, only unreadable: it says so and names the doctor
    except StoreError as error:
        return [], UNREADABLE_TEXT.format(error=error)
    if store is not None and store.moved_to is not None:
        return entries, MOVED_ASIDE_SERVED_TEXT if served else MOVED_ASIDE_TEXT.format(moved_to=store.moved_to)
    return entries, EMPTY_SERVED_TEXT if served else EMPTY_TEXT
