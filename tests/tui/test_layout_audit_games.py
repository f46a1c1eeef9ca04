"""Layout audit of every phase of every game, for a seat and a spectator, at 80x24 and 120x40.

Each game is played through the engine (the easy bot for both seats, as
``play_until`` does) and the first position of each phase where the seat in
front decides, or where the table's next step waits, is kept. That position is
opened in the real game screen for seat 1 (a finished game shows its result
screen; in Wizbits' main phase, also with a card taken from the hand, as its
foundation and targets are chosen) and in the replay for a spectator (seat
None), at 80x24 and again once the terminal is resized to 120x40. On each,
the audit in ``layout_audit`` reads the screen: every Footer
key whole, every status and header line whole, and at 80x24, where keys are
left out, the help (F1) lists every key. 120x40 must show every Footer key and
card name that 80x24 shows.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.witchdraft.cards import CARDS as DRAFT_CARDS
from engine.witchdraft.cards import INGREDIENT_CARDS, RECIPES
from engine.wizards_cup.cards import CARDS as CUP_CARDS
from saves import LiveSession, SessionStore
from tests.helpers.layout_audit import Seen, at_size, help_lists_the_footer, look, no_less
from tests.helpers.tui_fakes import play_until, seats
from tests.helpers.waiting import until
from tui.app import CovenApp

SIZES = ((80, 24), (120, 40))
OPTIONS: dict[str, dict[str, Any] | None] = {
    "wizards-cup": None,
    "witchdraft": None,
    "wizbits": {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"},
}
CONFLICT = ("attack", "block", "assign", "respond", "divide")
MOST_STEPS = 4000
"""A bound on one scripted game's length (a bot game ends far sooner)."""


def card_names(game_id: str) -> frozenset[str]:
    """The names of a game's cards, to see which a screen shows."""
    if game_id == "wizards-cup":
        return frozenset(card.name for card in CUP_CARDS.values())
    if game_id == "witchdraft":
        return frozenset(card.name for card in (*DRAFT_CARDS.values(), *INGREDIENT_CARDS, *RECIPES))
    from engine.wizbits.cards.card_set import CARDS_BY_ID

    return frozenset(card.name for card in CARDS_BY_ID.values())


def phase_of(game_id: str, live: LiveSession) -> str | None:
    """The phase to audit at this position, or None when seat 1 neither decides nor waits for a table step."""
    if live.result is not None:
        return "over"
    view = live.rules.view(live.state, 0)
    table_step = not live.to_act and live.table_action is not None
    if game_id == "wizards-cup":
        return str(live.state.phase.value) if 0 in live.to_act or table_step else None
    if game_id == "witchdraft":
        return f"stage {view.stage}" if 0 in live.to_act else None
    if table_step and view.resolving:
        return "pillar resolving"
    if 0 not in live.to_act:
        return None
    if view.phase in CONFLICT:
        return f"conflict ({view.phase})"
    return "priority over a pillar" if (view.pillar or {}).get("units") else "main"


def new_live(store: SessionStore, game_id: str) -> LiveSession:
    return LiveSession.create(store, game_id, OPTIONS[game_id], 3, seats("Ana", "Bo:easy"))


def phases(game_id: str) -> dict[str, int]:
    """The first step of each phase of a scripted game."""
    found: dict[str, int] = {}
    with SessionStore() as store:
        live = new_live(store, game_id)
        for step in range(MOST_STEPS):
            phase = phase_of(game_id, live)
            if phase is not None and phase not in found:
                found[phase] = step
            if live.result is not None:
                break
            play_until(live, 1)
    return found


def session_at(store: SessionStore, game_id: str, steps: int) -> int:
    """A saved session of the scripted game stopped after ``steps`` actions; its id."""
    live = new_live(store, game_id)
    for _ in range(steps):
        play_until(live, 1)
    return live.session_id


async def compose_a_play(pilot: Any, game: Any, where: str) -> None:
    """Wizbits: take a card from the hand, so the screen asks for its foundation and targets (the compose stage)."""
    table = game.table
    await until(pilot, lambda: table.stage == "hand", f"the hand in {where}")
    for _ in range(12):
        await pilot.press("enter")
        await pilot.pause()
        if table.stage == "compose":
            return
        await pilot.press("down")
    raise AssertionError(f"no card of the hand could be taken in {where}")


async def read_each_size(pilot: Any, where: str, names: frozenset[str]) -> dict[tuple[int, int], Seen]:
    """Read the screen in front at each size in turn (the terminal resized); at 80x24 the help too."""
    seen: dict[tuple[int, int], Seen] = {}
    for size in SIZES:
        await at_size(pilot, size)
        here = f"{where} at {size[0]}x{size[1]}"
        seen[size] = look(pilot.app, here, names)
        if size == SIZES[0]:  # where keys are left out: the help must list them (it lists the same at 120x40)
            await help_lists_the_footer(pilot, here, seen[size])
    return seen


async def audit_seat(session_id: int, where: str, names: frozenset[str],
                     compose: bool = False) -> dict[tuple[int, int], Seen]:
    """Seat 1's game screen (its result over it when the game is over); ``compose``: with a card being played."""
    from tui.screens.game.screen import GameScreen
    from tui.widgets.game_over import GameOverScreen

    app = CovenApp(store=SessionStore(), auto_delay=600.0)  # the app closes its store when it ends
    async with app.run_test(size=SIZES[0]) as pilot:
        app.open_session(session_id)
        await until(pilot, lambda: any(isinstance(screen, GameScreen) for screen in app.screen_stack), where)
        game = next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))
        if game.live.result is not None:
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen), f"the result of {where}")
        if compose:
            await compose_a_play(pilot, game, where)
        return await read_each_size(pilot, where, names)


async def audit_spectator(session_id: int, steps: int, where: str,
                          names: frozenset[str]) -> dict[tuple[int, int], Seen]:
    """The replay at the same position, as a spectator sees it."""
    from tui.screens.replay import ReplayScreen

    store = SessionStore()
    app = CovenApp(store=store, auto_delay=600.0)  # the app closes its store when it ends
    async with app.run_test(size=SIZES[0]) as pilot:
        replay = ReplayScreen(LiveSession.load(store, session_id), start=steps)
        app.push_screen(replay)
        await until(pilot, lambda: app.screen is replay, where)
        return await read_each_size(pilot, where, names)


@pytest.mark.parametrize("game_id", ["wizards-cup", "witchdraft", "wizbits"])
async def test_every_phase_fits_for_a_seat_and_a_spectator_at_80x24_and_120x40(game_id: str) -> None:
    found = phases(game_id)
    expected = {"wizards-cup": {"team", "lineup", "duel", "swap", "over"},
                "witchdraft": {"over"},
                "wizbits": {"main", "priority over a pillar", "over"}}[game_id]
    assert expected <= set(found), found
    names = card_names(game_id)
    problems: list[str] = []
    by_size: dict[tuple[int, int], dict[str, Seen]] = {}
    with SessionStore() as store:
        sessions = {phase: session_at(store, game_id, steps) for phase, steps in found.items()}
    for phase, steps in found.items():
        for who in ("seat", "spectator", "seat choosing targets"):
            where = f"{game_id} {phase} ({who})"
            if who == "seat choosing targets":  # a seat's own stage: the replay has none
                if game_id != "wizbits" or phase != "main":
                    continue
                got = await audit_seat(sessions[phase], where, names, compose=True)
            elif who == "seat":
                got = await audit_seat(sessions[phase], where, names)
            else:
                got = await audit_spectator(sessions[phase], steps, where, names)
            for size, seen in got.items():
                problems += seen.problems
                by_size.setdefault(size, {})[f"{phase} {who}"] = seen
    problems += no_less(by_size[SIZES[0]], by_size[SIZES[1]])
    assert not problems, "\n".join(problems)
