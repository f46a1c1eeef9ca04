"""Join a table: type its code, then take an open seat, reclaim yours, or watch."""

from __future__ import annotations

from datetime import datetime

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from engine import get_game
from engine.core.text import steady_width
from saves import StoreError
from saves.records import MAX_NAME_LENGTH
from saves.table_tokens import TOKEN_EXAMPLE, normalise_token
from saves.tables import JOIN_CODE_ALPHABET, MAX_RECLAIM_TRIES, TableInfo, normalise_code
from tui.context import coven
from tui.safe_text import plain
from tui.screens.chat_pane import away_for
from tui.widgets.fitting_footer import FittingFooter

RECLAIM = "reclaim"
WATCH = "watch"


def away_line(info: TableInfo, now: datetime) -> str:
    """" Away: Bo (seat 2, dropped 3 min ago; kept for their token)." for each seat whose player is gone."""
    away = []
    for seat in info.seats:
        if seat.role != "remote" or seat.claim is not None or not seat.has_token:
            continue  # held, a bot or the host's, or never taken
        kept = "kept for their token" if seat.reserved(now) else "the host may hand it to a bot"
        away.append(f"{seat.name} (seat {seat.seat + 1}, {away_for(seat.dropped_at, now, seat.left)}; {kept})")
    return f" Away: {', '.join(away)}." if away else ""


def choices_for(info: TableInfo) -> list[Option]:
    """What a newcomer may do at ``info``: each open seat, reclaiming, watching."""
    options = [Option(f"Take seat {seat + 1}", id=f"seat-{seat}") for seat in info.open_seats()]
    options.append(Option("Reclaim my seat with its token", id=RECLAIM))
    if info.allow_spectators:
        options.append(Option("Watch as a spectator", id=WATCH))
    return options


class JoinTableScreen(Screen[None]):
    """Find a table by its code and choose how to sit at it."""
    HELP_TITLE = "Join a table"
    HELP = ("Type the 4-letter code a host gave you to sit at their table, or a token to get your seat "
            "back after a drop. Tab moves between fields.")

    DEFAULT_CSS = """
    JoinTableScreen #join-form { padding: 0 1; }
    JoinTableScreen .form-row { height: auto; }
    JoinTableScreen .form-label { width: 14; padding: 1 1 0 0; }
    JoinTableScreen #join-code { width: 16; }
    JoinTableScreen #join-name { width: 40; }
    JoinTableScreen #join-table { height: auto; margin: 1 0 0 0; }
    JoinTableScreen #join-choices { height: auto; max-height: 10; }
    JoinTableScreen #join-error { color: $error; height: auto; }
    """

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, code: str = "") -> None:
        """Start with ``code`` typed in (and looked up) when given."""
        super().__init__()
        self.initial_code = code
        self.info: TableInfo | None = None

    def compose(self) -> ComposeResult:
        """Code and name inputs, then what the table offers."""
        yield Header()
        with VerticalScroll(id="join-form"):
            yield Static("Join a table", classes="screen-title")
            with Horizontal(classes="form-row"):
                yield Label("Join code", classes="form-label")
                yield Input(self.initial_code, placeholder="4 letters", id="join-code", max_length=4,
                            restrict=f"[{JOIN_CODE_ALPHABET}{JOIN_CODE_ALPHABET.lower()}ilo]*")
            with Horizontal(classes="form-row"):
                yield Label("Your name", classes="form-label")
                # Longer than a name may be, so a name too long is refused with a message, never cut silently.
                yield Input(coven(self).tables.join_name, placeholder="as the others will see it", id="join-name",
                            max_length=4 * MAX_NAME_LENGTH)
            yield Static("", id="join-error")
            yield Static("Type the code the host shows and press Enter.", id="join-table")
            yield OptionList(id="join-choices")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Look the code up at once when it was given, else wait for it."""
        self.query_one("#join-choices", OptionList).display = False
        if self.initial_code:
            self._look_up(self.initial_code)
        else:
            self.query_one("#join-code", Input).focus()

    def _error(self, text: str) -> None:
        self.query_one("#join-error", Static).update(plain(text))  # may quote a name: never markup

    def _look_up(self, text: str) -> None:
        """Show what the table with code ``text`` offers, or why there is none."""
        choices = self.query_one("#join-choices", OptionList)
        code = normalise_code(text)
        if code is None:
            self._error("A join code is 4 letters (no I, L or O), like KXMP.")
            choices.display = False
            return
        tables = coven(self).tables.store()
        if tables is None:
            return
        try:
            info = tables.refresh(code)
        except StoreError as error:
            self._error(str(error))
            choices.display = False
            self.query_one("#join-code", Input).focus()
            return
        if coven(self).tables.back_at_turn_table(info.code):
            return  # a signed-in player's own seat at a turn-based table: no token to ask for
        self._error("")
        self.info = info
        seated = ", ".join(seat.name for seat in info.seats if seat.claim is not None or seat.role == "bot")
        where = "waiting in the lobby" if info.status == "lobby" else "playing"
        full = "" if info.open_seats() else " Every seat is taken" + (
            "; you may watch." if info.allow_spectators else ", and the host allows no spectators.")
        self.query_one("#join-table", Static).update(plain(
            f"{get_game(info.game_id).title} hosted by {info.host_name}, {where}. "
            f"Seated: {seated or 'nobody yet'}.{away_line(info, tables.clock())}{full}"))
        choices.clear_options()
        choices.add_options(choices_for(info))
        choices.display = True
        choices.highlighted = 0
        name = self.query_one("#join-name", Input)
        if name.value.strip():
            choices.focus()
        else:
            name.focus()  # no name yet (`ssh CODE@host` gives none): the others must see who sits down

    @on(Input.Submitted, "#join-code")
    def _code_entered(self, event: Input.Submitted) -> None:
        """Enter in the code field looks the table up."""
        self._look_up(event.value)

    @on(Input.Submitted, "#join-name")
    def _name_entered(self) -> None:
        """Enter in the name field moves on to the choices (or the code)."""
        if self.info is None:
            self._look_up(self.query_one("#join-code", Input).value)
        else:
            self.query_one("#join-choices", OptionList).focus()

    def _player_name(self) -> str | None:
        """The typed name, or None after saying what is wrong with it."""
        name = steady_width(" ".join(self.query_one("#join-name", Input).value.split()))
        if not name:
            self._error("Type your name first; the other players see it.")
            self.query_one("#join-name", Input).focus()
            return None
        if len(name) > MAX_NAME_LENGTH:
            self._error(f"Your name has {len(name)} characters; the most is {MAX_NAME_LENGTH}. Shorten it as you like.")
            self.query_one("#join-name", Input).focus()
            return None
        info = self.info
        if info is not None and any(seat.name.casefold() == name.casefold() and seat.claim is not None
                                    for seat in info.seats):
            self._error(f"Someone at this table is already called {name}; choose another name.")
            self.query_one("#join-name", Input).focus()
            return None
        return name

    @on(OptionList.OptionSelected, "#join-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Take the seat, ask for a token, or watch."""
        info = self.info
        tables = coven(self).tables.store()
        if info is None or tables is None:
            return
        choice = event.option.id or ""
        if choice == WATCH:
            watcher = self._player_name()
            if watcher is not None:
                coven(self).tables.watch(info.code, watcher)
            return
        if choice == RECLAIM:
            from tui.widgets.confirm import PromptScreen

            if tables.reclaim_tries_left <= 0:
                self._error(f"{MAX_RECLAIM_TRIES} wrong seat tokens were tried from this connection, so it may "
                            "not try more. Check your token and connect again.")
                return
            self.app.push_screen(PromptScreen("Your seat token (shown when you sat down)",
                                              placeholder=TOKEN_EXAMPLE, ok_label="Reclaim"),
                                 self._reclaim)
            return
        name = self._player_name()
        if name is None:
            return
        seat = int(choice.rpartition("-")[2])
        try:
            token = tables.take_seat(info.code, seat, name)
        except StoreError as error:
            self._error(str(error))
            self._look_up(info.code)
            return
        coven(self).tables.adopt_name(name)
        coven(self).tables.enter_table(info.code, token)

    def _reclaim(self, token: str | None) -> None:
        """Reclaim a seat with ``token``."""
        info = self.info
        tables = coven(self).tables.store()
        if not token or info is None or tables is None:
            return
        try:
            tables.reclaim(info.code, token)
        except StoreError as error:
            self._error(str(error))
            return
        coven(self).tables.enter_table(info.code, normalise_token(token) or token)
