"""Registers Wizards Cup: its rules, options and bots, under the catalog entry."""

from engine.bundled import WIZARDS_CUP
from engine.core.registry import GameSpec, OptionSpec, register
from engine.wizards_cup.bots import BOTS
from engine.wizards_cup.rules import WizardsCupRules

RULES = WizardsCupRules()

SPEC = register(GameSpec.of(
    WIZARDS_CUP,
    RULES,
    options=(
        OptionSpec("tokens_to_win", "Cup Tokens to win", 2, (1, 2, 3),
                   "The rulebook plays to 2; 1 is a quick game and 3 a long one."),
    ),
    bots=BOTS,
))

__all__ = ["RULES", "SPEC"]
