"""A seat gives back what a game used: its screens are freed, its Footers keep no removed keys, its heap is trimmed.

Behaviour, not sizes: ``coven bench seat-memory`` gives the figures.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cached_cell_len
from textual._styles_cache import StylesCache
from textual.app import ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widgets import RichLog, Static
from textual.widgets._footer import FooterKey

import tui.app
from engine.wizards_cup.round_matrix import _team_contexts
from tests.helpers.near_the_end import near_the_end
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.cli.bench.seat_memory import memory_now, play_one_game
from tui.heap import give_back, limit_arenas
from tui.render_memos import render_memos
from tui.screens.game.screen import GameScreen
from tui.screens.menu import MainMenu
from tui.widgets.fitting_footer import FittingFooter


async def test_games_one_after_another_leave_no_game_screen_behind(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    given_back: list[bool] = []
    collections: list[int] = []
    collect = gc.collect
    monkeypatch.setattr(gc, "collect", lambda *args: collections.append(1) or collect(*args))
    # The heap goes back right after a full collection (so that what the finished game held goes too): the
    # value recorded is whether the app collected just before, since the last give-back.
    memos_held: list[int] = []

    def give_back() -> None:
        given_back.append(bool(collections))
        collections.clear()
        memos_held.append(sum(memo.cache_info().currsize for memo in render_memos()))

    monkeypatch.setattr(tui.app, "give_back", give_back)
    app = CovenApp(store_path=tmp_path / "coven.db", auto_delay=0.0)
    screens: list[weakref.ref[GameScreen]] = []
    original = app.start_game

    def start_game(live: object) -> None:
        original(live)  # type: ignore[arg-type]
        assert isinstance(app.screen, GameScreen)
        screens.append(weakref.ref(app.screen))

    app.start_game = start_game  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        for seed, plan in enumerate(("wizards-cup", "wizbits")):  # a second game frees the first one's screen too
            collections.clear()  # this test's own collections below are not the app's
            spoke = await play_one_game(app, plan, seed, opponent="normal", bound=600.0, start=near_the_end)
            assert spoke == 0 if plan == "wizbits" else spoke >= 1  # the coach spoke every Wizards Cup round
            games = seed + 1
            await until(pilot, lambda games=games: len(given_back) == games, "the heap given back after the game")
            assert given_back == [True] * games, "the heap went back once a game, each after a collection"
            assert _team_contexts.cache_info().currsize == 0  # the coach's teams went with the game
            assert memos_held == [0] * games, "Rich's and Textual's memos were emptied before the heap went back"
            assert cached_cell_len in render_memos() and StylesCache.get_inner_outer in render_memos()
            # Freed once Textual's last messages and timers for it have run: no finished game's screen stays.
            await until(pilot, lambda: gc.collect() >= 0 and all(ref() is None for ref in screens),
                        "every finished game's screen freed")
        assert isinstance(app.screen, MainMenu)


async def test_a_footer_made_anew_keeps_none_of_the_keys_it_removed(tmp_path: Path) -> None:
    app = CovenApp(store_path=tmp_path / "coven.db", auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        footer = app.screen.query_one(FittingFooter)
        await until(pilot, lambda: bool(footer.query(FooterKey)), "the menu's keys")
        old = [weakref.ref(key) for key in footer.query(FooterKey)]
        assert all(key().has_class("-compact") for key in old)  # type: ignore[union-attr]  # the menu's is compact
        for _ in range(3):
            await footer.recompose()
        await pilot.pause()
        gc.collect()
        assert [ref() for ref in old] == [None] * len(old)
        assert footer.query(FooterKey) and all(key.has_class("-compact") for key in footer.query(FooterKey))


def test_the_heap_takes_one_arena_and_gives_memory_back() -> None:
    assert limit_arenas() and limit_arenas()  # glibc on Linux (the machines Coven serves from); twice is harmless
    give_back()
    sample = memory_now("here")
    assert 0 < sample.uss_mb <= sample.rss_mb


class _Board(Screen[None]):
    def compose(self) -> ComposeResult:
        yield RichLog(id="log")


class _Summary(ModalScreen[None]):
    """A round's summary closed before its next refresh: the callbacks waiting in it never run."""

    def compose(self) -> ComposeResult:
        yield Static("round over")

    async def _invoke_and_clear_callbacks(self) -> None:
        pass  # the refresh that would run them never comes before the summary is closed


async def test_a_closed_summary_keeps_no_callback_that_holds_the_game_under_it(tmp_path: Path) -> None:
    app = CovenApp(store_path=tmp_path / "coven.db", auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        board = _Board()
        await app.push_screen(board)
        summary = _Summary()
        await app.push_screen(summary)
        # Asked while the summary is on top, as the game log's scroll to its end is: it waits in the summary.
        board.query_one(RichLog).call_after_refresh(board.refresh)
        await until(pilot, lambda: bool(summary._callbacks), "the callback waiting in the summary")
        await summary.dismiss()
        await app.pop_screen()
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu again")
        gone = weakref.ref(board)
        del board
        # `summary` stands for the stale reference Textual keeps (the last message a widget handled).
        await until(pilot, lambda: gc.collect() >= 0 and gone() is None, "the closed board freed")
        assert summary._callbacks == []


async def test_a_closed_screen_leaves_no_rendered_lines_in_textuals_style_cache(tmp_path: Path) -> None:
    app = CovenApp(store_path=tmp_path / "coven.db", auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        board = _Board()
        await app.push_screen(board)
        log = weakref.ref(board.query_one(RichLog))  # weak: the board's widgets must be free to go
        board.query_one(RichLog).write("a line of the game")
        painted = weakref.ref(board.query_one(RichLog)._styles_cache)
        await until(pilot, lambda: not log()._styles_cache.is_dirty(0), "the log painted")  # type: ignore[union-attr]
        await app.pop_screen()
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu again")
        del board
        await until(pilot, lambda: gc.collect() >= 0 and painted() is None, "the closed screen's painted lines freed")


async def test_the_seat_memory_bench_samples_the_menu_once_it_is_drawn(tmp_path: Path) -> None:
    """Sampled as soon as the menu screen was pushed, the bench's menu figure missed 4.5 MB of a seat at rest.

    Driven as the bench drives its seat (an auto pilot from the app's start), not through run_test, whose
    start already waits for the first screen.
    """
    from textual.widgets import OptionList

    from tui.cli.bench.seat_memory import until_menu_drawn

    app = CovenApp(store_path=tmp_path / "coven.db")
    seen: list[tuple[int, int, bool, int]] = []

    async def drive(pilot: Any) -> None:
        try:
            await until_menu_drawn(pilot)
            menu = app.screen.query_one("#menu", OptionList)
            keys = len(app.screen.query(FooterKey))
            seen.append((menu.option_count, menu.region.height, app.screen.focused is menu, keys))
        finally:
            app.exit()

    await app.run_async(headless=True, size=(80, 24), auto_pilot=drive)
    [(options, height, focused, keys)] = seen
    assert options > 0 and height > 0 and focused and keys > 0
