"""The Tables screen: the listed tables anyone may join, kept up to date, joined or watched by keyboard.

The list is read from the shared store (:mod:`saves.table_listing`) whenever another process commits, and
at least every :data:`AGE_SECONDS` so ages and the one-hour rule move on. Nothing is redrawn when the list
reads the same, and the cursor stays on the table it was on. Joining goes through the same seat-taking and
lobby as Join a table; a name the table cannot take sends the player to that form to choose another.
"""

from __future__ import annotations

from datetime import datetime

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from saves import StoreError
from saves.table_listing import ListedTable, Listing
from saves.tables import TableStore
from tui.context import coven, leave_to_menu
from tui.navigation import OpenJoinForm
from tui.player_settings import read_settings
from tui.safe_text import plain
from tui.screens.open_tables_rows import heading_row, table_row, table_sentence
from tui.widgets.fitting_footer import FittingFooter

POLL_SECONDS = 0.5
"""How often the screen asks the store whether another process committed."""

AGE_SECONDS = 20.0
"""The list is read again at least this often, so ages and the one-hour rule move on without a commit."""

EMPTY = "No table is listed now. Host one with Listing on (h at the menu), or join by code (j)."


class OpenTablesScreen(Screen[None]):
    """The listed tables: game, options, pace, free seats, spectators, host and age."""
    HELP_TITLE = "Open tables"
    HELP = ("Tables whose hosts listed them for anyone to join. Enter sits you in the highlighted table's first "
            "free seat, under your name, and shows its lobby; w watches it when its host allows spectators. Pace is "
            "a live table's clock (5+10: 5 minutes plus 10 seconds a move; or no clock) or a turn-based table's "
            "days per move (3d). The "
            "list follows tables as they open, fill and close; a table nobody joined for an hour leaves it. "
            "; says the highlighted table in words.")

    DEFAULT_CSS = """
    OpenTablesScreen #open-tables-heading { height: 1; padding: 0 1; color: $text-muted; text-style: bold; }
    OpenTablesScreen #open-tables { height: 1fr; border: none; }
    OpenTablesScreen #open-tables-said { height: auto; max-height: 3; padding: 0 1; }
    OpenTablesScreen #open-tables-empty { height: auto; padding: 0 1; color: $text-muted; }
    """

    BINDINGS = [
        # A priority binding, so the Footer and the help show it over the list's own (hidden) enter.
        Binding("enter", "join", "Join", priority=True),
        Binding("w", "watch", "Watch"),
        Binding("semicolon", "announce", "Say it", key_display=";"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        """An empty list until the store is read on mount."""
        super().__init__()
        self.listing = Listing(())
        self.said = ""
        """The last sentence the screen spoke (on its status line), for the narrator and tests."""
        self.linear = False
        self._shown: tuple[tuple[str, str], ...] | None = None
        self._version: int | None = None
        self._read_at: datetime | None = None

    def compose(self) -> ComposeResult:
        """The headings, the list, what the screen last said and the Footer."""
        yield Header()
        yield Static(plain(heading_row()), id="open-tables-heading")
        yield OptionList(id="open-tables")
        yield Static("", id="open-tables-empty")
        yield Static("", id="open-tables-said")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Read the list and keep it fresh."""
        self.title = "Open tables"
        context = coven(self)
        self.linear = bool(read_settings(context.store, context.account)["linear"])
        # Linear mode reads each table as a sentence: headings over columns would only be noise there.
        self.query_one("#open-tables-heading").display = not self.linear
        self.query_one("#open-tables", OptionList).focus()
        self.reload(force=True)
        self.set_interval(POLL_SECONDS, self.reload)

    def _tables(self) -> TableStore | None:
        return coven(self).tables.store()

    def reload(self, force: bool = False) -> None:
        """Read the list again when another process committed or the ages are due; redraw only if it changed."""
        tables = self._tables()
        if tables is None:
            return
        now = tables.clock()
        try:
            version = tables.store.data_version()
            due = self._read_at is None or (now - self._read_at).total_seconds() >= AGE_SECONDS
            if not force and version == self._version and not due:
                return
            listing = tables.listed()
        except StoreError as error:
            self._say(str(error))
            return
        self._version, self._read_at = version, now
        self._show(listing, now)

    def _show(self, listing: Listing, now: datetime) -> None:
        """Draw ``listing`` unless it reads as what is shown; keep the cursor on the same table."""
        rows = tuple((table.code, table_sentence(table, now) if self.linear else table_row(table, now))
                     for table in listing.tables)
        shown_before = self._shown
        old_codes = {code for code, _ in shown_before or ()}
        self.listing = listing
        if rows == shown_before:
            return
        self._shown = rows
        menu = self.query_one("#open-tables", OptionList)
        kept = self.highlighted()
        index = menu.highlighted
        menu.clear_options()
        menu.add_options([Option(plain(text), id=code) for code, text in rows])  # names: never markup
        codes = [code for code, _ in rows]
        if codes:
            if kept is not None and kept.code in codes:
                menu.highlighted = codes.index(kept.code)
            else:
                menu.highlighted = min(index or 0, len(codes) - 1)
        empty = EMPTY if not codes else ""
        if listing.unreadable:
            empty += (f" {listing.unreadable} listed table{'s' if listing.unreadable != 1 else ''} could not be "
                      "read; the database may be damaged.").lstrip()
        self.query_one("#open-tables-empty", Static).update(plain(empty.strip()))
        if shown_before is not None:
            self._say_changes(listing, old_codes, now)
        else:
            self._say(self._count_sentence())
        self.refresh_bindings()

    def _count_sentence(self) -> str:
        count = len(self.listing.tables)
        if count == 0:
            return "No table is listed now."
        return f"{count} table{'s are' if count != 1 else ' is'} listed."

    def _say_changes(self, listing: Listing, old_codes: set[str], now: datetime) -> None:
        """Tell the narrator which tables came and went."""
        new = [table for table in listing.tables if table.code not in old_codes]
        gone = len(old_codes - {table.code for table in listing.tables})
        parts = [f"New: {table_sentence(table, now)}" for table in new]
        if gone:
            parts.append(f"{gone} table{'s' if gone != 1 else ''} left the list.")
        self._say(" ".join(parts + [self._count_sentence()]))

    def _say(self, text: str) -> None:
        """Put ``text`` on the screen's status line, where a screen reader finds it."""
        self.said = text
        self.query_one("#open-tables-said", Static).update(plain(text))

    def highlighted(self) -> ListedTable | None:
        """The table under the cursor, or None when the list is empty."""
        lists = self.query("#open-tables").results(OptionList)
        menu = next(lists, None)
        if menu is None or menu.highlighted is None or menu.option_count == 0:
            return None
        code = menu.get_option_at_index(menu.highlighted).id
        return next((table for table in self.listing.tables if table.code == code), None)

    @on(OptionList.OptionHighlighted, "#open-tables")
    def _moved(self) -> None:
        self.refresh_bindings()  # Watch is offered only where the host allows spectators

    @on(OptionList.OptionSelected, "#open-tables")
    def _chosen(self) -> None:
        """A click on a row joins it, as enter does (enter itself reaches :meth:`action_join` first)."""
        self.action_join()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Join needs a table under the cursor; Watch one whose host allows spectators."""
        table = self.highlighted()
        if action == "join":
            return True if table is not None else None
        if action == "watch":
            return True if table is not None and table.allow_spectators else None
        return True

    def action_announce(self) -> None:
        """Say the highlighted table in words."""
        tables = self._tables()
        table = self.highlighted()
        if tables is None or table is None:
            self._say(self._count_sentence())
            return
        self._say(f"{self._count_sentence()} {table_sentence(table, tables.clock())}")

    def action_join(self) -> None:
        """Sit in the highlighted table's first free seat under this player's name, then show its lobby."""
        table = self.highlighted()
        seating = coven(self).tables
        tables = self._tables()
        if table is None or tables is None:
            return
        try:
            info = tables.find(table.code)
        except StoreError as error:
            self.notify(str(error), severity="warning", markup=False)
            self.reload(force=True)
            return
        free = info.open_seats()
        name = seating.join_name
        taken = {seat.name.casefold() for seat in info.seats if seat.claim is not None}
        if not free or not name or name.casefold() in taken:
            # The join form explains what is left (reclaiming, watching) and asks for another name.
            self.app.post_message(OpenJoinForm(table.code))
            return
        try:
            token = tables.take_seat(table.code, free[0], name)
        except StoreError as error:
            self.notify(str(error), title="Cannot join", severity="warning", markup=False)
            self.reload(force=True)
            return
        seating.enter_table(table.code, token)

    def action_watch(self) -> None:
        """Watch the highlighted table without a seat, when its host allows spectators."""
        table = self.highlighted()
        if table is None or not table.allow_spectators:
            return
        seating = coven(self).tables
        if not seating.join_name:
            self.app.post_message(OpenJoinForm(table.code))  # the form asks a name to watch under
            return
        seating.watch(table.code)

    def action_back(self) -> None:
        """Back to the main menu."""
        leave_to_menu(self)
