"""Fly: Step Forward, the Characters: three for each element. Pure data."""

from __future__ import annotations

from engine.wizbits.dice import MainPoints as MP
from engine.wizbits.dice import Stat, parse_check
from engine.wizbits.effects import (
    CardFilter,
    ChangeStat,
    Check,
    Counter,
    Damage,
    Discard,
    DiscardMode,
    Draw,
    GainPoints,
    Heal,
    Mill,
    Search,
    Secede,
)
from engine.wizbits.effects import Target as T
from engine.wizbits.model import Card, continuous, income, trigger, when
from engine.wizbits.statics import AttributeGrant, CostChange, Group, StatBonus, TriggerCost
from engine.wizbits.terms import Attribute as A
from engine.wizbits.terms import Category, Element, MoonPhase, Speed, Tone, TriggerEvent

_C = Category.CHARACTER
_FIRE, _LIGHT, _WATER = Element.FIRE, Element.LIGHT, Element.WATER
_SHADOW, _NATURE, _VOID = Element.SHADOW, Element.NATURE, Element.VOID

CHARACTERS: tuple[Card, ...] = (
    # Fire
    Card("cinderwing-archmage", "Cinderwing Archmage", _C, "Mage", _FIRE, 4, Tone.RED,
         main_points=MP(8, 6, 10, 5),
         abilities=(income(Damage(T.CHOSEN_OPPOSING_CHARACTER, 2)),
                    trigger(TriggerCost(points=2, discard=1), Damage(T.OPPONENT_MAIN, 1), speed=Speed.QUICK)),
         flavour="Every spark she sheds remembers the way home."),
    Card("emberbeetle-squire", "Emberbeetle Squire", _C, "Beast", _FIRE, 1, Tone.RED,
         attributes=(A.TOUGH,), main_points=MP(4, 2, 2, 3),
         abilities=(when(TriggerEvent.THIS_ATTACKS, ChangeStat(T.THIS_CHARACTER, Stat.STRENGTH, 1)),),
         flip_abilities=(income(Damage(T.CHOSEN_OPPOSING_CHARACTER, 1)),),
         flavour="Its shell glows hotter the closer it gets to trouble."),
    Card("ashmoth-duelist", "Ashmoth Duelist", _C, "Warrior", _FIRE, 3, Tone.HAZEL, MoonPhase.CRESCENT,
         attributes=(A.CONFLICT_SPEED, A.ELUSIVE), main_points=MP(6, 4, 4, 4),
         abilities=(income(Damage(T.CHOSEN_OPPOSING_CHARACTER, 1), speed=Speed.CONFLICT),),
         flavour="A flutter of grey, then the sting."),
    # Light
    Card("dawnfly-oracle", "Dawnfly Oracle", _C, "Seer", _LIGHT, 3, Tone.YELLOW,
         main_points=MP(6, 8, 8, 5),
         abilities=(income(Draw(T.YOU, 1), speed=Speed.SLOW),
                    income(Heal(T.YOUR_MAIN, 2), speed=Speed.QUICK)),
         flavour="She lives a single day and spends it reading all of tomorrow."),
    Card("glowworm-warden", "Glowworm Warden", _C, "Beast", _LIGHT, 2, Tone.WHITE,
         attributes=(A.WARD,), main_points=MP(4, 6, 4, 4),
         abilities=(continuous(StatBonus(Group.YOUR_MAIN, Stat.WILL, 1)),),
         flip_abilities=(income(Heal(T.YOUR_MAIN, 3)),),
         flavour="A small light, patiently kept."),
    Card("lantern-mantis-paladin", "Lantern Mantis Paladin", _C, "Knight", _LIGHT, 4, Tone.WHITE,
         attributes=(A.TOUGH,), main_points=MP(8, 8, 6, 5),
         abilities=(continuous(StatBonus(Group.YOUR_OTHER_CHARACTERS, Stat.STRENGTH, 1)),),
         flavour="It prays with its blades folded, and fights the same way."),
    # Water
    Card("tidewhisper-sage", "Tidewhisper Sage", _C, "Mage", _WATER, 4, Tone.BLUE,
         main_points=MP(6, 8, 10, 5),
         abilities=(income(Draw(T.YOU, 1)),
                    trigger(TriggerCost(points=3), Counter(T.CHOSEN_OPPOSING_UNIT), speed=Speed.CONFLICT)),
         flavour="He answers most questions by letting them sink."),
    Card("pondskater-scout", "Pondskater Scout", _C, "Beast", _WATER, 1, Tone.CYAN,
         attributes=(A.ELUSIVE,), main_points=MP(2, 4, 4, 3),
         abilities=(income(Search(T.YOU, CardFilter(Category.ELEMENT, _WATER))),),
         flip_abilities=(income(Draw(T.YOU, 1)),),
         flavour="Walks on water, and never waits for permission."),
    Card("mayfly-tidecaller", "Mayfly Tidecaller", _C, "Mage", _WATER, 3, Tone.BLUE, MoonPhase.FULL,
         main_points=MP(4, 6, 8, 4),
         abilities=(when(TriggerEvent.OPPONENT_PLAYS_ELEMENT, Mill(T.OPPONENT, 2)),),
         flavour="Under a full moon, other people's spells come back as rain."),
    # Shadow
    Card("duskmoth-hexer", "Duskmoth Hexer", _C, "Mage", _SHADOW, 4, Tone.BLACK, MoonPhase.NEW,
         main_points=MP(6, 10, 8, 5),
         abilities=(income(Discard(T.OPPONENT, 1)),
                    trigger(TriggerCost(points=2),
                            Check(T.CHOSEN_OPPOSING_CHARACTER, parse_check("Will Check 5"),
                                  on_fail=(Secede(T.CHECKER),)))),
         flavour="Her dust makes you forget why you came."),
    Card("gloomgnat-swarm", "Gloomgnat Swarm", _C, "Swarm", _SHADOW, 2, Tone.BLACK,
         attributes=(A.OFFERING,), main_points=MP(4, 2, 4, 3),
         abilities=(when(TriggerEvent.THIS_DESTROYED, Discard(T.OPPONENT, 1)),),
         flip_abilities=(income(Discard(T.OPPONENT, 1, DiscardMode.LOWEST_COST)),),
         flavour="Swat one and a hundred remember your face."),
    Card("nightcrawler-assassin", "Nightcrawler Assassin", _C, "Rogue", _SHADOW, 3, Tone.HAZEL,
         MoonPhase.HALF, attributes=(A.CONFLICT_SPEED, A.ELUSIVE), main_points=MP(6, 4, 6, 4),
         abilities=(income(ChangeStat(T.CHOSEN_OPPOSING_CHARACTER, Stat.WILL, -1), speed=Speed.CONFLICT),
                    when(TriggerEvent.THIS_ATTACKS, Damage(T.OPPONENT_MAIN, 1))),
         flavour="It comes up through the soil you thought was safe."),
    # Nature
    Card("mossback-stagbeetle", "Mossback Stagbeetle", _C, "Beast", _NATURE, 3, Tone.GREEN,
         attributes=(A.TOUGH,), main_points=MP(8, 4, 4, 4),
         abilities=(when(TriggerEvent.THIS_DAMAGED, Heal(T.THIS_CHARACTER, 1)),),
         flavour="Moss grows over its wounds before they finish bleeding."),
    Card("thistledown-druid", "Thistledown Druid", _C, "Mage", _NATURE, 4, Tone.GREEN,
         main_points=MP(6, 8, 8, 5),
         abilities=(income(Search(T.YOU, CardFilter(element=_NATURE)), speed=Speed.SLOW),
                    income(Heal(T.EACH_OWN_CHARACTER, 2))),
         flavour="Where he sits down, the meadow gets up."),
    Card("bumblebee-herbalist", "Bumblebee Herbalist", _C, "Healer", _NATURE, 2, Tone.YELLOW,
         main_points=MP(2, 4, 6, 3),
         abilities=(trigger(TriggerCost(secede_this=True), Heal(T.CHOSEN_OWN_CHARACTER, 3)),),
         flip_abilities=(income(GainPoints(T.YOU, 2)),),
         flavour="Pockets full of pollen, none of it for sale."),
    # Void
    Card("voidhopper-wanderer", "Voidhopper Wanderer", _C, "Wanderer", _VOID, 2, Tone.WHITE,
         attributes=(A.ELUSIVE,), main_points=MP(4, 4, 4, 3),
         abilities=(income(Draw(T.YOU, 1)),),
         flip_abilities=(income(Draw(T.YOU, 1)),),
         flavour="One hop here, one hop nowhere."),
    Card("hollow-cicada-monk", "Hollow Cicada Monk", _C, "Monk", _VOID, 3, Tone.CYAN,
         attributes=(A.WARD,), main_points=MP(6, 6, 6, 4),
         abilities=(when(TriggerEvent.OWN_CHECK_FAILS, Heal(T.YOUR_MAIN, 1)),
                    continuous(AttributeGrant(Group.THIS_CHARACTER, A.TOUGH))),
         flavour="It left its old shell on a branch and kept only the silence."),
    Card("nullfly-sentinel", "Nullfly Sentinel", _C, "Construct", _VOID, 5, Tone.BLACK, MoonPhase.GIBBOUS,
         attributes=(A.TOUGH, A.WARD), main_points=MP(10, 6, 6, 5),
         abilities=(continuous(CostChange(T.OPPONENT, CardFilter(Category.ELEMENT), 1)),),
         flavour="Wound from nothing, it hums where spells should be."),
)
"""The 18 Characters of the set."""
