"""The Sessions screen with a damaged session: listed with its reason, refused, the others still work."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Static

from saves import LiveSession, SessionStore
from tests.helpers.damage_helpers import write_damage
from tests.helpers.tui_fakes import FakeUI, game_screen, seats
from tests.helpers.waiting import until
from tui.app import CovenApp


async def test_a_damaged_session_is_listed_refused_and_the_others_open(
    fake_ui: FakeUI, coven_data_dir: Path, tmp_path: Path
) -> None:
    with SessionStore() as store:
        good = LiveSession.create(store, "wizards-cup", None, 1, seats("Ana", "Merlin:normal")).session_id
        bad = LiveSession.create(store, "wizards-cup", None, 2, seats("Bea", "Cy")).session_id
    # A hostile or broken program wrote what Coven never would: the TUI crashed on it before.
    write_damage("UPDATE sessions SET status = 'weird' WHERE id = ?", bad)
    write_damage("UPDATE seats SET kind = 'alien' WHERE session_id = ?", bad)
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: app.screen.query(DataTable) and app.screen.query_one(DataTable).row_count == 2,
                    "the sessions listed")
        table = app.screen.query_one(DataTable)
        rows = {str(table.get_row_at(index)[0]): [str(cell) for cell in table.get_row_at(index)]
                for index in range(table.row_count)}
        assert rows[str(bad)][2] == "damaged"
        assert rows[str(bad)][3].startswith("its status is 'weird'")
        assert rows[str(good)][2] == "in progress"
        table.move_cursor(row=list(rows).index(str(bad)))
        await until(pilot, lambda: f"Session {bad} is damaged"
                    in str(app.screen.query_one("#session-detail", Static).render()), "the damaged session's detail")
        detail = str(app.screen.query_one("#session-detail", Static).render())
        assert f"Session {bad} is damaged and cannot be opened: its status is 'weird'" in detail
        assert "coven doctor" in detail
        for key, title in (("enter", "Cannot resume"), ("p", "Cannot replay"), ("e", "Not exported")):
            await pilot.press(key)
            await until(pilot, lambda title=title: (
                type(app.screen).__name__ == "SessionsScreen"
                and any(n.title == title and "is damaged" in n.message for n in app._notifications)
            ), 'type(app.screen).__name__ == "SessionsScreen"')
            assert type(app.screen).__name__ == "SessionsScreen"
            assert any(n.title == title and "is damaged" in n.message for n in app._notifications)
        table.move_cursor(row=list(rows).index(str(good)))
        await pilot.press("enter")
        await until(pilot, lambda: game_screen(app).live.session_id == good, 'game_screen(app).live.session_id == good')


async def test_continue_on_a_damaged_session_says_why(fake_ui: FakeUI) -> None:
    with SessionStore() as store:
        bad = LiveSession.create(store, "wizards-cup", None, 2, seats("Bea", "Cy")).session_id
    write_damage("UPDATE sessions SET seed = 'abc' WHERE id = ?", bad)
    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await until(pilot, lambda: (type(app.screen).__name__ == "MainMenu"
                                    and any("seed is 'abc'" in n.message for n in app._notifications)),
                    'type(app.screen).__name__ == "MainMenu"')
        assert type(app.screen).__name__ == "MainMenu"
        assert any("seed is 'abc'" in n.message for n in app._notifications)
