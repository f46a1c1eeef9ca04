"""A dialog listing every problem found in a file, counted, in a scrolling list."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter


def count_problems(count: int) -> str:
    """``"1 problem"``, ``"6 problems"``."""
    return f"{count} problem{'s' if count != 1 else ''}"


class ProblemListScreen(ModalScreen[None]):
    """Every problem of one file, none left out: a title with the count, the list scrolls."""

    HELP_TITLE = "Problems"
    HELP = "Every problem found, one a line. The arrows and page keys scroll the list; escape or enter closes it."

    DEFAULT_CSS = """
    ProblemListScreen { align: center middle; }
    ProblemListScreen #problems-box {
        width: 76; max-width: 95%; height: auto; max-height: 90%;
        border: round $error; background: $surface; padding: 0 1;
    }
    ProblemListScreen #problems-title { height: auto; }
    ProblemListScreen #problems-scroll { height: auto; max-height: 16; margin-top: 1; }
    ProblemListScreen #problems-scroll:focus { background: $boost; }
    ProblemListScreen #problems-hint { height: 1; margin-top: 1; }
    """

    BINDINGS = [Binding("escape,enter", "close", "Close")]

    def __init__(self, heading: str, problems: Sequence[str]) -> None:
        """``heading`` says what could not be done (a path, say); ``problems`` are shown one a line, all of them."""
        super().__init__()
        self.heading = heading
        self.problems = list(problems)

    def compose(self) -> ComposeResult:
        with Vertical(id="problems-box"):
            # Problems quote the file's own text: shown as typed, never as markup.
            title = Text.assemble(plain(self.heading, "bold"), " ", (count_problems(len(self.problems)), "bold red"))
            yield Static(title, id="problems-title")
            with VerticalScroll(id="problems-scroll"):
                yield Static(Text("\n").join(Text(f"{index}. ") + plain(problem)
                                             for index, problem in enumerate(self.problems, 1)),
                             id="problems-text")
            yield Static(Text("↑↓ and page keys scroll · esc closes", style="dim"), id="problems-hint")
        yield FittingFooter()

    def on_mount(self) -> None:
        """The list takes the keys, so the arrows scroll it."""
        self.query_one("#problems-scroll").focus()

    def action_close(self) -> None:
        """Close the list."""
        self.dismiss(None)


__all__ = ["ProblemListScreen", "count_problems"]
