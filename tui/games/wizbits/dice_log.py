"""The dice log: every Wizbits check as it was rolled.

Feed it engine events; it keeps the ``"check"`` ones and shows what was
checked, who checked, the die levels, each roll, the sum against the number
and whether it succeeded. Other events are ignored, so a screen can pass it
everything it shows in the game log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.events import Resize

from engine import Event
from tui.widgets.lean_log import LeanLog
from tui.widgets.styles import load_css


def check_line(data: Mapping[str, Any], seats: Sequence[str] = ()) -> Text:
    """One check as a line, e.g. ``Ana · Archmage  Special Check Break Global Check  d8+d6+d10: 5+2+6 = 13 > 8 ✓``."""
    seat = data.get("seat")
    owner = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else None
    who = " · ".join(part for part in (owner, str(data.get("card", ""))) if part)
    dice = "+".join(f"d{level}" for level in data.get("dice", []))
    rolls = [int(roll) for roll in data.get("rolls", [])]
    rolled = "+".join(str(roll) for roll in rolls)
    if len(rolls) > 1:
        rolled += f" = {data.get('total', sum(rolls))}"
    number = data.get("number", 0)
    against = f"SCN {number}" if data.get("special") else str(number)
    success = bool(data.get("success"))
    line = Text()
    if who:
        line.append(who, style="bold")
        line.append("  ")
    line.append(str(data.get("check", "Check")), style="italic")
    line.append(f"  {dice}: {rolled} ", style="")
    line.append("> " if success else "≤ ", style="dim")
    line.append(against)
    line.append("  ✓ success" if success else "  ✗ failure", style="bold green" if success else "bold red")
    return line


class DiceLog(LeanLog):
    """A scrolling list of checks, newest at the bottom, wrapped to the pane's width.

    A log does not re-wrap what it has written, so the checks are kept and
    written again whenever the pane is resized.
    """

    DEFAULT_CSS = load_css(__file__)

    def __init__(self, *, seats: Sequence[str] = (), name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        # min_width: wrap at the pane's width, not RichLog's default of 78 columns.
        super().__init__(wrap=True, markup=False, max_lines=500, min_width=20, name=name, id=id, classes=classes)
        self.seats: tuple[str, ...] = tuple(seats)
        """Seat names, to say whose character checked."""
        self.checks: list[Event] = []
        """Every check shown, oldest first."""

    @property
    def count(self) -> int:
        """How many checks have been shown."""
        return len(self.checks)

    def show_events(self, events: Sequence[Event]) -> None:
        """Add a line for each check among ``events``."""
        for event in events:
            if event.kind == "check":
                self.checks.append(event)
                self.write(check_line(event.data, self.seats))

    def clear_checks(self) -> None:
        """Forget every line (a replay jumping back)."""
        self.clear()
        self.checks = []

    def on_resize(self, event: Resize) -> None:
        """Write the checks again at the new width."""
        checks = self.checks
        self.clear_checks()
        self.show_events(checks)
