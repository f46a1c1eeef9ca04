"""The replay's narrator: the announce key and the questions, for the step shown and from the replay's eyes.

The replay is not a game screen (nothing is played, no seat decides), so it
has no :class:`~tui.screens.game.narrator.Narrator`; this one says the same
things through the same hooks: the game's
:class:`~tui.games.base.GameUI` ``announce`` and ``answer``, the narrator's
own answers for the last move, whose turn and the clock
(:func:`~tui.screens.game.narrator.generic_answer`), and the turn line the
replay's transcript writes (:func:`~tui.screens.game.narrator.step_turn_line`).
Everything is read from ``rules.view(state, eyes)``: the spectator, or the seat
``v`` chose once the game was over, so it never says more than those eyes saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine import Event
from saves import LiveSession
from tui.games.base import GameUI
from tui.games.narration import Question
from tui.narration import sentence
from tui.screens.game.narrator import generic_answer, step_turn_line
from tui.verbosity import DEFAULT, Verbosity, announce_detail, shorten

REPLAY_CLOCK = "A replay keeps no clock."
"""The clock question's answer in a replay."""


class ReplayedScreen(Protocol):
    """What the replay's narrator reads of the replay (:class:`~tui.screens.replay.ReplayScreen`)."""

    @property
    def live(self) -> LiveSession:
        """The session replayed."""

    @property
    def ui(self) -> GameUI[Any]:
        """The game's sentences."""

    @property
    def states(self) -> Sequence[Any]:
        """The state after each step (0: the opening)."""

    @property
    def step_events(self) -> list[list[Event]]:
        """Each step's events."""

    @property
    def step(self) -> int:
        """The step shown."""

    @property
    def viewpoint(self) -> int | None:
        """Whose eyes the replay shows: None for the spectator, else a seat."""

    def clock_words(self) -> str | None:
        """The table's clock at the step shown, in words (None: the game kept no clock)."""


class ReplayNarrator:
    """Announce and answer for the step a replay shows, and keep what was said for its transcript."""

    def __init__(self, screen: ReplayedScreen) -> None:
        self.screen = screen
        self.said: dict[int, list[tuple[int | None, str]]] = {}
        """What was said at each step, with the eyes it was said from."""
        self._pressed: tuple[int, int | None] | None = None
        self.level: Verbosity = DEFAULT
        """How much it says (the player's ``verbosity`` setting, set by the replay as by a game screen)."""

    @property
    def names(self) -> list[str]:
        """Every seat's name."""
        return [seat.name for seat in self.screen.live.seats]

    def _view(self) -> Any:
        screen = self.screen
        return screen.live.rules.view(screen.states[screen.step], screen.viewpoint)

    def said_by(self, viewer: int | None) -> dict[int, list[str]]:
        """What was said at each step through ``viewer``'s eyes (a transcript read by one pair of eyes only)."""
        return {step: [text for eyes, text in lines if eyes == viewer] for step, lines in self.said.items()}

    def _keep(self, text: str) -> str:
        screen = self.screen
        self.said.setdefault(screen.step, []).append((screen.viewpoint, text))
        return text

    def announce(self) -> str:
        """Where the game stood at the step shown, for the replay's eyes; pressed again there, with detail."""
        screen = self.screen
        key = (screen.step, screen.viewpoint)
        detail = announce_detail(self.level, key == self._pressed)
        self._pressed = key
        text = screen.ui.announce(self._view(), screen.viewpoint, detail)
        if not text:
            progress = screen.live.rules.progress(screen.states[screen.step]) or "the opening"
            text = f"{screen.live.spec.title}: {progress}."
        return self._keep(shorten(text, self.level))

    def last_lines(self) -> list[str]:
        """The step's move as the replay's eyes read it (none at the opening)."""
        screen = self.screen
        if screen.step == 0:
            return []
        lines = screen.ui.log_lines(screen.step_events[screen.step], screen.viewpoint)
        return [text for text in map(sentence, lines) if text]

    def turn_line(self) -> str:
        """Whose turn it was at the step shown, as the transcript says it."""
        screen = self.screen
        return step_turn_line(screen.live.rules, screen.states[screen.step], self.names, screen.ui, self.level)

    def answer(self, question: Question) -> str:
        """The answer to ``question`` at the step shown, from the replay's eyes only."""
        screen = self.screen
        text = screen.ui.answer(self._view(), screen.viewpoint, question, self.names, self.level)
        if not text:
            text = generic_answer(question, screen.viewpoint, self.last_lines(), self.turn_line,
                                  screen.live.spec.title, screen.clock_words() or REPLAY_CLOCK)
        return self._keep(shorten(text, self.level))

