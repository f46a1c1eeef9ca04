"""Lessons: a guided first game of each game, written as a data file and checked at load.

A lesson is a real game on a fixed seed: the learner's moves, the bot's moves
and the table steps worth a word are listed in order, each with the words said
before it. :mod:`engine.core.lessons.model` holds the values and the errors,
:mod:`engine.core.lessons.load` reads and checks a file (it plays the whole
script through the game's rules), and the lessons Coven ships are the JSON files
in ``files/`` beside this package. Adding a lesson needs a file, no code.
"""

from engine.core.lessons.load import loads, shipped_lessons
from engine.core.lessons.model import (
    LEARNER,
    Lesson,
    LessonError,
    LessonFormatError,
    LessonRuleError,
    LessonStep,
    LessonStepError,
)

__all__ = [
    "LEARNER",
    "Lesson",
    "LessonError",
    "LessonFormatError",
    "LessonRuleError",
    "LessonStep",
    "LessonStepError",
    "loads",
    "shipped_lessons",
]
