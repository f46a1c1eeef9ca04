"""The game screen of a shared table: this process plays only the seats it holds.

Every process at the table keeps the whole game in step with the shared
store: it appends its own seats' actions (the store refuses any other seat),
and picks up the others' actions when ``PRAGMA data_version`` says something
changed. The host's process also plays the bots and the table's automatic
steps. The screen only ever draws ``view(state, seat)`` for a seat it holds,
or the spectator's view.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding

from engine import ActionError
from saves import LiveSession, LogConflictError, StoreError, TableInfo
from saves.tables import TableNotFoundError
from saves.turn_based import run_out, take_helm
from saves.turn_pace import pace_words
from tui.coach_access import table_refusal
from tui.context import coven, leave_to_menu
from tui.notify.seat_asked import seat_connected
from tui.screens.chat_pane import CHAT_HELP, ChatPane, away_for, c_is_taken, describe_chat_key
from tui.screens.game.screen import GameScreen
from tui.screens.game.undo import take_back, undo_refusal, undo_seat
from tui.screens.rating_news import rate_and_tell
from tui.screens.table_clock import TableClockKeeper
from tui.screens.table_rematch import TableRematch
from tui.table_link import POLL_SECONDS, TableLink
from tui.table_turns import notice_deadline, remind_half_time, tell_asked
from tui.widgets.game_over import GameOverScreen

RETRIES = 3
"""How often an action is tried again after another process saved first."""

TIME_OUT_CHECK_SECONDS = 60.0
"""How often a turn-based table's screen applies the time-out rule (time per move is counted in days)."""

AWAY_REDRAW_SECONDS = 1.0
"""How often the waiting line is drawn again, so "dropped 2 min ago" keeps counting between table events."""


class TableGameScreen(GameScreen):
    """A :class:`GameScreen` for one process at a shared table."""

    AT_A_TABLE = True
    HELP = ("A game at a shared table: you play only your own seats, and the other players' moves arrive "
            "by themselves. Escape leaves; your token gets your seat back within 10 minutes (at a turn-based table, "
            "y at the menu lists your tables and opens this one again; your account holds your seat). At a table "
            "with a clock, the line under the status shows each seat's time; when yours runs out a bot takes your "
            "seat and B takes it back. " + CHAT_HELP)

    BINDINGS = [
        Binding("space", "step", "Next step"),
        Binding("a", "toggle_auto", "Auto play"),
        Binding("l", "toggle_log", "Log"),
        Binding("b", "seat_to_bot", "Bot takes seat"),
        Binding("B", "clock_take_back", "Take seat back"),
        Binding("c", "toggle_chat", "Chat"),
        Binding("ctrl+t", "toggle_chat_here", "Chat"),  # shown only while a focused pane's c shadows the chat's
        Binding("escape,q", "menu", "Leave"),
    ]

    def __init__(self, live: LiveSession, link: TableLink, auto_delay: float = 0.8) -> None:
        """Play the seats ``link`` holds in ``live``."""
        super().__init__(live, auto_delay=auto_delay)
        self.link = link
        self._seats_here: list[int] = link.my_seats
        self.clock = TableClockKeeper(self, link, self.seats_changed)
        self._host = link.is_host
        self._gone: set[int] = set()
        # Seats whose player was sent a notice of the ask that stands: a drop noticed later tells them no more.
        self._told: set[int] = set()
        self._host_away = False
        self.table.steps_here = self._host
        self.rematch = TableRematch(self, live, link)
        self.chat = ChatPane(link)
        self._log_was_hidden = False
        self._waiting_for: tuple[int, ...] = ()
        self._waiting_said: str | None = None
        self._applying = 0
        info = link.info
        self._turn_based = info is not None and info.turn_based
        # Empty at first: a seat that ran out while this player was away (the table keeper hands seats over with
        # nobody connected) is told on opening, as one that runs out while they watch is.
        self._timed_out: set[int] = set()

    def compose(self) -> ComposeResult:
        """The game screen, with the chat pane (hidden until c) below the log."""
        yield from super().compose()
        yield self.chat

    def holds_seat(self) -> bool:
        """Whether this process plays a seat here (a spectator only watches)."""
        return not self.link.spectator

    def history_written(self) -> None:
        """Then listen for the other processes; the host plays table steps by itself.

        Not an ``on_mount`` calling GameScreen's: Textual runs GameScreen's
        ``on_mount`` by itself too, so the log and the transcript were written twice.
        """
        self.auto_play = self._host
        self.set_interval(POLL_SECONDS, self._poll)
        self.set_interval(AWAY_REDRAW_SECONDS, self._redraw_waiting)
        if self._turn_based:
            self.set_interval(TIME_OUT_CHECK_SECONDS, self._check_time)
        self.clock.start()
        info = self.link.info
        if self.link.from_lobby and self._host and info is not None and not self.live.log and self.live.result is None:
            # The game just started here: a turn-based table starts once full, so a seated player may be away.
            self._tell(list(self.live.to_act), info)
        if self._turn_based:
            if info is not None:
                self._tell_timed_out(info)
                # Asked before this Coven opened the table, and away: whoever drove it then (a player's Coven or
                # the table keeper) told them. A drop seen from here on is news, and is told.
                presence = self.link.tables.presence
                self._told.update(seat for seat in self.live.to_act if not seat_connected(info, seat, presence))
            self._remind_half_time()
        if self.link.token:
            kind = "host token" if self._host else "seat token"
            self.notify(f"Your {kind} is {self.link.token}. If you drop, Join a table with it to get back.",
                        title=f"Table {self.link.code}", timeout=12)

    def coach_refusal_here(self) -> str | None:
        """The host's switch (stored with the table) and spectators first, then the player's own setting."""
        info = self.link.info
        refusal = table_refusal(info is not None and info.coach, bool(self.human_seats))
        return refusal or super().coach_refusal_here()

    # -- who plays what ----------------------------------------------------------

    @property
    def human_seats(self) -> list[int]:
        """The seats this process holds (never a bot's)."""
        return [seat for seat in self._seats_here if not self.live.seats[seat].is_bot]

    @property
    def drives_table(self) -> bool:
        """Only the host's process plays bots and automatic steps."""
        return self._host

    def waiting_text(self, seats: Any) -> str:
        """Name who the table waits for, and say who dropped or, for the host, is away."""
        self._waiting_for = tuple(seats)
        text = self._waiting_line(self._waiting_for)
        self._waiting_said = text
        return text

    def _redraw_waiting(self) -> None:
        """Draw the waiting line again while it is on screen: how long someone has been away grows by itself."""
        said = self._waiting_said
        if said is None or self.status_text != said:
            return  # the game moved on since; advance() wrote what is awaited now
        text = self._waiting_line(self._waiting_for)
        if text != said:
            self._waiting_said = text
            self.status_text = text

    def _waiting_line(self, seats: tuple[int, ...]) -> str:
        """The waiting line for ``seats``, with each absent player's time away as of the table's clock."""
        info = self.link.info
        now = self.link.tables.clock()
        host_away = info is not None and info.host_claim is None and not self._host  # nobody drives the table
        names = []
        for seat in seats:
            name = self.live.seats[seat].name
            held = info.seats[seat] if info is not None else None
            # A host's local seat is away by its own claim: at a turn-based table a guest's Coven may drive.
            if held is not None and held.role == "local" and held.claim is None and not self.plays_here(seat):
                name += " (away)"
            elif seat in self._gone:
                gone = info.seats[seat] if info else None
                name += f" ({away_for(gone.dropped_at, now, gone.left) if gone else 'dropped'})"
            names.append(name)
        # Only the host's Coven plays bots and automatic steps; without it they wait too.
        if host_away and (not names or any(self.live.seats[seat].is_bot for seat in seats)):
            return f"{info.host_name} (host) is away; the table waits." if info else ""
        if names:  # "A, B and C": a long wait reads as a list, and the status line cuts it after a word if need be
            listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            return f"Waiting for {listed}…"
        return "Waiting for the host's table…" if not self._host else "Waiting for the table…"

    def status_prefix(self) -> str:
        """The status line starts with the table's code, then how many chat lines wait unseen (a full Footer
        may have no room for the Chat key's count)."""
        chat: ChatPane | None = self.__dict__.get("chat")
        unread = f"chat: {chat.unread} new · " if chat is not None and chat.unread else ""
        return f"Table {self.link.code} · {unread}"

    # -- news from the other processes ------------------------------------------------

    def _poll(self) -> None:
        """Pick up other processes' actions and seat changes."""
        if not self.link.changed():
            return
        self.chat.fetch()
        self.seats_changed()

    def seats_changed(self) -> None:
        """Catch up with the game and the table's seats (after news from the store, or a clock hand-over here)."""
        if self.live.result is not None:  # the table closed with its game; what is left is a rematch
            self._catch_up()
            self.rematch.follow()
            return
        self._catch_up()
        try:
            info = self.link.refresh()
        except TableNotFoundError:
            return  # the game ended (or the table closed): the log already says why
        except StoreError as error:
            self.notify(str(error), severity="error")
            return
        self.chat.show_people(info)
        if self._turn_based and info.host_claim is None and not self.link.spectator and info.seats_of(self.link.claim):
            # Nobody drives this turn-based table now: a player here plays its bots and steps while here.
            try:
                if take_helm(self.link.tables, self.link.code):
                    info = self.link.refresh()
                    self.auto_play = True
            except StoreError as error:
                self.notify(str(error), severity="error")
        self._tell_timed_out(info)
        before = (self._seats_here, self._host, self._host_away, set(self._gone))
        self._seats_here = info.seats_of(self.link.claim) if not self.link.spectator else []
        self._host = info.host_claim == self.link.claim and not self.link.spectator
        self._host_away = info.host_claim is None
        self.table.steps_here = self._host
        gone = {seat.seat for seat in info.seats if seat.role == "remote" and seat.claim is None}
        for seat in sorted(gone - self._gone):
            after = " After that, b lets a bot play it." if self._host else ""
            went = "left the table" if info.seats[seat].left else "dropped"
            if self._turn_based:
                self.notify(f"{info.seats[seat].name} {went}. The table waits for their moves "
                            f"({pace_words(info.pace_days)}).", timeout=8)
                continue
            self.notify(f"{info.seats[seat].name} {went}. Their seat is kept for 10 minutes for their token.{after}",
                        severity="warning", timeout=10)
        for seat in sorted(self._gone - gone):
            self.notify(f"{info.seats[seat].name} is back.", timeout=5)
        if self._host:  # one Coven tells a player who dropped while the table waits on them: the host's
            self._tell([seat for seat in sorted(gone - self._gone) if seat in self.live.to_act], info)
        self._gone = gone
        if before != (self._seats_here, self._host, self._host_away, gone):
            self.refresh_bindings()
            self.advance()  # who plays what changed: the status line, the keys and the table follow

    def prepare_result(self, screen: Any) -> Any:
        """The final screen's p asks every seated player (spectators only watch); closing it leaves the table."""
        screen = super().prepare_result(screen)
        self._rate()
        if isinstance(screen, GameOverScreen):
            screen.live = None
            if not self.link.spectator:
                screen.ask_table = self.rematch.ask
                screen.on_leave = self.rematch.leave
        return screen

    def _rated_table(self) -> bool:
        """Whether the host marked this table rated (as last read; False when it cannot be read)."""
        try:
            return self.link.current().rated
        except StoreError:
            return False

    def _rate(self) -> None:
        """The game is over: rate it if the table was rated (every process tries; one rates), and say so."""
        context = coven(self)
        store = context.store
        if store is None:
            return
        player = None if self.link.spectator else context.tables.rated_account
        spec = self.live.spec
        line = rate_and_tell(store, self.live.session_id, spec.game_id, spec.title, player)
        if line is not None:
            self.notify(line, timeout=10)

    def _tell_timed_out(self, info: Any) -> None:
        """Tell everyone here whose time ran out since last read: a bot plays that seat now."""
        timed_out = {seat.seat for seat in info.seats if seat.timed_out_at is not None}
        for seat in sorted(timed_out - self._timed_out):
            table_seat = info.seats[seat]
            self.notify(f"{table_seat.name} ran out of time: the host's {table_seat.bot_level} bot plays their seat "
                        "until they take it back.", severity="warning", timeout=12, markup=False)  # names from the store
        self._timed_out = timed_out

    def _check_time(self) -> None:
        """Apply the time-out rule to this turn-based table as the game stands here (see saves.turn_based)."""
        info = self.link.info
        if info is None or self.live.result is not None:
            return
        try:
            run_out(self.link.tables, info, self.live)
        except StoreError as error:
            self.notify(str(error), severity="error")
            return
        self._remind_half_time()

    def _remind_half_time(self) -> None:
        """Send the half-time reminder to each asked seat's player who is away (once per seat and move)."""
        info = self.link.info
        if info is None or self.link.spectator or self.live.result is not None:
            return
        try:
            remind_half_time(self.link.tables, info, self.live, self.plays_here)
        except StoreError:
            pass  # a reminder is a courtesy: the next check tries again

    def _catch_up(self) -> bool:
        """Apply every action other processes saved; True when there were any."""
        try:
            batches = self.live.sync()
        except (StoreError, ValueError) as error:
            self.notify(f"The shared game could not be read: {error}", severity="error", timeout=15)
            return False
        waits_for_result = False
        for events in batches:
            # A round's result goes up before anything that followed it is decided.
            waits_for_result = self.show_new_events(events, then_advance=False) or waits_for_result
        if batches and not waits_for_result:
            self.advance()
        return bool(batches)

    # -- notices to players who are not connected ------------------------------------------

    def _apply(self, seat: int | None, action: Any, note: str | None = None) -> bool:
        """Apply and save an action as every game screen does; then tell absent players newly asked to choose.

        Only the process that saved the action tells, so one move sends one notice per seat it asks.
        """
        before = set(self.live.to_act)
        self._applying += 1
        try:
            applied = super()._apply(seat, action, note)
        finally:
            self._applying -= 1
        if applied and not self._applying:  # an automatic move made inside this one is counted here, once
            self._tell_newly_asked(before)
        return applied

    def notice_deadline(self, seat: int, info: TableInfo) -> datetime | None:
        """When ``seat``'s time to choose runs out, for its notice; None at a live table."""
        return notice_deadline(self.link.tables, info, self.live, seat)

    def _tell_newly_asked(self, before: set[int]) -> None:
        """Send a notice for each seat asked now and not before, played elsewhere by nobody connected."""
        live = self.live
        if live.result is not None:
            return
        newly = [seat for seat in live.to_act if seat not in before]
        self._told.difference_update(newly)  # asked anew: a notice of an earlier ask says nothing of this one
        if not newly:
            return
        try:
            info = self.link.tables.find(self.link.code)  # who holds each seat now, not as last polled
        except StoreError:
            return
        self._tell(newly, info)

    def _tell(self, seats: list[int], info: TableInfo) -> None:
        """Send a notice for each of ``seats`` (asked now) that no player here or bot plays (see tell_seat_asked)."""
        tell_asked(self.link.tables, info, self.live, seats, self._told, self.plays_here)

    def save_failed(self, seat: int | None, action: Any, error: StoreError) -> bool:
        """Another process saved first: catch up, then try again while the action is still legal."""
        if not isinstance(error, LogConflictError):
            return super().save_failed(seat, action, error)
        for _ in range(RETRIES):
            self._catch_up()
            if seat is not None and seat not in self.live.to_act:
                return False
            try:
                events = self.live.apply(seat, action)
            except ActionError:
                return False  # the game moved on; the table redraws what is legal now
            except LogConflictError:
                continue
            except StoreError as again:
                return super().save_failed(seat, action, again)
            self.show_new_events(events)
            return True
        return super().save_failed(seat, action, error)

    # -- table talk ------------------------------------------------------------------

    def action_toggle_chat(self) -> None:
        """Open the chat pane in the log's place, or close it (the log comes back as it was)."""
        if not self.chat.is_open:
            log = self.query_one("#game-log")
            self._log_was_hidden = log.has_class("hidden")
            log.add_class("hidden")
        self.chat.toggle()

    def action_toggle_chat_here(self) -> None:
        """ctrl+t: the chat key where a focused pane answers c itself (the team builder's confirm)."""
        self.action_toggle_chat()

    @on(ChatPane.Toggled)
    def _chat_toggled(self) -> None:
        if not self.chat.is_open:
            self.query_one("#game-log").set_class(self._log_was_hidden, "hidden")
        self.refresh_bindings()

    @on(ChatPane.UnreadChanged)
    def _unread_changed(self) -> None:
        self.refresh_bindings()
        self.update_status()

    def refresh_bindings(self) -> None:
        """Say on the Chat key how many lines wait unseen, then redraw the Footer."""
        chat: ChatPane | None = self.__dict__.get("chat")  # None while the base class is still being built
        if chat is not None:
            describe_chat_key(self, chat)
        super().refresh_bindings()

    # -- keys ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``b`` shows only for the host while a remote seat is empty."""
        if action == "seat_to_bot":  # a turn-based table hands a seat over only when its time runs out
            return self._host and bool(self._gone) and self.live.result is None and not self._turn_based
        if action == "clock_take_back":
            return bool(self.clock.mine_out()) and self.live.result is None
        if action == "toggle_chat_here":
            return c_is_taken(self)
        return super().check_action(action, parameters)

    def action_undo(self) -> None:
        """Take back this seat's latest move under the same rule, asked about the game as the others left it.

        Another player may move between the question and the save: the store then refuses the undo
        (its place in the log is taken), the screen catches up and says so in words.
        """
        self._catch_up()
        seat = undo_seat(self)
        if seat is None or undo_refusal(self) is not None:
            take_back(self)  # says why not
            return
        try:
            events = self.live.undo(seat)
        except (LogConflictError, ActionError):
            self._catch_up()
            why = undo_refusal(self)
            self.notify("Nothing was taken back: another player moved meanwhile"
                        + (f", so {why}." if why else ". Try again."), title="Undo", severity="warning")
            return
        except StoreError as error:
            self.notify(f"Nothing was taken back: {error}", title="Undo", severity="error", markup=False)
            return
        self.show_new_events(events)

    def action_step(self) -> None:
        """Play the waiting automatic step; only the host's Coven does (the store refuses the others)."""
        if not self._host:
            if self.live.table_action is not None and not self.live.to_act:
                self.notify("The host's Coven plays the table's steps; they come here by themselves.", timeout=4)
            return
        super().action_step()

    def action_seat_to_bot(self) -> None:
        """Hand the first dropped seat to a bot, once its 10 minutes are over."""
        if not self._host or not self._gone:
            return
        seat = min(self._gone)
        levels = self.live.spec.bot_levels
        if not levels:
            self.notify(f"{self.live.spec.title} has no bots.", severity="error")
            return
        level = "normal" if "normal" in levels else levels[0]
        try:
            self.link.tables.hand_to_bot(self.link.code, seat, level)
        except StoreError as error:
            self.notify(str(error), title="Not yet", severity="warning")
            return
        self._gone.discard(seat)
        self._catch_up()
        self.live.sync()
        name = self.live.seats[seat].name
        forfeit = f" At this rated table, {name} loses the game." if self._rated_table() else ""
        self.notify(f"A {level} bot now plays {name}'s seat.{forfeit}")
        self.advance()

    def action_clock_take_back(self) -> None:
        """Take back the seat the clock handed to a bot when this player's time ran out."""
        self.clock.take_back()

    def advance(self) -> None:
        """Decide what happens next, then bring the table's clock along (a move, a curtain, a seat back)."""
        super().advance()
        clock: TableClockKeeper | None = self.__dict__.get("clock")  # None while the base class is being built
        if clock is not None and self.is_mounted:
            clock.follow()

    def on_screen_resume(self) -> None:
        """Back from Settings (or any screen over the table): a changed *Clock for me* reaches the table (Textual
        runs GameScreen's resume too)."""
        self.clock.pass_on_request()

    def help_now(self) -> str:
        """The whole status line, then the whole clock line (a narrow terminal may show either shortened)."""
        clock: TableClockKeeper | None = self.__dict__.get("clock")
        line = clock.text() if clock is not None else ""
        return super().help_now() + (f"\n{line}" if line else "")

    def on_resize(self) -> None:
        """A new width may hold more (or less) of the clock line (Textual runs GameScreen's too, for the status)."""
        self.clock.redraw()

    def clock_words(self) -> str | None:
        """The ask key's answer about the clock: the table's, in words (None: this table keeps none)."""
        return self.clock.words()

    def action_menu(self) -> None:
        """Leave the table (the host after saying what stops); the seat stays reserved for the token."""
        if self._host and self.live.result is None and len(self.live.seats) > len(self._seats_here) \
                and not self._turn_based:  # any player back at a turn-based table plays its bots and steps
            from tui.widgets.confirm import ConfirmScreen

            def answered(yes: bool | None) -> None:
                if yes:
                    self.saving.confirm_leave(self._leave)

            self.app.push_screen(ConfirmScreen(
                "Leave the table? Bots and automatic steps wait until you come back with your host token; "
                "the other players wait too.", "Leave", "Stay"), answered)
            return
        self.saving.confirm_leave(self._leave)

    def _leave(self) -> None:
        """Give up this process's seats and go to the menu, reminding the player of the token."""
        self.auto_play = False
        token = self.link.token
        if self._turn_based and self.live.result is None:
            self.app.notify(f"You left table {self.link.code}; it waits for your next move. y at the menu lists "
                            "your tables.", timeout=10)
        elif token and self.live.result is None:
            # Said before leaving: a rated table counts a player who does not come back as losing.
            forfeit = " This table is rated: if you do not come back, you lose the game." if self._rated_table() else ""
            self.app.notify(f"You left table {self.link.code}. Your token {token} gets your seat back "
                            f"within 10 minutes (Join a table).{forfeit}", timeout=15)
        coven(self).tables.leave(self.link)
        leave_to_menu(self)
