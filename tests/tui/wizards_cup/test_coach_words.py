"""The coach's words on its own numbers: which figures it shows, and what it explains."""

from __future__ import annotations

import pytest

from engine.wizards_cup.coach import Chances, LineupAdvice, Suggestion
from engine.wizards_cup.coach_review import RoundReview, SidePlay
from tui.games.wizards_cup.coach_words import advice_lines, pct, review_lines

ANA = ("pyre-lord", "echo-warden", "mist-warden", "tide-caller", "moss-hermit", "lantern-knight")
BO = ("ember-adept", "hollow-sage", "thornmother", "brine-witch", "cinder-duelist", "night-whisper")


def chances(lose: float) -> Chances:
    return Chances(1.0 - lose, 0.0, lose, 1.0 - 2 * lose)


def advice(known: bool) -> LineupAdvice:
    """A made-up word from the coach: a fixed order answered always, the mix at a distinct figure."""
    top = (Suggestion(ANA[:5], ANA[5], 0.2), Suggestion(ANA[1:], ANA[0], 0.2))
    return LineupAdvice(ANA[:5], ANA[5], "Bo", known, chances(0.4), chances(0.45), top,
                        guessed=chances(1.0), mix_guessed=chances(0.73), model=())


def text(lines: list[tuple[int, object]]) -> str:
    return " ".join(str(line) for _, line in lines)


def test_with_the_team_hidden_the_mix_is_not_rated_against_a_guesser_and_the_coach_says_why_hard_mixes() -> None:
    words = text(advice_lines(advice(known=False)))
    assert "would win 100% of rounds" in words  # a fixed order can always be answered: still said
    assert pct(0.73) not in words  # the mix's figure against a guesser means nothing here
    assert "Bo's team is hidden" in words and "Hard mixes so that Bo cannot learn its order" in words


def test_with_the_team_known_the_mix_against_a_guesser_is_shown() -> None:
    words = text(advice_lines(advice(known=True)))
    assert f"would win {pct(0.73)}" in words and "Hard mixes so that" not in words


def side(name: str, team: tuple[str, ...]) -> SidePlay:
    return SidePlay(name, team[:5], team, team[5])


def review(suggested_for_ana: tuple[Suggestion, ...]) -> RoundReview:
    bo_top = (Suggestion(BO[:5], BO[5], 0.5),)
    return RoundReview(1, (0, 0), (0,), (side("Ana", ANA), side("Bo", BO)), (suggested_for_ana, bo_top),
                       equilibrium=chances(0.5), played=(chances(0.5), chances(0.5)), gave_up=(0.0, 0.0))


@pytest.mark.parametrize("in_top", [True, False], ids=["among the top 3", "outside the top 3"])
def test_a_lineup_that_gave_up_nothing_outside_the_top_3_is_explained(in_top: bool) -> None:
    others = tuple(Suggestion((*ANA[1:5], ANA[0]), ANA[5], w) for w in (0.3,))
    played = (Suggestion(ANA[:5], ANA[5], 0.2),) if in_top else ()
    words = text(review_lines([review(others + played)]))
    assert "Ana gave up nothing against the equilibrium" in words
    explained = "not among its most-played" in words and "against Bo's equilibrium mix it does as well" in words
    assert explained is not in_top
    assert "Bo gave up nothing against the equilibrium." in words  # Bo played the equilibrium's first lineup

