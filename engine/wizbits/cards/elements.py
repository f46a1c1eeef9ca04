"""Fly: Step Forward, the Elements: spells, thoughts, hexes and prayers. Pure data."""

from __future__ import annotations

from engine.wizbits.dice import Stat, parse_check
from engine.wizbits.effects import (
    CardFilter,
    ChangeStat,
    Check,
    Counter,
    Damage,
    Destroy,
    Discard,
    DiscardMode,
    Draw,
    Duration,
    GainPoints,
    GrantAttribute,
    Heal,
    Mill,
    ReturnToHand,
    Search,
)
from engine.wizbits.effects import Target as T
from engine.wizbits.model import Card, income
from engine.wizbits.terms import Attribute as A
from engine.wizbits.terms import Category, Element, MoonPhase, Speed, Tone

_E = Category.ELEMENT
_FIRE, _LIGHT, _WATER = Element.FIRE, Element.LIGHT, Element.WATER
_SHADOW, _NATURE, _VOID = Element.SHADOW, Element.NATURE, Element.VOID

ELEMENTS: tuple[Card, ...] = (
    # Fire
    Card("sparkswarm-volley", "Sparkswarm Volley", _E, "Spell", _FIRE, 2, Tone.RED,
         abilities=(income(Damage(T.CHOSEN_OPPOSING_CHARACTER, 3)),),
         flavour="A hundred fireflies, one direction."),
    Card("kindled-resolve", "Kindled Resolve", _E, "Thought", _FIRE, 1, Tone.YELLOW,
         attributes=(A.CONFLICT_SPEED,),
         abilities=(income(ChangeStat(T.CHOSEN_OWN_CHARACTER, Stat.STRENGTH, 2), speed=Speed.CONFLICT),),
         flavour="Small wings, large grudge."),
    Card("wildfire-cascade", "Wildfire Cascade", _E, "Spell", _FIRE, 4, Tone.RED, MoonPhase.FULL,
         abilities=(income(Damage(T.EACH_OPPOSING_CHARACTER, 1), speed=Speed.QUICK),
                    income(Damage(T.OPPONENT_MAIN, 2), speed=Speed.SLOW)),
         flavour="First the meadow, then the one who sent it."),
    # Light
    Card("morning-chorus", "Morning Chorus", _E, "Prayer", _LIGHT, 2, Tone.WHITE,
         abilities=(income(Heal(T.YOUR_MAIN, 3)),
                    income(Draw(T.YOU, 1), speed=Speed.SLOW)),
         flavour="The crickets stop, the cicadas start, and the wounds close."),
    Card("sunlit-insight", "Sunlit Insight", _E, "Thought", _LIGHT, 1, Tone.YELLOW,
         attributes=(A.CONFLICT_SPEED,),
         abilities=(income(GrantAttribute(T.CHOSEN_OWN_CHARACTER, A.WARD), speed=Speed.CONFLICT),
                    income(Heal(T.YOUR_MAIN, 1), speed=Speed.QUICK)),
         flavour="Seen clearly, a threat is only a shape."),
    Card("radiant-verdict", "Radiant Verdict", _E, "Spell", _LIGHT, 3, Tone.WHITE,
         abilities=(income(Check(T.CHOSEN_OPPOSING_CHARACTER, parse_check("Special Will Check"),
                                 on_fail=(Destroy(T.CHECKER),))),),
         flavour="The light asks once. It does not ask twice."),
    # Water
    Card("undertow-refusal", "Undertow Refusal", _E, "Spell", _WATER, 3, Tone.BLUE,
         attributes=(A.CONFLICT_SPEED,),
         abilities=(income(Counter(T.CHOSEN_OPPOSING_UNIT), speed=Speed.CONFLICT),),
         flavour="The current disagrees."),
    Card("ripple-of-doubt", "Ripple of Doubt", _E, "Thought", _WATER, 1, Tone.CYAN,
         abilities=(income(Counter(T.CHOSEN_OPPOSING_UNIT, CardFilter(Category.ELEMENT))),),
         flavour="Are you sure that was the word?"),
    Card("tidal-recall", "Tidal Recall", _E, "Spell", _WATER, 2, Tone.BLUE, MoonPhase.CRESCENT,
         abilities=(income(ReturnToHand(T.CHOSEN_OPPOSING_CARD)),),
         flavour="What the tide brings, the tide takes back."),
    # Shadow
    Card("whispered-dread", "Whispered Dread", _E, "Hex", _SHADOW, 2, Tone.BLACK,
         abilities=(income(Discard(T.OPPONENT, 1)),
                    income(Mill(T.OPPONENT, 2), speed=Speed.SLOW)),
         flavour="Just a buzz at the edge of hearing. Then another."),
    Card("moth-eaten-memory", "Moth-eaten Memory", _E, "Hex", _SHADOW, 2, Tone.HAZEL, MoonPhase.NEW,
         abilities=(income(ChangeStat(T.CHOSEN_OPPOSING_CHARACTER, Stat.WILL, -2, Duration.PERMANENT)),),
         flavour="Holes where the certainty used to be."),
    Card("eclipse-sting", "Eclipse Sting", _E, "Spell", _SHADOW, 3, Tone.BLACK,
         attributes=(A.CONFLICT_SPEED,),
         abilities=(income(Damage(T.CHOSEN_OPPOSING_CHARACTER, 2), speed=Speed.CONFLICT),
                    income(Check(T.OPPONENT_MAIN, parse_check("Special Magic Check"),
                                 on_fail=(Damage(T.CHECKER, 1),)), speed=Speed.SLOW)),
         flavour="For a moment the sun forgets, and something small remembers."),
    # Nature
    Card("pollen-drift", "Pollen Drift", _E, "Spell", _NATURE, 1, Tone.GREEN,
         abilities=(income(GainPoints(T.YOU, 3)),),
         flavour="Gold on the wind, free to anyone who breathes."),
    Card("overgrowth", "Overgrowth", _E, "Spell", _NATURE, 3, Tone.BLUE, MoonPhase.GIBBOUS,
         abilities=(income(ChangeStat(T.EACH_OWN_CHARACTER, Stat.STRENGTH, 1), speed=Speed.QUICK),
                    income(Heal(T.EACH_OWN_CHARACTER, 1))),
         flavour="By morning, the whole garden has teeth."),
    # Void
    Card("quiet-between-wings", "Quiet Between Wings", _E, "Thought", _VOID, 0, Tone.WHITE,
         abilities=(income(Draw(T.YOU, 1), speed=Speed.QUICK),
                    income(Discard(T.YOU, 1, DiscardMode.LOWEST_COST), speed=Speed.SLOW)),
         flavour="Between one beat and the next, a whole idea."),
    Card("hollow-gaze", "Hollow Gaze", _E, "Thought", _VOID, 2, Tone.CYAN,
         abilities=(income(Search(T.YOU, CardFilter(Category.CHARACTER))),),
         flavour="Look into nothing long enough and someone looks back."),
)
"""The 16 Elements of the set."""
