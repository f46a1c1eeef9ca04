"""Notices at a shared table in one process: the host's Coven tells a dropped player the table asks them again.

The other player is a TableStore with its own connection and presence claim, as another Coven process would
be; closing that presence is their Coven going. Notices go to a local HTTP server the test starts.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.state import Phase
from saves import LiveSession
from saves.tables import TableStore
from tests.helpers.host_here import host_here
from tests.helpers.notice_server import notice_server
from tests.helpers.tables_tui import play_for, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.notify import seat_asked
from tui.notify.notice import BODY_KEYS
from tui.notify.sender import NoticeSender, RateLimit
from tui.notify.url import ENV_URL
from tui.screens.table_game import TableGameScreen


async def ana_and_bea_playing(pilot: Any, app: CovenApp, other: TableStore) -> tuple[TableGameScreen, str]:
    """Ana hosts a Wizards Cup table from the menu, Bea takes its other seat from ``other``, and Ana starts it:
    the game screen and Bea's seat token."""
    code = await host_here(pilot, app)
    token = other.take_seat(code, 1, "Bea")
    await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
    await pilot.press("s")
    await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
    game = app.screen
    assert isinstance(game, TableGameScreen)
    return game, token


@pytest.mark.parametrize("bea_drops", [True, False])
def test_the_move_that_asks_a_seat_again_tells_its_player_only_when_they_are_not_connected(
        other: TableStore, monkeypatch: pytest.MonkeyPatch, bea_drops: bool) -> None:
    sender = NoticeSender()
    monkeypatch.setattr(seat_asked, "SENDER", sender)
    monkeypatch.setattr(seat_asked, "LIMIT", RateLimit())
    other.account = "bea"  # signed in: her own settings decide (on, by default)

    async def scenario() -> str:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            game, token = await ana_and_bea_playing(pilot, app, other)
            remote = LiveSession.load(other.store, game.live.session_id, claim=other.claim)
            play_for(remote, 1, random.Random(3))  # Bea builds her team elsewhere...
            await until(pilot, lambda: len(game.live.log) == len(remote.log), "Bea's team to arrive")
            if bea_drops:
                other.presence.close()  # ...and her Coven goes
            builder = game.query_one(TeamBuilder)
            while len(builder.picks) < 5:
                await pilot.press("space", "down")
            await pilot.press("c")  # Ana's team ends the phase: the lineups ask both seats again
            await until(pilot, lambda: game.live.state.phase is Phase.LINEUP, "the lineups")
            assert sender.wait_idle(60)
        return token

    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url)
        token = asyncio.run(scenario())
        bodies = received.bodies()
        raw = b"".join(body for _, _, body in received.requests).decode("utf-8")
    if not bea_drops:
        assert bodies == [] and sender.sent == 0  # Bea is connected: her own Coven tells her
        return
    [body] = bodies  # one notice, for Bea; none for Ana, who moved
    assert set(body) <= BODY_KEYS and body["seat"] == "Bea" and body["game"] == "Wizards Cup"
    assert body["deadline"] is None and token not in raw
    assert not [card.name for card in CARDS.values() if card.name in raw], raw  # no wizard, hidden or shown


def test_a_player_who_drops_while_the_table_waits_on_them_is_told_once_by_the_host_s_coven(
        other: TableStore, monkeypatch: pytest.MonkeyPatch) -> None:
    sender = NoticeSender()
    monkeypatch.setattr(seat_asked, "SENDER", sender)
    monkeypatch.setattr(seat_asked, "LIMIT", RateLimit())

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            game, _ = await ana_and_bea_playing(pilot, app, other)
            other.presence.close()  # Bea's Coven goes while both teams are still to be chosen
            await until(pilot, lambda: sender.sent + sender.failed >= 1, "the notice for Bea", 120)
            builder = game.query_one(TeamBuilder)
            while len(builder.picks) < 5:
                await pilot.press("space", "down")
            await pilot.press("c")  # Ana's team: the table still waits on Bea, who was told already
            await until(pilot, lambda: game.status_text.startswith("Waiting for Bea (dropped"), "the wait for Bea")
            assert sender.wait_idle(60)

    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url)
        asyncio.run(scenario())
        bodies = received.bodies()
    assert [(body["seat"], body["table"] is not None) for body in bodies] == [("Bea", True)]


def test_a_player_told_when_asked_is_not_told_again_when_the_host_notices_their_drop_later(
        other: TableStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The order a busy machine can give: Bea's Coven goes, Ana's move asks Bea, and only then does the
    host's poll see Bea's seat empty. Bea hears of the ask once."""
    sender = NoticeSender()
    monkeypatch.setattr(seat_asked, "SENDER", sender)
    monkeypatch.setattr(seat_asked, "LIMIT", RateLimit())
    polling = {"on": True}
    poll = TableGameScreen._poll

    def gated_poll(screen: TableGameScreen) -> None:
        if polling["on"]:
            poll(screen)

    monkeypatch.setattr(TableGameScreen, "_poll", gated_poll)

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            game, _ = await ana_and_bea_playing(pilot, app, other)
            remote = LiveSession.load(other.store, game.live.session_id, claim=other.claim)
            play_for(remote, 1, random.Random(3))
            await until(pilot, lambda: len(game.live.log) == len(remote.log), "Bea's team to arrive")
            polling["on"] = False  # the host does not look at the seats until Ana has moved
            other.presence.close()
            builder = game.query_one(TeamBuilder)
            while len(builder.picks) < 5:
                await pilot.press("space", "down")
            await pilot.press("c")
            await until(pilot, lambda: game.live.state.phase is Phase.LINEUP, "the lineups")
            await until(pilot, lambda: sender.sent + sender.failed >= 1, "the notice for Bea", 120)
            polling["on"] = True
            await until(pilot, lambda: 1 in game._gone, "the host to see Bea gone", 120)
            assert sender.wait_idle(60)

    with notice_server() as (url, received):
        monkeypatch.setenv(ENV_URL, url)
        asyncio.run(scenario())
        bodies = received.bodies()
    assert [body["seat"] for body in bodies] == ["Bea"]
