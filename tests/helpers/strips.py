"""Reading a Textual Strip's caches in tests without making any (tui.lean_strips, tui.widgets.lean_log)."""

from __future__ import annotations

from textual.strip import Strip

from tui.lean_strips import CACHES


def made_caches(strip: Strip) -> list[str]:
    """The caches ``strip`` has made, read through Strip's slots (which makes none, as a lean strip's
    ``__getattr__`` would)."""
    made = []
    for name in CACHES:
        try:
            getattr(Strip, name).__get__(strip, Strip)
        except AttributeError:
            continue
        made.append(name)
    return made
