"""Shared by test_serve_game.py and other test modules, which import them from here.

GAME_SECONDS, RESEND_AFTER, checked_screen, choose_team, open_table and play_whole_game, moved here from
tests/serve/test_serve_game.py; play_by_keys, the key-driving loop play_whole_game and the rematch test share.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable

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
_ROUND_TITLE = re.compile(r"Round \d+ · (?:\w+ wins|both win) the round and a Cup Token")
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


async def open_table(server: ServeProcess, passwords: tuple[str | None, str | None] = (None, None),
                     before_start: Callable[[str], None] | None = None, *,
                     turn_based: bool = False) -> tuple[SSHPlayer, SSHPlayer, str, str]:
    """Ana hosts a Wizards Cup table with the form's defaults, Bea joins it by code, and Ana starts it.

    ``passwords``: Ana's and Bea's, under ``--auth password``. ``before_start`` is called with the code once
    both are seated, before Ana starts the game. ``turn_based``: the form opens a turn-based table, whose game
    starts by itself once Bea's seat fills it (no ``before_start``, no token read).

    Returns:
        Ana, Bea, the join code and Bea's seat token (as her lobby showed it; "" at a turn-based table).
    """
    ana = await SSHPlayer.connect(server.port, "ana", password=passwords[0])
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

    bea = await SSHPlayer.connect(server.port, f"bea+{code}", password=passwords[1])  # straight to the seats
    await bea.wait_for("Take seat 2")
    await bea.wait_for(lambda text: "Wizards Cup hosted by Ana" in " ".join(text.split()))
    bea.press("enter")
    if turn_based:
        await bea.wait_for(f"Table {code} · Wizards Cup", timeout=20)  # full: the game started by itself
        return ana, bea, code, ""
    token_line = await bea.wait_for(lambda text: _TOKEN.search(" ".join(text.split())) is not None)
    token = _TOKEN.search(" ".join(token_line.split())).group(1)  # type: ignore[union-attr]
    await bea.wait_for("Waiting for Ana to start")
    await ana.wait_for("Everyone is here. Press s to start.")
    await ana.wait_for(lambda text: "Bea · seated" in " ".join(text.split()))
    if before_start is not None:
        before_start(code)
    ana.press("s")
    await bea.wait_for(f"Table {code} · Wizards Cup", timeout=20)  # the game screen: both pick their teams
    return ana, bea, code, token


async def play_by_keys(store: SessionStore, session_id: int, players: dict[int, SSHPlayer],
                      read_round: Callable[[int, str], None] | None = None) -> LiveSession:
    """Play a started Wizards Cup table to its end by keys, each seat (by number) at its player's SSH screen.

    Every look at a screen checks it shows no card the other seat hides. ``read_round`` is called with the seat
    and the screen of each round's result that seat reads, before it presses enter past it.

    Returns:
        The game's final state.
    """
    sent: dict[int, tuple[int, float]] = {}
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        live = LiveSession.load(store, session_id)
        if live.result is not None:
            return live
        for seat, player in players.items():
            screen = await checked_screen(player, seat, store, session_id)
            if "enter: continue" in screen:  # a round's result
                if read_round is not None:
                    read_round(seat, screen)
                player.press("enter")
                await player.wait_for(lambda text: "enter: continue" not in text, timeout=60)
                continue
            if seat not in live.to_act:
                continue
            last = sent.get(seat)
            if last is not None and last[0] == len(live.log) and time.monotonic() - last[1] < RESEND_AFTER:
                continue  # keys on their way; a key that reached a screen still settling is sent again
            phase = live.state.phase
            if phase is Phase.TEAM and "Confirm" in screen and "Pick" in screen:
                await choose_team(player)
            elif phase is Phase.LINEUP and "Waiting Card" in screen:
                player.press("c")
            elif phase is Phase.SWAP and "Keep team" in screen:
                player.press("k")
            else:
                continue
            sent[seat] = (len(live.log), time.monotonic())
        await asyncio.sleep(0.05)
    seen = "\n".join(f"Seat {seat + 1} sees:\n{player.text()}" for seat, player in players.items())
    raise AssertionError(f"the game did not finish;\n{seen}")


async def play_whole_game(store: SessionStore, session_id: int | None, ana: SSHPlayer,
                          bea: SSHPlayer) -> dict[int, list[str]]:
    """Play the started Wizards Cup table to its end by keys, Ana in seat 1 and Bea in seat 2.

    Returns:
        Each seat's round results as its screen read them, once both read the game's headline.
    """
    assert session_id is not None, "the table has no game to play"
    players = {0: ana, 1: bea}
    duels: dict[int, list[str]] = {0: [], 1: []}

    def read_round(seat: int, screen: str) -> None:
        title = _ROUND_TITLE.search(" ".join(screen.split()))
        assert title, screen
        duels[seat].append(title.group(0))

    live = await play_by_keys(store, session_id, players, read_round)
    assert live.result is not None
    winner = live.seats[live.result.winners[0]].name if live.result.winners else None
    headline = f"{winner} wins the Wizards Cup!" if winner else "The Cup is shared"
    for seat, player in players.items():
        await player.wait_for(lambda text: "enter: continue" in text or headline in text, timeout=20)
        if "enter: continue" in player.text():  # the last round's result comes first
            read_round(seat, player.text())
            player.press("enter")
        await player.wait_for(headline, timeout=20)
        await checked_screen(player, seat, store, session_id)
    assert {entry.seat for entry in live.log} == {0, 1, None}
    return duels
