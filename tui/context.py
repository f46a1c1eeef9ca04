"""What every screen may read of the running Coven app, typed, without importing the app.

Screens, widgets and games never import :mod:`tui.app` (``tests/project/test_layers.py``
checks it): the app imports them. They read the shared state through
:func:`coven`, typed by :class:`CovenContext`, which :class:`tui.app.CovenApp`
satisfies; they move between screens by posting :mod:`tui.navigation`
messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.app import App

from tui.navigation import GoToMenu

if TYPE_CHECKING:
    from textual.message_pump import MessagePump
    from textual.screen import Screen

    from saves import SessionStore
    from tui.table_seating import TableSeating


@runtime_checkable
class CovenContext(Protocol):
    """The state Coven's screens share: the session store, who is playing, and the tables."""

    @property
    def store(self) -> SessionStore | None:
        """The open session store, or None when it could not be opened (see ``store_problem``)."""

    @property
    def store_problem(self) -> str | None:
        """Why there is no store, in words; None when it is open."""

    @property
    def account(self) -> str | None:
        """The ``coven serve`` account of an SSH connection; None at this machine, which sees all."""

    @property
    def account_is_private(self) -> bool:
        """True when the account's preferences are this player's alone: at this machine, or signed in over SSH.

        Without sign-in (``coven serve --auth none``) anyone may use any name, so the app's account is a
        visit account (:func:`saves.preferences.begin_visit`): its choices and sessions last for the visit.
        """

    @property
    def base_auto_delay(self) -> float:
        """The seconds between automatic steps that the settings ask for, before Reduced motion shortens them."""

    @property
    def served(self) -> bool:
        """True when Coven runs for an SSH connection, which may touch no files on the server."""

    @property
    def tables(self) -> TableSeating:
        """Hosting, joining and leaving shared tables, with this process's presence claim."""

    def game_title(self, game_id: str) -> str:
        """The display name of ``game_id``, or the id itself if unknown."""

    def refuse_live_table(self, session_id: int, doing: str) -> bool:
        """True (after saying why) when ``session_id`` is a live table's game, which only its table shows."""

    def send_to_terminal(self, text: str) -> None:
        """Write ``text`` (a bell, an escape Coven composed itself) straight to the player's terminal."""


def coven_or_none(node: MessagePump) -> CovenContext | None:
    """The app running ``node`` (or ``node`` itself, an app) as Coven's context; None under another app."""
    app = node if isinstance(node, App) else node.app
    return app if isinstance(app, CovenContext) else None


def coven(node: MessagePump) -> CovenContext:
    """The app running ``node`` as Coven's context.

    Raises:
        LookupError: ``node`` runs in another app, which does not share Coven's state.
    """
    context = coven_or_none(node)
    if context is None:
        raise LookupError(f"{type(node).__name__} needs Coven's app, not {type(node.app).__name__}")
    return context


def leave_to_menu(screen: Screen[Any]) -> None:
    """Go back to the main menu from ``screen``; under another app (a test's host) just close ``screen``."""
    if coven_or_none(screen) is None:
        screen.dismiss(None)
    else:
        screen.app.post_message(GoToMenu())
