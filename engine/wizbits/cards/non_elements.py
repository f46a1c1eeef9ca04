"""Fly: Step Forward, the Non-Elements: gear, toys, relics and trinkets. Pure data."""

from __future__ import annotations

from engine.wizbits.dice import Stat, parse_check
from engine.wizbits.effects import (
    CardFilter,
    ChangeStat,
    Check,
    Damage,
    Discard,
    DiscardMode,
    Draw,
    GainPoints,
    GrantAttribute,
    Heal,
    Mill,
    Search,
)
from engine.wizbits.effects import Target as T
from engine.wizbits.model import Card, continuous, income, trigger, when
from engine.wizbits.statics import AttributeGrant, CostChange, Group, StatBonus, TriggerCost
from engine.wizbits.terms import Attribute as A
from engine.wizbits.terms import Category, Element, MoonPhase, Speed, Tone, TriggerEvent

_N = Category.NON_ELEMENT
_FIRE, _LIGHT, _WATER = Element.FIRE, Element.LIGHT, Element.WATER
_SHADOW, _NATURE, _VOID = Element.SHADOW, Element.NATURE, Element.VOID

NON_ELEMENTS: tuple[Card, ...] = (
    # Fire
    Card("flickerwand", "Flickerwand", _N, "Wand", _FIRE, 2, Tone.RED,
         abilities=(trigger(TriggerCost(points=1, secede_this=True), Damage(T.CHOSEN_OPPOSING_CHARACTER, 2)),),
         flip_abilities=(income(Damage(T.OPPONENT_MAIN, 1)),),
         flavour="Point the glowing end away from yourself."),
    Card("bellows-of-the-hive", "Bellows of the Hive", _N, "Gear", _FIRE, 3, Tone.HAZEL,
         abilities=(continuous(StatBonus(Group.YOUR_OTHER_CHARACTERS, Stat.STRENGTH, 1)),),
         flip_abilities=(continuous(CostChange(T.YOU, CardFilter(Category.ELEMENT, _FIRE), -1)),),
         flavour="Every breath it gives, the swarm returns as heat."),
    # Light
    Card("halo-lantern", "Halo Lantern", _N, "Relic", _LIGHT, 3, Tone.YELLOW,
         abilities=(continuous(StatBonus(Group.YOUR_MAIN, Stat.WILL, 1)),
                    trigger(TriggerCost(points=2), Heal(T.CHOSEN_OWN_CHARACTER, 2), speed=Speed.QUICK)),
         flavour="Moths circle it all night and leave braver."),
    Card("prism-kite", "Prism Kite", _N, "Toy", _LIGHT, 1, Tone.WHITE,
         attributes=(A.OFFERING,),
         flip_abilities=(income(Draw(T.YOU, 1)),),
         flavour="Let it go, and the rainbow follows."),
    Card("sunglass-monocle", "Sunglass Monocle", _N, "Gear", _LIGHT, 2, Tone.CYAN,
         attributes=(A.CONFLICT_SPEED,),
         abilities=(income(GrantAttribute(T.CHOSEN_OWN_CHARACTER, A.TOUGH), speed=Speed.CONFLICT),),
         flip_abilities=(income(Heal(T.YOUR_MAIN, 2)),),
         flavour="Focus the noon on one bad idea."),
    # Water
    Card("dewdrop-orb", "Dewdrop Orb", _N, "Relic", _WATER, 2, Tone.CYAN,
         abilities=(trigger(TriggerCost(points=2), Draw(T.YOU, 1)),),
         flip_abilities=(income(GainPoints(T.YOU, 2)),),
         flavour="The whole pond, upside down, in a bead."),
    Card("tidepool-hourglass", "Tidepool Hourglass", _N, "Trinket", _WATER, 3, Tone.BLUE, MoonPhase.HALF,
         abilities=(continuous(CostChange(T.OPPONENT, CardFilter(Category.NON_ELEMENT), 1)),),
         flip_abilities=(income(Mill(T.OPPONENT, 3)),),
         flavour="Its sand is wet, and it runs slow for everyone else."),
    Card("net-of-still-water", "Net of Still Water", _N, "Gear", _WATER, 2, Tone.BLUE,
         attributes=(A.CONFLICT_SPEED,),
         abilities=(income(ChangeStat(T.CHOSEN_OPPOSING_CHARACTER, Stat.STRENGTH, -2), speed=Speed.CONFLICT),),
         flavour="Anything caught in it remembers how to be calm."),
    # Shadow
    Card("cobweb-cloak", "Cobweb Cloak", _N, "Gear", _SHADOW, 2, Tone.BLACK,
         abilities=(continuous(AttributeGrant(Group.YOUR_MAIN, A.ELUSIVE)),),
         flip_abilities=(income(Discard(T.OPPONENT, 1, DiscardMode.LOWEST_COST)),),
         flavour="Woven at midnight by a spider who owed a favour."),
    Card("grim-music-box", "Grim Music Box", _N, "Toy", _SHADOW, 3, Tone.HAZEL, MoonPhase.NEW,
         abilities=(when(TriggerEvent.YOU_SECEDE_ANOTHER, Mill(T.OPPONENT, 1)),),
         flip_abilities=(income(Discard(T.OPPONENT, 1)),),
         flavour="Wind it once and it plays the song you least want to hear."),
    # Nature
    Card("acorn-drum", "Acorn Drum", _N, "Toy", _NATURE, 1, Tone.GREEN,
         attributes=(A.OFFERING,),
         abilities=(when(TriggerEvent.OWN_CHARACTER_DESTROYED, Search(T.YOU, CardFilter(Category.CHARACTER))),),
         flip_abilities=(income(GainPoints(T.YOU, 1)),),
         flavour="Beat it twice and the woods send someone."),
    Card("bramble-gauntlet", "Bramble Gauntlet", _N, "Gear", _NATURE, 2, Tone.GREEN,
         abilities=(continuous(AttributeGrant(Group.YOUR_MAIN, A.TOUGH)),),
         flip_abilities=(income(Heal(T.YOUR_MAIN, 2)),),
         flavour="Thorns outward, always."),
    # Void
    Card("empty-thimble", "Empty Thimble", _N, "Trinket", _VOID, 0, Tone.WHITE,
         attributes=(A.OFFERING,),
         flavour="It holds nothing, and gives it away gladly."),
    Card("riddle-cube", "Riddle Cube", _N, "Toy", _VOID, 2, Tone.CYAN,
         abilities=(trigger(TriggerCost(points=1),
                            Check(T.YOUR_MAIN, parse_check("Will Check Break 5"),
                                  on_success=(Draw(T.YOU, 1),), on_fail=(Damage(T.CHECKER, 1),))),),
         flavour="Every side is the answer to a different question."),
    Card("wayfarers-compass", "Wayfarer's Compass", _N, "Gear", _VOID, 1, Tone.WHITE,
         abilities=(income(Search(T.YOU, CardFilter(Category.NON_ELEMENT))),),
         flip_abilities=(income(GainPoints(T.YOU, 1)),),
         flavour="It points at whatever you forgot to pack."),
)
"""The 15 Non-Elements of the set."""
