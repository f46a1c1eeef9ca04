"""A lesson's values (the file's steps, read and checked) and the narrow errors a bad file raises."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.terms import Event, JsonDict, Seat

LEARNER: Seat = 0
"""The learner always plays seat 0; the other seats are the lesson's bot."""

ANY_MOVE = "any"
"""A learner's step that accepts any legal move (``"accept": "any"``)."""


class LessonError(ValueError):
    """A lesson file can't be used; the message says where (line, step) and why."""


class LessonFormatError(LessonError):
    """The file is not a lesson: bad JSON, an unknown or missing key, a value of the wrong kind."""


class LessonStepError(LessonError):
    """A step does not play: its move is refused by the rules, or it is not that seat's turn."""


class LessonRuleError(LessonError):
    """A step names a rule the game does not know, or a rule that does not happen where it is named."""


@dataclass(frozen=True)
class LessonStep:
    """One step of a lesson: a move by the learner, the bot or the table, and the words said before it.

    Attributes:
        number: The step's place in the lesson, from 1.
        by: ``"you"`` (the learner), ``"bot"`` or ``"table"`` (an automatic step worth a word).
        seat: The acting seat (None for the table).
        move: The move as JSON (the table's step may leave it out: whatever step waits is played).
        say: What to do and why, one or two sentences (empty for a silent bot move).
        more: What the full verbosity adds.
        show: The move in words (a learner's step must have it): what ``m`` says, and what a wrong move is told.
        rules: The rules this step shows, by the game's names for them.
        after: For a table step: how many table steps play by themselves before it waits.
        accept: For a learner's step: "" (only ``move`` will do), ``"any"`` (any legal move) or the name of
            one of the game's lesson rules (any legal move that shows it). ``move`` is still the move the
            script plays, and what ``s`` plays when it still meets the step.
        line: The file line the step starts on (0 when unknown).
    """

    number: int
    by: str
    seat: Seat | None
    move: JsonDict | None
    say: str = ""
    more: str = ""
    show: str = ""
    rules: tuple[str, ...] = ()
    after: int = 0
    accept: str = ""
    line: int = 0

    @property
    def waits(self) -> bool:
        """Whether the lesson waits for the learner here (a learner's move, or a table step with words)."""
        return self.by == "you" or (self.by == "table" and bool(self.say))

    @property
    def where(self) -> str:
        """"step 4 (line 23)" for messages."""
        return f"step {self.number}" + (f" (line {self.line})" if self.line else "")


@dataclass(frozen=True)
class Lesson:
    """A checked lesson: its game, seed, options, seats and steps.

    Attributes:
        lesson_id: A stable name for progress, e.g. ``"wizards-cup"``.
        game_id: The game it teaches.
        title: Its name on the Learn screen.
        seed: The fixed seed of its game.
        options: The game's options.
        names: Every seat's name, the learner's first.
        intro: Said when the lesson opens.
        end: Said when it is done.
        steps: Every step, in order.
    """

    lesson_id: str
    game_id: str
    title: str
    seed: int
    options: Mapping[str, Any]
    names: tuple[str, ...]
    intro: str
    end: str
    steps: tuple[LessonStep, ...] = field(default_factory=tuple)

    @property
    def waiting_steps(self) -> int:
        """How many steps wait for the learner (what "step 3 of 12" counts)."""
        return sum(1 for step in self.steps if step.waits)


RuleCheck = Callable[[Sequence[Event], Any], bool]
"""Whether a rule happened in these events, the state after them given too."""


@dataclass(frozen=True)
class LessonRule:
    """A rule a game's lessons may name: its words and the check that it happened.

    Attributes:
        words: The rule in a few words ("the Waiting Card").
        happened: True when the rule shows in the events of a step (and the steps that play on without a word).
    """

    words: str
    happened: RuleCheck
