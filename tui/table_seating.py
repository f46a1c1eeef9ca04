"""The app's side of shared tables: its presence claim, and moving between lobby and game.

One Coven process is one player at one terminal (an SSH connection, or a
local ``coven``). Its presence claim is taken the first time it hosts or
joins, and given up when it leaves a table or quits. It opens no screen
itself: it posts :mod:`tui.navigation` messages (:class:`~tui.navigation.OpenLobby`, ...) that
the app turns into screens, so it imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from saves import LiveSession, StoreError
from saves.presence import Presence
from saves.tables import TableError, TableStore, normalise_code
from tui.kept_seat import forget, remember
from tui.login_name import login_name
from tui.navigation import OpenJoinForm, OpenLobby, OpenTableGame
from tui.table_link import TableLink

DEFAULT_NAME = "Player"
"""The name of a player who gave none (the join form asks for one)."""

if TYPE_CHECKING:
    from textual.message import Message
    from textual.notifications import SeverityLevel

    from saves import SessionStore


class SeatingHost(Protocol):
    """What :class:`TableSeating` needs of its app (:class:`tui.app.CovenApp`), so it need not import the app."""

    store: SessionStore | None
    store_problem: str | None

    def notify(self, message: str, *, title: str = ..., severity: SeverityLevel = ...,
               timeout: float | None = ..., markup: bool = ...) -> None:
        """Show a toast."""

    def post_message(self, message: Message) -> bool:
        """Queue ``message`` for the app (the :mod:`tui.navigation` moves)."""


class TableSeating:
    """Hosting, joining, watching and leaving tables for one Coven app."""

    def __init__(self, app: SeatingHost, player_name: str | None, serve_port: int | None,
                 serve_host: str | None = None, *, serve_browser: bool = False) -> None:
        """Serve ``app``; ``player_name`` is offered when joining; the server's port and host go in join hints
        (``serve_browser``: they are the browser door's)."""
        self.app = app
        self._player_name = (player_name or "").strip() or None
        self.serve_port = serve_port
        self.serve_host = serve_host
        self.serve_browser = serve_browser
        self._presence: Presence | None = None
        self._tables: TableStore | None = None
        self._name_was_code = False
        """The name given was only the join code (``ssh CODE@host`` under ``--auth none``): no one's name."""
        self.rated_account: str | None = None
        """The signed-in account (password or key, under ``coven serve``) whose seats rated games count;
        None for a visit or a player at this machine, who is never rated."""
        self._name_typed = False
        """The name was typed in the join form, so it is kept exactly as the player wrote it."""

    @property
    def player_name(self) -> str:
        """The name offered when joining a table."""
        name = self._player_name
        if name is None:
            return login_name()
        if self._name_typed:
            return name
        return name.capitalize() if name.islower() else name  # "ana" from ssh reads as "Ana"

    @property
    def join_name(self) -> str:
        """The name the join form offers: empty when the only name given was the table's code."""
        return "" if self._name_was_code else self.player_name

    def adopt_name(self, name: str) -> None:
        """Make ``name``, typed in the join form to sit or watch, this player's name for the rest of the connection.

        After ``ssh CODE@host`` the player had no name but the code's; the one they gave the table is
        the one they expect to see offered again (hosting, a new game, the next table they join).
        """
        self._player_name = name
        self._name_typed = True
        self._name_was_code = False

    def store(self) -> TableStore | None:
        """The table store (taking this process's presence claim), or None after saying why not."""
        if self._tables is not None:
            return self._tables
        store = self.app.store
        if store is None:
            self.app.notify(self.app.store_problem or "No session database.", severity="error")
            return None
        try:
            self._presence = Presence()
        except OSError as error:
            self.app.notify(f"Coven cannot mark this terminal as present at a table: {error}", severity="error")
            return None
        self._tables = TableStore(store, self._presence)
        self._tables.account = self.rated_account
        return self._tables

    def close(self) -> None:
        """Give up every seat and the presence claim (the app is ending)."""
        if self._tables is not None:
            try:
                for info in self._tables.my_tables():
                    if info.status == "lobby" and info.host_claim == self._tables.claim:
                        self._tables.close(info.code)  # nobody plays yet: quitting the lobby ends it
                self._tables.release_mine()
            except StoreError:
                pass  # the store is going away; the lock's release says we left
        if self._presence is not None:
            self._presence.close()

    def live_table_of(self, session_id: int) -> str | None:
        """The code of the live table playing ``session_id``, or None."""
        tables = self.store() if self.app.store is not None else None
        if tables is None:
            return None
        try:
            info = tables.table_of_session(session_id)
        except StoreError:
            return None
        if info is None or not tables.is_live(info.code):
            return None
        return info.code

    # -- moving between screens ------------------------------------------------

    def offer_join(self, text: str) -> None:
        """Show the join form for code ``text`` (from ``ssh CODE@host``), or say it isn't live."""
        code = normalise_code(text)
        tables = self.store()
        if tables is None:
            return
        if code is None or not tables.is_live(code):
            self.app.notify(f"No open table has the code {text.strip().upper()}. Host one, or join another.",
                            severity="warning", timeout=10)
            return
        if self.back_at_turn_table(code):
            return
        if self._player_name is not None and normalise_code(self._player_name) == code:
            # `ssh KXMP@host` without sign-in: the user name was the code, so "Kxmp" is nobody's name.
            self._name_was_code = True
            self._player_name = DEFAULT_NAME
        self.app.post_message(OpenJoinForm(code))

    def back_at_turn_table(self, code: str) -> bool:
        """A signed-in player with a seat at turn-based table ``code`` sits there again (no token); whether they did."""
        from saves.turn_based import resume

        tables = self._tables
        if self.rated_account is None or tables is None:
            return False
        try:
            info = tables.find(code)
            if not info.turn_based or not any(seat.account == self.rated_account and seat.role != "bot"
                                              for seat in info.seats):
                return False
            resume(tables, code)
        except StoreError:
            return False  # the join form says what is possible
        self.enter_table(code, None)
        return True

    def _link(self, code: str, token: str | None, spectator: bool) -> TableLink | None:
        """A fresh link to table ``code``, or None after saying why there is none."""
        tables = self.store()
        if tables is None:
            return None
        link = TableLink(tables, code, token, spectator=spectator)
        try:
            link.refresh()
        except StoreError as error:
            self.app.notify(str(error), severity="error")
            return None
        if token is not None and not spectator:
            remember(link.code, token)  # under the browser door, its page keeps the seat for a refresh
        return link

    def open_lobby(self, code: str, token: str | None, spectator: bool = False) -> None:
        """Show the lobby of table ``code``."""
        link = self._link(code, token, spectator)
        if link is not None:
            self.app.post_message(OpenLobby(link))

    def enter_table(self, code: str, token: str | None, spectator: bool = False) -> None:
        """Go to table ``code``'s lobby, or straight into its game once it started."""
        link = self._link(code, token, spectator)
        if link is None:
            return
        info = link.current()
        if info.status == "playing" and info.session_id is not None:
            self.open_game(link)
        else:
            self.open_lobby(code, token, spectator)

    def watch(self, code: str, name: str | None = None) -> None:
        """Watch table ``code`` without a seat (listed among its spectators) as ``name`` (else the player's name)."""
        tables = self.store()
        if tables is None:
            return
        try:
            tables.watch(code, name or self.player_name)
        except StoreError as error:
            self.app.notify(str(error), title="Cannot watch", severity="error", markup=False)
            return
        if name:
            self.adopt_name(name)
        self.enter_table(code, None, spectator=True)

    def open_game(self, link: TableLink) -> None:
        """Show the game screen of ``link``'s started table."""
        store = self.app.store
        try:
            info = link.refresh()
            if store is None or info.session_id is None:
                raise TableError(f"Table {link.code} has no game yet.")
            live = LiveSession.load(store, info.session_id, claim=None if link.spectator else link.claim)
        except StoreError as error:
            self.app.notify(str(error), title="Cannot open the table's game", severity="error")
            return
        self.app.post_message(OpenTableGame(live, link))

    def leave(self, link: TableLink) -> None:
        """Give up this process's seats at ``link``'s table (tokens still reclaim them), or stop watching it."""
        forget()  # a player who chose to leave is not sat down again by a refresh
        try:
            link.tables.release_mine(left=True)  # the others read "Bea left", not that Bea dropped
        except StoreError as error:
            self.app.notify(str(error), severity="error")
