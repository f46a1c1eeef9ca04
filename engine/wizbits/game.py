"""Registers Wizbits Elemenstor Battle: its rules, options and bots, under the catalog entry."""

from engine.bundled import WIZBITS
from engine.core.registry import GameSpec, OptionSpec, register
from engine.wizbits.bots import BOTS
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import check_decklist
from engine.wizbits.rules import WizbitsRules


def _deck_list_problem(value: object) -> str | None:
    """Why a deck option that names no starter deck is refused (None: a valid deck list)."""
    problems = check_decklist(str(value))
    return "; ".join(str(problem) for problem in problems) or None


RULES = WizbitsRules()
_DECKS = tuple(STARTER_DECKS)

SPEC = register(GameSpec.of(
    WIZBITS,
    RULES,
    options=(
        OptionSpec("format", "Format", "constructed", ("constructed", "limited"),
                   "Constructed stands Continue abilities at height -1 on every pillar; Limited leaves them off."),
        OptionSpec("rtf", "Rules Text Format", 1, (1, 2), "RTF 1 calls a subpillar a Subpillar; RTF 2 a Spire."),
        OptionSpec("deck_1", "Seat 1 deck", _DECKS[0], _DECKS,
                   "A starter deck, or one of your saved decks (Decks in the main menu).", other=_deck_list_problem),
        OptionSpec("deck_2", "Seat 2 deck", _DECKS[1], _DECKS,
                   "A starter deck, or one of your saved decks (Decks in the main menu).", other=_deck_list_problem),
    ),
    bots=BOTS,
))

__all__ = ["RULES", "SPEC"]
