"""What changes when Coven runs for a connection of ``coven serve``.

A served player is someone else at the server's keyboard, in effect: they may
play, but not read or write the server's files, and they see only their own
account's sessions (see :meth:`saves.SessionStore.list_sessions`).
"""

from __future__ import annotations

from textual.app import App

NO_FILES = "Over SSH, Coven reads and writes no files on the server; this works in a Coven of your own."
"""Why a file action is refused to a served player."""


def refuses_files(app: App[object]) -> bool:
    """True (after telling the player why) when ``app`` serves an SSH connection, which may not touch files."""
    if getattr(app, "served", False):
        app.notify(NO_FILES, title="No files over SSH", severity="warning", timeout=8)
        return True
    return False
