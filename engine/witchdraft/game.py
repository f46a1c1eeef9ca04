"""Registers WitchDraft: its rules, options and bots, under the catalog entry."""

from engine.bundled import WITCHDRAFT
from engine.core.registry import GameSpec, OptionSpec, register
from engine.witchdraft.bots import BOTS
from engine.witchdraft.rules import WitchDraftRules

RULES = WitchDraftRules()

SPEC = register(GameSpec.of(
    WITCHDRAFT,
    RULES,
    options=(
        OptionSpec("apprentices", "Apprentice side", "A", ("A", "B"),
                   "A: everyone starts from the same apprentice card; B: each gets a different one."),
        OptionSpec("face_up", "Recipes face up", False, (False, True),
                   "Show every player's recipe and ingredient cards to everyone."),
        OptionSpec("faster", "Faster Game", False, (False, True),
                   "With 2 or 3 players, deal 4 cards per phase as for 4 or 5.", seats=(2, 3)),
    ),
    bots=BOTS,
))

__all__ = ["RULES", "SPEC"]
