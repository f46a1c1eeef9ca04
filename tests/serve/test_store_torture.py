"""Torture: real Coven processes share one database while commands run beside them, then all are killed.

Issue 22's defect lost every move a Coven wrote after another process,
opening the same database for a moment, made SQLite delete the journal the
first still wrote into. These tests run the everyday shape for real: a
long-lived writer (or a whole SSH table) and every store-opening ``coven``
command beside it in a seeded random order, a watch on ``/proc`` for a
database file open after it left the folder, then SIGKILL, and a fresh
process that must find every committed move. ``make soak`` runs them with far
more commands (``COVEN_TORTURE_COMMANDS``); each prints its figures.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from saves import SessionStore
from tests.helpers.serve_game import choose_team
from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until
from tests.helpers.store_torture import BOUND, ROOT, DeletedWatch, Writer, coven, torture_count, torture_seed

_JOIN_LINE = re.compile(r"ssh -p \d+ ([A-Z]{4})@localhost")
"""The lobby's line that tells friends how to join, with the table's code."""

THEMES = ("textual-light", "nord", "gruvbox", "dracula")
"""Themes other than the default, so each one set is a row a fresh process must find."""

_VERIFY = """
import json, sys
from saves import SessionStore, TableStore
from saves.decks import DeckStore
from saves.preferences import get_preference
from saves.presence import Presence
asked = json.loads(sys.argv[1])
with SessionStore() as store:
    found = {"logs": {str(sid): store.log_length(int(sid)) for sid in asked.get("sessions", [])},
             "sessions": len(store.list_sessions()),
             "decks": sorted(deck.name for deck in DeckStore(store).list_decks()),
             "theme": get_preference(store, None, "setting.theme")}
    if "code" in asked:
        with Presence() as presence:
            tables = TableStore(store, presence)
            table = tables.find(asked["code"])
            found["table"] = table.session_id
            found["chat"] = [[line.name, line.text] for line in tables.chat_since(table.table_id)]
            found["table_log"] = store.log_length(table.session_id) if table.session_id else 0
print(json.dumps(found))
"""


def fresh_look(asked: dict[str, object]) -> dict[str, object]:
    """What a new process, opening the store after everyone else died, finds."""
    done = subprocess.run([sys.executable, "-c", _VERIFY, json.dumps(asked)], cwd=ROOT, text=True,
                          capture_output=True, timeout=BOUND, env=os.environ.copy())
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def succeeded(done: subprocess.CompletedProcess[str]) -> str:
    """The output of a command that must have worked, with its words if it did not."""
    assert done.returncode == 0 and "Traceback" not in done.stderr, (done.args, done.stdout, done.stderr)
    return done.stdout


async def join_and_quit(port: int, name: str) -> None:
    """A served player comes to the menu and quits it the ordinary way (q), so their process closes its store."""
    player = await SSHPlayer.connect(port, name)
    await player.wait_for("C O V E N")
    player.press("q")
    await player.wait_closed(timeout=BOUND)
    await player.close()


class Beside:
    """The commands a person runs next to an open Coven, each one fresh process, in a seeded order."""

    def __init__(self, work: Path, server: ServeProcess, sessions: Callable[[], dict[int, int]]) -> None:
        self.work = work
        self.server = server
        self.sessions = sessions
        self.deck = work / "deck.txt"
        succeeded(coven("deck", "export-starter", "ember-dawn", str(self.deck)))
        self.decks: list[str] = []
        self.imports = 0
        self.theme: str | None = None
        self.exported: Path | None = None
        self.ran: dict[str, int] = {}
        self._served = 0

    def kinds(self) -> dict[str, Callable[[], None]]:
        """Every kind of command, by name."""
        return {"sessions": lambda: self._check("sessions"), "deck list": lambda: self._check("deck", "list"),
                "deck save": self._deck_save, "settings list": lambda: self._check("settings", "list"),
                "account settings": lambda: self._check("settings", "--account", "x", "list"),
                "settings set": self._settings_set, "export": self._export, "import": self._import,
                "doctor": self._doctor, "served player": self._served_player}

    def run(self, name: str) -> None:
        """Run one command of kind ``name``."""
        self.kinds()[name]()
        self.ran[name] = self.ran.get(name, 0) + 1

    def _check(self, *argv: str) -> None:
        succeeded(coven(*argv))

    def _deck_save(self) -> None:
        name = f"Torture {len(self.decks) + 1}"
        succeeded(coven("deck", "save", name, str(self.deck)))
        self.decks.append(name)

    def _settings_set(self) -> None:
        self.theme = random.Random(len(self.ran) + sum(self.ran.values())).choice(THEMES)
        succeeded(coven("settings", "set", "theme", self.theme))

    def _export(self) -> None:
        session = max(sid for sid, length in self.sessions().items() if length > 0)
        path = self.work / f"export-{session}.json"
        succeeded(coven("export", "--force", str(session), str(path)))
        self.exported = path

    def _import(self) -> None:
        if self.exported is None:
            self._export()
        assert self.exported is not None
        assert "Imported" in succeeded(coven("import", str(self.exported)))
        self.imports += 1

    def _doctor(self) -> None:
        assert "Nothing is wrong" in " ".join(succeeded(coven("doctor")).split())

    def _served_player(self) -> None:
        self._served += 1
        asyncio.run(join_and_quit(self.server.port, f"zed{self._served}"))
        wait_until(lambda: not self.server.children(), "the served player's process to end", BOUND)


def test_every_command_beside_a_writing_coven_loses_nothing(coven_data_dir: Path, tmp_path: Path) -> None:
    """The local shape: the app writing while a person runs every kind of `coven` command, then a kill."""
    count, seed = torture_count(14), torture_seed()
    with SessionStore():
        pass  # the database exists before the writer starts, as after a first run of Coven
    with ServeProcess.start(coven_data_dir) as server:
        writer = Writer()
        try:
            writer.wait_for_moves(3)
            beside = Beside(tmp_path, server, writer.sessions)
            kinds = list(beside.kinds())
            order = random.Random(seed).sample(kinds, len(kinds))  # every kind once, then at random
            order += random.Random(seed + 1).choices(kinds, k=max(0, count - len(kinds)))
            with DeletedWatch(lambda: [writer.pid, *server.children()]) as watch:
                for name in order:
                    beside.run(name)
                    assert not watch.seen, (name, watch.seen)
                    assert not writer.lost, writer.lost
                    writer.wait_for_moves(writer.moves + 2)  # and it goes on writing where others read
            committed = writer.kill()
        finally:
            writer.process.kill()
    assert not watch.seen and watch.looks > 0
    found = fresh_look({"sessions": list(committed)})
    logs = found["logs"]
    assert isinstance(logs, dict)
    for session, length in committed.items():
        # Everything it was told was committed is there; at most the one move it had no time to report.
        assert length <= logs[str(session)] <= length + 1, (session, length, logs[str(session)])
    assert found["sessions"] == len(committed) + beside.imports
    assert found["decks"] == sorted(beside.decks)
    assert found["theme"] == (beside.theme or found["theme"])
    print(f"\ntorture (local, seed {seed}): {len(order)} commands {beside.ran}, {writer.moves} moves in "
          f"{len(committed)} sessions, {watch.looks} looks at the writer's files, nothing deleted, nothing lost")


async def host_with_spectators(server: ServeProcess) -> tuple[SSHPlayer, str]:
    """Ana, over SSH, opens a Wizards Cup table that spectators may watch; Ana and the table's code."""
    ana = await SSHPlayer.connect(server.port, "ana")
    await ana.wait_for("C O V E N")
    ana.press("h")
    await ana.wait_for("Host a table")
    await ana.wait_for("Ana")
    ana.press(*["tab"] * 6)  # the form's sixth stop past the host's name is Spectators, scrolled into view
    await ana.wait_for("Not allowed")
    ana.press("enter")
    await ana.wait_for("Allowed to watch")
    ana.press("down", "enter")
    await ana.wait_for(lambda text: "Allowed to watch" in text and "Not allowed" not in text)
    ana.press("\x13")  # ctrl+s: open the table
    lobby = await ana.wait_for(lambda text: "Spectators: allowed" in text and _JOIN_LINE.search(text) is not None)
    code = _JOIN_LINE.search(lobby).group(1)  # type: ignore[union-attr]
    return ana, code


async def say(player: SSHPlayer, words: str, key: str = "c") -> None:
    """Open the chat, say ``words``, close it again."""
    player.press(key)
    await player.wait_for("esc Close chat")
    player.press(*words, "enter")
    await player.wait_for(lambda text: words in " ".join(text.split()))
    player.press("escape")
    await player.wait_for(lambda text: "esc Close chat" not in text)


async def a_table_under_fire(server: ServeProcess, beside: Callable[[], None]) -> tuple[str, int]:
    """Host, player and spectator at one table, a newcomer who quits, talk and moves, commands between each.

    Returns:
        The table's code and the length of its game's log last seen before the kill.
    """
    ana, code = await host_with_spectators(server)
    beside()
    bea = await SSHPlayer.connect(server.port, f"bea+{code}")
    await bea.wait_for("Take seat 2")
    bea.press("enter")
    await bea.wait_for("Bea (you) · seated")
    beside()
    cy = await SSHPlayer.connect(server.port, f"cy+{code}")
    await cy.wait_for("Watch as a spectator")
    cy.press("\x1b[F", "enter")  # end: the last choice, watching
    await cy.wait_for("You are watching")
    beside()
    await join_and_quit(server.port, "dee")  # the repro: another player quits normally
    beside()
    await say(ana, "welcome all")
    await say(bea, "hi ana")
    await say(cy, "good luck both")
    beside()
    # A newcomer still finds the table: its lobby rows are where every process reads them.
    chat = fresh_look({"code": code})["chat"]
    assert isinstance(chat, list) and [name for name, _ in chat] == ["Ana", "Bea", "Cy"]
    await ana.wait_for(lambda text: "Bea · seated" in " ".join(text.split()))
    ana.press("s")
    await bea.wait_for(f"Table {code} · Wizards Cup", timeout=BOUND)
    await choose_team(ana)
    beside()
    await choose_team(bea)
    with SessionStore() as store:
        session = fresh_look({"code": code})["table"]
        assert isinstance(session, int)
        for _ in range(int(BOUND * 10)):
            if store.log_length(session) >= 2:
                break
            await asyncio.sleep(0.1)
        seen = store.log_length(session)
    assert seen >= 2, seen  # both teams chosen
    beside()
    return code, seen


def test_an_ssh_table_with_commands_beside_it_survives_everyone_killed(coven_data_dir: Path, tmp_path: Path) -> None:
    """The served shape: a process per player at one table, `coven` commands beside them, then SIGKILL for all."""
    count, seed = torture_count(8), torture_seed()
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(coven_data_dir, env=env) as server:
        commands = Beside(tmp_path, server, lambda: {})
        kinds = [kind for kind in commands.kinds() if kind not in ("export", "import", "served player")]
        order = iter(random.Random(seed).choices(kinds, k=count))
        stops = 7  # the places a_table_under_fire runs commands
        per_stop = [count // stops + (1 if index < count % stops else 0) for index in range(stops)]
        stop_index = iter(range(stops))

        def beside() -> None:
            for _ in range(per_stop[next(stop_index)]):
                commands.run(next(order))

        with DeletedWatch(server.children) as watch:
            code, seen = asyncio.run(a_table_under_fire(server, beside))
            assert not watch.seen, watch.seen
        players = server.children()
        assert len(players) == 3  # Ana, Bea and Cy are still at the table
        for pid in players:
            os.kill(pid, 9)
        server.stop(signal.SIGKILL)
        wait_until(lambda: not server.children(), "every player's process to die", BOUND)
    found = fresh_look({"code": code})
    assert found["chat"] == [["Ana", "welcome all"], ["Bea", "hi ana"], ["Cy", "good luck both"]]
    assert isinstance(found["table_log"], int) and found["table_log"] >= seen
    assert found["decks"] == sorted(commands.decks)
    print(f"\ntorture (SSH table, seed {seed}): {count} commands {commands.ran} beside a host, a player, a "
          f"spectator and a newcomer; {watch.looks} looks, nothing deleted; {found['table_log']} moves kept")
