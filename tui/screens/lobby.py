"""The lobby of a shared table: the join code, who is seated, who is missing.

The host starts the game once every remote seat is filled; then every
process at the table moves on to the game screen by itself.
"""

from __future__ import annotations

import socket
from datetime import UTC, datetime

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Header, Static

from engine import get_game
from saves import StoreError
from saves.tables import TableInfo, TableNotFoundError, TableSeat
from saves.turn_pace import pace_words
from tui.coach_access import coach_line
from tui.context import coven, leave_to_menu
from tui.safe_text import plain
from tui.screens.chat_pane import CHAT_HELP, ChatPane, describe_chat_key, spectators_line
from tui.screens.table_clock import lobby_clock_line
from tui.serve_status import seat_screen_gone, seat_screen_shown
from tui.table_link import POLL_SECONDS, TableLink
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.join_code import JoinCode


def seat_line(seat: TableSeat, info: TableInfo, claim: str, now: datetime) -> str:
    """One line of the lobby's seat list, e.g. "2. Bea · remote · seated"."""
    you = " (you)" if seat.claim == claim else ""
    if seat.role == "bot":
        return f"{seat.seat + 1}. {seat.name} · bot, {seat.bot_level}"
    if seat.role == "local":
        where = "playing here" if you else "at the host's terminal"
        return f"{seat.seat + 1}. {seat.name}{you} · {where}"
    if seat.claim is not None:
        return f"{seat.seat + 1}. {seat.name}{you} · seated"
    went = "left" if seat.left else "dropped"
    if seat.reserved(now):
        return f"{seat.seat + 1}. {seat.name} · {went}; the seat is kept for their token"
    if seat.has_token:
        return f"{seat.seat + 1}. {seat.name} · {went} over 10 minutes ago"
    return f"{seat.seat + 1}. open · waiting for a remote player"


LOCAL_ONLY = frozenset({"127.0.0.1", "localhost", "::1"})
EVERYWHERE = frozenset({"0.0.0.0", "::", ""})


def join_hint(code: str, port: int | None, host: str | None = None, *, browser: bool = False) -> str:
    """How friends join, in two lines: over SSH when this Coven is served, else on this machine.

    ``browser``: ``port`` and ``host`` are the browser door's (``coven web`` without its SSH door).
    """
    if port and browser:
        where = "localhost" if host in LOCAL_ONLY else socket.gethostname() if host is None or host in EVERYWHERE \
            else host
        return (f"Friends join in a browser:  http://{where}:{port}/\n"
                f"then from Coven's main menu: Join a table → {code}")
    if port:
        if host in LOCAL_ONLY:
            return (f"Players on this machine:  ssh -p {port} {code}@localhost\n"
                    f"(the server listens here only) or Join a table → {code}")
        where = socket.gethostname() if host is None or host in EVERYWHERE else host
        return (f"Friends join with:  ssh -p {port} {code}@{where}\n"
                f"or from Coven's main menu: Join a table → {code}")
    return (f"On this machine: Join a table → {code} in Coven's main menu.\n"
            "Over the network: run coven serve (see the README) and friends ssh in.")


class LobbyScreen(Screen[None]):
    """Waits for every remote seat to fill; the host starts the game from here."""
    HELP_TITLE = "Table lobby"
    HELP = ("The table waits here until every seat is filled. Give the code to the players you expect; "
            "the list shows who has sat down and who watches. " + CHAT_HELP)

    DEFAULT_CSS = """
    LobbyScreen Center { height: 1fr; align: center middle; }
    #lobby-box { width: 76; max-width: 100%; height: auto; border: round $accent; padding: 0 2; }
    #lobby-title { text-style: bold; width: 100%; text-align: center; }
    #lobby-code-row { height: auto; width: 100%; align: center top; margin: 1 0; }
    #lobby-hint, #lobby-token, #lobby-status { height: auto; color: $text-muted; }
    #lobby-seats { height: auto; margin: 1 0; }
    #lobby-status { color: $text; text-style: bold; margin-top: 1; }
    #lobby-spectators { height: auto; color: $text-muted; }
    /* A short terminal (80x24) has no row to spare: without these two blank rows the spectators' and token's
       lines would push the status ("Everyone is here. Press s to start.") below the screen's edge. */
    LobbyScreen.short #lobby-code-row { margin: 1 0 0 0; }
    LobbyScreen.short #lobby-seats { margin: 1 0 0 0; }
    LobbyScreen.chatting #lobby-code-row, LobbyScreen.chatting #lobby-hint { display: none; }
    LobbyScreen.chatting #lobby-seats { margin: 0; }  /* after .short: the chat's rule wins */
    """
    SHORT_ROWS = 30
    """Below this many rows the lobby drops two blank rows (see :attr:`DEFAULT_CSS`)."""

    BINDINGS = [
        Binding("s", "start", "Start game"),
        Binding("c", "toggle_chat", "Chat"),
        Binding("ctrl+t", "toggle_chat", "Chat", show=False),
        Binding("escape", "leave", "Leave table"),
    ]

    def __init__(self, link: TableLink, port: int | None = None, host: str | None = None, *,
                 browser: bool = False) -> None:
        """Show ``link``'s table; ``port`` and ``host`` are where ``coven serve`` listens, when served (the browser
        door's address when ``browser``)."""
        super().__init__()
        self.link = link
        self.port = port
        self.host = host
        self.browser = browser
        self._opened_game = False
        self._shown: TableInfo | None = None
        self.chat = ChatPane(link)

    def compose(self) -> ComposeResult:
        """Title, big code, how to join, the seats, the token and the status."""
        info = self.link.current()
        title = get_game(info.game_id).title
        yield Header()
        with Center(id="lobby-room"):
            with Vertical(id="lobby-box"):
                # The pace rides on the title: the box has no spare row at 80x24.
                pace = f" · {pace_words(info.pace_days)}" if info.turn_based else ""
                yield Static(plain(f"{title} · table {info.code} · hosted by {info.host_name}{pace}"), id="lobby-title")
                with Center(id="lobby-code-row"):
                    yield JoinCode(info.code, id="lobby-code")
                yield Static(join_hint(info.code, self.port, self.host, browser=self.browser), id="lobby-hint")
                yield Static("", id="lobby-seats")
                yield Static("", id="lobby-spectators")
                yield Static("", id="lobby-token")
                yield Static("", id="lobby-status")
        yield self.chat
        yield FittingFooter()

    def on_resize(self, event: events.Resize) -> None:
        """Tighten the box on a short terminal, so its last line (what the table waits for) stays in view."""
        self.set_class(event.size.height < self.SHORT_ROWS, "short")
        self.call_after_refresh(self._fit_code)

    def _fit_code(self) -> None:
        """Draw the join code in big letters where the box has room for them, else on one line.

        A table of four or five seats at 80x24 has no room for the big letters: with them its last lines (what
        the table waits for, the box's edge) would fall below the screen. Measured from the laid-out box, so a
        line that wraps (a long name, the spectators) counts too; called after each change of the box's lines.
        """
        if not self.is_attached or self.has_class("chatting"):
            return  # gone by now; or the chat hides the code, and its room is the chat's
        code = self.query_one("#lobby-code", JoinCode)
        needed = self.query_one("#lobby-box").outer_size.height
        room = self.query_one("#lobby-room").size.height
        if not code.compact and needed > room:
            code.compact = True
        elif code.compact and needed + JoinCode.BIG_ROWS - 1 <= room:
            code.compact = False  # a taller terminal: the big letters fit again

    def on_unmount(self) -> None:
        """The lobby is left (for the game, or away from the table)."""
        seat_screen_gone(self)

    def on_mount(self) -> None:
        """Draw the seats and start listening for the others."""
        seat_screen_shown(self, not self.link.spectator)  # a full coven serve never closes a seated player
        self._redraw(self.link.current())
        self.set_interval(POLL_SECONDS, self._poll)

    def _poll(self) -> None:
        """Redraw when another process changed something; move on when the game starts."""
        if self._opened_game or not self.link.changed():
            return
        self.chat.fetch()
        try:
            info = self.link.refresh()
        except TableNotFoundError:
            self._opened_game = True
            self.notify("The host closed the table.", severity="warning", timeout=10)
            leave_to_menu(self)
            return
        except StoreError as error:
            self.notify(str(error), severity="error")
            return
        if self.link.is_host and info.status == "lobby" and any(
                seat.role == "remote" and seat.claim is None and seat.has_token for seat in info.seats):
            try:  # someone left before the start: their seat is open to anyone again
                self.link.tables.reopen_dropped(info.code)
                info = self.link.refresh()
            except StoreError as error:
                self.notify(str(error), severity="error")
        if info != self._shown:
            self._redraw(info)
        if info.status == "playing" and info.session_id is not None:
            self._opened_game = True
            self.link.from_lobby = True
            coven(self).tables.open_game(self.link)

    def _redraw(self, info: TableInfo) -> None:
        """The seat list, this player's token and what the table waits for."""
        self._shown = info
        now = datetime.now(UTC)
        lines = [seat_line(seat, info, self.link.claim, now) for seat in info.seats]
        self.query_one("#lobby-seats", Static).update(plain("\n".join(lines)))  # names: never markup
        self.query_one("#lobby-spectators", Static).update(plain(spectators_line(info) + coach_line(info) + lobby_clock_line(info)))
        self.chat.show_people(info)
        token = self.link.token
        if self.link.spectator:
            token_text = "You are watching: you see only what every player sees."
        elif not token:
            token_text = ""
        elif self.link.is_host:
            token_text = f"Your host token: {token}. If you drop, it gets you the table back (Join a table)."
        else:
            token_text = f"Your seat token: {token}. If you drop, it gets your seat back (Join a table)."
        self.query_one("#lobby-token", Static).update(token_text)
        # A turn-based seat counts once taken, its player connected or not: the game starts when the table is full.
        missing = sum(1 for seat in info.seats if seat.role == "remote"
                      and (seat.account is None if info.turn_based else seat.claim is None))
        if info.host_claim is None:
            status = f"{info.host_name} has left the lobby; the table waits for them to come back."
        elif self.link.is_host:
            status = ("Everyone is here. Press s to start." if missing == 0
                      else f"Waiting for {missing} more player{'s' if missing != 1 else ''}…")
        else:
            status = (f"Waiting for {info.host_name} to start the game…" if missing == 0
                      else f"Waiting for {missing} more player{'s' if missing != 1 else ''}, "
                           f"then {info.host_name} starts.")
        self.query_one("#lobby-status", Static).update(plain(status))
        self.refresh_bindings()
        self.call_after_refresh(self._fit_code)  # the lines may have grown or shrunk

    def action_toggle_chat(self) -> None:
        """Open the chat pane (the big code and the hint make room), or close it."""
        self.chat.toggle()

    @on(ChatPane.Toggled)
    def _chat_toggled(self) -> None:
        self.set_class(self.chat.is_open, "chatting")
        self.refresh_bindings()
        self.call_after_refresh(self._fit_code)

    @on(ChatPane.UnreadChanged)
    def _unread_changed(self) -> None:
        self.refresh_bindings()

    def refresh_bindings(self) -> None:
        """Say on the Chat key how many lines wait unseen, then redraw the Footer."""
        chat: ChatPane | None = self.__dict__.get("chat")  # None while the screen is still being built
        if chat is not None:
            describe_chat_key(self, chat)
        super().refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the host may start, and only when every remote seat is filled."""
        if action == "start":
            if not self.link.is_host:
                return False
            return True if self.link.current().ready else None
        return True

    def action_start(self) -> None:
        """Start the game (host only)."""
        try:
            self.link.tables.start(self.link.code)
            info = self.link.refresh()
        except StoreError as error:
            self.notify(str(error), title="Cannot start", severity="error")
            return
        if info.session_id is not None:
            self._opened_game = True
            self.link.from_lobby = True
            coven(self).tables.open_game(self.link)

    def action_leave(self) -> None:
        """Leave the lobby: the host closes the table (after asking); a player gives up the seat."""
        from tui.widgets.confirm import ConfirmScreen

        if self.link.is_host:
            def closed(yes: bool | None) -> None:
                if yes:
                    try:
                        self.link.tables.close(self.link.code)
                    except StoreError as error:
                        self.notify(str(error), severity="error")
                    coven(self).tables.leave(self.link)
                    leave_to_menu(self)

            self.app.push_screen(ConfirmScreen("Close this table? Everyone in the lobby is sent back.",
                                               "Close table", "Stay"), closed)
            return
        coven(self).tables.leave(self.link)
        leave_to_menu(self)
