"""The game screen's narrator: the transcript, the announce key and the linear rendering.

Generic over games like the screen itself: every sentence about a game comes
from its :class:`~tui.games.base.GameUI` (``log_lines``, ``announce``,
``prompt``, ``linear_text``) and is read from the viewing seat's view, so
the narrator says only what that seat may see. The turn lines ("It is Ana's
turn: choose five wizards to join your displayed one, a
team of six.") come from the session: who is asked,
and whether they play at this terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from saves.session import Step
from tui.games.base import GameUI
from tui.games.narration import WATCHING_HAND, Question
from tui.narration import Transcript, sentence, turn_sentence
from tui.verbosity import DEFAULT, Verbosity, announce_detail, prompts_everyone, says_turn_line, shorten

if TYPE_CHECKING:
    from saves import LiveSession


class NarratedScreen(Protocol):
    """What the narrator reads of its game screen (:class:`~tui.screens.game.screen.GameScreen` and its kin).

    A protocol, so this module need not import the screen that imports it.
    """

    @property
    def live(self) -> LiveSession:
        """The session played."""

    @property
    def ui(self) -> GameUI[Any]:
        """The game's sentences: prompts, announcements, the linear rendering."""

    @property
    def human_seats(self) -> list[int]:
        """Seats played by people at this terminal."""

    @property
    def revealed_seat(self) -> int | None:
        """The seat shown at this keyboard, if one is."""

    @property
    def viewer_seat(self) -> int | None:
        """Whose eyes are on the screen when nobody decides."""

    @property
    def drives_table(self) -> bool:
        """True when this screen plays the bots and the table's automatic steps."""

    @property
    def status_text(self) -> str:
        """What the screen is waiting for."""

    def plays_here(self, seat: int) -> bool:
        """True when a person at this terminal plays ``seat``."""

    def clock_words(self) -> str | None:
        """The table's clock in words, or None where no clock is kept."""


def asked_words(ui: GameUI[Any], rules: Any, state: Any, names: Sequence[str]) -> str | None:
    """The game's words for the one seat asked to choose in ``state``, read from the spectator's view (None: the
    usual "It is Bo's turn"; also when several seats or none are asked)."""
    to_act = list(rules.to_act(state))
    if len(to_act) != 1 or rules.result(state) is not None:
        return None
    return ui.asked_words(rules.view(state, None), to_act[0], names)


def everyone_prompt(ui: GameUI[Any], rules: Any, state: Any) -> str | None:
    """What the first seat asked in ``state`` may do, read from the spectator's view (the full verbosity's turn
    lines say it for every seat: the spectator's view keeps whatever that seat holds hidden)."""
    to_act = list(rules.to_act(state))
    if not to_act or rules.result(state) is not None:
        return None
    return ui.prompt(rules.view(state, None), to_act[0])


def step_turn_line(rules: Any, state: Any, names: Sequence[str], ui: GameUI[Any] | None = None,
                   level: Verbosity = DEFAULT) -> str:
    """Whose turn it is after a step of the history, naming seats only (no prompt: it was not asked here), but
    at full verbosity with what the seat asked might do."""
    prompt = everyone_prompt(ui, rules, state) if ui is not None and prompts_everyone(level) else None
    return turn_sentence(names, list(rules.to_act(state)), over=rules.result(state) is not None,
                         table_step=rules.table_action(state) is not None, prompt=prompt,
                         asked=None if ui is None else asked_words(ui, rules, state, names))


def history_transcript(ui: GameUI[Any], rules: Any, steps: Sequence[Step], names: Sequence[str],
                       viewer: int | None, left_out: frozenset[int] = frozenset(),
                       said: Mapping[int, Sequence[str]] | None = None, level: Verbosity = DEFAULT) -> Transcript:
    """A transcript of ``steps`` (step 0 the opening) as ``viewer`` reads it; steps in ``left_out`` are skipped.

    ``said`` holds what the replay's narrator said at a step (announce, answers), written after that step's lines.
    ``level`` is the verbosity: at terse the turn lines are left out (nobody is asked in a history) but the
    game's end, and at full each says what the seat asked might do.
    """
    said = said or {}
    transcript = Transcript()
    transcript.add("The game begins.")

    def turn(state: Any) -> None:
        transcript.turn(step_turn_line(rules, state, names, ui, level),
                        quiet=not says_turn_line(level, False, rules.result(state) is not None))

    if steps:
        turn(steps[0].state)
        transcript.add_all(said.get(0, ()))
    for index, step in enumerate(steps[1:], start=1):
        if index in left_out:
            continue
        transcript.add_all(ui.log_lines(list(step.events), viewer))
        turn(step.state)
        transcript.add_all(said.get(index, ()))
    return transcript


NO_CLOCK = "This table has no clock."
"""The clock question's answer while no game keeps a clock."""


def generic_answer(question: Question, seat: int | None, last_lines: Sequence[str], turn: Callable[[], str],
                   title: str, clock: str = NO_CLOCK) -> str:
    """The narrator's own answer where the game leaves ``question`` to it: the last move (``last_lines``), whose
    turn (``turn()``), the clock, a spectator's hand; else that ``title`` has no answer (the replay's too)."""
    if question is Question.LAST:
        return " ".join(last_lines) if last_lines else "Nothing has happened yet: the game begins."
    if question is Question.TURN:
        return turn()
    if question is Question.CLOCK:
        return clock
    if question is Question.HAND and seat is None:
        return WATCHING_HAND
    return f"{title} has no answer to that question yet."


class Narrator:
    """The narration of one game screen: it keeps the transcript and answers the announce and ask keys."""

    def __init__(self, screen: NarratedScreen) -> None:
        self.screen = screen
        self.transcript = Transcript()
        self._pressed: tuple[object, ...] | None = None
        self.last_lines: list[str] = []
        """The log lines of the latest move, as this screen's viewer read them (the ask key's "last")."""
        self.ready = False
        """False while the screen writes the history on opening (the turn lines then come from each step)."""
        self.level: Verbosity = DEFAULT
        """How much it says (the player's ``verbosity`` setting, set by the screen)."""

    @property
    def names(self) -> list[str]:
        """Every seat's name."""
        return [seat.name for seat in self.screen.live.seats]

    def step(self, lines: Sequence[str], state: Any) -> None:
        """One step of the history written on opening: its log lines, then whose turn it was after it."""
        self.transcript.add_all(lines)
        rules = self.screen.live.rules
        self.transcript.turn(step_turn_line(rules, state, self.names, self.screen.ui, self.level),
                             quiet=not says_turn_line(self.level, False, rules.result(state) is not None))

    def events(self, lines: Sequence[str]) -> None:
        """Log lines of a move just made (after the opening), then whose turn it is now."""
        self.transcript.add_all(lines)
        said = [text for text in map(sentence, lines) if text]
        if said:
            self.last_lines = said
        if self.ready:
            self.situation()

    def asked_here(self) -> int | None:
        """The seat at this terminal asked to choose now and shown (not behind a curtain), if any."""
        screen = self.screen
        here = [seat for seat in screen.live.to_act if screen.plays_here(seat)]
        if not here:
            return None
        seat = here[0]
        if len(screen.human_seats) > 1 and screen.revealed_seat != seat:
            return None
        return seat

    def situation(self) -> None:
        """Add whose turn it is now, with what the seat here may do, when it changed (at terse verbosity only
        when a seat here is asked, or the game is over)."""
        said = says_turn_line(self.level, self.asked_here() is not None, self.screen.live.result is not None)
        self.transcript.turn(self.turn_line(), quiet=not said)

    def turn_line(self) -> str:
        """Whose turn it is now, with what the seat here may do (only a seat shown at this terminal)."""
        screen, live = self.screen, self.screen.live
        seat = self.asked_here()
        prompt = None
        if seat is not None:
            prompt = screen.ui.prompt(live.rules.view(live.state, seat), seat)
        elif prompts_everyone(self.level):
            prompt = everyone_prompt(screen.ui, live.rules, live.state)
        waiting = [s for s in live.to_act if not screen.plays_here(s)
                   and not (live.seats[s].is_bot and screen.drives_table)]
        return turn_sentence(self.names, list(live.to_act), over=live.result is not None,
                             table_step=live.table_action is not None, prompt=prompt, waiting=waiting,
                             asked=asked_words(screen.ui, live.rules, live.state, self.names))

    def eyes(self) -> int | None:
        """Whose view the narrator may read: the seat choosing here, else the screen's one viewer (or None)."""
        seat = self.asked_here()
        return seat if seat is not None else self.screen.viewer_seat

    def announce(self) -> str:
        """The announce key's sentences; pressed again in the same situation, with detail (as the verbosity says:
        :func:`tui.verbosity.announce_detail`)."""
        screen, live = self.screen, self.screen.live
        seat = self.eyes()
        key = (len(live.log), seat, tuple(live.to_act))
        detail = announce_detail(self.level, key == self._pressed)
        self._pressed = key
        text = screen.ui.announce(live.rules.view(live.state, seat), seat, detail)
        if not text:
            text = f"{live.spec.title}: {live.progress or 'starting'}. {screen.status_text}".strip()
        text = shorten(text, self.level)
        self.transcript.add(text)
        return text

    def answer(self, question: Question) -> str:
        """The ask key's answer to ``question`` from the eyes seat's view only, added to the transcript."""
        screen, live = self.screen, self.screen.live
        seat = self.eyes()
        text = screen.ui.answer(live.rules.view(live.state, seat), seat, question, self.names, self.level)
        if not text:
            text = self._generic_answer(question, seat)
        text = shorten(text, self.level)
        self.transcript.add(text)
        return text

    def _generic_answer(self, question: Question, seat: int | None) -> str:
        """What the narrator says itself when the game leaves a question to it (or has no words for it)."""
        clock = self.screen.clock_words() or NO_CLOCK
        return generic_answer(question, seat, self.last_lines, self.turn_line, self.screen.live.spec.title, clock)

    def linear(self, seat: int | None) -> str | None:
        """The table as lines of words from ``seat``'s view, or None when the game draws no art."""
        live = self.screen.live
        return self.screen.ui.linear_text(live.rules.view(live.state, seat), seat, self.level)
