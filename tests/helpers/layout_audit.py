"""What the layout audit checks on one screen, read from the screen as a player sees it.

:func:`look` reads the screen in front: every Footer key must be drawn whole
(its key and description in the Footer's row, inside the screen and clear of
the command palette's key), and every status or header line must show its text
whole (a line the app shortened on purpose must say so with "…" and give the
whole text to the help). It returns what was seen, so a test can check that a
larger terminal shows no less. :func:`help_lists_the_footer` opens F1 over the
screen and checks that the help lists every key the Footer shows or left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from textual.app import App
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from tests.helpers.waiting import until

LINES = ("#game-status, #replay-status, #table-clock, #replay-clock, .screen-title, #editor-title, #lab-title, #lab-status, HeaderTitle, "
         "#lobby-status, #lobby-title, #lobby-seats, #lobby-token, #lobby-hint, #lobby-spectators, #lobby-code, #join-table, #session-detail, "
         "#settings-title")
"""The status and header lines of Coven's screens (a line may wrap in a taller widget, never be cut)."""


@dataclass
class Seen:
    """What one screen showed: its Footer's keys, the names found on it, and what was wrong."""

    keys: set[str] = field(default_factory=set)
    wanted: set[str] = field(default_factory=set)
    """Every key the screen would show in its Footer now, room or not (a key only a narrow layout needs is
    not bound at all in a wide one)."""
    names: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


def rows(app: App[Any]) -> list[str]:
    """The screen's rows of text, as drawn."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def widget_text(widget: Widget) -> str:
    """What a one-line widget holds, whole (whatever of it the screen shows)."""
    return str(widget.render())


def footer_problems(app: App[Any], where: str, seen: Seen) -> None:
    """Every Footer key of the screen in front is drawn whole, clear of the palette's key."""
    screen_rows = rows(app)
    width = app.size.width
    keys = [key for key in app.screen.query(FooterKey) if key.display]
    palette = [key for key in keys if key.has_class("-command-palette")]
    edge = min((key.region.x for key in palette), default=width)
    for key in keys:
        label = f"{key.key_display} {key.description}".strip()
        limit = width if key in palette else edge
        region = key.region
        row = screen_rows[region.y] if 0 <= region.y < len(screen_rows) else ""
        drawn = row[region.x:min(region.right, limit)]
        if region.width == 0 or region.right > limit or label not in drawn:
            seen.problems.append(f"{where}: footer key {label!r} is cut (drawn {drawn!r}, row {row.rstrip()!r})")
        else:
            seen.keys.add(key.description)


def line_problems(app: App[Any], where: str, seen: Seen) -> None:
    """Every status or header line shows its whole text; a shortened one gives the whole to the help."""
    screen_rows = rows(app)
    for widget in app.screen.query(LINES):
        region = widget.region
        if not widget.display or region.height == 0:
            continue
        text = widget_text(widget).strip()
        drawn = " ".join(screen_rows[y][region.x:region.right].strip() for y in range(region.y, region.bottom))
        drawn = re.sub(r"\s+", " ", drawn)
        for line in text.splitlines():
            line = re.sub(r"\s+", " ", line.strip())
            if line and line not in drawn:
                seen.problems.append(f"{where}: {widget.id or type(widget).__name__} is cut: {line!r} shows as "
                                     f"{drawn!r}")
        if widget.id in ("game-status", "replay-status", "table-clock"):  # shortened to fit: the help has it whole
            whole = getattr(app.screen, "help_now", lambda: "")()
            if not whole:
                seen.problems.append(f"{where}: the help does not have the whole status line ({text!r})")


def look(app: App[Any], where: str, names: frozenset[str] = frozenset()) -> Seen:
    """Read the screen in front: its Footer, its status and header lines, and which of ``names`` it shows."""
    seen = Seen()
    seen.wanted = {active.binding.description for active in app.screen.active_bindings.values()
                   if active.binding.show}
    footer_problems(app, where, seen)
    line_problems(app, where, seen)
    text = "\n".join(rows(app))
    seen.names = {name for name in names if name in text}
    return seen


async def help_lists_the_footer(pilot: Any, where: str, seen: Seen) -> None:
    """F1 opens the help over the screen, listing every key its Footer shows or left out; escape closes it."""
    from tui.screens.help import HelpScreen
    from tui.widgets.fitting_footer import FittingFooter

    app = pilot.app
    below = app.screen
    described = set(seen.keys)
    for footer in below.query(FittingFooter):
        described |= set(footer.left_out)
    described -= {"Help", "Keys", "palette"}
    await pilot.press("f1")
    await until(pilot, lambda: isinstance(app.screen, HelpScreen), f"the help over {where}")
    shown = app.screen
    assert isinstance(shown, HelpScreen)
    listed = " | ".join(str(label) for _, _, label in shown.rows)
    missing = {description for description in described if description not in listed}
    if missing:
        seen.problems.append(f"{where}: the help lists no {sorted(missing)}")
    if not shown.about:
        seen.problems.append(f"{where}: the help does not say what the screen is for")
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is below, f"the help over {where} to close")


async def at_size(pilot: Any, size: tuple[int, int]) -> None:
    """Resize the terminal to ``size`` and wait until the screen in front is laid out and painted at it.

    One app audited at each size in turn: a terminal resized is laid out anew, as one started at that size is.
    """
    app = pilot.app
    if (app.size.width, app.size.height) != size:
        await pilot.resize_terminal(*size)
    await until(pilot, lambda: ((app.size.width, app.size.height) == (app.screen.size.width, app.screen.size.height)
                                == size and not app._holding_frames), f"the screen laid out at {size[0]}x{size[1]}")
    # Laid out anew: what the audit reads is the same on two looks in a row (the children follow the screen).
    last: list[Seen] = []

    def settled() -> bool:
        seen = look(app, "settling")
        same = bool(last) and last[0] == seen
        last[:] = [seen]
        return same

    await until(pilot, settled, f"the screen to settle at {size[0]}x{size[1]}")


def no_less(smaller: dict[str, Seen], larger: dict[str, Seen]) -> list[str]:
    """Where a larger terminal showed fewer Footer keys or names than a smaller one."""
    problems = []
    for where, small in smaller.items():
        large = larger.get(where)
        if large is None:
            continue
        # "? Help" only stands in for keys left out; a key the larger layout has no use for is not bound there.
        fewer = {key for key in small.keys - large.keys - {"Help", "palette"} if key in large.wanted}
        if fewer:
            problems.append(f"{where}: the larger terminal's Footer lacks {sorted(fewer)}")
        if small.names - large.names:
            problems.append(f"{where}: the larger terminal does not show {sorted(small.names - large.names)}")
    return problems
