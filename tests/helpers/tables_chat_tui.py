"""Shared by test_tables_chat_tui.py and other test modules, which import them from here.

notes, screen_text, moved here from tests/tui/test_tables_chat_tui.py.
"""

from __future__ import annotations

from tui.app import CovenApp


def screen_text(app: CovenApp) -> str:
    """Everything on screen, as plain text."""
    return app.export_screenshot().replace("&#160;", " ")


def notes(app: CovenApp) -> str:
    return "\n".join(str(note.message) for note in app._notifications)
