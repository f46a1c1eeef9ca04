"""A polite notice shown instead of the layout when the terminal is too small."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside


def too_small_text(width: int, height: int, min_width: int, min_height: int) -> str:
    """The notice, e.g. "Coven needs at least 80×24; this terminal is 60×20."."""
    return (
        f"Coven needs at least {min_width}×{min_height}; this terminal is {width}×{height}.\n"
        "Please enlarge it."
    )


class TooSmallScreen(Screen[None]):
    """Covers everything while the terminal is below the minimum size.

    The app pops it by itself as soon as the terminal is large enough again.
    """
    HELP_TITLE = "Terminal too small"
    HELP = ("Coven needs a terminal of at least 80 columns and 24 lines. Make the window larger and the "
            "game comes back as it was.")

    CSS_PATH = css_beside(__file__, "too_small.tcss")
    BINDINGS = [Binding("q", "app.quit", "Quit")]

    def __init__(self, width: int, height: int, min_width: int, min_height: int) -> None:
        """Remember the sizes to describe."""
        super().__init__()
        self._sizes = (width, height, min_width, min_height)

    def compose(self) -> ComposeResult:
        """A centred notice."""
        with Middle():
            with Center():
                yield Static(too_small_text(*self._sizes), id="too-small-notice")
        yield FittingFooter()

    def update_size(self, width: int, height: int) -> None:
        """Describe the terminal's new (still too small) size."""
        self._sizes = (width, height, self._sizes[2], self._sizes[3])
        self.query_one("#too-small-notice", Static).update(too_small_text(*self._sizes))
