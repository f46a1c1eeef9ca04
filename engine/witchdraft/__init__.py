"""WitchDraft: draft companion cards into a potion grid and score 8 categories."""

from engine.core.registry import GameSpec, OptionSpec, register
from engine.witchdraft.bots import BOTS
from engine.witchdraft.rules import WitchDraftRules

RULES = WitchDraftRules()

SPEC = register(GameSpec(
    game_id="witchdraft",
    title="WitchDraft",
    seat_counts=(2, 3, 4, 5),
    rules=RULES,
    options=(
        OptionSpec("apprentices", "Apprentice side", "A", ("A", "B"),
                   "A: everyone starts from the same apprentice card; B: each gets a different one."),
        OptionSpec("face_up", "Recipes face up", False, (False, True),
                   "Show every player's recipe and ingredient cards to everyone."),
        OptionSpec("faster", "Faster Game", False, (False, True),
                   "With 2 or 3 players, deal 4 cards per phase as for 4 or 5."),
    ),
    summary="Draft companion cards into a potion grid; score 8 categories. 2 to 5 apprentices.",
    rules_doc="witchdraft.md",
    bots=BOTS,
))

__all__ = ["RULES", "SPEC"]
