"""A served first screen is held until it settles, and its early frames are not even drawn (tui/resize_paint.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual._compositor import Compositor, LayoutUpdate
from textual.app import ComposeResult
from textual.screen import UPDATE_PERIOD, ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import OptionList, Static

from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.resize_paint import (
    DRAWN_HELD_REFRESHES,
    HELD_UPDATE_SECONDS,
    QUIET_ROUNDS,
    SETTLING_TIMER,
    OnePaintResizeApp,
)
from tui.screens.menu import MainMenu
from tui.widgets.fitting_footer import FittingFooter


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


@pytest.mark.parametrize("served", [True, False])
async def test_a_served_first_screen_settles_without_waiting_for_ticks_and_goes_out_whole(
        served: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    app = CovenApp(auto_delay=60.0, serve_port=2222 if served else None, account="ana" if served else None)
    held_timers: list[Timer] = []  # the top screen's update timer at each held frame drawn
    sent: list[tuple[bool, str]] = []  # each frame that went out: whether it was whole, and the screen's text
    display = OnePaintResizeApp._display

    def watched(self: OnePaintResizeApp[Any], screen: Screen[Any], renderable: Any) -> None:
        if renderable is not None and screen is self.screen:
            if self._holding_frames:
                held_timers.append(screen._update_timer)
            else:
                sent.append((isinstance(renderable, LayoutUpdate),
                             "".join(strip.text for strip in screen._compositor.render_strips())))
        display(self, screen, renderable)

    monkeypatch.setattr(OnePaintResizeApp, "_display", watched)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu) and sent and app.screen.query_one(
            FittingFooter).shown, "the menu out, its Footer's keys shown")
        footer = app.screen.query_one(FittingFooter)
        timer = app.screen._update_timer
        assert timer._interval == UPDATE_PERIOD  # Textual's own pace from the first frame on
        assert not any(getattr(screen, SETTLING_TIMER, None) for screen in app.screen_stack)  # the one below too
        # The first frame out is the whole settled screen, every key of its Footer in it, not a part of it with
        # the rest painted after (a layout the Footer's keys asked for, done in the same tick as the release).
        whole, text = sent[0]
        assert whole, sent
        assert "C O V E N" in text
        assert all(key in text for key in footer.shown), (footer.shown, text[-200:])
        menu = app.screen.query_one("#menu", OptionList)
        before = menu.highlighted
        await pilot.press("down")  # and Textual's timer still paints what a key changes
        await until(pilot, lambda: menu.highlighted != before and len(sent) > 1, "the key's echo")
    if served:
        assert held_timers and all(timer._interval == HELD_UPDATE_SECONDS for timer in held_timers)
        assert all(timer._task is None for timer in held_timers)  # stopped once the first frame was out
    else:
        assert not held_timers  # at this machine's own terminal nothing is held


class Restless(Static):
    """Asks for another paint after every refresh while the first screen is held, as an animation would."""

    def on_mount(self) -> None:
        self.call_after_refresh(self.again)

    def again(self) -> None:
        app = self.app
        if isinstance(app, OnePaintResizeApp) and app._holding_frames:
            self.refresh()
            self.call_after_refresh(self.again)


class RestlessApp(OnePaintResizeApp[None]):
    def compose(self) -> ComposeResult:
        yield Restless("restless")


async def test_a_first_screen_that_never_falls_quiet_still_goes_out(monkeypatch: pytest.MonkeyPatch) -> None:
    app = RestlessApp(hold_first_screen=True)
    rounds: list[int] = []
    wait = OnePaintResizeApp._wait_until_quiet

    def counted(self: OnePaintResizeApp[Any], rounds_left: int) -> None:
        rounds.append(rounds_left)
        wait(self, rounds_left)

    monkeypatch.setattr(OnePaintResizeApp, "_wait_until_quiet", counted)
    async with app.run_test(size=(40, 10)) as pilot:
        await until(pilot, lambda: not app._holding_frames, "the first screen out")
        assert rounds == list(range(QUIET_ROUNDS, 0, -1))  # every round found it busy, and the last let it out
        assert "restless" in "".join(strip.text for strip in app.screen._compositor.render_strips())


class Deaf(Static):
    """Takes a quiet round's callback and never runs it, as a node removed before its turn (a Footer's old key)."""

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
        if callback.__qualname__.startswith(f"{OnePaintResizeApp.__name__}._wait_until_quiet"):
            return True
        return super().call_later(callback, *args, **kwargs)


class DeafApp(OnePaintResizeApp[None]):
    def compose(self) -> ComposeResult:
        yield Deaf("deaf")


async def test_a_node_that_never_calls_back_does_not_hold_the_first_screen_for_good() -> None:
    app = DeafApp(hold_first_screen=True)
    async with app.run_test(size=(40, 10)) as pilot:
        await until(pilot, lambda: not app._holding_frames, "the first screen out")
        assert "deaf" in "".join(strip.text for strip in app.screen._compositor.render_strips())


class Notice(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("a notice over the first screen")


class NoticeApp(OnePaintResizeApp[None]):
    def compose(self) -> ComposeResult:
        yield Static("under the notice")

    def on_mount(self) -> None:
        super().on_mount()
        self.push_screen(Notice())


async def test_a_screen_pushed_while_the_first_is_held_leaves_no_fast_timer_behind() -> None:
    app = NoticeApp(hold_first_screen=True)
    async with app.run_test(size=(60, 12)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, Notice) and not app._first_frame_due, "the notice out")
        under, top = app.screen_stack
        # The screen under the notice was on top, and settling, before the notice came: it is handed back too.
        assert getattr(under, SETTLING_TIMER, None) is None and getattr(top, SETTLING_TIMER, None) is None
        assert under._update_timer._interval == top._update_timer._interval == UPDATE_PERIOD
