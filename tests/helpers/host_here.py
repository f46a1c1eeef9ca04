"""Open a table as the host form's defaults would, without filling the form (for tests not about the form).

The host form's own tests (``host_from_menu`` in ``table_helpers``, the host-form tests) drive it by keys; a
test about the lobby, the chat or the game only needs the table open, as the form's ctrl+s opens it: Wizards
Cup with its default options, seat 1 the player here, seat 2 remote, a random seed, rated when a signed-in
player hosts, and the lobby shown through the same seating call.
"""

from __future__ import annotations

import random
from typing import Any

from engine import get_game
from saves.tables import SeatPlan
from tests.helpers.waiting import until
from tui.app import CovenApp


async def host_here(pilot: Any, app: CovenApp) -> str:
    """Host the form's default table from ``app`` and wait for its lobby; its code."""
    from tui.screens.lobby import LobbyScreen

    seating = app.tables
    tables = seating.store()
    assert tables is not None, "the app has no table store"
    spec = get_game("wizards-cup")
    name = seating.player_name
    hosted = tables.host("wizards-cup", {option.name: option.default for option in spec.options},
                         random.randrange(2**31), [SeatPlan("local", name), SeatPlan("remote", "Player 2")],
                         host_name=name, rated=seating.rated_account is not None)
    seating.open_lobby(hosted.info.code, hosted.token)
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    return hosted.info.code
