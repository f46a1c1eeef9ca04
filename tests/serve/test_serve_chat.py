"""Two players on real SSH connections talk at their table: cleaned, rate-limited, kept for the replay; and undo.

Each player is an asyncssh client whose screen pyte renders; every word is typed
(or pasted) over its channel. The store is read only to check what was kept.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from textual.app import App
from textual.widgets import RichLog

from saves import LiveSession, SessionStore
from saves.presence import Presence
from saves.table_chat import RATE_LINES, session_chat
from saves.tables import SeatPlan, TableStore
from tests.helpers.serve_game import choose_team, open_table
from tests.helpers.ssh_client import ServeProcess, SSHPlayer
from tests.helpers.waiting import until
from tui.server.paste import PASTE_END, PASTE_START

CHAT = "\x14"
"""ctrl+t: the chat key that works while the team builder (whose c confirms) has the focus."""

HOSTILE = "\x1b]0;pwned\x07 hi \u202eevil\u200b [bold red]x\x1b[2J"


def flat(text: str) -> str:
    return " ".join(text.split())


def test_two_ssh_players_talk_cleaned_and_rate_limited_the_replay_shows_it_and_a_spectator_talks_too() -> None:
    """One server for both tables: starting one costs more CPU than reaching a table on it."""
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, env=env) as server:
        code = asyncio.run(talk(server))
        # Another table on the same server: an SSH spectator is listed in its lobby and talks.
        with SessionStore() as store, Presence() as presence:
            hal = TableStore(store, presence)  # the host is this test's process, with its own claim
            plan = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]
            watched = hal.host("wizards-cup", {}, 5, plan, host_name="Hal", allow_spectators=True).info.code
            asyncio.run(watch_and_talk(server, hal, watched))
    asyncio.run(replay(code))


async def talk(server: ServeProcess) -> str:
    ana, bea, code, _ = await open_table(server)
    store = SessionStore()
    with Presence() as presence:
        table = TableStore(store, presence).find(code)
    session_id = table.session_id
    assert session_id is not None

    # Ana pastes hostile text into the chat line: control characters, escapes, bidi and zero-width are
    # taken out, the markup stays as typed.
    ana.send(CHAT)
    await ana.wait_for("esc Close chat")  # the footer's: the chat line has the keyboard
    ana.send(PASTE_START + HOSTILE.encode() + PASTE_END)
    ana.press("enter")
    await bea.wait_for("Chat (1)")  # Bea's pane is closed: her Chat key counts the line
    bea.send(CHAT)
    await bea.wait_for("esc Close chat")
    [pasted] = session_chat(store, session_id)
    for refused in ("\x1b", "\x07", "\u202e", "\u200b"):
        assert refused not in pasted.text
    assert "[bold red]x" in pasted.text and "hi evil" in pasted.text
    await bea.wait_for(lambda text: f"Ana: {pasted.text}" in flat(text))

    # Bea presses stock phrases faster than the limit allows: five are said, the rest refused in words.
    bea.press(*"1" * (RATE_LINES + 3))
    await bea.wait_for("Slow down")  # the notification (a toast, its words wrapped)
    await ana.wait_for(lambda text: "Bea: Good game" in flat(text))
    said = [line for line in session_chat(store, session_id) if line.name == "Bea"]
    assert RATE_LINES <= len(said) < RATE_LINES + 3 and {line.text for line in said} == {"Good game"}

    # Undo at the table: Ana confirms her team and takes it back; Bea's log says so.
    ana.press("escape")
    bea.press("escape")
    await ana.wait_for(lambda text: "Chat · esc closes" not in text)
    await choose_team(ana)
    live = LiveSession.load(store, session_id)
    for _ in range(200):
        if live.log:
            break
        await asyncio.sleep(0.1)
        live = LiveSession.load(store, session_id)
    assert len(live.log) == 1
    ana.press("u")
    await bea.wait_for(lambda text: "Ana took back a move." in flat(text))
    assert LiveSession.load(store, session_id).log[-1].action == {"type": "undo"}

    # One more line after the undo, for the replay to place.
    ana.send(CHAT)
    await ana.wait_for("esc Close chat")
    ana.press(*"sorry, misclick", "enter")
    await bea.wait_for("Chat (1)")
    await ana.close()
    await bea.close()
    store.close()
    return code


async def replay(code: str) -> None:
    from tui.screens.replay import ReplayScreen

    with SessionStore() as store:
        live = LiveSession.load(store, _session_of(store, code))

        class Replay(App[None]):
            def on_mount(self) -> None:
                self.push_screen(ReplayScreen(live, start=len(live.log)))

        app = Replay()
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), 'isinstance(screen, ReplayScreen)')
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            lines = [line.text.strip() for line in screen.query_one("#replay-log", RichLog).lines]
    text = "\n".join(lines)
    assert "[bold red]x" in text and "hi evil" in text
    assert text.index("hi evil [bold red]x") < text.index("Ana took back a move.") < text.index("» Ana: sorry, misclick")
    assert "\x1b" not in text and "\u202e" not in text


def _session_of(store: SessionStore, code: str) -> int:
    with store._read() as conn:
        row = conn.execute("SELECT session_id FROM tables WHERE code = ? ORDER BY id DESC", (code,)).fetchone()
    return int(row[0])


async def watch_and_talk(server: ServeProcess, hal: TableStore, code: str) -> None:
    cy = await SSHPlayer.connect(server.port, f"cy+{code}")
    await cy.wait_for("Watch as a spectator")
    cy.press("\x1b[F")  # end: the last choice
    cy.press("enter")
    await cy.wait_for("You are watching")
    assert [watcher.name for watcher in hal.find(code).watchers] == ["Cy"]

    bea = await SSHPlayer.connect(server.port, f"bea+{code}")
    await bea.wait_for("Take seat 2")
    bea.press("enter")
    await bea.wait_for(lambda text: "Spectators (may talk): Cy." in flat(text))
    cy.press("c")
    await cy.wait_for("esc Close chat")
    cy.press(*"enjoy", "enter")
    await bea.wait_for("Chat (1)")
    assert [(line.name, line.text, line.spectator) for line in hal.chat_since(hal.find(code).table_id)] == [
        ("Cy", "enjoy", True)]
    await cy.close()  # the spectator's connection ends: the list forgets them
    for _ in range(600):
        if not hal.refresh(code).watchers:
            break
        await asyncio.sleep(0.1)
    await bea.wait_for(lambda text: "nobody is watching" in flat(text))
    await bea.close()
