"""Turn notifications: the bell and an OSC 9 desktop notice when it becomes your turn at a table."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from tests.helpers.serve_game import open_table
from tests.helpers.ssh_client import ServeProcess
from tui.turn_notice import MIN_GAP, NOTICE_TEXT, TurnNotices, notice_escape, wanted

NOTICE = notice_escape().encode()


def test_a_notice_is_due_for_a_new_turn_only_never_after_your_own_move_and_not_too_often() -> None:
    notices = TurnNotices()
    assert notices.due({0}, last_mover=1, now=100.0)  # Bo moved; now Ana is asked
    assert not notices.due({0}, last_mover=1, now=101.0)  # still the same turn
    assert not notices.due(set(), last_mover=0, now=102.0)
    assert not notices.due({0}, last_mover=0, now=200.0)  # asked again right after her own move
    assert not notices.due(set(), last_mover=1, now=201.0)
    assert not notices.due({0}, last_mover=1, now=100.0 + MIN_GAP / 2)  # too soon after the last notice
    notices.due(set(), last_mover=1, now=300.0)
    assert notices.due({0}, last_mover=1, now=300.0 + MIN_GAP)


def test_the_escape_is_plain_and_the_setting_decides() -> None:
    assert notice_escape() == f"\a\x1b]9;{NOTICE_TEXT}\x07"
    assert notice_escape("a\x1b]52;c;x\x07b") == "\a\x1b]9;a]52;c;xb\x07"  # nothing from outside escapes
    assert wanted("auto", served=True) and not wanted("auto", served=False)
    assert wanted("on", served=False) and not wanted("off", served=True) and not wanted("purple", served=True)


def test_both_players_at_an_ssh_table_are_told_when_the_game_asks_them_to_choose() -> None:
    data_dir = Path(os.environ["COVEN_DATA_DIR"])
    env = dict(os.environ, COVEN_AUTO_DELAY="0.05")
    with ServeProcess.start(data_dir, env=env) as server:
        async def scenario() -> None:
            ana, bea, _code, _token = await open_table(server)
            for player in (ana, bea):  # the game opens on both teams to choose
                await player.wait_for(lambda _text, player=player: NOTICE in player.session.received, timeout=60)
            await ana.close()
            await bea.close()

        asyncio.run(scenario())
