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


def suggestion_lines(suggestions: Sequence[Suggestion], indent: str = "  ") -> list[str]:
    """One line per suggested lineup: its weight, then the lineup."""
    return [f"{indent}{pct(s.weight):>4}  {lineup_words(s.order, s.waiting)}" for s in suggestions]


def advice_text(advice: LineupAdvice) -> Text:
    """The coach's whole word on one lineup."""
    them = advice.opponent
    read = (f"{them}'s team is known" if advice.known else
            f"{them}'s team is a guess among {len(advice.model)} teams {them} could hold")
    text = Text()
    text.append("Your lineup: ", style="bold")
    text.append(lineup_words(advice.order, advice.waiting) + "\n\n")
    text.append(f"Against {them} as Hard expects {them} to play ", style="bold")
    text.append(f"({read}):\n")
    text.append(f"  Yours {round_words(advice.yours)}: {cup_words(advice.yours)}.\n")
    text.append(f"  Hard's mix {round_words(advice.mix)}: {cup_words(advice.mix)}.\n\n")
    text.append("Hard's most-played lineups", style="bold")
    text.append(" (the mix draws one at random):\n")
    text.append("\n".join(suggestion_lines(advice.top)) + "\n\n")
    text.append("If it is guessed: ", style="bold")
    text.append(f"an opponent who guessed this order would win {pct(advice.guessed.lose)} of rounds "
                f"(you: {cup_words(advice.guessed)}). ")
    text.append(f"No guess can read Hard's mix: the best answer to it wins {pct(advice.mix_guessed.lose)} "
                f"of rounds (the mix keeps {cup_words(advice.mix_guessed)}).")
    return text


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
    return f"{name} gave up{hedge} {points} points of Cup chance."


def review_text(reviews: Sequence[RoundReview]) -> Text:
    """Every round of a finished game: what each side played, the equilibrium's lineups, and the value given up."""
    text = Text()
    if not reviews:
        return text.append("No round was played to its end.")
    for number, review in enumerate(reviews):
        if number:
            text.append("\n")
        first, second = review.sides
        won = " and ".join(review.sides[seat].name for seat in review.winners) or "nobody"
        text.append(f"Round {review.round}", style="bold")
        text.append(f" ({first.name} {review.tokens[0]}, {second.name} {review.tokens[1]} before it) · "
                    f"won by {won}\n")
        for side in review.sides:
            text.append(f"  {side.name} played: {_played(side)}\n")
        if review.equilibrium is None:
            text.append(f"  {review.why}\n", style="italic")
            continue
        for side, suggested in zip(review.sides, review.suggested, strict=True):
            text.append(f"  The equilibrium suggested for {side.name}:\n")
            text.append("\n".join(suggestion_lines(suggested, "    ")) + "\n")
        text.append(f"  Both playing it, {first.name} {round_words(review.equilibrium)}.\n")
        for side, gave in zip(review.sides, review.gave_up, strict=True):
            text.append(f"  {_gave(side.name, gave, side)}\n")
    text.rstrip()
    return text
