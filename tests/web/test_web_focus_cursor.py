"""``coven web`` passes the focus cursor through: in a real headless Chromium, xterm.js's cursor (which its
screen-reader mode and the page's text area follow) sits on the focused item and moves with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers.browser import log_in, type_keys, wait_for, wait_for_screen
from tests.helpers.web_door import start_web

_UNDER_CURSOR = """
const term = window.covenTerminal;
const buffer = term.buffer.active;
const line = buffer.getLine(buffer.baseY + buffer.cursorY);
const text = line ? line.translateToString(true) : "";
return [text.slice(0, buffer.cursorX), text.slice(buffer.cursorX)];
"""


def around_cursor(page: Any) -> tuple[str, str]:
    """The terminal's cursor row, before the cursor and from it on: what a screen reader following it reads."""
    before, after = page.execute_script(_UNDER_CURSOR)
    return str(before), str(after)


def cursor_on(page: Any, label: str) -> None:
    """Wait until the terminal's cursor sits at the start of ``label``."""
    wait_for(lambda: around_cursor(page)[1].startswith(label),
             f"the cursor on {label!r} (its row: {around_cursor(page)!r})")


def cursor_after(page: Any, typed: str) -> None:
    """Wait until the terminal's cursor sits just after ``typed`` (in a field: where the typing goes)."""
    # Textual's field puts its cursor one cell past the end of what was typed.
    wait_for(lambda: around_cursor(page)[0].rstrip().endswith(typed),
             f"the cursor after {typed!r} (its row: {around_cursor(page)!r})")


def test_the_terminal_cursor_follows_focus_in_the_browser_in_linear_mode(tmp_path: Path, page: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    with start_web(tmp_path) as door:
        log_in(page, f"http://127.0.0.1:{door.port}", "ana", query="?linear=1")  # the entry for screen readers
        wait_for_screen(page, "C O V E N")
        cursor_on(page, "New game")  # the menu's highlighted line
        type_keys(page, Keys.DOWN)  # past Continue (nothing to continue in a fresh data folder)
        cursor_on(page, "Sessions")
        type_keys(page, "n")
        wait_for_screen(page, "Seat 1")
        cursor_after(page, "Ana")  # the first seat's name, focused as the form opens: before any key
        type_keys(page, Keys.TAB)
        cursor_on(page, "Human")  # the seat's drop-down: its value, not the edge of its box
        type_keys(page, Keys.TAB)
        cursor_after(page, "Merlin")
        # The page's text area, where the browser's caret (and a screen reader's) is, sits on the cursor's row.
        assert page.execute_script(
            "const t = document.querySelector('.xterm-helper-textarea');"
            "const rows = document.querySelector('.xterm-screen').clientHeight / window.covenTerminal.rows;"
            "return Math.round(parseFloat(t.style.top) / rows);"
        ) == page.execute_script("return window.covenTerminal.buffer.active.cursorY;")
