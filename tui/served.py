"""What changes when Coven runs for a connection of ``coven serve``.

A served player is someone else at the server's keyboard, in effect: they may
play, but not read or write the server's files, and they see only their own
account's sessions (see :meth:`saves.SessionStore.list_sessions`).
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from tui.context import coven_or_none

NO_FILES = "Over SSH, Coven reads and writes no files on the server; this works in a Coven of your own."
"""Why a file action is refused to a served player."""


def refuses_files(app: App[Any]) -> bool:
    """True (after telling the player why) when ``app`` serves an SSH connection, which may not touch files."""
    context = coven_or_none(app)
    if context is not None and context.served:
        app.notify(NO_FILES, title="No files over SSH", severity="warning", timeout=8)
        return True
    return False
