"""Moving between Coven's screens: messages a screen posts and the app handles.

A screen never calls the app's navigation methods; it posts one of these to
``self.app`` (``self.app.post_message(OpenSession(4))``), and
:class:`tui.app.CovenApp` does the rest: loading the session, refusing a live
table's game, asking a screen with unsaved work before leaving it. So a screen
needs nothing of the app's class, and the app alone knows its screens.

Shared state (the store, the account, the tables) is read through
:func:`tui.context.coven` instead, and :func:`tui.context.leave_to_menu` goes
back to the menu. This module imports neither the app nor the context, so
:mod:`tui.table_seating` (which the context names) may post these messages too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from textual.message import Message

if TYPE_CHECKING:
    from engine.core.lessons import Lesson
    from saves import LiveSession
    from saves.lessons import LessonSession
    from tui.table_link import TableLink

Place = Literal["new_game", "continue", "sessions", "decks", "host_table", "join_table", "open_tables",
                "pillar_lab", "settings", "ratings", "your_tables", "learn"]
"""A main-menu place that opens just above the menu, closing the screens open now."""


class GoToMenu(Message):
    """Close every screen above the main menu."""


class OpenPlace(Message):
    """Open a main-menu place above the menu, once any screen with unsaved work agrees to close."""

    def __init__(self, place: Place) -> None:
        """Ask for ``place`` (``"sessions"``, ``"decks"`` ...)."""
        super().__init__()
        self.place: Place = place


class ShowRules(Message):
    """Show a game's rules on top of the current screen (``""``: let the player pick the game)."""

    def __init__(self, game_id: str = "") -> None:
        """Ask for the rules of ``game_id``."""
        super().__init__()
        self.game_id = game_id


class OpenHelp(Message):
    """Open the help for the screen in front, listing every key it answers (a chosen key is pressed there)."""


class QuitCoven(Message):
    """Quit Coven, once any screen with unsaved work agrees."""


class OpenSession(Message):
    """Resume a saved session (a live table's game is refused, with the reason)."""

    def __init__(self, session_id: int) -> None:
        """Ask to resume ``session_id``."""
        super().__init__()
        self.session_id = session_id


class OpenReplay(Message):
    """Replay a saved session."""

    def __init__(self, session_id: int) -> None:
        """Ask to replay ``session_id``."""
        super().__init__()
        self.session_id = session_id


class StartGame(Message):
    """Show the game screen of a session just created, above the main menu."""

    def __init__(self, live: LiveSession) -> None:
        """Ask to play ``live``."""
        super().__init__()
        self.live = live


class PlayAgain(Message):
    """Start a rematch of a finished game at this keyboard and show it in place of the finished one."""

    def __init__(self, live: LiveSession) -> None:
        """Ask for a rematch of ``live`` (see :mod:`saves.rematch`)."""
        super().__init__()
        self.live = live


class StartLesson(Message):
    """Show a lesson's game, its first ``step`` steps played already, above the Learn screen."""

    def __init__(self, lesson: Lesson, live: LessonSession, step: int, done_before: bool) -> None:
        """Ask to teach ``lesson`` in ``live`` from ``step`` (``done_before``: finished once already)."""
        super().__init__()
        self.lesson = lesson
        self.live = live
        self.step = step
        self.done_before = done_before


class OpenJoinForm(Message):
    """Show the join form for a live table's code, on top of the current screen."""

    def __init__(self, code: str) -> None:
        """Ask for the join form of table ``code``."""
        super().__init__()
        self.code = code


class OpenLobby(Message):
    """Show a table's lobby just above the main menu."""

    def __init__(self, link: TableLink) -> None:
        """Ask for the lobby ``link`` reaches."""
        super().__init__()
        self.link = link


class OpenTableGame(Message):
    """Show a started table's game just above the main menu (nothing happens if it is already in front)."""

    def __init__(self, live: LiveSession, link: TableLink) -> None:
        """Ask to play ``live``, the game of ``link``'s table."""
        super().__init__()
        self.live = live
        self.link = link
