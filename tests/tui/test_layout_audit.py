"""Layout audit of every place outside a game's phases, at 80x24 and 120x40 (the phases: test_layout_audit_games).

Each place is reached from the main menu with its own key (the menu, new game,
sessions listing all three games, the deck editor, the rules and their picker,
the Pillar Lab, join, settings, host, the lobby, the open tables, your tables, and a hosted table's game, for
the host and for a spectator), at 80x24, and read again once the terminal is resized to 120x40. At each size
``layout_audit`` reads the screen: every Footer key whole, every status and header line whole, F1's help lists
every key; and 120x40 shows every Footer key 80x24 shows.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from saves import LiveSession, SeatPlan, SessionStore, TableStore
from tests.helpers.layout_audit import Seen, at_size, help_lists_the_footer, look, no_less
from tests.helpers.tui_fakes import play_until, seats
from tests.helpers.waiting import until
from tui.app import CovenApp

SIZES = ((80, 24), (120, 40))

Go = Callable[[Any, CovenApp, TableStore], Awaitable[None]]


def three_games(store: SessionStore) -> None:
    """A session of each game, with long names, so every column of the sessions list is needed."""
    LiveSession.create(store, "wizards-cup", None, 1, seats("Morgana the Patient", "Merlin:normal"))
    draft = LiveSession.create(store, "witchdraft", None, 2, seats("Ana", "Bo:easy", "Cy:easy"))
    play_until(draft, 3)
    battle = LiveSession.create(store, "wizbits", {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}, 3,
                                seats("Ana", "Bo:easy"))
    play_until(battle, 12)


async def screen_named(pilot: Any, name: str) -> None:
    await until(pilot, lambda: type(pilot.app.screen).__name__ == name, name)


async def press_to(pilot: Any, name: str, *keys: str) -> None:
    await pilot.press(*keys)
    await screen_named(pilot, name)


async def host_form(pilot: Any, app: CovenApp, other: TableStore) -> None:
    await press_to(pilot, "HostTableScreen", "h")


async def lobby(pilot: Any, app: CovenApp, other: TableStore) -> None:
    await press_to(pilot, "HostTableScreen", "h")
    await press_to(pilot, "LobbyScreen", "ctrl+s")


async def hosted_game(pilot: Any, app: CovenApp, other: TableStore) -> None:
    await lobby(pilot, app, other)
    code = app.screen.link.code
    other.take_seat(code, 1, "Bartholomew the Late")
    await until(pilot, lambda: "Bartholomew" in "".join(s.text for s in app.screen._compositor.render_strips()),
                "the remote player in the lobby")
    await press_to(pilot, "TableGameScreen", "s")


async def watched_game(pilot: Any, app: CovenApp, other: TableStore) -> None:
    plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
    code = other.host("wizards-cup", {}, 4, plan, host_name="Hal", allow_spectators=True).info.code
    other.take_seat(code, 1, "Bea")
    other.start(code)
    await press_to(pilot, "JoinTableScreen", "j")
    await pilot.press(*code.lower(), "enter")
    await until(pilot, lambda: "Watch as a spectator" in "".join(s.text for s in app.screen._compositor.render_strips()),
                "the offer to watch")
    await press_to(pilot, "TableGameScreen", "down", "enter")  # below "Reclaim my seat with its token"


async def open_tables(pilot: Any, app: CovenApp, other: TableStore) -> None:
    plan = [SeatPlan("local", "Bartholomew the Late"), SeatPlan("remote", "Seat 2"), SeatPlan("remote", "Seat 3")]
    other.host("witchdraft", {"faster": True, "face_up": True}, 4, plan, host_name="Bartholomew the Late",
               allow_spectators=True, listed=True)
    await press_to(pilot, "OpenTablesScreen", "t")
    await until(pilot, lambda: "Bartholomew" in "".join(s.text for s in app.screen._compositor.render_strips()),
                "the listed table")


async def notice_url(pilot: Any, app: CovenApp, other: TableStore) -> None:
    """The notice URL box over Settings (a signed-in SSH player's ``u``; pushed here, as this app is not served)."""
    from tui.screens.notice_url import NoticeUrlScreen

    await press_to(pilot, "SettingsScreen", "o")
    app.push_screen(NoticeUrlScreen("https://ntfy.example/?topic=" + "coven-turns-" * 8))
    await screen_named(pilot, "NoticeUrlScreen")


PLACES: dict[str, Go] = {
    "menu": lambda pilot, app, other: screen_named(pilot, "MainMenu"),
    "new game": lambda pilot, app, other: press_to(pilot, "NewGameScreen", "n"),
    "sessions": lambda pilot, app, other: press_to(pilot, "SessionsScreen", "s"),
    "deck editor": lambda pilot, app, other: press_to(pilot, "DeckEditorScreen", "d"),
    "rules picker": lambda pilot, app, other: press_to(pilot, "GamePicker", "r"),
    "rules": lambda pilot, app, other: press_to(pilot, "RulesScreen", "r", "enter"),
    "pillar lab": lambda pilot, app, other: press_to(pilot, "PillarLabScreen", "l"),
    "join": lambda pilot, app, other: press_to(pilot, "JoinTableScreen", "j"),
    "settings": lambda pilot, app, other: press_to(pilot, "SettingsScreen", "o"),
    "notice url": notice_url,
    "host": host_form,
    "lobby": lobby,
    "open tables": open_tables,
    "ratings": lambda pilot, app, other: press_to(pilot, "RatingsScreen", "a"),
    "your tables": lambda pilot, app, other: press_to(pilot, "AwaitingTablesScreen", "y"),
    "a hosted table's game (host)": hosted_game,
    "a table's game (spectator)": watched_game,
}


async def visit(place: str) -> list[Seen]:
    """Open ``place`` from the menu at the first size and read it, then at each other size the terminal takes."""
    with SessionStore() as setup:
        three_games(setup)
    app = CovenApp(store=SessionStore(), auto_delay=600.0)
    seen: list[Seen] = []
    with SessionStore() as store:
        from saves import Presence

        with Presence() as presence:
            other = TableStore(store, presence)
            async with app.run_test(size=SIZES[0]) as pilot:
                await screen_named(pilot, "MainMenu")
                await PLACES[place](pilot, app, other)
                for size in SIZES:
                    await at_size(pilot, size)
                    where = f"{place} at {size[0]}x{size[1]}"
                    seen.append(look(app, where))
                    await help_lists_the_footer(pilot, where, seen[-1])
    return seen


@pytest.mark.parametrize("place", list(PLACES))
async def test_every_place_fits_at_80x24_and_120x40(place: str) -> None:
    small, large = await visit(place)
    problems = small.problems + large.problems + no_less({place: small}, {place: large})
    assert not problems, "\n".join(problems)
