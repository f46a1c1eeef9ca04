"""The ask key's questions: a small dialog that lists them, one letter each.

``'`` at a game (a replay, the Pillar Lab) opens :class:`AskScreen`; a letter (or enter on the
highlighted line) closes it with the :class:`~tui.games.narration.Question`,
and the game screen has its narrator answer it the way it says an
announcement: a notification, the status line and the transcript. The
questions are a focused list, so a screen reader's cursor reads them.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.games.narration import Question
from tui.widgets.fitting_footer import FittingFooter

QUESTIONS: tuple[tuple[str, Question, str, str], ...] = (
    ("l", Question.LAST, "Last", "the last thing that happened"),
    ("t", Question.TURN, "Turn", "whose move it is and what they are asked"),
    ("h", Question.HAND, "Hand", "my hand"),
    ("o", Question.OPPONENTS, "Opponents", "my opponents' public cards"),
    ("s", Question.SCORE, "Score", "the score (Cup Tokens, brew points, Main Points and SCNs)"),
    ("b", Question.BOARD, "Board", "the board: the duel zone and lineups, my potion, the Pillar"),
    ("c", Question.CLOCK, "Clock", "the clock, where the table keeps one"),
)
"""Each question: its key, what it asks, the Footer's word and the list's words."""

TITLES: dict[Question, str] = {question: label for _, question, label, _ in QUESTIONS}
"""A question's short name (the answer's notification title)."""


class AskScreen(ModalScreen[Question | None]):
    """Ask the narrator one question: its letter answers at once; escape asks nothing."""

    HELP_TITLE = "Ask the narrator"
    HELP = ("Ask one question about the game; the answer is said as a notification, on the status line and in the "
            "transcript, from your seat's view only. " + "; ".join(f"{key}: {words}" for key, _, _, words in QUESTIONS)
            + ". Enter asks the highlighted question; escape closes.")

    DEFAULT_CSS = """
    AskScreen { align: center middle; background: $background 60%; }
    #ask-box { width: 72; max-width: 100%; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
    #ask-title { text-style: bold; width: 100%; }
    #ask-questions { height: auto; max-height: 9; border: none; }
    """

    BINDINGS = [
        *(Binding(key, f"ask('{question.value}')", label) for key, question, label, _ in QUESTIONS),
        Binding("escape", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        """A title, the questions as a focused list, and the Footer with their keys."""
        with Vertical(id="ask-box"):
            yield Static("Ask: which question?", id="ask-title")
            yield OptionList(*(Option(f"{key}  {words}", id=question.value) for key, question, _, words in QUESTIONS),
                             id="ask-questions")
        yield FittingFooter()

    def on_mount(self) -> None:
        """Focus the list, so the cursor (and a screen reader) is on the first question."""
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#ask-questions")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on a question asks it."""
        event.stop()
        self.action_ask(str(event.option.id))

    def action_ask(self, question: str) -> None:
        """Close with ``question`` (a :class:`Question` value)."""
        self.dismiss(Question(question))

    def action_close(self) -> None:
        """Close without asking."""
        self.dismiss(None)
