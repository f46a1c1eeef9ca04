"""The game screen: generic over games, it owns a :class:`LiveSession`.

This module is what the screen looks like and which keys it answers: the
status line, the game's table, the log and the footer. What it decides
after every change (show the result, let a bot think, ask a human behind a
pass-and-play curtain, or wait for the table's automatic step) is
:class:`~tui.screens.game.loop.GameLoop`'s. Whatever differs between games
is asked of the game's :class:`~tui.games.base.GameUI`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import RichLog, Static

from engine import Event
from saves import LiveSession
from tui.coach_access import SETTING_OFF
from tui.context import coven_or_none, leave_to_menu
from tui.fit_text import cut_words
from tui.games.base import GameTable
from tui.player_settings import read_settings
from tui.safe_text import plain
from tui.screens.game.loop import GameLoop
from tui.screens.game.narrator import Narrator
from tui.screens.game.save_retry import SaveRetry
from tui.screens.game.undo import describe_undo_key, take_back, undo_state
from tui.screens.transcript import TranscriptScreen
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.linear_view import LinearView
from tui.widgets.save_banner import SaveBanner
from tui.widgets.styles import css_beside


def fit_status(parts: tuple[str, str, str, str], width: int) -> str:
    """The status line in ``width`` columns, shortened the way that loses least.

    The game's name goes first (the help's title names it), then the table's
    prefix; what is awaited stays whole when it can, else it is cut after a word
    with "…" (the help shows the whole line).
    """
    prefix, title, progress, text = parts
    tail = f" — {text}" if text else ""
    for line in (f"{prefix}{title} · {progress}{tail}", f"{prefix}{progress}{tail}", f"{progress}{tail}"):
        if len(line) <= width:
            return line
    if len(text) + 3 < width:  # progress shortened, what is awaited whole
        return f"{cut_words(progress, width - len(tail))}{tail}"
    return cut_words(text or progress, width)


class GameScreen(GameLoop):
    """Plays one session: the table, the status line and the log, with the loop's keys."""

    CSS_PATH = css_beside(__file__, "screen.tcss")
    HELP = ("The table of one game. The line at the top says whose turn it is; the game's own keys choose "
            "while it is your turn, space plays the table's next step, a plays them by itself, l shows or "
            "hides the log. Every move is saved as it is made, so escape leaves at any time and Continue "
            "comes back. For a screen reader: ; says where the game stands (again: in detail), T opens the "
            "transcript of everything said so far, and the Linear mode setting shows the table in words.")
    HELP_KEYS_GROUP = "Table"
    HELP_GROUPS = {"toggle_auto": "Table"}
    """Automatic play steps the table: listed with it, not among the keys that only show things."""
    BINDINGS = [
        Binding("space", "step", "Next step"),
        Binding("a", "toggle_auto", "Auto play"),
        Binding("l", "toggle_log", "Log"),
        Binding("u,ctrl+z", "undo", "Undo", key_display="u"),
        Binding("escape,q", "menu", "Menu"),
        Binding("r", "retry_save", "Retry saving"),
        Binding("semicolon", "announce", "Announce", key_display=";", show=False),
        Binding("T", "show_transcript", "Transcript", show=False),
    ]

    linear: bool | None = None
    """Show the table in words too (the "Linear mode" setting); None: read the player's setting on mounting."""

    saving: SaveRetry
    """Holds a move whose save failed, retries it, and asks before leaving while it waits."""

    def __init__(self, live: LiveSession, auto_delay: float = 0.8) -> None:
        """Play ``live``; ``auto_delay`` is the pause between automatic steps."""
        super().__init__(live, auto_delay)
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
        log = RichLog(id="game-log", wrap=True, markup=False, max_lines=2000, min_width=20)
        log.border_title = "Log (l)"
        yield log
        yield FittingFooter()

    def coach_refusal_here(self) -> str | None:
        """Why a game's coach may not help on this screen (the player's setting turned it off), or None."""
        context = coven_or_none(self)
        if context is not None and not read_settings(context.store, context.account)["coach"]:
            return SETTING_OFF
        return None

    def on_mount(self) -> None:
        """Write the history so far into the log, then start the loop."""
        live = self.live
        self.table.coach_refusal = self.coach_refusal_here()
        if self.linear is None:
            context = coven_or_none(self)
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
        if self.linear:  # the table in words takes the log's place (l still shows the log)
            self.query_one("#game-log", RichLog).add_class("hidden")
        self._show(self.viewer_seat, None, [])
        self.update_status()  # a status set before compose found no line to draw on
        self.call_after_refresh(self.advance)

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
        wanted = bool(read_settings(context.store, context.account)["linear"])
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

    def watch_auto_play(self, value: bool) -> None:
        """Refresh the status line and start stepping if needed."""
        self.update_status()
        if value:
            self.advance()
        elif self._auto_timer is not None:
            self._auto_timer.stop()
            self._auto_timer = None

    def _show(self, view_seat: int | None, deciding: int | None, legal: Sequence[Any]) -> None:
        """Draw the table from ``view_seat``'s view."""
        if view_seat is None and len(self.human_seats) > 1:
            self.revealed_seat = None
        view = self.live.rules.view(self.live.state, view_seat)
        self.table.present(view_seat, view, deciding, legal)
        if self.linear:
            self.query_one(LinearView).show_text(self.ui.linear_text(view, view_seat))

    def write_log(self, lines: Sequence[str]) -> None:
        """Add ``lines`` to the game log."""
        log = self.query_one("#game-log", RichLog)
        for line in lines:
            log.write(line)
        self.narrator.events(lines)

    # -- what the table asks for ------------------------------------------------------

    @on(GameTable.StepRequested)
    def _step_requested(self, message: GameTable.StepRequested) -> None:
        """The table asked for its waiting automatic step (e.g. the pillar tree's ``n``)."""
        message.stop()
        self.action_step()

    @on(GameTable.ActionChosen)
    def _action_chosen(self, message: GameTable.ActionChosen) -> None:
        """A human chose an action on the table."""
        message.stop()
        seat = message.seat
        live = self.live
        if seat is None or not 0 <= seat < len(live.seats) or not self.plays_here(seat):
            self.notify("That seat is not played from this terminal.", severity="error")
            return
        if seat not in live.to_act:
            self.notify(f"It is not {live.seats[seat].name}'s turn to choose.", severity="error")
            return
        if not self.saving.refuse():
            self._apply(seat, message.action)

    # -- key actions ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide "Next step" and "Auto play" while a human here decides; dim them when no step waits.

        Hidden rather than dimmed so the deciding pane's own keys fit an 80-column footer.
        """
        if action == "retry_save":
            return self.saving.failing
        if action == "undo":
            return undo_state(self)
        if action in ("step", "toggle_auto"):
            live = self.live
            if live.result is not None:
                return None
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
        """Take back this seat's most recent move, when the rule allows it."""
        take_back(self)

    def action_retry_save(self) -> None:
        """Try the move that could not be saved again now."""
        self.saving.retry_now()

    def action_toggle_auto(self) -> None:
        """Switch automatic play of table steps on or off."""
        self.auto_play = not self.auto_play
        self.notify("Automatic play on" if self.auto_play else "Automatic play off", timeout=2)

    def action_announce(self) -> None:
        """Say where the game stands for the seat looking (a toast, the status line and the transcript)."""
        text = self.narrator.announce()
        self._announced = (len(self.live.log), text)
        self.update_status()
        self.notify(text, title="Now", timeout=10)

    def action_show_transcript(self) -> None:
        """Open the transcript: everything said at this table so far, as sentences."""
        title = f"{self.live.spec.title}: transcript"
        self.app.push_screen(TranscriptScreen(title, self.narrator.transcript.text(title),
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
