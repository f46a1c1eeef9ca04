"""Wizards Cup: pick a team of six, order five, watch the duels."""

from engine.core.registry import GameSpec, OptionSpec, register
from engine.wizards_cup.bots import BOTS
from engine.wizards_cup.rules import WizardsCupRules

RULES = WizardsCupRules()

SPEC = register(GameSpec(
    game_id="wizards-cup",
    title="Wizards Cup",
    seat_counts=(2,),
    rules=RULES,
    options=(
        OptionSpec("tokens_to_win", "Cup Tokens to win", 2, (1, 2, 3),
                   "The rulebook plays to 2; 1 is a quick game and 3 a long one."),
    ),
    summary="Pick a team of 6 of 18 wizards, order 5, watch the duels. First to 2 Cup Tokens.",
    rules_doc="wizards-cup.md",
    bots=BOTS,
))

__all__ = ["RULES", "SPEC"]
