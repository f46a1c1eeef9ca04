"""Snapshot tests of the WitchDraft side panel and score screen at 80x24.

Views come from driving the engine with fixed seeds and the normal bot
(see ``test_witchdraft_tui``), so the pictures only change when the UI does.
"""

from __future__ import annotations

from typing import Any

from tests.helpers.witchdraft_tui import Game, four_player_face_up_app, score_app, tie_game, two_player_app

SIZE = (80, 24)


def test_draft_hand_two_players(snap_compare: Any) -> None:
    async def move(pilot: Any) -> None:
        await pilot.press("down")

    assert snap_compare(two_player_app(), terminal_size=SIZE, run_before=move)


def test_draft_hand_four_players_face_up(snap_compare: Any) -> None:
    async def watch(pilot: Any) -> None:
        await pilot.press("right_square_bracket")

    assert snap_compare(four_player_face_up_app(), terminal_size=SIZE, run_before=watch)


def test_score_screen_shared_victory(snap_compare: Any) -> None:
    assert snap_compare(score_app(tie_game()), terminal_size=SIZE)


def test_score_screen_five_players(snap_compare: Any) -> None:
    assert snap_compare(score_app(Game(5, seed=3).rounds()), terminal_size=SIZE)
