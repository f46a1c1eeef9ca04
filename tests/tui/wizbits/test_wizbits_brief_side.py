"""At 80x24 the opponent's brief side shows every Character's Main Points without ``o``."""

from __future__ import annotations

import re
from typing import Any

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.dice import die_level
from engine.wizbits.unit_targets import threatened
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import SMALL, BattleApp, opening, run
from tests.helpers.wizbits_game import RULES, Game
from tests.helpers.wizbits_layout_audit import crowded_table
from tui.games.wizbits.side import THREAT_MARK, SidePanel


def panel_rows(app: BattleApp, panel: SidePanel) -> list[str]:
    """The rows inside ``panel``'s border as the screen shows them."""
    strips = app.screen._compositor.render_strips()
    region = panel.region
    return [strips[y].crop(region.x + 1, region.right - 1).text for y in range(region.y + 1, region.bottom - 1)]


def shows_points(rows: list[str], game: Game, iid: int, seat: int = 1) -> bool:
    """Some row (or a row and the one below it) names the card and gives its S, W, M die levels and SCN in order."""
    view = next(p for p in RULES.view(game.state, 0).players[seat].in_play if p.iid == iid)
    points = view.points
    assert points is not None
    name = CARDS_BY_ID[view.card_id].name
    dice = [f"d{die_level(value)}" for value in (points.strength, points.will, points.magic)]
    pattern = re.compile(r"\D*".join(re.escape(d) for d in dice) + rf"\D+{points.scn}\b")
    for index, row in enumerate(rows):
        # The name may be cut to its first letters (ending "…") in the densest form.
        if name in row or any(f"{name[:cut]}…" in row for cut in range(3, len(name))):
            if pattern.search(row) or (index + 1 < len(rows) and pattern.search(rows[index + 1])):
                return True
    return False


def character_iids(game: Game, seat: int = 1) -> list[int]:
    return [p.iid for p in game.state.players[seat].in_play
            if game.state.card(p.iid).is_character and not p.seceded]


def test_the_opponent_characters_main_points_show_at_80x24_without_o() -> None:
    game = opening()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        opponent = app.table.query_one("#wb-opp", SidePanel)
        assert opponent.brief
        await until(pilot, lambda: all(shows_points(panel_rows(app, opponent), game, iid)
                                       for iid in character_iids(game)), "every Bo character's points on screen")
        assert len(character_iids(game)) > 1  # the test would prove nothing with only the Main Character

    run(app, scenario, SMALL)


def test_a_crowded_opponent_still_shows_every_character_and_its_threat_mark() -> None:
    game = Game(1, {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"})
    game.state = crowded_table()
    app = BattleApp(game)

    async def scenario(pilot: Any) -> None:
        opponent = app.table.query_one("#wb-opp", SidePanel)
        assert opponent.brief and len(character_iids(game)) >= 4
        await until(pilot, lambda: all(shows_points(panel_rows(app, opponent), game, iid)
                                       for iid in character_iids(game)), "every Bo character's points on screen")
        aimed = threatened(RULES.view(game.state, 0).targets)
        rows = panel_rows(app, opponent)
        marked = [row for row in rows if THREAT_MARK in row]
        assert aimed and marked, rows
        # The cards left out are counted on the border, with the key that shows them.
        left_out = len(game.state.players[1].in_play) - len(character_iids(game))
        assert opponent.border_subtitle == f"▼ {left_out} more (o)"
        # Ana's own side still shows her counts and her Main Character's points.
        mine = app.table.query_one("#wb-you", SidePanel)
        main = next(p for p in RULES.view(game.state, 0).players[0].in_play if p.is_main)
        assert shows_points(panel_rows(app, mine), game, main.iid, seat=0)

    run(app, scenario, SMALL)
