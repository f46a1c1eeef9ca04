"""Shared by test_wizbits_tui_table.py and other test modules, which import them from here.

nested, moved here from tests/tui/wizbits/test_wizbits_tui_table.py.
"""

from __future__ import annotations

from engine.wizbits.pillar.tree import Pillar, UnitKind
from tests.helpers.wizbits_battle import opening
from tests.helpers.wizbits_game import Game

SEATS = ("Merlin", "Roo")


def nested(countered: bool = False) -> Game:
    """Ana's Elements pillar, seats named Merlin and Roo, with Subpillars nested three deep and a damage unit.

    Volley on the base; Roo's Tidewhisper Sage ability on it (Subpillar 1); damage from Merlin on that
    (Subpillar 2); Roo's Pondskater Scout ability on the damage (Subpillar 3); Radiant Verdict on the main tip.
    ``countered``: the Sage's ability was countered, and stays drawn because the damage rests on it.
    """
    game = opening()
    for player, name in zip(game.state.players, SEATS, strict=False):
        player.name = name
    scout = next(p.iid for p in game.state.players[1].in_play if game.state.cards[p.iid] == "pondskater-scout")
    main = game.state.players[1].main
    pillar = Pillar.open("turn", "limited")
    pillar.play(UnitKind.CARD, 0, "Sparkswarm Volley", {"iid": game.give(0, "sparkswarm-volley", "discard")})
    sage = pillar.play(UnitKind.ABILITY, 1, "Tidewhisper Sage ability", {"iid": main, "ability": 0})
    damage = pillar.play(UnitKind.DAMAGE, 0, "Damage from Merlin", {"damage": []}, on=sage.uid)
    pillar.play(UnitKind.ABILITY, 1, "Pondskater Scout ability", {"iid": scout, "ability": 0}, on=damage.uid)
    pillar.play(UnitKind.CARD, 0, "Radiant Verdict", {"iid": game.give(0, "radiant-verdict", "discard")})
    if countered:
        pillar.remove(sage.uid)
    game.state.pillar = pillar
    return game
