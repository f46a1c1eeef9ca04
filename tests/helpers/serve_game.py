"""Shared by test_serve_game.py and other test modules, which import them from here.

GAME_SECONDS, RESEND_AFTER, checked_screen, choose_team, open_table, moved here from tests/serve/test_serve_game.py.
"""

from __future__ import annotations

import asyncio
import re
import time

from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.state import Phase, WizardsCupState
from saves import LiveSession, SessionStore
from tests.helpers.ssh_client import ServeProcess, SSHPlayer

GAME_SECONDS = 150.0
"""A whole game takes about 15 s here; this bounds a stuck one."""

RESEND_AFTER = 3.0
"""Seconds before a seat's keys are sent again when its choice has not arrived."""

_CODE_LINE = re.compile(r"^\W*([A-Z]) ([A-Z]) ([A-Z]) ([A-Z])\W*$", re.MULTILINE)
_TEAM_COUNT = re.compile(r"Choose your team\s+(\d)/(\d)")
_TOKEN = re.compile(r"Your seat token: ([A-Z0-9]{4}(?:-[A-Z0-9]{4})+)")


async def choose_team(player: SSHPlayer) -> None:
    """Walk down the wizards picking each until the team is full, then confirm.

    The builder's own count ("Choose your team 3/6", the displayed card included)
    says when to stop; a key that meets a screen still settling only costs a step.
    """
    await player.wait_for(lambda text: _TEAM_COUNT.search(text) is not None)
    for _ in range(40):
        count = _TEAM_COUNT.search(player.text())
        if count is not None and count.group(1) == count.group(2):
            break
        before = count.group(0) if count else ""
        player.press("space", "down")
        try:
            await player.wait_for(lambda text, before=before: before not in text, timeout=1)
        except AssertionError:
            continue  # the displayed card, which is always in, or a lost key: on to the next
    player.press("c")


def secrets_of(state: WizardsCupState, seat: int, viewer: int) -> set[str]:
    """Names of ``seat``'s cards that ``viewer``'s view does not hold (so must not be on their screen)."""
    from engine import get_game

    rules = get_game("wizards-cup").rules
    known = repr(rules.view(state, viewer))
    player = state.players[seat]
    cards = [*player.team, *player.deck, *([player.waiting] if player.waiting else [])]
    if player.pending:
        cards += [str(card) for card in player.pending.get("cards", player.pending.get("order", []))]
    return {CARDS[card].name for card in cards if card in CARDS and card not in known}


def check_screen(player: SSHPlayer, seat: int, store: SessionStore, session_id: int | None) -> str:
    """The player's screen, after checking that it shows no card the other seat hides."""
    screen = player.text()  # first the screen, then the state: a card shown was revealed by then
    if seat == 1:  # only the host's Coven plays the duels, so Bea is offered no keys for them
        assert "space: next duel" not in screen, screen
    if session_id is None:
        return screen
    live = LiveSession.load(store, session_id)
    if live.state.phase is Phase.TEAM or "Take in" in screen or "Choose your team" in screen:
        # The team builder and the swap picker list every wizard in the box, the other
        # seat's among them by name; there the secret is which ones they chose.
        return screen
    flat = " ".join(screen.split())
    for name in secrets_of(live.state, 1 - seat, seat):
        assert name not in flat, f"seat {seat + 1} sees the other seat's hidden {name}:\n{screen}"
    return screen


async def checked_screen(player: SSHPlayer, seat: int, store: SessionStore, session_id: int | None) -> str:
    """:func:`check_screen`, on a settled screen when the first look fails.

    A paint reaches an SSH client in pieces: a look between two pieces can
    show the top of the next pane over the bottom of the last (the team
    builder's box of every wizard under the lineup's title). A hidden card
    is a leak only if it is still there once the screen has stopped changing.
    """
    try:
        return check_screen(player, seat, store, session_id)
    except AssertionError:
        pass
    # Settled means no byte for a whole second: a paint stalled on a busy machine has not settled.
    deadline = time.monotonic() + 15
    quiet_since, heard = time.monotonic(), len(player.session.received)
    while time.monotonic() - quiet_since < 1.0 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        if len(player.session.received) != heard:
            quiet_since, heard = time.monotonic(), len(player.session.received)
    return check_screen(player, seat, store, session_id)


async def open_table(server: ServeProcess) -> tuple[SSHPlayer, SSHPlayer, str, str]:
    """Ana hosts a Wizards Cup table, Bea joins it by code, and Ana starts it.

    Returns:
        Ana, Bea, the join code and Bea's seat token (as her lobby showed it).
    """
    ana = await SSHPlayer.connect(server.port, "ana")
    await ana.wait_for("C O V E N")
    ana.press("h")
    await ana.wait_for("Host a table")
    await ana.wait_for("Ana")
    ana.press("\x13")  # ctrl+s: open the table with the defaults (Ana here, seat 2 remote)
    lobby = await ana.wait_for("Waiting for 1 more player")
    match = _CODE_LINE.search(lobby)
    assert match, lobby
    code = "".join(match.groups())
    await ana.wait_for(f"ssh -p {server.port} {code}@localhost")  # the server listens on 127.0.0.1 only

    bea = await SSHPlayer.connect(server.port, f"bea+{code}")  # straight to the table's seats
    await bea.wait_for("Take seat 2")
    await bea.wait_for(lambda text: "Wizards Cup hosted by Ana" in " ".join(text.split()))
    bea.press("enter")
    token_line = await bea.wait_for(lambda text: _TOKEN.search(" ".join(text.split())) is not None)
    token = _TOKEN.search(" ".join(token_line.split())).group(1)  # type: ignore[union-attr]
    await bea.wait_for("Waiting for Ana to start")
    await ana.wait_for("Everyone is here. Press s to start.")
    await ana.wait_for(lambda text: "Bea · seated" in " ".join(text.split()))
    ana.press("s")
    await bea.wait_for(f"Table {code} · Wizards Cup", timeout=20)  # the game screen: both pick their teams
    return ana, bea, code, token
