"""What the Wizards Cup coach says, in a player's words: chances of rounds and of the Cup, not payoffs.

Pure text from the coach's numbers (:mod:`engine.wizards_cup.coach`), so the
screens only lay it out and tests can read it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engine.core.words import plural
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
                          f"(you: {cup_words(advice.guessed)}). {_mix_guessed_words(advice)}")),
    ]


def _mix_guessed_words(advice: LineupAdvice) -> str:
    """How far Hard's mix can be answered, only where that figure means something; else why it mixes.

    With the opponent's team hidden, the mix is fitted to how the opponent is
    expected to play with each team it might hold. Answered by an opponent
    who knows the mix, it is about as beatable as one fixed order (the coach
    answers it team by team), so that figure would hide why Hard mixes at all.
    """
    them = advice.opponent
    if advice.known:
        return (f"One who knew Hard's mix, but not the lineup it drew, would win {pct(advice.mix_guessed.lose)} "
                f"(the mix: {cup_words(advice.mix_guessed)}).")
    return (f"While {them}'s team is hidden, Hard's mix is fitted to how {them} is expected to play with each "
            f"team {them} might hold, not to an opponent who knows the mix: that one could answer it as surely "
            f"as a fixed order. Hard mixes so that {them} cannot learn its order from one round to the next. "
            f"How well the mix stands up to a guesser is shown once {them}'s team is known.")


def _played(side: SidePlay) -> str:
    if side.whole:
        return lineup_words(side.revealed, side.waiting)
    shown = names(side.revealed) if side.revealed else "no wizard"
    hidden = 5 - len(side.revealed)
    return f"{shown}, then {hidden} never duelled" if hidden else f"{shown}; waiting: never shown"


def _gave(name: str, gave: float | None, side: SidePlay, suggested: Sequence[Suggestion], other: str) -> str:
    if gave is None:
        return f"{name}: not known."
    points = round(gave * 50)  # a payoff is a Cup chance won minus lost: half of it is the chance itself
    hedge = "" if side.whole else " at least"
    if points == 0 and side.whole:
        if any(s.order == side.revealed and s.waiting == side.waiting for s in suggested):
            return f"{name} gave up nothing against the equilibrium."
        # Outside the top 3 yet worth as much: many lineups can tie against the other side's mix.
        return (f"{name} gave up nothing against the equilibrium: {name}'s lineup is not among its most-played, "
                f"but against {other}'s equilibrium mix it does as well as they do (many lineups tie, and the "
                f"equilibrium lists only its three most-played).")
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
        for seat, (side, gave) in enumerate(zip(review.sides, review.gave_up, strict=True)):
            lines.append(say(_gave(side.name, gave, side, review.suggested[seat], review.sides[1 - seat].name), 1))
    return lines


def advice_summary(advice: LineupAdvice) -> str:
    """The lineup advice in two sentences (the announce key): its chances, and the Hard bot's mix's beside them."""
    return (f"Your lineup {round_words(advice.yours)}: {cup_words(advice.yours)}. "
            f"Hard's own mix would have {cup_words(advice.mix)}.")


def review_summary(reviews: Sequence[RoundReview]) -> str:
    """The review in a sentence or two (the announce key): how much Cup chance each side gave up in all."""
    if not reviews:
        return "No round was played to its end."
    reviewed = [review for review in reviews if review.equilibrium is not None]
    if not reviewed:
        return f"{plural(len(reviews), 'round')} played, none could be reviewed: {reviews[0].why}"
    parts = []
    for seat, side in enumerate(reviews[0].sides):
        known = [gave for review in reviewed if (gave := review.gave_up[seat]) is not None]
        points = round(sum(known) * 50)  # as _gave says it: half a payoff is the Cup chance itself
        parts.append(f"{side.name} gave up {plural(points, 'point')} of Cup chance against the equilibrium"
                     if known else f"what {side.name} gave up is not known")
    return f"{plural(len(reviewed), 'round')} of {len(reviews)} reviewed. In all, {parts[0]}; {parts[1]}."
