"""A served first screen is held until it settles, and its early frames are not even drawn (tui/resize_paint.py)."""

from __future__ import annotations

from typing import Any

import pytest
from textual._compositor import Compositor

from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.resize_paint import DRAWN_HELD_REFRESHES
from tui.screens.menu import MainMenu


@pytest.mark.parametrize("served", [True, False])
async def test_a_served_first_screen_is_drawn_only_in_its_last_held_refreshes(
        served: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    app = CovenApp(auto_delay=60.0, serve_port=2222 if served else None, account="ana" if served else None)
    drawn: list[tuple[bool, int]] = []  # (holding frames, refreshes left) at each draw of a frame
    draw = Compositor.render_update

    def counted(compositor: Compositor, *args: Any, **kwargs: Any) -> Any:
        drawn.append((app._holding_frames, app._start_refreshes))
        return draw(compositor, *args, **kwargs)

    monkeypatch.setattr(Compositor, "render_update", counted)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu) and not app._holding_frames
                    and "C O V E N" in "".join(strip.text for strip in app.screen._compositor.render_strips()),
                    "the menu, drawn and let out")
        assert drawn  # frames were drawn, and the menu is whole in the one that went out
        early = [when for when in drawn if when[0] and when[1] > DRAWN_HELD_REFRESHES]
        # Frames held back while the size moves are still drawn, served or not: only the first screen's are skipped.
        first = len(drawn)
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: not app._holding_frames and app.size.width == 120, "the resize's one paint")
        assert any(holding for holding, _ in drawn[first:]), drawn[first:]
    if served:
        # Held: nothing drawn before its last refreshes, which settle what a draw works out.
        assert not early, drawn
        assert any(holding for holding, _ in drawn), drawn
    else:
        # At this machine's own terminal the first screen is not held, so its frames are drawn as they come.
        assert not any(holding for holding, _ in drawn[:first]), drawn
