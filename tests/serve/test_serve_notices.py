"""``coven serve --notify-url`` over real SSH: a dropped player is told, outside the app, that the table asks them.

The notice goes to a local HTTP server the test starts (127.0.0.1, a port the system picks).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from engine.wizards_cup.cards import CARDS
from tests.helpers.notice_server import notice_server
from tests.helpers.serve_game import choose_team, open_table
from tests.helpers.ssh_client import ServeProcess
from tui.notify.notice import BODY_KEYS


def test_a_dropped_player_is_sent_a_notice_with_only_the_table_game_seat_and_deadline() -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with notice_server() as (base, received):
        url = f"{base}/hook?topic=coven-test"
        with ServeProcess.start(data_dir, "--notify-url", url, env=env) as server:
            told = [line for line in server.banner if line.startswith("Notices while away go to 127.0.0.1")]
            assert told and "coven-test" not in "".join(server.banner)  # the host said, never the topic
            async def scenario() -> tuple[str, str]:
                ana, bea, code, token = await open_table(server)
                await choose_team(bea)  # Bea chooses her team, then her connection drops
                await bea.wait_for("Waiting for Ana", timeout=60)
                await bea.close()
                await ana.wait_for(lambda text: "Bea dropped" in " ".join(text.split()), timeout=60)
                assert not received.bodies()  # nobody was newly asked yet
                await choose_team(ana)  # Ana's move ends the team phase: the lineups ask both seats again
                await ana.wait_for("Waiting Card", timeout=60)
                received.wait_for(1)
                await ana.close()
                return code, token

            code, token = asyncio.run(scenario())
    [(path, headers, raw)] = received.requests  # one notice: Ana is connected and is never sent one
    [body] = received.bodies()
    assert path == "/hook?topic=coven-test" and headers["Content-Type"].startswith("application/json")
    assert set(body) <= BODY_KEYS
    assert (body["table"], body["game"], body["seat"], body["deadline"]) == (code, "Wizards Cup", "Bea", None)
    assert body["topic"] == "coven-test"
    text = raw.decode("utf-8")
    assert token not in text and token.replace("-", "") not in text  # never the seat token
    leaked = [card.name for card in CARDS.values() if card.name in text]
    assert not leaked, f"the notice names cards: {leaked}"
