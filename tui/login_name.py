"""The name this terminal's player is offered by default: the login name.

Below the screens, so both the new-game form and :mod:`tui.table_seating` (which
opens no screen itself) offer the same name.
"""

from __future__ import annotations

import getpass

from saves.records import MAX_NAME_LENGTH


def login_name() -> str:
    """The login name, kept to letters, digits, spaces, ``-`` and ``_`` and capitalised; "Player 1" without one."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = ""
    login = "".join(ch for ch in login if ch.isalnum() or ch in " -_")[:MAX_NAME_LENGTH].strip()
    return login.capitalize() if login else "Player 1"
