"""A seat with the longest name allowed: its name is cut, never the Cup Tokens beside it."""

from __future__ import annotations

import pytest

from engine import Event
from engine.wizards_cup.state import Phase, WizardsCupState
from saves.records import MAX_NAME_LENGTH
from tests.helpers.layout_audit import rows
from tests.helpers.waiting import until
from tests.helpers.wizards_cup_tui import ANA_TEAM, BO_TEAM, RULES, SPEC, TableApp
from tui.games.wizards_cup.duel_zone import tokens_text
from tui.games.wizards_cup.results import RoundResultScreen

LONG = ("Bartholomew the Unreasonably Long-Named Sorcerer of the Far Hills" * 2)[:MAX_NAME_LENGTH]
SIZES = [(80, 24), (100, 30), (120, 40)]


def played(duels: int | None) -> tuple[WizardsCupState, list[Event]]:
    """Ana against the long name, teams and lineups set, after ``duels`` duels (None: the whole first round)."""
    state = SPEC.new_state({"tokens_to_win": 2}, 7, 2, ["Ana", LONG])
    events: list[Event] = []

    def act(seat: int | None, action: dict[str, object]) -> None:
        nonlocal state
        state, new = RULES.apply(state, seat, action)
        events.extend(new)

    act(0, {"type": "team", "cards": ANA_TEAM})
    act(1, {"type": "team", "cards": BO_TEAM})
    for seat in (0, 1):
        act(seat, {"type": "lineup", "order": list(state.players[seat].team)[:5]})
    while RULES.table_action(state) is not None and (duels is None or duels > 0):
        act(None, {"type": "duel"})
        duels = None if duels is None else duels - 1
    return state, events


@pytest.mark.parametrize("size", SIZES)
async def test_the_table_header_cuts_the_name_and_keeps_both_sides_tokens(size: tuple[int, int]) -> None:
    state, events = played(2)
    assert state.phase is Phase.DUEL
    app = TableApp(RULES.view(state, 0), 0, RULES.legal_actions(state, 0), events)
    async with app.run_test(size=size) as pilot:
        headers = list(app.query(".dz-name"))
        await until(pilot, lambda: len(headers) == 2 and all(header.region.width for header in headers),
                    "both sides' headers")
        screen = rows(app)
        for seat, header in enumerate(headers):
            region = header.region
            drawn = screen[region.y][region.x:region.right]
            tokens = tokens_text(state.players[seat].tokens, 2).plain
            assert tokens in drawn, f"seat {seat}'s Cup Tokens are cut: {drawn!r}"
            name = state.players[seat].name
            assert name in drawn or ("…" in drawn and name[:10] in drawn), drawn


@pytest.mark.parametrize("size", SIZES)
async def test_the_round_dialog_shows_both_players_tokens(size: tuple[int, int]) -> None:
    state, events = played(None)
    assert any(event.kind == "round_end" for event in events)
    view = RULES.view(state, 0)
    app = TableApp(view, 0, RULES.legal_actions(state, 0), events)
    async with app.run_test(size=size) as pilot:
        app.push_screen(RoundResultScreen(view, events))
        await until(pilot, lambda: isinstance(app.screen, RoundResultScreen), "the round dialog")
        line = app.screen.query_one("#rr-tokens")
        await until(pilot, lambda: line.region.width > 0, "the tokens line")
        region = line.region
        assert region.bottom <= app.size.height, "the tokens line is below the screen"
        drawn = rows(app)[region.y][region.x:region.right]
        assert drawn.startswith("Cup Tokens"), drawn
        after_ana = drawn.split("Ana ", 1)[1]
        assert after_ana.startswith(tokens_text(state.players[0].tokens, 2).plain), drawn
        assert drawn.rstrip().endswith(tokens_text(state.players[1].tokens, 2).plain), drawn
        assert "…" in drawn or LONG in drawn
