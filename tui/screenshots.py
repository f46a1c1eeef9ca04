"""Regenerate the README's SVG screenshots: ``python -m tui.screenshots DIR``.

Games are played in a throw-away data directory with fixed seeds, so the
user's own sessions never appear and the pictures change only when the
screens do.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import get_game
from engine.wizards_cup.state import Phase
from saves import LiveSession, SeatInfo, SessionStore
from tui.app import CovenApp
from tui.games.wizards_cup.team_builder import TeamBuilder

SIZE = (80, 24)
SEED = 11


def _fixed_clock() -> Callable[[], str]:
    """Session times for the pictures: one fixed minute, a microsecond apart so the order stays the real one."""
    ticks = itertools.count()
    return lambda: f"2026-11-30T20:15:00.{next(ticks) % 1_000_000:06d}+00:00"


async def _capture(directory: Path) -> list[Path]:
    from saves import store as store_module

    store_module.utc_now = _fixed_clock()  # the Sessions picture shows when each was played: not today's time
    written: list[Path] = []
    store = SessionStore()
    app = CovenApp(store=store, auto_delay=0.05)
    async with app.run_test(size=SIZE) as pilot:

        async def settle() -> None:
            for _ in range(3):
                await pilot.pause()
                await app.workers.wait_for_complete()
            await pilot.pause(0.2)

        def shoot(name: str) -> None:
            path = directory / f"{name}.svg"
            app.save_screenshot(filename=path.name, path=str(directory))
            written.append(path)

        async def until(screen_name: str, key: str, limit: int = 40) -> None:
            for _ in range(limit):
                if type(app.screen).__name__ == screen_name:
                    return
                await pilot.press(key)
                await settle()
            raise RuntimeError(f"never reached {screen_name}")

        await settle()
        shoot("main-menu")
        await pilot.press("n")
        await settle()
        shoot("new-game")
        await pilot.press("escape")

        live = LiveSession.create(store, "wizards-cup", {}, SEED,
                                  [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
        app.start_game(live)
        await settle()
        await pilot.press("down", "space", "down", "down", "space", "down", "down", "down", "space")
        await settle()
        shoot("team-builder")
        builder = app.screen.query_one(TeamBuilder)
        while len(builder.picks) < 5:
            await pilot.press("down", "space")
        await pilot.press("c")
        await settle()
        await pilot.press("down", "down", "[", "[")
        await settle()
        shoot("lineup")
        await pilot.press("c")
        await settle()
        for _ in range(3):
            await pilot.press("space")
            await settle()
        shoot("duel-zone")
        await until("RoundResultScreen", "space")
        shoot("round-result")
        await pilot.press("enter")
        await settle()
        shoot("swap")
        await pilot.press("k")
        await settle()
        await pilot.press("c")
        await settle()
        await pilot.press("a")
        for _ in range(80):
            name = type(app.screen).__name__
            if name == "WizardsCupResultScreen":
                break
            if name == "RoundResultScreen":
                await pilot.press("enter")
            elif 0 in live.to_act:
                await pilot.press("k" if live.state.phase is Phase.SWAP else "c")
            await settle()
        else:
            raise RuntimeError("the screenshot game did not finish")
        shoot("game-result")

        pair = LiveSession.create(store, "wizards-cup", {}, SEED + 1, [SeatInfo("Ana"), SeatInfo("Bo")])
        app.start_game(pair)
        await settle()
        shoot("curtain")

        draft = LiveSession.create(store, "witchdraft", {}, SEED,
                                   [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")])
        app.start_game(draft)
        await settle()
        for _ in range(4):  # two picks placed, so the potion has grown
            await pilot.press("space")
            await settle()
            await pilot.press("enter")
            await settle()
        await pilot.press("space")
        await settle()
        shoot("witchdraft-draft")

        app.go_to_menu()
        await settle()
        await pilot.press("s")
        await settle()
        shoot("sessions")
        app.open_replay(live.session_id)
        await settle()
        for _ in range(12):
            await pilot.press("right")
        await settle()
        shoot("replay")
    store.close()
    return written


def _wizbits_game(store: SessionStore) -> LiveSession:
    """A Wizbits game the easy bot plays for both seats until Ana, cards in hand, decides on a pillar of two units.

    Seeds are tried in order from 1 (early games can end on a failed Test
    Phase check), so the picture stays a mid-turn battlefield if cards change.
    """
    from engine.core import seeded_rng
    from engine.wizbits.state import Phase as WizbitsPhase

    rules, bot = get_game("wizbits").rules, get_game("wizbits").bots["easy"]
    options = {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}
    seats = [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "easy")]
    for seed in range(1, 40):
        state = rules.new_state(options, seed, 2, [seat.name for seat in seats])
        actions: list[tuple[int | None, Any]] = []
        for index in range(1500):
            if state.over:
                break
            step = rules.table_action(state)
            seat = None if step is not None else rules.to_act(state)[0]
            if seat == 0 and state.phase in WizbitsPhase.PILLARS and state.players[0].hand \
                    and state.pillar is not None and state.pillar.remaining() >= 2:
                live = LiveSession.create(store, "wizbits", options, seed, seats)
                for who, action in actions:
                    live.apply(who, action)
                return live
            if step is None:
                assert seat is not None
                step = bot(rules.view(state, seat), rules.legal_actions(state, seat), seeded_rng(seed, "shot", index))
            state, _ = rules.apply(state, seat, step)
            actions.append((seat, step))
    raise RuntimeError("no screenshot game reached a standing pillar")


async def _capture_battlefield(directory: Path) -> list[Path]:
    """The Wizbits battlefield at 100x30, the size its layout is drawn for."""
    store = SessionStore()
    app = CovenApp(store=store, auto_delay=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        app.start_game(_wizbits_game(store))
        for _ in range(3):
            await pilot.pause()
            await app.workers.wait_for_complete()
        await pilot.pause(0.3)
        app.save_screenshot(filename="wizbits-battlefield.svg", path=str(directory))
    store.close()
    return [directory / "wizbits-battlefield.svg"]


async def _capture_lab_and_decks(directory: Path) -> list[Path]:
    """The Pillar Lab before a simultaneous step (100x30) and the deck editor (80x24)."""
    from engine.wizbits.lab.json_form import shipped_scenarios
    from tui.games.wizbits.lab.screen import PillarLabScreen

    store = SessionStore()
    app = CovenApp(store=store, auto_delay=60.0)
    lesson = next(scenario for scenario in shipped_scenarios() if "one height" in scenario.title.lower())
    async with app.run_test(size=(100, 30)) as pilot:
        app.push_screen(PillarLabScreen(lesson))
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause(0.3)
        app.save_screenshot(filename="pillar-lab.svg", path=str(directory))
    app = CovenApp(store=store, auto_delay=60.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("plus", "plus", "down", "plus")
        await pilot.pause(0.3)
        app.save_screenshot(filename="deck-editor.svg", path=str(directory))
    store.close()
    return [directory / "pillar-lab.svg", directory / "deck-editor.svg"]


async def _capture_tables(directory: Path) -> list[Path]:
    """A host's lobby once a friend sat down, and the join form (80x24), with a fixed code and token."""
    from saves import table_rows, table_tokens, tables
    from saves.presence import Presence

    table_rows.random_code = lambda: "KXMP"  # the pictures must not change with every run
    table_tokens.new_token = lambda: "K7P2-M3QD-9RTW-H4NB"
    store = SessionStore()
    written = [directory / "lobby.svg", directory / "join-table.svg"]
    with Presence() as presence:
        friend = tables.TableStore(store, presence)
        app = CovenApp(auto_delay=60.0, player_name="ana")  # its own store: an app closes its store on exit
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("h")
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause(0.3)
            friend.take_seat("KXMP", 1, "Bea")
            await pilot.pause(0.5)
            app.save_screenshot(filename=written[0].name, path=str(directory))
        table_rows.random_code = lambda: "JQRS"  # KXMP's lobby is still open
        friend.host("wizards-cup", {}, SEED, [tables.SeatPlan("local", "Hal"), tables.SeatPlan("remote", "Seat 2")],
                    host_name="Hal", allow_spectators=True)
        app = CovenApp(auto_delay=60.0, player_name="cy", join_code="JQRS")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.8)  # the footer fills in after the lookup
            app.save_screenshot(filename=written[1].name, path=str(directory))
    store.close()
    return written


def main(argv: list[str] | None = None) -> int:
    """Write every screenshot into the directory named by the first argument."""
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0] if args else "screenshots").resolve()
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="coven-shots-") as data_dir:
        os.environ["COVEN_DATA_DIR"] = data_dir
        shots = asyncio.run(_capture(directory)) + asyncio.run(_capture_battlefield(directory))
        shots += asyncio.run(_capture_tables(directory))
        shots += asyncio.run(_capture_lab_and_decks(directory))
        from tui.web.screenshot import capture_browser_door  # a browser only for this one picture

        for path in shots + capture_browser_door(directory):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
