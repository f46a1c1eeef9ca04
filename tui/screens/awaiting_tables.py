"""Your tables: a signed-in player's turn-based tables, those awaiting their move first.

Opened with y from the menu, whose hint line says "Your move at N tables". Each row is one sentence, so
linear mode and the narrator read it as it stands: the game, whether it is your move and how long is left
(with the reminder once half the time is gone), who else the game waits for, and who ran out of time.
Enter sits you at the table again (no token: your account holds the seat) and opens its game; b takes back
a seat a bot played since your time ran out; v turns your vacation on or off. Looking applies the time-out
rule (:mod:`saves.turn_based`), so a seat that ran out passes to its bot when anyone at the table looks.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from engine import get_game
from engine.core import UnknownGameError
from saves import StoreError
from saves.tables import TableStore
from saves.turn_based import (
    VACATION_DAYS,
    TurnTable,
    Vacation,
    end_vacation,
    my_turn_tables,
    resume,
    start_vacation,
    take_back,
    time_text,
    vacation,
)
from saves.turn_pace import pace_words
from tui.context import coven, leave_to_menu
from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter

NO_TABLES = ("You have no turn-based table. Host one with Pace: Turn-based (h at the menu); "
             "the tables you sit at appear here.")
SIGN_IN = "Turn-based tables are for signed-in players: connect with your password or key to have some."


def awaiting_count(tables: list[TurnTable]) -> int:
    """How many of ``tables`` wait for the player's move."""
    return sum(1 for table in tables if table.my_move)


def your_move_line(tables: list[TurnTable]) -> str:
    """The menu's line: "Your move at 2 tables (1 past half time): press y to see them." (or that none awaits).

    At most 65 cells (two-digit counts): on the 80-column menu it wraps within the two rows the hint's
    "No unfinished game..." line takes already.
    """
    count = awaiting_count(tables)
    if count:
        late = sum(1 for table in tables if table.my_clock is not None and table.my_clock.reminded)
        past = f" ({late} past half time)" if late else ""
        return (f"Your move at {count} table{'s' if count != 1 else ''}{past}: "
                f"press y to see {'them' if count != 1 else 'it'}.")
    return "No table awaits your move (y lists yours)."


def _title(game_id: str) -> str:
    try:
        return get_game(game_id).title
    except UnknownGameError:
        return game_id


def table_sentence(table: TurnTable) -> str:
    """One of the player's tables as a sentence, for the list, linear mode and the narrator."""
    parts = [f"Table {table.code}, {_title(table.game_id)}, {pace_words(table.pace_days)}:"]
    clock = table.my_clock
    if clock is not None:
        reminder = " Reminder: over half your time is gone." if clock.reminded else ""
        parts.append(f"your move, {time_text(clock.left)} left.{reminder}")
    elif table.waiting_for:
        parts.append(f"waiting for {' and '.join(table.waiting_for)}.")
    mine = table.mine_timed_out()
    if mine:
        parts.append(f"Your time ran out, so a bot plays {' and '.join(mine)}: b takes your seat back.")
    others = [name for seat, name in table.timed_out if seat not in table.my_seats]
    if others:
        parts.append(f"{' and '.join(others)} ran out of time; a bot plays for them.")
    return " ".join(parts)


def vacation_sentence(bank: Vacation) -> str:
    """The vacation line: on or off, days used of the year's bank, and the key."""
    if bank.on:
        until = f" until {bank.until:%d %b %H:%M} UTC at the latest" if bank.until is not None else ""
        return (f"Vacation is on{until}: your clocks are stopped. {bank.days_used} of {VACATION_DAYS} days used "
                "this year. v turns it off.")
    return (f"Vacation is off: {bank.days_used} of {VACATION_DAYS} days used this year. "
            "v turns it on (a day begun counts whole) and stops all your clocks.")


class AwaitingTablesScreen(Screen[None]):
    """The signed-in player's turn-based tables, those awaiting their move first."""
    HELP_TITLE = "Your tables"
    HELP = ("Your turn-based tables, those awaiting your move first, each with the time you have left. Enter "
            "sits you at the highlighted table again and opens its game: move, then Escape leaves; the table "
            "waits for the others. Past half your time the row reminds you; when it runs out, a bot at the level "
            "the host chose plays your seat and everyone at the table reads so; b takes it back. v turns your "
            f"vacation on or off: {VACATION_DAYS} days a year during which none of your clocks run. "
            "; says the highlighted table in words.")

    DEFAULT_CSS = """
    AwaitingTablesScreen #awaiting-vacation { height: auto; padding: 0 1; color: $text-muted; }
    AwaitingTablesScreen #awaiting-tables { height: 1fr; border: none; }
    AwaitingTablesScreen #awaiting-said { height: auto; max-height: 3; padding: 0 1; }
    """

    BINDINGS = [
        Binding("enter", "open", "Open", priority=True),
        Binding("b", "take_back", "Take seat back"),
        Binding("v", "vacation", "Vacation"),
        Binding("semicolon", "announce", "Say it", key_display=";"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        """An empty list until the store is read on mount."""
        super().__init__()
        self.turn_tables: list[TurnTable] = []
        self.said = ""
        """The last sentence the screen spoke (on its status line), for the narrator and tests."""

    def compose(self) -> ComposeResult:
        """The vacation line, the list, what the screen last said and the Footer."""
        yield Header()
        yield Static("", id="awaiting-vacation")
        yield OptionList(id="awaiting-tables")
        yield Static("", id="awaiting-said")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Read the player's tables."""
        self.title = "Your tables"
        self.query_one("#awaiting-tables", OptionList).focus()
        self.reload()

    def on_screen_resume(self) -> None:
        """Back from a table: what awaits has changed."""
        self.reload()

    def _tables(self) -> TableStore | None:
        return coven(self).tables.store()

    def reload(self) -> None:
        """Read the tables again (handing over any seat whose time ran out) and redraw."""
        tables = self._tables()
        if tables is None:
            return
        if tables.account is None:
            self.query_one("#awaiting-vacation", Static).update("")
            self._say(SIGN_IN)
            return
        try:
            self.turn_tables = my_turn_tables(tables)
            bank = vacation(tables, tables.account)
        except StoreError as error:
            self._say(str(error))
            return
        self.query_one("#awaiting-vacation", Static).update(plain(vacation_sentence(bank)))
        menu = self.query_one("#awaiting-tables", OptionList)
        kept = self.highlighted()
        menu.clear_options()
        menu.add_options([Option(plain(table_sentence(table)), id=table.code) for table in self.turn_tables])
        codes = [table.code for table in self.turn_tables]
        if codes:
            menu.highlighted = codes.index(kept.code) if kept is not None and kept.code in codes else 0
        # Said on every visit while it lasts, whoever's look handed the seat over (this one, or another Coven's).
        news = " ".join(f"Time ran out at table {table.code}: a bot plays "
                        f"{' and '.join(name for _, name in table.timed_out)}."
                        for table in self.turn_tables if table.timed_out)
        self._say(f"{news} {self._count_sentence()}".strip())
        self.refresh_bindings()

    def _count_sentence(self) -> str:
        if not self.turn_tables:
            return NO_TABLES
        count, awaiting = len(self.turn_tables), awaiting_count(self.turn_tables)
        move = f"Your move at {awaiting} table{'s' if awaiting != 1 else ''}" if awaiting else "No table awaits your move"
        return f"{move}. You sit at {count} turn-based table{'s' if count != 1 else ''}."

    def _say(self, text: str) -> None:
        """Put ``text`` on the screen's status line, where a screen reader finds it."""
        self.said = text
        self.query_one("#awaiting-said", Static).update(plain(text))

    def highlighted(self) -> TurnTable | None:
        """The table under the cursor, or None when the list is empty."""
        menu = next(self.query("#awaiting-tables").results(OptionList), None)
        if menu is None or menu.highlighted is None or menu.option_count == 0:
            return None
        code = menu.get_option_at_index(menu.highlighted).id
        return next((table for table in self.turn_tables if table.code == code), None)

    @on(OptionList.OptionHighlighted, "#awaiting-tables")
    def _moved(self) -> None:
        self.refresh_bindings()

    @on(OptionList.OptionSelected, "#awaiting-tables")
    def _chosen(self) -> None:
        self.action_open()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Open needs a table under the cursor; Take seat back one where a bot plays the player's seat."""
        table = self.highlighted()
        if action == "open":
            return True if table is not None else None
        if action == "take_back":
            return True if table is not None and table.mine_timed_out() else None
        return True

    def action_announce(self) -> None:
        """Say the highlighted table in words."""
        table = self.highlighted()
        self._say(table_sentence(table) if table is not None else self._count_sentence())

    def action_open(self) -> None:
        """Sit at the highlighted table again and open its game."""
        table = self.highlighted()
        tables = self._tables()
        if table is None or tables is None:
            return
        try:
            held = resume(tables, table.code)
        except StoreError as error:
            self.notify(str(error), title="Cannot open the table", severity="warning", markup=False)
            self.reload()
            return
        if not held:
            self.notify("A bot plays your seat there since your time ran out: b takes it back.", timeout=8)
            return
        coven(self).tables.enter_table(table.code, None)

    def action_take_back(self) -> None:
        """Take back the highlighted table's seat from the bot, then open its game."""
        table = self.highlighted()
        tables = self._tables()
        if table is None or tables is None:
            return
        try:
            taken = take_back(tables, table.code)
        except StoreError as error:
            self.notify(str(error), title="Cannot take the seat back", severity="warning", markup=False)
            self.reload()
            return
        if not taken:
            self.reload()
            return
        self.action_open()

    def action_vacation(self) -> None:
        """Turn the player's vacation on or off."""
        tables = self._tables()
        if tables is None or tables.account is None:
            self._say(SIGN_IN)
            return
        try:
            bank = vacation(tables, tables.account)
            bank = (end_vacation if bank.on else start_vacation)(tables, tables.account)
        except StoreError as error:
            self._say(str(error))
            return
        self._say(vacation_sentence(bank))
        self.query_one("#awaiting-vacation", Static).update(plain(vacation_sentence(bank)))

    def action_back(self) -> None:
        """Back to the main menu."""
        leave_to_menu(self)
