"""Swap-screen focus: the keyboard moves only when asked, Tab stays between the two lists, and a focused log shows it."""

from __future__ import annotations

from textual.widgets import OptionList, RichLog, Static

from saves import SessionStore
from tests.helpers.swap_focus import at_the_swap, swap_focused
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizards_cup.swap_picker import SwapPicker
from tui.screens.menu import MainMenu


def hint(picker: SwapPicker) -> str:
    return str(picker.query_one("#sp-choice", Static).render())


async def test_tab_moves_between_the_two_lists_only_and_the_hint_says_where() -> None:
    with SessionStore() as store:
        live = at_the_swap(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            app.start_game(live)
            await until(pilot, lambda: swap_focused(app), "Ana's swap")
            screen = app.screen
            picker = screen.query_one(SwapPicker)
            team, pool = picker.query_one("#sp-team", OptionList), picker.query_one("#sp-pool", OptionList)
            assert "tab to Take in" in hint(picker)
            await pilot.press("down", "space")
            await until(pilot, lambda: (picker.out is not None
                                        and team.has_focus and not pool.has_focus
                                        and "tab to Take in" in hint(picker)
                                        and screen.active_bindings["tab"].binding.description == "Other list"),
                        'picker.out is not None')
            assert picker.out is not None
            assert team.has_focus and not pool.has_focus  # picking moved nothing by itself
            assert "tab to Take in" in hint(picker)
            assert screen.active_bindings["tab"].binding.description == "Other list"
            await pilot.press("tab")
            await until(pilot, lambda: (pool.has_focus and "tab to Swap out" in hint(picker)),
                        'pool.has_focus and "tab to Swap out" in hint(picker)')
            await pilot.press("tab")
            await until(pilot, lambda: team.has_focus, 'team.has_focus')
            await pilot.press("shift+tab")
            await until(pilot, lambda: pool.has_focus, 'pool.has_focus')
            await pilot.press("left")
            await until(pilot, lambda: team.has_focus, 'team.has_focus')
            await pilot.press("right", "down", "space")
            await until(pilot, lambda: (picker.take is not None and "c confirm the swap" in hint(picker)),
                        'picker.take is not None and "c confirm the swap" in hint(...')


async def test_a_focused_log_shows_that_it_has_the_keyboard() -> None:
    with SessionStore() as store:
        live = at_the_swap(store)
        app = CovenApp(store=store, auto_delay=60.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
            app.start_game(live)
            await until(pilot, lambda: swap_focused(app), "Ana's swap")
            # Ana swaps before Merlin (a bot), who waits for her: nothing else moves on this screen.
            await until(pilot, lambda: list(live.to_act) == [0, 1] and swap_focused(app), "Ana asked first")
            await pilot.pause()
            log = app.screen.query_one("#game-log", RichLog)
            before = (log.styles.border_top[0], log.styles.border_title_background)
            picture = app.export_screenshot()
            log.focus()
            await until(pilot, lambda: log.has_focus, "the log to take the keyboard")
            await until(pilot, lambda: (log.styles.border_top[0] != before[0]
                                        and log.styles.border_title_background != before[1]
                                        and app.export_screenshot() != picture),
                        'log.styles.border_top[0] != before[0]')
            assert log.styles.border_top[0] != before[0]
            assert log.styles.border_title_background != before[1]
            assert app.export_screenshot() != picture


async def test_a_redrawn_pane_leaves_the_keyboard_where_the_player_put_it() -> None:
    from textual.app import ComposeResult

    from tests.helpers.wizards_cup_tui import TableApp, swap_game

    class WithLog(TableApp):
        def compose(self) -> ComposeResult:
            yield from super().compose()
            yield RichLog(id="game-log")

    game = swap_game()
    app = WithLog(game.view(0), 0, game.legal(0), game.events)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.query_one('#sp-team', OptionList).has_focus, 'team.has_focus')
        team = app.query_one("#sp-team", OptionList)
        assert team.has_focus
        log = app.query_one("#game-log", RichLog)
        log.focus()
        await pilot.pause()
        app.table.show(game.view(0), 0, game.legal(0))  # the same pane drawn again (another seat moved)
        await pilot.pause()
        await until(pilot, lambda: log.has_focus, 'log.has_focus')
        app.table.show(game.view(0), None, [])  # the pane closes...
        await pilot.pause()
        app.table.show(game.view(0), 0, game.legal(0))  # ...and opens afresh: it takes the keyboard
        await pilot.pause()
        await until(pilot, lambda: team.has_focus, 'team.has_focus')
