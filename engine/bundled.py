"""The bundled games, announced by id: announcement order is menu order.

Importing this module imports no game: each entry names the package that
registers the game's rules, options and bots when it is first used.
"""

from engine.core.catalog import GameEntry, announce

WIZARDS_CUP = announce(GameEntry(
    game_id="wizards-cup",
    title="Wizards Cup",
    seat_counts=(2,),
    summary="Pick a team of 6 of 18 wizards, order 5, watch the duels. First to 2 Cup Tokens.",
    rules_doc="wizards-cup.md",
    module="engine.wizards_cup.game",
))

WITCHDRAFT = announce(GameEntry(
    game_id="witchdraft",
    title="WitchDraft",
    seat_counts=(2, 3, 4, 5),
    summary="Draft companion cards into a potion grid; score 8 categories. 2 to 5 apprentices.",
    rules_doc="witchdraft.md",
    module="engine.witchdraft.game",
))

WIZBITS = announce(GameEntry(
    game_id="wizbits",
    title="Wizbits Elemenstor Battle",
    seat_counts=(2,),
    summary="Build the Pillar, resolve it top down, and break the opposing Main Character. 2 players.",
    rules_doc="wizbits.md",
    module="engine.wizbits.game",
))

__all__ = ["WITCHDRAFT", "WIZARDS_CUP", "WIZBITS"]
