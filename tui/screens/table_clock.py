"""The clock of a live table on its game screen: the clock line, the time-out hand-over and taking a seat back.

The clock's rules are :class:`engine.core.clock.TableClock`'s and its truth is the table's row
(:mod:`saves.table_clock`); every process at the table follows it after its game moves. A seat's own process
hands it to the bot when its time runs out (only while no dialog is open over the table: a clock never takes a
choice away mid-confirm), so every process learns of it from the store and says so.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from textual.widgets import Static

from engine.core.clock import ClockAsk, clock_text, time_words
from saves import StoreError
from saves.clock_record import StoredClock
from saves.tables import TableInfo, TableNotFoundError
from tui.context import coven_or_none
from tui.fit_text import cut_words
from tui.player_settings import read_settings
from tui.safe_text import plain
from tui.screens.game.screen import GameScreen
from tui.table_link import TableLink

TICK_SECONDS = 0.5
"""How often the clock line is drawn again and this process's seats are checked for running out."""


def ask_of(setting: object) -> ClockAsk:
    """The clock request a ``clock`` setting stands for (the table's clock for anything else)."""
    return "double" if setting == "double" else "none" if setting == "none" else "normal"


class TableClockKeeper:
    """Follows one table's clock for its game screen, draws its line and runs its time-outs here."""

    def __init__(self, screen: GameScreen, link: TableLink, seats_changed: Callable[[], None]) -> None:
        """Keep the clock of ``link``'s table for ``screen``; ``seats_changed`` catches the screen up after a
        hand-over made here."""
        self.screen = screen
        self.link = link
        self.seats_changed = seats_changed
        self.line = Static("", id="table-clock")
        self.stored: StoredClock | None = None
        self._told: set[int] = set()  # seats whose time-out this screen already told of

    def start(self) -> None:
        """If the table keeps a clock: show its line, pass on this player's request, and start ticking."""
        info = self.link.info if self.link.info is not None else self.link.current()
        if info.clock is None:
            return
        self.stored = info.clock
        self._told = set(info.clock.out)  # told already, before this screen opened
        self.screen.mount(self.line, after="#game-status")
        self.pass_on_request()
        self.tick()
        self.screen.set_interval(TICK_SECONDS, self.tick)

    def pass_on_request(self) -> None:
        """Give the table this player's *Clock for me* setting for their seats, when it differs from what the
        clock holds (on opening, and after Settings or any other screen closes over the table)."""
        stored, context = self.stored, coven_or_none(self.screen)
        seats = self.screen.human_seats
        if stored is None or context is None or not seats or self.screen.live.result is not None:
            return
        ask = ask_of(read_settings(context.store, context.account)["clock"])
        if all(stored.clock.ask(seat) == ask for seat in seats):
            return
        try:
            self.link.tables.clock_ask(self.link.code, seats, ask)
        except StoreError as error:
            self.screen.notify(f"Your clock request could not be passed on: {error}", severity="warning")
            return
        self.follow()

    # -- following ------------------------------------------------------------

    def follow(self) -> None:
        """Bring the stored clock up to this process's game, then tell of time-outs and redraw."""
        if self.stored is None:
            return
        live = self.screen.live
        curtain = self.screen.curtain_is_up() if self.screen.drives_table else None
        asked = () if live.result is not None else live.to_act
        try:
            info = self.link.tables.clock_follow(self.link.code, len(live.log), asked, curtain)
        except TableNotFoundError:
            return  # the game is over: the clock stands as it was last drawn
        except StoreError as error:
            self.screen.notify(f"The table's clock could not be read: {error}", severity="warning", timeout=5)
            return
        if info.clock is not None:
            self.stored = info.clock
        self._tell_time_outs()
        self.redraw()

    def tick(self) -> None:
        """Follow the clock, and hand this process's seat to the bot once its time is up."""
        self.follow()
        stored = self.stored
        if stored is None or self.screen.live.result is not None:
            return
        now = self.now()
        mine = [seat for seat in stored.clock.out_of_time(now) if seat in self.screen.human_seats]
        # Never mid-confirm: while a dialog (or anything else) is open over the table, the time-out waits.
        # (Not is_current: a screen under a dialog that lets it show through counts as current.)
        if not mine or self.screen.app.screen is not self.screen:
            return
        try:
            self.link.tables.clock_time_out(self.link.code, mine[0])
        except StoreError as error:
            self.screen.notify(str(error), title="Clock", severity="warning", timeout=5)
            return
        self.seats_changed()
        self.follow()

    def now(self) -> float:
        """Now, by the table store's time source (tests replace it; nothing here reads the wall clock itself)."""
        return self.link.tables.clock().timestamp()

    def _tell_time_outs(self) -> None:
        """Tell everyone at this screen of each seat newly handed to the bot by the clock."""
        stored = self.stored
        if stored is None:
            return
        live = self.screen.live
        for seat in sorted(set(stored.out) - self._told):
            self._told.add(seat)
            name = live.seats[seat].name
            level = live.seats[seat].bot_level or "a"
            text = f"{name}'s time ran out: a {level} bot plays the seat now."
            if stored.out[seat].claim == self.link.claim:
                text += " Press B to take it back."
            self.screen.narrator.transcript.add(text)
            self.screen.notify(text, title="Clock", severity="warning", timeout=12)
        self._told &= set(stored.out)  # a seat taken back may run out again later, and be told again

    # -- taking a seat back ------------------------------------------------------

    def mine_out(self) -> list[int]:
        """The seats the clock took from this process's player, which they may take back."""
        stored = self.stored
        if stored is None:
            return []
        return sorted(seat for seat, gone in stored.out.items() if gone.claim == self.link.claim)

    def take_back(self) -> None:
        """Take back the first seat the clock handed to the bot (it gets a fresh minute)."""
        seats = self.mine_out()
        if not seats:
            return
        try:
            self.link.tables.clock_take_back(self.link.code, seats[0])
        except StoreError as error:
            self.screen.notify(str(error), title="Clock", severity="warning")
            return
        name = self.screen.live.seats[seats[0]].name
        self.screen.notify(f"{name}'s seat is yours again, with a fresh minute on the clock.", title="Clock")
        self.seats_changed()
        self.follow()

    # -- words --------------------------------------------------------------------

    def parts(self, words: bool) -> list[str]:
        """Each seat's clock: "Ana 4:32" (▶ while it runs), "Bea: no clock (asked)"; ``words`` for the narrator."""
        stored = self.stored
        if stored is None:
            return []
        clock, now = stored.clock, self.now()
        running = clock.running()
        parts = []
        for seat, player in enumerate(self.screen.live.seats):
            if seat in stored.out:
                parts.append(f"{player.name}: a bot (time ran out)" if words else f"{player.name}: bot (time out)")
                continue
            if player.is_bot:
                continue
            ask = clock.ask(seat)
            if ask == "none":
                parts.append(f"{player.name}: no clock (asked)")
                continue
            left = clock.left_at(seat, now)
            if words:
                part = f"{player.name} has {time_words(left)}" + (", running" if seat in running else "")
            else:
                part = ("▶" if seat in running else "") + f"{player.name} {clock_text(left)}"
            if ask == "double":
                part += " (double time, asked)" if words else " (double, asked)"
            parts.append(part)
        return parts

    def text(self) -> str:
        """The clock line: the time control, whether it stands still, and each seat's time."""
        stored = self.stored
        if stored is None:
            return ""
        clock = stored.clock
        head = f"Clock {clock.fischer.label}"
        if clock.stopped and self.screen.live.result is None:
            head += " (stopped: curtain)" if clock.curtain else " (stopped: a seat dropped)"
        return " · ".join([head, *self.parts(words=False)])

    def words(self) -> str | None:
        """The clock in sentences, for the ask key and the narrator (None: the table keeps no clock)."""
        stored = self.stored
        if stored is None:
            return None
        clock = stored.clock
        said = f"The clock is {clock.fischer.words}"
        if clock.stopped and self.screen.live.result is None:
            said += ", stopped while " + ("a curtain is up" if clock.curtain else "a seat is dropped")
        return f"{said}. " + ". ".join(self.parts(words=True)) + "."

    def fitted(self, width: int) -> str:
        """The clock line in ``width`` columns: whole, else in short words, else cut after a seat ("…"; the
        help has it whole)."""
        text = self.text()
        if cell_len(text) <= width:
            return text
        short = text.replace("Clock ", "", 1).replace(" (double, asked)", " (×2)").replace(" (asked)", "")
        short = short.replace(": no clock", ": none").replace(": bot (time out)", ": bot")
        return cut_words(short, width)

    def redraw(self) -> None:
        """Draw the clock line again, fitted to its width (names come from players: plain text, never markup)."""
        if self.stored is not None and self.line.is_mounted:
            width = self.line.content_region.width or max(self.screen.app.size.width - 2, 1)
            self.line.update(plain(self.fitted(width)))


def lobby_clock_line(info: TableInfo) -> str:
    """The lobby's word on the table's clock, so players know before they start ("" for a table without one)."""
    if info.clock is None:
        return ""
    return f" Clock: {info.clock.clock.fischer.label}, {info.clock.clock.fischer.words} (Settings: double time or none)."
