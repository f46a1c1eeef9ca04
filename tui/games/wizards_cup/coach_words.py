"""What the Wizards Cup coach says, in a player's words: chances of rounds and of the Cup, not payoffs.

Pure text from the coach's numbers (:mod:`engine.wizards_cup.coach`), so the
screens only lay it out and tests can read it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.coach import Chances, LineupAdvice, Suggestion
from engine.wizards_cup.coach_review import RoundReview, SidePlay


def pct(share: float) -> str:
    """A share as a whole percentage ("58%"); below 1% but above none reads "<1%"."""
    if 0 < share < 0.005:
        return "<1%"
    return f"{round(share * 100)}%"


def names(cards: Sequence[str]) -> str:
    """Wizards' names in order, comma-separated."""
    return ", ".join(CARDS[card].name for card in cards)


def lineup_words(order: Sequence[str], waiting: str | None) -> str:
    """"Moss Hermit, Pyre Lord, …; waiting: Mist Warden"."""
    return f"{names(order)}; waiting: {CARDS[waiting].name if waiting else 'never shown'}"


def round_words(chances: Chances) -> str:
    """"wins 58% of rounds and loses 42% (both run out: 1%)"."""
    both = f" (both run out: {pct(chances.both)})" if chances.both >= 0.005 else ""
    return f"wins {pct(chances.win)} of rounds and loses {pct(chances.lose)}{both}"


def cup_words(chances: Chances) -> str:
    """"about 54% to win the Cup"."""
    return f"about {pct(chances.game)} to win the Cup"


Line = tuple[int, Text]
"""One paragraph of the coach's words and how deep it is indented (the screen wraps it under itself)."""


def say(text: str | Text, indent: int = 0, style: str = "") -> Line:
    """A paragraph, plain text never read as markup."""
    return indent, text if isinstance(text, Text) else Text(text, style=style)


def suggestion_lines(suggestions: Sequence[Suggestion], indent: int = 1) -> list[Line]:
    """One paragraph per suggested lineup: how often it is played, then the lineup."""
    return [say(f"{pct(s.weight)}  {lineup_words(s.order, s.waiting)}", indent) for s in suggestions]


def advice_lines(advice: LineupAdvice) -> list[Line]:
    """The coach's whole word on one lineup."""
    them = advice.opponent
    read = (f"{them}'s team is known" if advice.known else
            f"{them}'s team is a guess among {len(advice.model)} teams {them} could hold")
    return [
        say(Text.assemble(("Your lineup: ", "bold"), lineup_words(advice.order, advice.waiting))),
        say(Text.assemble((f"Against {them} as the Hard bot expects {them} to play", "bold"), f" ({read}):")),
        say(f"Yours {round_words(advice.yours)}: {cup_words(advice.yours)}.", 1),
        say(f"Hard's mix {round_words(advice.mix)}: {cup_words(advice.mix)}.", 1),
        say(Text.assemble(("Hard's most-played lineups", "bold"), " (its mix draws one at random each round):")),
        *suggestion_lines(advice.top),
        say(Text.assemble(("If it is guessed: ", "bold"),
                          f"an opponent who guessed this order would win {pct(advice.guessed.lose)} of rounds "
                          f"(you: {cup_words(advice.guessed)}). One who knew Hard's mix, but not the lineup it "
                          f"drew, would win {pct(advice.mix_guessed.lose)} (the mix: {cup_words(advice.mix_guessed)})."
                          )),
    ]


def _played(side: SidePlay) -> str:
    if side.whole:
        return lineup_words(side.revealed, side.waiting)
    shown = names(side.revealed) if side.revealed else "no wizard"
    hidden = 5 - len(side.revealed)
    return f"{shown}, then {hidden} never duelled" if hidden else f"{shown}; waiting: never shown"


def _gave(name: str, gave: float | None, side: SidePlay) -> str:
    if gave is None:
        return f"{name}: not known."
    points = round(gave * 50)  # a payoff is a Cup chance won minus lost: half of it is the chance itself
    hedge = "" if side.whole else " at least"
    if points == 0 and side.whole:
        return f"{name} gave up nothing against the equilibrium."
    return f"{name} gave up{hedge} {points} points of Cup chance against the equilibrium."


def review_lines(reviews: Sequence[RoundReview]) -> list[Line]:
    """Every round of a finished game: what each side played, the equilibrium's lineups, and the value given up."""
    if not reviews:
        return [say("No round was played to its end.")]
    lines: list[Line] = []
    for review in reviews:
        first, second = review.sides
        won = " and ".join(review.sides[seat].name for seat in review.winners) or "nobody"
        lines.append(say(Text.assemble((f"Round {review.round}", "bold"), f" ({first.name} {review.tokens[0]}, "
                                       f"{second.name} {review.tokens[1]} before it) · won by {won}")))
        lines += [say(f"{side.name} played: {_played(side)}", 1) for side in review.sides]
        if review.equilibrium is None:
            lines.append(say(review.why, 1, "italic"))
            continue
        for side, suggested in zip(review.sides, review.suggested, strict=True):
            lines.append(say(f"The equilibrium suggested for {side.name}:", 1))
            lines += suggestion_lines(suggested, 2)
        lines.append(say(f"Both playing it, {first.name} {round_words(review.equilibrium)}.", 1))
        lines += [say(_gave(side.name, gave, side), 1) for side, gave in zip(review.sides, review.gave_up, strict=True)]
    return lines
