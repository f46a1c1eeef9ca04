"""Replay: step through any session's log, one action at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import RichLog, Static

from engine import Event
from engine.core.clock import TableClock
from saves import LiveSession, StoreError
from saves.table_chat import ChatLine, session_chat
from saves.table_clock import session_clock
from tui.context import coven_or_none
from tui.fit_text import cut_words
from tui.games import game_ui
from tui.games.base import GameTable, GameUI
from tui.games.narration import Question
from tui.player_settings import read_settings
from tui.safe_text import plain
from tui.screen_commands import PaletteAction, ScreenCommands
from tui.screens.chat_pane import line_text
from tui.screens.replay_clock import replay_clock_line, replay_clock_words
from tui.screens.replay_narrator import ReplayNarrator
from tui.verbosity import level_of
from tui.widgets.ask import TITLES, AskScreen
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.lean_log import LeanLog
from tui.widgets.linear_view import LinearView
from tui.widgets.styles import css_beside


class ReplayScreen(Screen[None]):
    """Shows the table as it was after step ``k`` of ``n``, with the log so far."""
    HELP_TITLE = "Replay"
    HELP = ("A saved game step by step, as a spectator sees it (no hidden cards); once the game is over, v shows "
            "it through each seat's eyes in turn, that seat's hand and secret cards included. The log says what each "
            "move did; T opens the transcript to the step shown, as sentences in order. In a finished game with a "
            "coach, h reviews every round (elsewhere h steps back). For a screen reader: ; says where the game "
            "stood at the step shown (again: in detail), ' then a letter asks (l the step's move, t whose turn it "
            "was, h hand, o opponents, s score, b board, c clock), from the eyes shown only.")
    COMMANDS = {ScreenCommands}
    PALETTE_ACTIONS: tuple[PaletteAction, ...] = (
        ("show_transcript", "Transcript", "The game to the step shown, as sentences (T)"),
        ("announce", "Announce", "Say where the game stood at the step shown (;)"),
        ("ask", "Ask", "Ask one question about the step shown: move, turn, hand, opponents, score, board, clock (')"),
    )
    """The replay's commands in the palette (ctrl+p), beside the app's."""

    CSS_PATH = css_beside(__file__, "replay.tcss")
    BINDINGS = [
        Binding("right,l,space", "next", "Next", priority=True),
        Binding("h", "coach", "Coach", priority=True),  # a finished game with a coach; else h steps back
        Binding("left,h", "previous", "Previous", priority=True),
        Binding("home", "first", "First", priority=True),
        Binding("end", "last", "Last", priority=True),
        Binding("v", "viewpoint", "Viewpoint"),
        Binding("u", "toggle_undone", "Taken back"),
        Binding("T", "show_transcript", "Transcript", show=False),
        Binding("semicolon", "announce", "Announce", key_display=";", show=False),
        Binding("apostrophe", "ask", "Ask", key_display="'", show=False),
        Binding("escape,q", "app.pop_screen", "Back"),
    ]

    step: reactive[int] = reactive(0, init=False)
    """How many logged actions have been played (0 is the opening position)."""

    show_undone: reactive[bool] = reactive(True, init=False)
    """Whether moves taken back (and the undos that took them back) are stepped through, struck through in the
    log, or skipped and left out of it."""

    viewpoint: reactive[int | None] = reactive(None, init=False)
    """Whose view is shown: None for the spectator, else a seat."""

    linear = False
    """Whether the table is shown in words too (the "Linear mode" setting, read on mounting)."""

    coach_on = True
    """Whether the player's setting lets ``h`` open a game's coach (read on mounting)."""

    KEYS_HINT = "← →: step back and forth · home/end: first/last · v: viewpoint"
    """Replaces the table's own key hint (its play keys do nothing here)."""

    def __init__(self, live: LiveSession, start: int = 0) -> None:
        """Replay ``live`` from step ``start``."""
        super().__init__()
        self.live = live
        self.ui: GameUI[Any] = game_ui(live.spec.game_id)
        self.table: GameTable[Any, Any] = self.ui.make_table()
        self.table.keys_hint = self.KEYS_HINT
        self.states: Sequence[Any] = live.states()
        """The state at each step, worked out when shown (a long game's states are not all kept)."""
        self.step_events: list[list[Event]] = [list(events) for events in live.events_history()]
        self.undone = live.undone
        """The steps whose moves were taken back."""
        self.undos = live.undo_steps
        """The steps that took a move back."""
        self._start = max(0, min(start, self.total))
        self.narrator = ReplayNarrator(self)
        """Announce and the questions, for the step shown and from the replay's eyes."""
        self._said: tuple[int, int | None, str] | None = None  # (step, eyes, words): on the status line till a move
        self.chat: dict[int, list[ChatLine]] = {}
        """What was said at the table after each step (0: before the first move), when it was a shared table's."""
        try:
            for line in session_chat(live.store, live.session_id):
                self.chat.setdefault(line.after_seq, []).append(line)
        except StoreError:
            pass  # the table talk is not the game: the replay goes on without it
        self.clock: TableClock | None = None
        """The clock of the table that played the game, when it kept one."""
        try:
            self.clock = session_clock(live.store, live.session_id)
        except StoreError:
            pass  # nor is the clock: the replay goes on without it

    @property
    def total(self) -> int:
        """Number of logged actions."""
        return len(self.states) - 1

    def compose(self) -> ComposeResult:
        """Step line, table, log and footer."""
        yield Static("", id="replay-status")
        if self.clock is not None:
            yield Static("", id="replay-clock")
        with Vertical(id="replay-table"):
            yield self.table
        # min_width: RichLog otherwise wraps at 78 columns however narrow the log is, and cuts the ends off.
        log = LeanLog(id="replay-log", wrap=True, markup=False, min_width=20)
        log.border_title = "Log"
        yield LinearView(id="replay-linear")
        yield log
        yield FittingFooter()

    def on_mount(self) -> None:
        """Show the starting step (and, in linear mode, the table in words in the log's place)."""
        context = coven_or_none(self)
        settings = read_settings(context.store, context.account) if context is not None else None
        self.linear = settings is not None and bool(settings["linear"])
        self.coach_on = settings is None or bool(settings["coach"])
        if settings is not None:
            self.narrator.level = level_of(settings)
        if self.linear:
            self.query_one("#replay-log", RichLog).display = False  # the words take its place
        self.set_reactive(ReplayScreen.step, self._start)
        self._redraw(rewrite_log=True)

    @property
    def _names(self) -> list[str]:
        return [seat.name for seat in self.live.seats]

    def clock_words(self) -> str | None:
        """The clock question's answer at the step shown (None: the game was played without a clock)."""
        return None if self.clock is None else replay_clock_words(self.clock, self.step, self._names)

    def viewpoint_name(self) -> str:
        """"Spectator" or the name of the viewing seat."""
        if self.viewpoint is None:
            return "Spectator"
        return self.live.seats[self.viewpoint].name

    def status_line(self) -> str:
        """E.g. "Replay · Step 3 of 40 · viewing as Spectator · Round 1, duel 2"."""
        progress = self.live.rules.progress(self.states[self.step])
        line = f"Replay of session {self.live.session_id} · Step {self.step} of {self.total}"
        line += f" · viewing as {self.viewpoint_name()}"
        if self.step in self.undone:
            line += " · taken back"
        line = f"{line} · {progress}" if progress else line
        said = self.said_now()
        return f"{line} — {said}" if said else line

    def said_now(self) -> str | None:
        """What ; or ' said at the step and eyes shown (None once either changed)."""
        if self._said is None or self._said[:2] != (self.step, self.viewpoint):
            return None
        return self._said[2]

    def fitted_status(self, width: int) -> str:
        """The status line in ``width`` columns: whole, else shorter words, else cut after a word (help has it)."""
        line = self.status_line()
        if len(line) <= width:
            return line
        progress = self.live.rules.progress(self.states[self.step])
        short = f"Replay {self.live.session_id} · {self.step}/{self.total} · {self.viewpoint_name()}"
        said = self.said_now()
        if said:  # what was just said matters more than the progress (the help has both)
            return cut_words(f"{short} — {said}", width)
        return cut_words(f"{short} · {progress}" if progress else short, width)

    def on_resize(self) -> None:
        """A new width may hold more (or less) of the status line."""
        status = self.query_one("#replay-status", Static)
        status.update(plain(self.fitted_status(status.content_region.width or self.app.size.width - 2)))
        if self.clock is not None:  # names come from players: plain text, never markup
            self.query_one("#replay-clock", Static).update(plain(replay_clock_line(self.clock, self.step, self._names)))

    def card_in_play(self, game_id: str, key: str) -> str | None:
        """For the card lookup: where card ``key`` of ``game_id`` stands at this step, through the viewpoint's eyes."""
        if game_id != self.live.spec.game_id:
            return None
        view = self.live.rules.view(self.states[self.step], self.viewpoint)
        return self.ui.card_now(view, self.viewpoint, key)

    def help_now(self) -> str:
        """The whole status line, for the help screen, and what the viewpoint shows of hidden cards."""
        if self.viewpoint is None:
            return f"{self.status_line()}. As a spectator: no seat's hidden cards are shown."
        name = self.viewpoint_name()
        return f"{self.status_line()}. Through {name}'s eyes: {name}'s hand and secret cards are shown."

    def _redraw(self, rewrite_log: bool, new_events: list[Event] | None = None) -> None:
        """Show the table and log for the current step and viewpoint."""
        state = self.states[self.step]
        if new_events:
            self.table.show_events(new_events)
        elif rewrite_log:  # a jump: forget later events, then replay the ones so far
            self.table.clear_events()
            self.table.show_events([event for events in self.step_events[1 : self.step + 1] for event in events])
        view = self.live.rules.view(state, self.viewpoint)
        self.table.show(view, None, [])
        if self.linear:
            self.query_one(LinearView).show_text(self.ui.linear_text(view, self.viewpoint, self.narrator.level))
        status = self.query_one("#replay-status", Static)
        status.update(plain(self.fitted_status(status.content_region.width or self.app.size.width - 2)))
        if self.clock is not None:  # names come from players: plain text, never markup
            self.query_one("#replay-clock", Static).update(plain(replay_clock_line(self.clock, self.step, self._names)))
        log = self.query_one("#replay-log", RichLog)
        if rewrite_log:
            log.clear()
            log.write("The game begins.")
            self._write_chat(log, 0)
            for index in range(1, self.step + 1):
                self._write_step(log, index)
        elif new_events:
            self._write_step(log, self.step)

    def _write_step(self, log: RichLog, index: int) -> None:
        """Write step ``index``'s log lines: struck through (and said) when its move was taken back; then the table
        talk that followed it."""
        if not ((index in self.undone or index in self.undos) and not self.show_undone):
            for line in self.ui.log_lines(self.step_events[index]):
                if index in self.undone:
                    log.write(Text(f"{line} (taken back)", style="strike"))
                else:
                    log.write(line)
        self._write_chat(log, index)

    def _write_chat(self, log: RichLog, index: int) -> None:
        """The lines said at the table after step ``index``, as plain text."""
        for line in self.chat.get(index, []):
            log.write(Text("» ", style="dim") + line_text(line, claim=""))

    def _visible(self) -> list[int]:
        """The steps the keys move through: all of them, or those neither taken back nor taking back."""
        hidden = set() if self.show_undone else self.undone | self.undos
        return [index for index in range(self.total + 1) if index not in hidden]

    def action_show_transcript(self) -> None:
        """Open the transcript of the game up to this step, as the viewpoint's seat reads it."""
        from saves.session import Step
        from tui.screens.game.narrator import history_transcript
        from tui.screens.transcript import TranscriptScreen

        steps = [Step(state, tuple(events)) for state, events in
                 zip(self.states[: self.step + 1], self.step_events[: self.step + 1], strict=True)]
        left_out = frozenset() if self.show_undone else self.undone | self.undos
        transcript = history_transcript(self.ui, self.live.rules, steps, [seat.name for seat in self.live.seats],
                                        self.viewpoint, left_out, self.narrator.said_by(self.viewpoint),
                                        self.narrator.level)
        title = f"{self.live.spec.title}: transcript to step {self.step} of {self.total}"
        self.app.push_screen(TranscriptScreen(title, transcript.text(),
                                              f"coven-transcript-{self.live.session_id}-step-{self.step}.txt"))

    def action_announce(self) -> None:
        """Say where the game stood at the step shown, through the replay's eyes."""
        self._say(self.narrator.announce(), "Now")

    def action_ask(self) -> None:
        """Open the questions (``'``); the one chosen is answered like an announcement."""
        self.app.push_screen(AskScreen(), self._answer)

    def _answer(self, question: Question | None) -> None:
        """Answer the question asked about the step shown (escape asked none)."""
        if question is not None:
            self._say(self.narrator.answer(question), TITLES[question])

    def _say(self, text: str, title: str) -> None:
        """Say ``text`` as a toast and on the status line (until the step or eyes change); the narrator keeps it
        for the transcript."""
        self._said = (self.step, self.viewpoint, text)
        self.on_resize()
        self.notify(text, title=title, timeout=10, markup=False)  # names come from players: never markup

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The "taken back" toggle only shows in a game where a move was taken back; the coach in a finished
        game of a game that has one, while the player's setting keeps it on."""
        if action == "coach":
            return self.ui.has_coach and self.live.finished and self.coach_on
        return bool(self.undos) if action == "toggle_undone" else True

    def action_coach(self) -> None:
        """The coach's review of the finished game, from its final view and the events everyone saw."""
        kept = [events for index, events in enumerate(self.step_events)
                if index not in self.undone and index not in self.undos]
        review = self.ui.coach_review(self.live.rules.view(self.states[-1], None),
                                      [event for events in kept for event in events])
        if review is not None:
            self.app.push_screen(review)

    def action_toggle_undone(self) -> None:
        """Show moves taken back (struck through) or leave them out."""
        self.show_undone = not self.show_undone
        self.notify("Moves taken back are shown struck through." if self.show_undone else
                    "Moves taken back are left out.", timeout=3)

    def watch_show_undone(self) -> None:
        """Land on a step still shown, and rewrite the log."""
        visible = self._visible()
        if self.step not in visible:
            self.set_reactive(ReplayScreen.step, max(index for index in visible if index <= self.step))
        self._redraw(rewrite_log=True)

    @on(GameTable.StepRequested)
    def _step_requested(self, message: GameTable.StepRequested) -> None:
        """A table's own "next step" key (e.g. the Wizbits pillar tree's ``n``) steps the replay forward."""
        message.stop()
        self.action_next()

    def watch_step(self, old: int, new: int) -> None:
        """Moving forward one step appends to the log; other jumps rewrite it."""
        if new == old + 1:
            self._redraw(rewrite_log=False, new_events=self.step_events[new])
        else:
            self._redraw(rewrite_log=True)

    def watch_viewpoint(self) -> None:
        """Redraw the table from the new viewpoint."""
        self._redraw(rewrite_log=False)

    def action_next(self) -> None:
        """One step forward."""
        later = [index for index in self._visible() if index > self.step]
        if later:
            self.step = later[0]

    def action_previous(self) -> None:
        """One step back."""
        earlier = [index for index in self._visible() if index < self.step]
        if earlier:
            self.step = earlier[-1]

    def action_first(self) -> None:
        """Back to the opening position."""
        self.step = 0

    def action_last(self) -> None:
        """To the latest position."""
        self.step = self._visible()[-1]

    def action_viewpoint(self) -> None:
        """Cycle the viewpoint: spectator, seat 1, seat 2, ...

        Only once the game is over: while it can still be resumed, a seat's
        view would show secrets (teams, lineups) to whoever holds the replay.
        """
        if not self.live.finished:
            self.viewpoint = None
            self.notify("Seat views are available once the game is over; until then the replay shows "
                        "what a spectator sees.", title="Spectator only", severity="warning")
            return
        order: list[int | None] = [None, *range(len(self.live.seats))]
        self.viewpoint = order[(order.index(self.viewpoint) + 1) % len(order)]
