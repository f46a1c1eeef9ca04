"""Behaviour tests of playing and reviewing: curtain, game loop, sessions, export, replay."""

from __future__ import annotations

from typing import Any

from engine.wizards_cup.actions import ChooseTeam
from saves import LiveSession, SessionStore
from tests.helpers.tui_fakes import FakeUI, game_screen, play_until, seats
from tests.helpers.waiting import until
from tui.app import CovenApp


async def test_curtain_for_two_humans(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.curtain import CurtainScreen

    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann", "Bob"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen), 'isinstance(app.screen, CurtainScreen)')
        table = game_screen(app).table
        assert table.shown[-1][0].seat is None  # spectator view under the curtain
        await pilot.press("enter")
        await until(pilot, lambda: (table.shown[-1][0].seat == 0 and table.shown[-1][1] == 0),
                    'table.shown[-1][0].seat == 0 and table.shown[-1][1] == 0')
        legal = live.rules.legal_actions(live.state, 0)
        table.choose(0, legal[0])
        await until(pilot, lambda: (isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
                                    and table.shown[-1][0].seat is None),
                    'isinstance(app.screen, CurtainScreen) and app.screen.play...')
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
        assert table.shown[-1][0].seat is None


async def test_no_curtain_for_one_human_against_a_bot(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("You", "Merlin:easy"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await until(pilot, lambda: app.screen is game_screen(app), 'app.screen is screen')
        screen = game_screen(app)
        assert app.screen is screen
        assert live.log == ()  # the player chooses before the bot, so their team can be taken back
        assert all(view.seat == 0 for view, _, _ in screen.table.shown)
        assert screen.table.shown[-1][1] == 0


async def test_illegal_action_is_reported(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("You", "Merlin:easy"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = game_screen(app)
        screen.table.choose(0, ChooseTeam(("nonsense",)))  # no such wizard: the rules refuse it
        await until(pilot, lambda: any(n.severity == "error" for n in app._notifications), "the refusal")
        assert live.log == ()  # nothing was played: the bot waits for the player, who chooses first
        assert any(n.severity == "error" for n in app._notifications)


async def test_table_steps_with_space_and_auto_play(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 4)  # teams and lineups chosen: the duels wait
    assert live.table_action is not None and not live.to_act
    app = CovenApp(store=store, auto_delay=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        await pilot.press("space")
        await until(pilot, lambda: len(live.log) == 5, "one step for the space bar")
        await pilot.press("a")
        await until(pilot, lambda: len(live.log) > 6, "automatic steps")
        await pilot.press("a")
        # A step already under way may still open a result screen: escape until the menu shows, within a bound.
        for _ in range(10):
            if type(app.screen).__name__ == "MainMenu":
                break
            await pilot.press("escape")
        await until(pilot, lambda: type(app.screen).__name__ == "MainMenu", "the main menu")


async def test_step_keys_are_hidden_while_a_human_here_decides(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ana", "Merlin:easy"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(live)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await until(pilot, lambda: 0 in live.to_act, '0 in live.to_act')
        screen = game_screen(app)
        assert 0 in live.to_act
        assert screen.check_action("step", ()) is False and screen.check_action("toggle_auto", ()) is False
        shown = app.export_screenshot().replace("&#160;", " ")
        assert "Next step" not in shown and "Auto play" not in shown and "Log" in shown


async def test_resumed_game_shows_the_events_so_far(fake_ui: FakeUI, store: SessionStore) -> None:
    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 6)
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_session(live.session_id)
        await until(pilot, lambda: ([event.kind for event in game_screen(app).table.events].count('duel') == 2),
                    '[event.kind for event in table.events].count("duel") == 2')
        table = game_screen(app).table
        assert [event.kind for event in table.events].count("duel") == 2
        assert table.events[-1] == live.history()[-1].events[-1]


async def test_opening_a_session_or_its_replay_applies_each_logged_action_once(
    fake_ui: FakeUI, store: SessionStore, monkeypatch: Any
) -> None:
    from tui.screens.replay import ReplayScreen

    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann", "Bob"))
    play_until(live, 6)
    rules_class = type(live.rules)
    original = rules_class.apply
    applied: list[Any] = []

    def counting_apply(self: Any, state: Any, seat: Any, action: Any) -> Any:
        applied.append(seat)
        return original(self, state, seat, action)

    monkeypatch.setattr(rules_class, "apply", counting_apply)
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_session(live.session_id)
        await until(pilot, lambda: (game_screen(app).table.events
                                    and applied == [entry.seat for entry in live.log]),
                    'game_screen(app).table.events')
        assert game_screen(app).table.events  # the resumed game shows its history...
        assert applied == [entry.seat for entry in live.log]  # ...from one pass over the log
        applied.clear()
        app.open_replay(live.session_id)
        await until(pilot, lambda: (isinstance(app.screen, ReplayScreen) and app.screen.total == 6
                                    and applied == [entry.seat for entry in live.log]),
                    'isinstance(app.screen, ReplayScreen) and app.screen.total...')
        assert isinstance(app.screen, ReplayScreen) and app.screen.total == 6
        assert applied == [entry.seat for entry in live.log]


# -- sessions and replay -------------------------------------------------------------------


async def test_delete_asks_for_confirmation(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.widgets.confirm import ConfirmScreen

    LiveSession.create(store, "wizards-cup", None, 1, seats("Ann", "Bob"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert len(store.list_sessions()) == 1
        await pilot.press("d", "y")
        assert store.list_sessions() == []
        assert app.screen.query_one("#sessions-empty").display


async def test_export_and_import(fake_ui: FakeUI, store: SessionStore, tmp_path: Any) -> None:
    from tui.widgets.confirm import PromptScreen

    LiveSession.create(store, "wizards-cup", None, 1, seats("Ann", "Bob"))
    target = tmp_path / "out.json"
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "e")
        assert isinstance(app.screen, PromptScreen)
        app.screen.query_one("#prompt-input").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        assert target.is_file()
        await pilot.press("i")
        app.screen.query_one("#prompt-input").value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await until(pilot, lambda: len(store.list_sessions()) == 2, 'len(store.list_sessions()) == 2')


async def test_export_asks_before_replacing_a_file(fake_ui: FakeUI, store: SessionStore, tmp_path: Any) -> None:
    from tui.widgets.confirm import ConfirmScreen, PromptScreen

    LiveSession.create(store, "wizards-cup", None, 1, seats("Ann", "Bob"))
    target = tmp_path / "taken.json"
    target.write_text("precious")
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        for answer in ("n", "y"):
            await pilot.press("e")
            assert isinstance(app.screen, PromptScreen)
            app.screen.query_one("#prompt-input").value = str(target)  # type: ignore[attr-defined]
            await pilot.press("enter")
            await until(pilot, lambda: (isinstance(app.screen, ConfirmScreen)
                                        and f"Replace {target}?" in app.screen.question
                                        and target.read_text() == "precious"),
                        'isinstance(app.screen, ConfirmScreen)')
            assert isinstance(app.screen, ConfirmScreen)
            assert f"Replace {target}?" in app.screen.question
            assert target.read_text() == "precious"
            await pilot.press(answer)
            await until(pilot, lambda: (type(app.screen).__name__ == "SessionsScreen"),
                        'type(app.screen).__name__ == "SessionsScreen"')
        assert '"coven-session"' in target.read_text()


async def test_sessions_say_in_progress_and_mark_bots(fake_ui: FakeUI, store: SessionStore) -> None:
    from textual.widgets import DataTable

    LiveSession.create(store, "wizards-cup", None, 1, seats("Ana", "Merlin:normal"))
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        table = app.screen.query_one(DataTable)
        row = [str(cell) for cell in table.get_row_at(0)]
        assert row[1:3] == ["Ana vs Merlin (bot)", "in progress"]  # one game only: no Game column


async def test_replay_steps(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.replay import ReplayScreen

    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 8)
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "p")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.step == 0 and screen.total == 8
        await pilot.press("right", "l", "space", "left")
        assert screen.step == 2
        await pilot.press("end")
        assert screen.step == 8 and "Step 8 of 8" in screen.status_line()
        await pilot.press("home")
        assert screen.step == 0 and screen.viewpoint is None


async def test_replay_shows_seat_views_only_once_the_game_is_over(fake_ui: FakeUI, store: SessionStore) -> None:
    from tui.screens.replay import ReplayScreen

    live = LiveSession.create(store, "wizards-cup", None, 7, seats("Ann:easy", "Bob:easy"))
    play_until(live, 8)
    app = CovenApp(store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "p")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end", "v", "v", "v")
        assert screen.viewpoint is None and "viewing as Spectator" in screen.status_line()
        assert all(view.seat is None for view, _, _ in screen.table.shown)  # type: ignore[attr-defined]
        assert any("once the game is over" in n.message for n in app._notifications)
        await pilot.press("escape", "escape")
        play_until(live, 2000)
        assert live.result is not None
        app.open_replay(live.session_id)
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), 'isinstance(screen, ReplayScreen)')
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("home", "v")
        assert screen.viewpoint == 0 and "viewing as Ann" in screen.status_line()
        assert screen.table.shown[-1][0].seat == 0  # type: ignore[attr-defined]
        await pilot.press("v", "v")
        assert screen.viewpoint is None
