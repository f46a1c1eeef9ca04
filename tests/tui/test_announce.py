"""The announce key: where the game stands for the seat looking, in each game's phases, and in detail on a second press."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from engine.wizards_cup.state import Phase as CupPhase
from engine.wizbits.state import Phase as BitsPhase
from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.announce import play_until
from tests.helpers.narration import Host, game_screen
from tests.helpers.waiting import until
from tui.games import game_ui
from tui.games.wizbits.narration import pillar_units


def said(live: LiveSession, seat: int | None, detail: bool = False) -> str:
    text = game_ui(live.spec.game_id).announce(live.rules.view(live.state, seat), seat, detail)
    assert text
    return text


def test_wizards_cup_says_round_tokens_and_the_duel(store: SessionStore) -> None:
    live = play_until(store, "wizards-cup", lambda view: True)
    assert said(live, 0).startswith("Choosing teams. Cup Tokens: Ana 0, Bo 0 (first to 2). Waiting for Ana and Bo.")
    live = play_until(store, "wizards-cup", lambda view: view.phase is CupPhase.LINEUP)
    assert said(live, 0).startswith("Round 1, setting lineups.")
    assert "Your team: " in said(live, 0, detail=True) and "Your team" not in said(live, None, detail=True)
    live = play_until(store, "wizards-cup", lambda view: view.phase is CupPhase.DUEL and view.duel >= 2)
    text = said(live, 0)
    view = live.rules.view(live.state, 0)
    assert text.startswith(f"Round 1, duel {view.duel}. Cup Tokens: Ana 0, Bo 0 (first to 2).")
    if view.players[0].zone and view.players[1].zone:
        assert "In the Duel zone: " in text and " for Ana against " in text
    detail = said(live, 0, detail=True)
    assert detail.startswith(text) and "Ana: deck " in detail and "Bo: deck " in detail
    assert "next " in detail.split("Bo: deck")[0] and "next " not in detail.split("Bo: deck")[1]  # only your next card
    live = play_until(store, "wizards-cup", lambda view: view.phase is CupPhase.SWAP)
    assert said(live, 0).startswith("Round 1, swaps. Cup Tokens: ")
    live = play_until(store, "wizards-cup", lambda view: view.phase is CupPhase.OVER)
    assert said(live, 1).startswith("The Cup is over: ") and " won." in said(live, 1)


def test_witchdraft_says_phase_pick_hand_and_score(store: SessionStore) -> None:
    live = play_until(store, "witchdraft", lambda view: True)
    assert said(live, 0) == ("Phase 1, pick 1. Your hand holds 6 cards. Your score so far: 0 brew points. "
                             "Waiting for Ana and Bo.")
    assert "Your hand" not in said(live, None)  # a spectator has no hand
    live = play_until(store, "witchdraft", lambda view: view.stage == "place" and view.pick == 2)
    text = said(live, 0)
    assert text.startswith("Phase 1, placing pick 2. Your hand holds ") and "You are placing " in text
    live = play_until(store, "witchdraft", lambda view: view.phase == 2)
    text, detail = said(live, 0), said(live, 0, detail=True)
    assert text.startswith("Phase 2, pick ") and "Your score so far: " in text
    assert detail.startswith(text) and "In your hand: " in detail and "Scoring: Companions (" in detail
    live = play_until(store, "witchdraft", lambda view: view.over)
    assert said(live, 0).startswith("The potions are scored. ") and " won." in said(live, 0)


def test_wizbits_says_phase_priority_the_pillar_top_with_targets_and_scns(store: SessionStore) -> None:
    live = play_until(store, "wizbits", lambda view: view.phase == BitsPhase.ELEMENTS and view.priority == 0)
    text = said(live, 0)
    assert text.startswith("Turn 1, Ana's turn, Play Phase 1: Elements. You hold Priority. ")
    assert "SCNs: yours " in text and ", Bo's " in text
    assert said(live, 1).split(". ")[1] == "Ana holds Priority"

    def targeted_top(view: Any) -> bool:
        units = [unit for unit in pillar_units(view) if unit.height >= 1]
        return bool(units) and bool(view.targets.get(units[-1].uid))

    live = play_until(store, "wizbits", targeted_top)
    text = said(live, 0)
    assert "Top of the Pillar: " in text and ", targets " in text
    detail = said(live, 0, detail=True)
    assert "pillar, top first: " in detail and "You: " in detail and "Your hand: " in detail
    assert "Your hand" not in said(live, None, detail=True)  # a spectator sees no hand
    live = play_until(store, "wizbits", lambda view: view.over)
    assert said(live, 0).startswith("The game is over: ")


async def test_the_key_says_it_on_the_status_line_in_a_toast_and_in_the_transcript_then_in_detail(
        store: SessionStore) -> None:
    live = LiveSession.create(store, "witchdraft", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
    app = Host(live)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        await until(pilot, lambda: 0 in live.to_act and screen.status_text.startswith("Ana"), "Ana's pick")
        await pilot.press("semicolon")
        short = "Phase 1, pick 1. Your hand holds 6 cards. Your score so far: 0 brew points."
        await until(pilot, lambda: screen.narrator.transcript.lines[-1].startswith(short), "the short announcement")
        assert screen.narrator.transcript.lines[-1].startswith(short)
        assert app._notifications and list(app._notifications)[-1].message.startswith(short)
        status = str(screen.query_one("#game-status", Static).render())
        assert "Phase 1, pick 1. Your hand holds 6" in status
        await pilot.press("semicolon")
        await until(pilot, lambda: ("In your hand: " in screen.narrator.transcript.lines[-1]),
                    '"In your hand: " in screen.narrator.transcript.lines[-1]')
        # The game moves on: the status line says what is awaited again, and the next press is short.
        screen._apply(0, live.rules.legal_actions(live.state, 0)[0])
        await until(pilot, lambda: "Your hand holds 6" not in str(screen.query_one("#game-status", Static).render()),
                    "the status line back")
        await pilot.press("semicolon")
        await until(pilot, lambda: ("In your hand: " not in screen.narrator.transcript.lines[-1]),
                    '"In your hand: " not in screen.narrator.transcript.lines[-1]')
