"""Every snapshot draws text fields with a steady cursor.

A blinking cursor is drawn or not by where its half-second cycle stood when the picture was taken, which
depends on how busy the machine was: two loaded runs caught one out of step with its stored picture.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input


@pytest.fixture(autouse=True)
def steady_cursors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every Input made during a snapshot test keep its cursor on (a player's still blinks)."""
    made = Input.__init__

    def steady(self: Input, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        self.cursor_blink = False

    monkeypatch.setattr(Input, "__init__", steady)
