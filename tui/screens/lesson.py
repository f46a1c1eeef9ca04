"""A lesson's game screen: the game screen with a coach card that says, before each step, what to do and why.

The learner plays seat 0 of a real game (a :class:`saves.lessons.LessonSession`,
never stored) on the lesson's fixed seed. Before each step the card says what to
do; a learner's move other than the one the step asks for (or, for a step that
accepts any move showing a rule, one that does not show it) is refused with the
reason, and may be tried again. ``m`` shows the move, ``s`` plays it (the lesson
plays for the learner only when asked). The bot's moves and the table's steps come
from the lesson file; table steps it has no word for play by themselves. Each step
done is kept as the learner's progress, so escape leaves and Learn resumes.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from engine import ActionError
from engine.core.lessons import LEARNER, Lesson, LessonStep
from engine.core.lessons.accept import is_accepted, move_for
from engine.core.lessons.load import plays_by_itself, rule_book
from saves.lessons import LessonProgress, LessonSession, lesson_progress, save_lesson_progress
from tui.context import coven_or_none
from tui.safe_text import plain
from tui.screens.game.screen import GameScreen
from tui.verbosity import Verbosity, shorten
from tui.widgets.styles import load_css

SHOW_KEY = "m"
"""The key that shows the move a step asks for."""

SKIP_KEY = "s"
"""The key that plays it for the learner."""


def step_words(step: LessonStep, level: Verbosity) -> str:
    """What a step says, as much as the verbosity asks: its first sentence at terse, its ``more`` added at full."""
    if level is Verbosity.FULL and step.more:
        return f"{step.say} {step.more}"
    return shorten(step.say, level)


class LessonScreen(GameScreen):
    """Plays a lesson: the game's own table, with the lesson's words above it and its script behind it."""

    DEFAULT_CSS = load_css(__file__)  # the card's rules (lesson.tcss), beside the game screen's CSS_PATH
    HELP = ("A guided first game. The card above the table says what to do and why; then the board waits for "
            "your move. A move the lesson does not ask for is refused with the reason: try again, press m to "
            "see the move, or s to have it played for you. Escape leaves; Learn on the menu resumes where you "
            "were, or restarts the lesson.")
    PALETTE_ACTIONS = (
        ("show_move", "Show the move", "Say the move this step asks for (m)"),
        ("skip_step", "Skip this step", "Play this step's move for me (s)"),
        *GameScreen.PALETTE_ACTIONS,
    )
    BINDINGS = [
        Binding(SHOW_KEY, "show_move", "Show move"),
        Binding(SKIP_KEY, "skip_step", "Skip step"),
    ]

    def __init__(self, lesson: Lesson, live: LessonSession, step: int = 0, *, done_before: bool = False,
                 auto_delay: float = 0.8) -> None:
        """Teach ``lesson`` from step ``step`` (``live`` has played the steps before it); ``done_before``: the
        learner finished it once already (the menu keeps saying so)."""
        super().__init__(live, auto_delay=auto_delay)
        self.lesson = lesson
        self.done_before = done_before
        self.step_index = step
        """How many of the lesson's steps are done."""
        self.quiet = 0
        """Table steps played by themselves since the last step."""
        self.refusal: str | None = None
        """Why the learner's last move was refused, shown on the card until the next step."""
        self._said: int | None = None  # the step whose words were said last
        self.book = rule_book(lesson.game_id)
        """The rules the lesson's steps may accept a move for."""

    @property
    def current(self) -> LessonStep | None:
        """The step the lesson is at, or None once every step is done."""
        steps = self.lesson.steps
        return steps[self.step_index] if self.step_index < len(steps) else None

    def compose(self) -> ComposeResult:
        """The lesson's card, then the game screen's parts."""
        yield Static("", id="lesson-card")
        yield from super().compose()

    def history_written(self) -> None:
        """The game log gives way to the card (l shows it), then the first words are said."""
        self.query_one("#game-log").add_class("hidden")
        self.table.keys_hint = "space: next step"  # a lesson plays no steps automatically on request
        self.show_step()

    def on_screen_resume(self) -> None:
        """Back from another screen (the Settings, say): the card follows the verbosity now set."""
        self.call_after_refresh(self.show_step)

    # -- the card ----------------------------------------------------------------

    def step_number(self) -> int:
        """The waiting step the lesson is at, counted from 1 (the steps that wait for the learner)."""
        return sum(1 for step in self.lesson.steps[:self.step_index + 1] if step.waits)

    def card_text(self) -> str:
        """The card: where the lesson is and what to do now (or why the last move was refused)."""
        if self.live.result is not None or self.current is None:
            return f"{self.lesson.title}: {self.lesson.end}"
        step = self.current
        head = f"Step {self.step_number()} of {self.lesson.waiting_steps}"
        if not step.waits:
            return f"{head} · {self.lesson.names[step.seat or 1]} is choosing…" if step.by == "bot" else head
        words = step_words(step, self.narrator.level)
        if self.refusal is not None:
            return f"{head} · Not this move: {self.refusal} Try again, or m to see it."
        return f"{head} · {words}"

    def show_step(self) -> None:
        """Redraw the card, and say a step's words once when the lesson reaches it."""
        card = self.query_one("#lesson-card", Static)
        card.set_class(self.refusal is not None, "refused")
        card.update(plain(self.card_text()))
        step = self.current
        finished = self.live.result is not None
        if finished and self._said != -1:
            self._said = -1
            self._mark(done=True)
            self.narrator.transcript.add(self.lesson.end)
            self.notify(self.lesson.end, title="Lesson done", timeout=10, markup=False)
        elif step is not None and step.waits and self._said != self.step_index:
            if self._said is None:  # the lesson opens (or resumes): its introduction first
                self.narrator.transcript.add(self.lesson.intro)
            self._said = self.step_index
            # The card shows the words; the narrator's transcript says them (; says them again, aloud).
            self.narrator.transcript.add(step_words(step, self.narrator.level))

    def step_hint(self) -> str:
        """A lesson has no automatic play: space is the one key for the table's step."""
        return "Space: next step"

    # -- the script ------------------------------------------------------------------

    def table_plays_by_itself(self, action: Any) -> bool:
        """The table's steps the lesson has no word for play by themselves."""
        return plays_by_itself(self.current, self.quiet, self.live.spec, self.live.state)

    def expected(self, step: LessonStep) -> Any:
        """The action ``step`` plays now (the table's waiting step for a table step; for a learner's step that
        accepts other moves, the script's own while it still fits, else the first that does)."""
        if step.by == "table" and step.move is None:
            return self.live.table_action
        if step.by == "you":
            return move_for(step, self.live.spec, self.live.state, self.book)
        return self.live.rules.parse_action(step.move)

    def refusal_of(self, step: LessonStep | None, action: Any) -> str | None:
        """Why the learner's ``action`` is not this step's move, or None when it is."""
        if step is None or step.by != "you":
            return "The lesson is not waiting for your move now."
        if is_accepted(step, self.live.spec, self.live.state, action, self.book):
            return None
        try:
            self.live.rules.check_action(self.live.state, LEARNER, action)
        except ActionError as error:
            return f"{error.reason[:1].upper()}{error.reason[1:]}."
        rule = self.book.get(step.accept)
        if rule is not None:  # legal, but it does not show what the step is about
            return f"This step asks for {rule.words}. {step.show}"
        return step.show or "This step asks for another move."

    def _apply(self, seat: int | None, action: Any, note: str | None = None) -> bool:
        """Play a move the script allows: the learner's only when it is the step's; every step moves the lesson on."""
        step = self.current
        if seat == LEARNER:
            refused = self.refusal_of(step, action)
            if refused is not None:
                self.refusal = refused
                self.narrator.transcript.add(f"Not this move: {refused}")
                self.notify(refused, title="Not this move", severity="warning", markup=False)
                self.show_step()
                return False
        scripted = step is not None and (seat is not None or not self.table_plays_by_itself(action))
        own = None  # the learner's own move, where the step took one other than the script's (kept for resuming)
        if seat == LEARNER and step is not None and step.accept and action != self.live.rules.parse_action(step.move):
            own = dict(self.live.rules.action_to_json(action))
        before = (self.step_index, self.quiet)
        if scripted:
            self.step_index, self.quiet, self.refusal = self.step_index + 1, 0, None
        else:
            self.quiet += 1
        if not super()._apply(seat, action, note):
            self.step_index, self.quiet = before
            return False
        if scripted:
            self._mark(done=False, own=own)
        self.show_step()
        return True

    def _mark(self, *, done: bool, own: dict[str, Any] | None = None) -> None:
        """Keep the learner's progress: the steps done and the learner's ``own`` move for the step just done, or
        (at the end) that the lesson was finished."""
        context = coven_or_none(self)
        if context is None:
            return
        finished = done or self.live.result is not None
        self.done_before = self.done_before or finished
        kept = lesson_progress(context.store, context.account).get(self.lesson.lesson_id)
        moves = {index: move for index, move in (kept.own if kept else {}).items() if index < self.step_index - 1}
        if own is not None:
            moves[self.step_index - 1] = own
        # A finished lesson opens again from its start.
        save_lesson_progress(context.store, context.account, self.lesson.lesson_id,
                             LessonProgress(0 if finished else self.step_index, self.done_before,
                                            {} if finished else moves))

    def _start_bot(self, seat: int) -> None:
        """The lesson's bot plays the move its script gives, after the usual pause."""
        step = self.current
        if step is None or step.by != "bot" or step.seat != seat:
            self.status_text = "The lesson's script has no move for the bot here."
            return
        self._bot_log_length = len(self.live.log)
        self.status_text = f"{self.live.seats[seat].name} is choosing…"
        self.set_alarm(self.auto_delay, lambda: self._bot_plays(seat, self.expected(step)))

    def _bot_plays(self, seat: int, action: Any) -> None:
        if self._bot_log_length != len(self.live.log) or not self.is_attached:
            return
        self._bot_log_length = None
        self._apply(seat, action)

    # -- keys -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No undo and no automatic play in a lesson; m and s only while a step waits for the learner."""
        if action in ("undo", "toggle_auto"):
            return False
        if action in ("show_move", "skip_step"):
            step = self.current
            return step is not None and step.waits and self.live.result is None
        return super().check_action(action, parameters)

    def action_show_move(self) -> None:
        """Say the move this step asks for."""
        step = self.current
        if step is None or not step.waits:
            return
        text = "Press space." if step.by == "table" else (step.show or "Play the move the step names.")
        self.narrator.transcript.add(text)
        self._say(text, "The move")

    def action_skip_step(self) -> None:
        """Play this step's move for the learner (asked for: the lesson never plays it otherwise)."""
        step = self.current
        if step is None or not step.waits or self.live.result is not None:
            return
        if step.by == "table":
            self.action_step()
        elif LEARNER in self.live.to_act:
            self._apply(LEARNER, self.expected(step), note="played by the lesson")

    def action_announce(self) -> None:
        """Say this step's words (the game's announcement follows them)."""
        step = self.current
        words = step_words(step, self.narrator.level) if step is not None and step.waits else ""
        if words:
            self.narrator.transcript.add(words)  # what the key says goes in the transcript, as the game's part does
        text = " ".join(part for part in (words, self.narrator.announce()) if part)
        self._say(text, "Now")

    def prepare_result(self, screen: Screen[None]) -> Screen[None]:
        """The final screen offers no rematch: a lesson is played again from Learn."""
        return screen
