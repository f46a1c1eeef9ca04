"""The game screen: generic over games, it owns a :class:`LiveSession`.

It draws the status line, the game's table, the log and the footer, answers
the keys, and decides what happens after every change: :meth:`GameScreen.advance`
looks at the session and picks one thing to do: show the result, let a bot
think (in a worker thread), ask a human (behind a pass-and-play curtain when
another human shares the keyboard), or wait for the table's automatic step.
Applying an action and putting up a round's result live here too. Whatever
differs between games is asked of the game's :class:`~tui.games.base.GameUI`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, ClassVar, TypeVar

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import RichLog, Static
from textual.worker import Worker, WorkerState, active_worker

from engine import ActionError, Event
from engine.core.bot_budget import with_think_time
from saves import LiveSession, StoreError
from saves.series import series_score
from tui.alarm import Alarm, set_alarm
from tui.coach_access import SETTING_OFF
from tui.context import coven_or_none, leave_to_menu
from tui.fit_text import cut_words
from tui.games import game_ui
from tui.games.base import GameTable, GameUI, noted
from tui.games.narration import Question
from tui.player_settings import read_settings, think_time
from tui.safe_text import plain, plain_lines
from tui.screen_commands import PaletteAction, ScreenCommands
from tui.screens.curtain import TAKE_BACK, CurtainScreen, TakeBackOffer
from tui.screens.game.narrator import Narrator
from tui.screens.game.save_retry import SaveRetry
from tui.screens.game.undo import describe_undo_key, take_back, take_back_move, undo_refusal, undo_state
from tui.screens.transcript import TranscriptScreen
from tui.serve_status import seat_screen_gone, seat_screen_shown
from tui.table_turns import bot_for, bot_rng
from tui.turn_notice import TurnNotices, notice_escape, wanted
from tui.verbosity import level_of
from tui.widgets.ask import TITLES, AskScreen
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.game_over import GameOverScreen
from tui.widgets.lean_log import LeanLog
from tui.widgets.linear_view import LinearView
from tui.widgets.save_banner import SaveBanner
from tui.widgets.styles import css_beside

T = TypeVar("T")


def fit_status(parts: tuple[str, str, str, str], width: int) -> str:
    """The status line in ``width`` columns, shortened the way that loses least.

    The game's name goes first (the help's title names it), then the table's
    prefix; what is awaited stays whole when it can, else it is cut after a word
    with "…" (the help shows the whole line).
    """
    prefix, title, progress, text = (plain_lines(part) for part in parts)  # measured as they will be drawn
    tail = f" — {text}" if text else ""
    for line in (f"{prefix}{title} · {progress}{tail}", f"{prefix}{progress}{tail}", f"{progress}{tail}"):
        if cell_len(line) <= width:  # columns, not characters: a name may hold wide ones
            return line
    if cell_len(text) + 3 < width:  # progress shortened, what is awaited whole
        return f"{cut_words(progress, width - cell_len(tail))}{tail}"
    return cut_words(text or progress, width)


def _think_then_forget(work: Callable[[], T]) -> T:
    """Run a bot's ``work`` in its worker thread, then make the thread forget the worker.

    Textual notes the worker in the thread's own context (``active_worker``) and leaves it
    there, so each idle thread of the pool would hold its last worker, and through it that
    worker's game screen with its log and table, long after the game was left.
    """
    try:
        return work()
    finally:
        active_worker.set(None)  # type: ignore[arg-type]  # nothing reads it outside a worker


class GameScreen(Screen[None]):
    """Plays one session: the table, the status line and the log, and who acts next after every change."""

    CSS_PATH = css_beside(__file__, "screen.tcss")
    HELP = ("The table of one game. The line at the top says whose turn it is; the game's own keys choose "
            "while it is your turn, space plays the table's next step, a plays them by itself, l shows or "
            "hides the log. Every move is saved as it is made, so escape leaves at any time and Continue "
            "comes back. For a screen reader: ; says where the game stands (again: in detail), ' asks one question "
            "(its list names each), T opens the transcript, and the Linear mode setting shows the table in words.")
    HELP_KEYS_GROUP = "Table"
    HELP_GROUPS = {"toggle_auto": "Table"}
    """Automatic play steps the table: listed with it, not among the keys that only show things."""
    COMMANDS = {ScreenCommands}
    PALETTE_ACTIONS: tuple[PaletteAction, ...] = (
        ("show_transcript", "Transcript", "Everything said at this table so far, as sentences (T)"),
        ("announce", "Announce", "Say where the game stands for your seat (;)"),
        ("ask", "Ask", "Ask one question: last move, turn, hand, opponents, score, board or clock (')"),
        ("toggle_log", "Log", "Show or hide the game log (l)"),
        ("undo", "Undo", "Take back your latest move (u)"),
    )
    """The game's own commands in the palette (ctrl+p), beside the app's: each offered while its key works."""
    BINDINGS = [
        Binding("space", "step", "Next step"),
        Binding("a", "toggle_auto", "Auto play"),
        Binding("l", "toggle_log", "Log"),
        Binding("u,ctrl+z", "undo", "Undo", key_display="u"),
        Binding("escape,q", "menu", "Menu"),
        Binding("r", "retry_save", "Retry saving"),
        Binding("semicolon", "announce", "Announce", key_display=";", show=False),
        Binding("apostrophe", "ask", "Ask", key_display="'", show=False),
        Binding("T", "show_transcript", "Transcript", show=False),
    ]

    AT_A_TABLE: ClassVar[bool] = False
    """True for a shared table's screen, where a player may be told that it has become their turn."""

    auto_play: reactive[bool] = reactive(False)
    """When True the table's automatic steps play by themselves, one per ``auto_delay``."""

    status_text: reactive[str] = reactive("")
    """What the screen is waiting for, shown above the table."""

    linear: bool | None = None
    """Show the table in words too (the "Linear mode" setting); None: read the player's setting on mounting."""

    saving: SaveRetry
    """Holds a move whose save failed, retries it, and asks before leaving while it waits."""

    def __init__(self, live: LiveSession, auto_delay: float = 0.8) -> None:
        """Play ``live``; ``auto_delay`` is the pause between automatic steps."""
        super().__init__()
        self.live = live
        # Textual timers divide by their delay, so a zero delay becomes "as soon as possible".
        self.auto_delay = max(auto_delay, 0.001)
        self.ui: GameUI[Any] = game_ui(live.spec.game_id)
        self.table: GameTable[Any, Any] = self.ui.make_table()
        self.table.checker = self.check_choice
        self.revealed_seat: int | None = None
        """The seat whose secrets the table may currently show (after its curtain)."""
        self._curtain_up = False
        self._bot_log_length: int | None = None
        self._result_shown = False
        self._round_events: list[Event] = []
        self._last_events: list[Event] = []
        self._auto_timer: Alarm | None = None
        self._bot_timer: Alarm | None = None  # the pause before a bot acts, when there is one
        self._bot_turn = 0  # counts bot turns called off during their pause (a late timer then starts nothing)
        self._bot_pausing = False  # a bot's pause runs: its worker has not started
        self._pending_modal: Screen[None] | None = None
        self._bot_failed = False
        self._turn_notices = TurnNotices()
        self.saving = SaveRetry(self)  # holds a move whose save failed; while it waits, nothing else happens
        self.confirm_leave = self.saving.confirm_leave  # quitting asks first while a move is held (CovenApp.leave_then)
        self.narrator = Narrator(self)
        self._announced: tuple[int, str] | None = None  # (log length, sentence): shown until the game moves on

    # -- layout -------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Status line, the game's table, the log and the footer."""
        yield SaveBanner()
        yield Static("", id="game-status")
        with Vertical(id="table-area"):
            yield self.table
        yield LinearView(id="game-linear")
        # min_width: RichLog otherwise wraps at 78 columns however narrow the log is, and cuts the ends off.
        log = LeanLog(id="game-log", wrap=True, markup=False, max_lines=2000, min_width=20)
        log.border_title = "Log (l)"
        yield log
        yield FittingFooter()

    def coach_refusal_here(self) -> str | None:
        """Why a game's coach may not help on this screen (the player's setting turned it off), or None."""
        context = coven_or_none(self)
        if context is not None and not read_settings(context.store, context.account)["coach"]:
            return SETTING_OFF
        return None

    def on_unmount(self) -> None:
        """The game is left: this player is no longer seated in it (and no pending step or bot holds the screen)."""
        seat_screen_gone(self)
        for alarm in (self._auto_timer, self._bot_timer):
            if alarm is not None:
                alarm.stop()
        self.saving.stop()

    def set_alarm(self, delay: float, callback: Callable[[], object]) -> Alarm:
        """Call ``callback`` on this screen in ``delay`` seconds, however late the loop is (see :mod:`tui.alarm`)."""
        return set_alarm(self, delay, callback)

    def holds_seat(self) -> bool:
        """Whether this screen plays a seat of this player's (a spectator's table screen does not)."""
        return True

    def on_mount(self) -> None:
        """Write the history so far into the log, then start the loop."""
        seat_screen_shown(self, self.holds_seat())  # a full coven serve never closes a player in a game
        live = self.live
        self.table.coach_refusal = self.coach_refusal_here()
        context = coven_or_none(self)
        if context is not None:
            self.narrator.level = level_of(read_settings(context.store, context.account))
        if self.linear is None:
            self.linear = context is not None and bool(read_settings(context.store, context.account)["linear"])
        history: list[Event] = []
        steps = live.history()
        self.narrator.transcript.add("The game begins.")
        self.narrator.step([], steps[0].state)
        for step in steps[1:]:
            events = list(step.events)
            self.write_log(self.ui.log_lines(events, self.viewer_seat))
            self.narrator.step([], step.state)
            history.extend(events)
            self._round_events.extend(events)
            if any(self.ui.ends_round(event) for event in events):
                self._round_events = []
            self._last_events = events
        if history:  # a resumed game: the table shows what happened last (e.g. why the last duel ended)
            self.table.show_events(history)
        self.revealed_seat = None
        self.narrator.ready = True
        self.narrator.situation()  # the status may never change before the first move (a table waiting)
        if self.linear:  # the table in words takes the log's place (l still shows the log)
            self.query_one("#game-log", RichLog).add_class("hidden")
        self._show(self.viewer_seat, None, [])
        self.update_status()  # a status set before compose found no line to draw on
        self.call_after_refresh(self.advance)
        self.history_written()

    def history_written(self) -> None:
        """What a kind of game screen starts once the history is written (none here).

        Textual runs the ``on_mount`` of every class in the MRO, subclass
        first, so a subclass's own ``on_mount`` would start before the history
        is in; this hook runs after it.
        """

    def on_screen_resume(self) -> None:
        """Continue the loop when a modal, curtain or notice closes (the Settings, too: linear mode may change)."""
        self.follow_linear_setting()
        self.table.coach_refusal = self.coach_refusal_here()  # the coach setting may have changed too
        self.call_after_refresh(self.advance)

    def follow_linear_setting(self) -> None:
        """Take up a change of the "Linear mode" setting made while another screen was in front."""
        context = coven_or_none(self)
        if context is None:
            return
        settings = read_settings(context.store, context.account)
        self.narrator.level = level_of(settings)  # the verbosity, too, takes effect when the player comes back
        wanted = bool(settings["linear"])
        if wanted != self.linear:
            self.linear = wanted
            self.query_one("#game-log", RichLog).set_class(wanted, "hidden")
            if not wanted:
                self.query_one(LinearView).show_text(None)

    def watch_status_text(self) -> None:
        """Show the status line; the transcript says whose turn it is when that changed."""
        self.update_status()
        if self.narrator.ready:
            self.narrator.situation()

    def update_status(self) -> None:
        """Redraw the status line: game, progress, auto play and what is awaited, fitted to one line."""
        found = self.query("#game-status").results(Static)
        status = next(found, None)
        if status is None:  # not composed yet: the first read of status_text runs its watcher; on_mount draws it
            return
        width = status.content_region.width or max(self.app.size.width - 2, 1)
        # Names and progress come from players and the store: drawn as plain text, never markup.
        status.update(plain(fit_status(self.status_parts(), width)))

    def status_parts(self) -> tuple[str, str, str, str]:
        """The status line's parts: the prefix (a table's code), the game, its progress and what is awaited."""
        progress = self.live.progress or "starting"
        if self.auto_play and "automatic" not in self.status_text:
            progress += " · auto"
        text = self.status_text
        if self._announced is not None and self._announced[0] == len(self.live.log):
            text = self._announced[1]  # what ; said stays on the status line until the game moves on
        return self.status_prefix(), self.live.spec.title, progress, text

    def card_in_play(self, game_id: str, key: str) -> str | None:
        """For the card lookup: where card ``key`` of ``game_id`` stands now, seen by the seat the narrator reads
        (the seat choosing and shown here, else the one viewer): a seat behind a curtain lends it no eyes."""
        live = self.live
        if game_id != live.spec.game_id:
            return None
        seat = self.narrator.eyes()
        return self.ui.card_now(live.rules.view(live.state, seat), seat, key)

    def help_now(self) -> str:
        """The whole status line, for the help screen (a narrow terminal may show it shortened)."""
        prefix, title, progress, text = self.status_parts()
        return f"{prefix}{title} · {progress}" + (f" — {text}" if text else "")

    @property
    def HELP_TITLE(self) -> str:  # noqa: N802 - read like the other screens' HELP_TITLE attribute
        """The help is titled by the game's name."""
        return self.live.spec.title

    def on_resize(self) -> None:
        """A new width may hold more (or less) of the status line."""
        self.update_status()

    def status_prefix(self) -> str:
        """Text that leads the status line (none for a game at one terminal)."""
        return ""

    def clock_words(self) -> str | None:
        """The clock in words for the ask key; a game at one terminal keeps none (a shared table may)."""
        return None

    def curtain_is_up(self) -> bool:
        """Whether a pass-and-play curtain hides the table here (a table's clock stands still meanwhile)."""
        return self._curtain_up

    def watch_auto_play(self, value: bool) -> None:
        """Refresh the status line and start stepping if needed."""
        self.update_status()
        if value:
            self.advance()
            return
        if self._auto_timer is not None:
            self._auto_timer.stop()
            self._auto_timer = None
        live = self.live
        if live.result is None and live.table_action is not None and not live.to_act:
            self.advance()  # the status line still says "Playing automatically": it must say what is waiting now

    def _show(self, view_seat: int | None, deciding: int | None, legal: Sequence[Any]) -> None:
        """Draw the table from ``view_seat``'s view."""
        if view_seat is None and len(self.human_seats) > 1:
            self.revealed_seat = None
        view = self.live.rules.view(self.live.state, view_seat)
        self.table.present(view_seat, view, deciding, legal)
        if self.linear:
            self.query_one(LinearView).show_text(self.ui.linear_text(view, view_seat, self.narrator.level))

    def write_log(self, lines: Sequence[str]) -> None:
        """Add ``lines`` to the game log."""
        log = self.query_one("#game-log", RichLog)
        for line in lines:
            log.write(line)
        self.narrator.events(lines)

    # -- who is who -----------------------------------------------------------

    @property
    def human_seats(self) -> list[int]:
        """Seats played by people at this terminal."""
        return [index for index, seat in enumerate(self.live.seats) if not seat.is_bot]

    def plays_here(self, seat: int) -> bool:
        """True when a person at this terminal plays ``seat``."""
        return seat in self.human_seats

    @property
    def drives_table(self) -> bool:
        """True when this screen plays the bots and the table's automatic steps."""
        return True

    @property
    def viewer_seat(self) -> int | None:
        """Whose eyes are on the screen when nobody decides: the only human, else a spectator."""
        humans = self.human_seats
        return humans[0] if len(humans) == 1 else None

    def _keeps_secrets_from_others_here(self, seat: int) -> bool:
        """True when another human shares this terminal and ``seat`` has something to hide from them."""
        return len(self.human_seats) > 1 and bool(self.live.rules.seat_has_secrets(self.live.state, seat))

    def _needs_curtain(self, seat: int) -> bool:
        """True when ``seat`` decides in secret and another human shares the terminal."""
        if len(self.human_seats) < 2 or self.revealed_seat == seat:
            return False
        return bool(self.live.rules.seat_has_secrets(self.live.state, seat))

    # -- the loop -------------------------------------------------------------

    def advance(self) -> None:
        """Decide what happens next after any change."""
        if not self.is_current or self._curtain_up or self._bot_log_length is not None or self.saving.failing:
            return
        if self._pending_modal is not None:
            modal, self._pending_modal = self._pending_modal, None
            self.app.push_screen(modal)
            return
        live = self.live
        self.refresh_bindings()
        self.update_status()
        result = live.result
        if result is not None:
            self.auto_play = False
            self._show(self.viewer_seat, None, [])
            self.status_text = "Game over. Press escape for the menu."
            if not self._result_shown:
                self._result_shown = True
                view = live.rules.view(live.state, self.viewer_seat)
                self.app.push_screen(self.prepare_result(self.ui.game_result(view, result, self._last_events)))
            return
        to_act = live.to_act
        bots = [seat for seat in to_act if live.seats[seat].is_bot]
        humans = [seat for seat in to_act if self.plays_here(seat)]
        if not humans:
            self._turn_notices.due(set(), live.last_mover)  # the next time a seat here is asked, it is news
        # In a round everyone plays at once, the people here choose before the bots: the last choice of a
        # secret round shows them all, so a person's choice made last could never be taken back.
        if bots and self.drives_table and not humans:
            if self._bot_failed:
                self.status_text = "A bot failed; its game cannot go on."
            else:
                self._start_bot(bots[0])
            return
        if humans:
            seat = humans[0]
            name = live.seats[seat].name
            legal = live.rules.legal_actions(live.state, seat)
            if self._play_automatic(seat, legal):  # before any curtain: a pass the seat asked for raises none
                return
            self._notice_turn(set(humans))
            if self._needs_curtain(seat):
                mover = self._take_back_offered()
                offer = None if mover is None else TakeBackOffer(live.seats[mover].name, live.undo_refusal(mover))
                self._show(None, None, [])
                self._curtain_up = True
                self.status_text = f"Passing to {name}"
                context = " · ".join(part for part in (live.spec.title, live.progress) if part)
                self.app.push_screen(CurtainScreen(name, context, offer), partial(self._curtain_lifted, seat, mover))
                return
            self.revealed_seat = seat
            self._show(seat, seat, legal)
            self.status_text = f"{name} to choose"
            return
        if bots and self.drives_table:
            self._start_bot(bots[0])
            return
        if to_act:  # played at other terminals (or by their bots): their actions arrive through the store
            self._show(self.viewer_seat, None, [])
            self.status_text = self.waiting_text(to_act)
            return
        if live.table_action is not None and not self.drives_table:
            self._show(self.viewer_seat, None, [])
            self.status_text = self.waiting_text(())
            return
        if live.table_action is not None:
            self._show(self.viewer_seat, None, [])
            by_itself = self.table_plays_by_itself(live.table_action)
            if self.auto_play or by_itself:
                self.status_text = "Playing automatically (a to stop)" if self.auto_play else "Playing the next step…"
                if self._auto_timer is None:
                    self._auto_timer = self.set_alarm(self.auto_delay, self._auto_step)
            else:
                self.status_text = self.step_hint()

    def prepare_result(self, screen: Screen[None]) -> Screen[None]:
        """Give a final screen the finished game (for ``p``, play again) and the series score."""
        if isinstance(screen, GameOverScreen):
            screen.live = self.live
            score = series_score(self.live.store, self.live.session_id)
            screen.series = score.text if score is not None and score.games > 1 else None
        return screen

    def _notice_turn(self, asked: set[int]) -> None:
        """At a table, ring and ask the terminal for a desktop notice when a seat here is newly asked to choose."""
        if not self.AT_A_TABLE or not self._turn_notices.due(asked, self.live.last_mover):
            return
        context = coven_or_none(self)
        if context is None:
            return
        if wanted(read_settings(context.store, context.account)["notifications"], context.served):
            context.send_to_terminal(notice_escape())

    def waiting_text(self, seats: Sequence[int]) -> str:
        """The status while ``seats`` (or, when empty, the table's driver) act elsewhere."""
        names = [self.live.seats[seat].name for seat in seats]
        return f"Waiting for {' and '.join(names)}…" if names else "Waiting for the table…"

    def _play_automatic(self, seat: int, legal: Sequence[Any]) -> bool:
        """Apply the table's automatic choice for ``seat`` (e.g. a pass it yields), if it has one; True when applied."""
        live = self.live
        choice = self.table.automatic_choice(seat, live.rules.view(live.state, seat), legal)
        if choice is None or (not choice.asked_for and self._keeps_secrets_from_others_here(seat)):
            # Passing at once (and logging why) would tell whoever looks at this shared screen that the seat
            # had nothing else to do: with a hidden hand, a secret. The seat is asked, behind its curtain.
            return False
        return self._apply(seat, choice.action, note=choice.note)

    def _take_back_offered(self) -> int | None:
        """The seat a curtain offers ``u`` to: the person here who made the latest move, or None."""
        mover = self.live.last_mover
        return mover if mover is not None and self.plays_here(mover) and not self.saving.failing else None

    def _curtain_lifted(self, seat: int, mover: int | None = None, result: object = None) -> None:
        """The right person is looking: reveal ``seat``'s view; or ``mover`` took their move back on the curtain."""
        self._curtain_up = False
        if result == TAKE_BACK and mover is not None:
            # Nobody is revealed: whoever must choose now (the mover, most often) gets a curtain of their own.
            self.revealed_seat = None
            take_back_move(self, mover)
            self.advance()
            return
        self.revealed_seat = seat
        self.advance()

    def _auto_step(self) -> None:
        """One automatic step, if auto play is still on and nothing else is needed."""
        self._auto_timer = None
        pending = self.live.table_action
        by_itself = pending is not None and self.table_plays_by_itself(pending)
        if (self.auto_play or by_itself) and self.is_current and not self.live.to_act:
            self.action_step()

    def step_hint(self) -> str:
        """The status while the table's next step waits for its key."""
        return "Space: next step · a: automatic play"

    def table_plays_by_itself(self, action: Any) -> bool:
        """Whether the table's waiting step ``action`` plays after a short pause without a key (the table says)."""
        return self.table.plays_by_itself(action)

    def action_step(self) -> None:
        """Play the table's waiting automatic step."""
        live = self.live
        if not self.is_current or self._bot_log_length is not None or live.to_act or self.saving.failing:
            return
        pending = live.table_action
        if pending is not None:
            self._apply(None, pending)

    # -- bots -------------------------------------------------------------------

    def _start_bot(self, seat: int) -> None:
        """Let ``seat``'s bot choose in a worker thread."""
        live = self.live
        info = live.seats[seat]
        bot = bot_for(live, seat)
        if bot is None:
            self.notify(f"{live.spec.title} has no bots; {info.name} cannot play.", severity="error")
            return
        self._show(self.viewer_seat if self.revealed_seat is None else self.revealed_seat, None, [])
        self.status_text = f"{info.name} is thinking…"
        self._bot_log_length = len(live.log)
        if undo_refusal(self) is None:
            # A person here may still take their move back: the bot answers after the step pause (kept even
            # under Reduced motion), and u meanwhile takes the move back before the bot has seen the table.
            context = coven_or_none(self)
            pause = max(self.auto_delay, context.base_auto_delay if context is not None else self.auto_delay)
            self.status_text = f"{info.name} is thinking… (u takes your move back)"
            self._bot_pausing = True
            self._bot_timer = self.set_alarm(pause, partial(self._run_bot, seat, bot, self._bot_turn))
        elif self.table.bot_pause:  # the table wants a bot's turn to read as steps: pause before each action
            self._bot_pausing = True
            self._bot_timer = self.set_alarm(self.auto_delay, partial(self._run_bot, seat, bot, self._bot_turn))
        else:
            self._run_bot(seat, bot)

    def _run_bot(self, seat: int, bot: Any, turn: int | None = None) -> None:
        """Start ``bot``'s worker for ``seat`` (its log length was noted by :meth:`_start_bot`).

        ``turn`` is the bot turn a pause was for: a pause called off (its move taken back) starts nothing.
        """
        live = self.live
        if turn is not None and turn != self._bot_turn:
            return
        self._bot_timer = None
        self._bot_pausing = False
        rng = bot_rng(live, seat)
        context = coven_or_none(self)
        store, account = (None, None) if context is None else (context.store, context.account)
        bot = with_think_time(bot, think_time(store, account))
        view = live.rules.view(live.state, seat)
        legal = live.rules.legal_actions(live.state, seat)
        self.run_worker(partial(_think_then_forget, partial(bot, view, legal, rng)), name=f"bot:{seat}", group="bot",
                        thread=True, exit_on_error=False)

    @on(Worker.StateChanged)
    def _bot_finished(self, event: Worker.StateChanged) -> None:
        """Apply the bot's choice once its worker is done."""
        worker = event.worker
        if worker.group != "bot" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        expected, self._bot_log_length = self._bot_log_length, None
        seat = int(worker.name.split(":")[1])
        if event.state is WorkerState.SUCCESS and expected == len(self.live.log):
            self._apply(seat, worker.result)
        elif event.state is WorkerState.ERROR:
            self._bot_failed = True
            self.notify(f"The bot failed: {worker.error}", severity="error", timeout=15)
        self.advance()

    # -- applying actions -------------------------------------------------------

    def _apply(self, seat: int | None, action: Any, note: str | None = None) -> bool:
        """Apply, save and show an action (``note``: why it was taken without asking); notify and return False if rejected."""
        try:
            events = self.live.apply(seat, action)
        except ActionError as error:
            self.notify(error.reason, title="Not allowed", severity="error")
            return False
        except StoreError as error:
            return self.save_failed(seat, action, error)
        self.show_new_events(events, note=note)
        return True

    def save_failed(self, seat: int | None, action: Any, error: StoreError) -> bool:
        """Hold an action whose save may work later, or say why it was refused (a shared table may retry first)."""
        return self.saving.failed(seat, action, error)

    def show_new_events(self, events: list[Event], *, then_advance: bool = True, note: str | None = None) -> bool:
        """Log and show the events of one saved action, then (unless told not to) decide what happens next.

        ``note`` (why an automatic choice was taken) follows the action's first log line.

        Returns:
            True when a round's result was put up (or queued) and the game waits for it to close.
        """
        self._last_events = events
        self.update_status()
        lines = self.ui.log_lines(events, self.viewer_seat)
        if note is not None and lines:
            lines[0] = noted(lines[0], note)
        self.write_log(lines)
        self.table.show_events(events)
        self._round_events.extend(events)
        if any(self.ui.ends_round(event) for event in events):
            round_events, self._round_events = self._round_events, []
            view = self.live.rules.view(self.live.state, self.viewer_seat)
            self._show(self.viewer_seat, None, [])
            modal = self.ui.round_result(view, round_events)
            if modal is not None:
                if self.is_current:
                    self.app.push_screen(modal)
                else:  # e.g. the rules are open: show it on return
                    self._pending_modal = modal
                return True
        if then_advance:
            self.advance()
        return False

    def check_choice(self, seat: int, action: Any) -> str | None:
        """The rules' reason ``seat`` may not take ``action`` now, or None if they may (the table's checker)."""
        live = self.live
        not_now = self.turn_refusal(seat)
        if not_now is not None:
            return not_now
        try:
            live.rules.check_action(live.state, seat, action)
        except ActionError as error:
            return error.reason
        return None

    def turn_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not choose now because it is not to act, in words; None when it is."""
        live = self.live
        return None if seat in live.to_act else f"It is not {live.seats[seat].name}'s turn to choose."

    # -- what the table asks for ------------------------------------------------------

    @on(GameTable.StepRequested)
    def _step_requested(self, message: GameTable.StepRequested) -> None:
        """The table asked for its waiting automatic step (e.g. the pillar tree's ``n``)."""
        message.stop()
        self.action_step()

    @on(GameTable.ActionChosen)
    def _action_chosen(self, message: GameTable.ActionChosen[Any]) -> None:
        """A human chose an action on the table."""
        message.stop()
        seat = message.seat
        if seat is None or not 0 <= seat < len(self.live.seats) or not self.plays_here(seat):
            self.notify("That seat is not played from this terminal.", severity="error")
            return
        not_now = self.turn_refusal(seat)
        if not_now is not None:
            self.notify(not_now, severity="error")
            return
        if not self.saving.refuse():
            self._apply(seat, message.action)

    # -- key actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide "Next step" and "Auto play" while a human here decides or once the game is over; dim them when no
        step waits.

        Hidden rather than dimmed so the deciding pane's own keys fit an 80-column footer, and so a finished game
        offers no step it cannot take.
        """
        if action == "retry_save":
            return self.saving.failing
        if action == "undo":
            return undo_state(self)
        if action in ("step", "toggle_auto"):
            live = self.live
            if live.result is not None:
                return False
            if not self.drives_table or any(self.plays_here(seat) for seat in live.to_act):
                return False
            if action == "step" and (live.to_act or live.table_action is None):
                return None
        return True

    def refresh_bindings(self) -> None:
        """Say in the undo key why it is dimmed, then redraw the Footer."""
        describe_undo_key(self)
        super().refresh_bindings()

    def action_undo(self) -> None:
        """Take back this seat's most recent move, when the rule allows it (a bot waiting to answer it waits no more)."""
        take_back(self)
        if self._bot_log_length is not None and self._bot_log_length != len(self.live.log) \
                and self._bot_pausing:  # the bot had not begun to think: call its turn off
            if self._bot_timer is not None:
                self._bot_timer.stop()
            self._bot_timer = None
            self._bot_turn += 1
            self._bot_pausing = False
            self._bot_log_length = None
            self.advance()

    def action_retry_save(self) -> None:
        """Try the move that could not be saved again now."""
        self.saving.retry_now()

    def action_toggle_auto(self) -> None:
        """Switch automatic play of table steps on or off."""
        self.auto_play = not self.auto_play
        self.notify("Automatic play on" if self.auto_play else "Automatic play off", timeout=2)

    def action_announce(self) -> None:
        """Say where the game stands for the seat looking (a toast, the status line and the transcript)."""
        self._say(self.narrator.announce(), "Now")

    def action_ask(self) -> None:
        """Open the questions (``'``); the one chosen is answered like an announcement."""
        self.app.push_screen(AskScreen(), self._answer)

    def _answer(self, question: Question | None) -> None:
        """Answer the question asked from the seat looking now (escape asked none)."""
        if question is not None:
            self._say(self.narrator.answer(question), TITLES[question])

    def _say(self, text: str, title: str) -> None:
        """Say ``text`` as a toast, on the status line (until the game moves on) and, by the narrator, in the
        transcript."""
        self._announced = (len(self.live.log), text)
        self.update_status()
        self.notify(text, title=title, timeout=10, markup=False)  # names come from players: never markup

    def action_show_transcript(self) -> None:
        """Open the transcript: everything said at this table so far, as sentences."""
        title = f"{self.live.spec.title}: transcript"
        self.app.push_screen(TranscriptScreen(title, self.narrator.transcript.text(),
                                              f"coven-transcript-{self.live.session_id}.txt"))

    def action_toggle_log(self) -> None:
        """Show or hide the game log."""
        self.query_one("#game-log", RichLog).toggle_class("hidden")

    def action_menu(self) -> None:
        """Back to the main menu; every action is saved already (else the player is asked first)."""
        self.saving.confirm_leave(self._to_menu)

    def _to_menu(self) -> None:
        self.auto_play = False
        leave_to_menu(self)
