"""The Pillar Lab: set up a table, build a pillar freely, then resolve it exactly as a game does.

A :class:`Scenario` is plain data: the format, the RTF, the base (a Turn or a
Damage Base Foundation), each side's cards in play, hand and deck, and the
units to build. :func:`build` turns it into a :class:`LabTable` holding a real
:class:`~engine.wizbits.state.WizbitsState`; units go on the pillar through
:func:`engine.wizbits.flow.play_unit` with the payloads the game uses, only
without paying costs and whatever the phase. Resolution goes through
:class:`~engine.wizbits.rules.WizbitsRules` itself (two passes, then one
``resolve`` table step at a time), so the events, dice and texts are the game's.
When a step sets off triggers, Priority opens again as in a game: the holder
may answer with cards and abilities, then passes (:func:`pass_priority`).

Cards are named by *references*, so a scenario file stays readable and does
not depend on instance ids: ``"0/main"``, ``"1/table/2"`` (the second card of
seat 1's table, counting from 1) and ``"0/hand/1"``. Units on the pillar are
``"play/3"`` (the unit the third play made) or ``"unit/7"`` (pillar uid 7,
for triggers, which no play made). JSON lives in :mod:`engine.wizbits.lab.json_form`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TypeVar

from engine.core.contract import Event
from engine.core.rng import seeded_rng
from engine.core.words import plural
from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.continuous import collect_triggers, live_abilities, target_options
from engine.wizbits.effects import Effect, TargetKind
from engine.wizbits.lab.model import (
    PHASE_OF_BASE,
    LabCard,
    LabError,
    LabPlay,
    LabSide,
    LabTable,
    Scenario,
)
from engine.wizbits.lab.resolve import RULES, next_group, pass_priority, start, step
from engine.wizbits.model import Ability, AbilityType, Category
from engine.wizbits.phases import open_pillar, place_triggers, play_unit
from engine.wizbits.pillar.text import RTFS
from engine.wizbits.pillar.tree import BASE_KINDS, FORMATS, UnitKind
from engine.wizbits.plays import card_slots
from engine.wizbits.resolve import chosen_slots
from engine.wizbits.state import Battle, JsonDict, Permanent, PlayerState, WizbitsState, opponent
from engine.wizbits.terms import TriggerEvent
from engine.wizbits.unit_targets import newest_unit_arrow

__all__ = [
    "PHASE_OF_BASE", "RULES", "LabCard", "LabError", "LabPlay", "LabSide", "LabTable", "Scenario", "ability_choices",
    "add_play", "build", "card_choices", "next_group", "pass_priority", "slot_choices", "start", "step",
    "trigger_abilities",
]

_T = TypeVar("_T")

# -- building ----------------------------------------------------------------------------


def _card(card_id: str, where: str) -> None:
    if card_id not in CARDS_BY_ID:
        raise LabError(f"{where}: unknown card {card_id!r}")


def _deck(side: LabSide, seat: int, seed: int) -> tuple[str, list[str]]:
    """The deck's name and its card ids with the top LAST, as the state keeps them."""
    if isinstance(side.deck, str):
        if side.deck not in STARTER_DECKS:
            raise LabError(f"seat {seat + 1}: unknown starter deck {side.deck!r}")
        starter = STARTER_DECKS[side.deck]
        ids = starter.deck.card_ids()
        if side.main.card in ids:
            ids.remove(side.main.card)  # that copy starts in play, as in a game
        seeded_rng(seed, "deck", seat).shuffle(ids)
        return starter.name, ids
    for card_id in side.deck:
        _card(card_id, f"seat {seat + 1} deck")
    return "Lab deck", list(reversed(side.deck))


def _permanent(card: LabCard, iid: int, seat: int, where: str, main: bool) -> Permanent:
    _card(card.card, where)
    printed = CARDS_BY_ID[card.card]
    if main and not printed.is_character:
        raise LabError(f"{where}: the Main Character must be a Character, not {printed.name}")
    if printed.category is Category.ELEMENT:
        raise LabError(f"{where}: {printed.name} is an Element; only Characters and Non-Elements stay in play")
    if card.damage < 0 or (card.damage and not printed.is_character):
        raise LabError(f"{where}: only characters take damage, and never below 0")
    if card.seceded and main:
        raise LabError(f"{where}: a Main Character is never seceded")
    return Permanent(iid, seat, seceded=card.seceded, damage=card.damage)


def build(scenario: Scenario) -> LabTable:
    """Set the table, open the pillar and build every play of ``scenario``.

    Every mistake of the set-up (settings, cards in play, hands, decks) is found before any is
    told; the plays are then built in order, and the first one that can't be built is told alone,
    since every later play builds on it.

    Raises:
        LabError: the scenario breaks a rule; each of its ``mistakes`` names the part.
    """
    mistakes: list[str] = []

    def noted(check: Callable[[], _T]) -> _T | None:
        try:
            return check()
        except LabError as error:
            mistakes.extend(error.mistakes)
            return None

    if scenario.format not in FORMATS:
        mistakes.append(f"format is one of {FORMATS}, not {scenario.format!r}")
    if scenario.rtf not in RTFS:
        mistakes.append(f"the Rules Text Format is 1 or 2, not {scenario.rtf!r}")
    if scenario.base not in BASE_KINDS:
        mistakes.append(f"base is one of {BASE_KINDS}, not {scenario.base!r}")
    if scenario.active not in (0, 1):
        mistakes.append("the active seat is 0 or 1")
    cards: list[str] = []
    owners: list[int] = []
    refs: dict[str, int] = {}
    players: list[PlayerState] = []

    def add(card_id: str, seat: int, ref: str) -> int:
        cards.append(card_id)
        owners.append(seat)
        refs[ref] = len(cards) - 1
        return len(cards) - 1

    for seat, side in enumerate(scenario.sides):
        main = add(side.main.card, seat, f"{seat}/main")
        in_play = [noted(partial(_permanent, side.main, main, seat, f"seat {seat + 1} Main Character", True))]
        for number, card in enumerate(side.table, start=1):
            iid = add(card.card, seat, f"{seat}/table/{number}")
            in_play.append(noted(partial(_permanent, card, iid, seat, f"seat {seat + 1} table card {number}", False)))
        hand = []
        for number, card_id in enumerate(side.hand, start=1):
            noted(partial(_card, card_id, f"seat {seat + 1} hand card {number}"))
            hand.append(add(card_id, seat, f"{seat}/hand/{number}"))
        deck_name, deck_ids = noted(partial(_deck, side, seat, scenario.seed)) or ("", [])
        deck = []
        for card_id in deck_ids:
            cards.append(card_id)
            owners.append(seat)
            deck.append(len(cards) - 1)
        players.append(PlayerState(side.name, deck_name, main, deck=deck, hand=hand,
                                   in_play=[permanent for permanent in in_play if permanent is not None]))
    if mistakes:
        raise LabError(*mistakes)
    state = WizbitsState(seed=scenario.seed, format=scenario.format, rtf=scenario.rtf, cards=cards, owners=owners,
                         players=players, first=scenario.active, active=scenario.active,
                         play_round=1 if scenario.base == "turn" else 0)
    table = LabTable(scenario, state, refs)
    if scenario.base == "damage":
        _set_battle(table)
    elif scenario.attackers or scenario.defenders:
        raise LabError("only a Damage base has a battle")
    open_pillar(state, PHASE_OF_BASE[scenario.base], table.events, scenario.base)
    plays = scenario.plays
    table.scenario = replace(scenario, plays=())
    for number, play in enumerate(plays, start=1):
        try:
            _add(table, play)
        except LabError as error:
            raise LabError(f"play {number}: {error}") from None
    return table


def _set_battle(table: LabTable) -> None:
    scenario, state = table.scenario, table.state
    chosen: list[list[int]] = []
    for seat, refs in ((scenario.active, scenario.attackers), (opponent(scenario.active), scenario.defenders)):
        iids = []
        for ref in refs:
            iid = table.card_iid(ref)
            permanent = state.players[seat].permanent(iid)
            if permanent is None or not state.card(iid).is_character or permanent.seceded:
                raise LabError(f"battle: {ref} is not an unseceded character in play for seat {seat + 1}")
            iids.append(iid)
        chosen.append(iids)
    if not chosen[0] or not chosen[1]:
        raise LabError("a Damage base needs at least one attacker and one defender")
    state.battles = [Battle(chosen[0], chosen[1])]
    state.attackers = list(chosen[0])


# -- playing -----------------------------------------------------------------------------


def add_play(table: LabTable, play: LabPlay) -> LabTable:
    """A new table with ``play`` built on the pillar; ``table`` is left as it was.

    Raises:
        LabError: the play is not possible now; the message says why.
    """
    twin = table.copy()
    _add(twin, play)
    return twin


def _foundation(table: LabTable, on: str | None) -> int | None:
    pillar = table.state.pillar
    assert pillar is not None
    if on is None:
        return None
    uid = table.unit_uid(on)
    if not pillar.is_foundation(uid):
        legal = ", ".join(["the main Current Foundation"] + [table.unit_ref(tip) for tip in pillar.foundations()[1:]])
        raise LabError(f"{on} is not a legal foundation now; build on {legal}")
    return uid


def slot_choices(table: LabTable, seat: int, slots: list[Effect]) -> list[list[str | None]]:
    """The legal targets of each chosen slot, as references; ``[None]`` when a slot has no legal choice."""
    options: list[list[str | None]] = []
    for effect in slots:
        found = target_options(table.state, seat, effect)
        unit_slot = effect.target.kind is TargetKind.UNIT
        refs: list[str | None] = [table.unit_ref(x) if unit_slot else table.ref_of(x) for x in found]
        options.append(refs or [None])
    return options


def card_choices(table: LabTable, seat: int, card_id: str) -> list[list[str | None]]:
    """The legal targets of each chosen slot of card ``card_id`` played by ``seat`` now."""
    _card(card_id, "card")
    return slot_choices(table, seat, card_slots(CARDS_BY_ID[card_id]))


def trigger_abilities(table: LabTable, seat: int) -> list[tuple[str, int, Ability]]:
    """``(card reference, ability index, ability)`` for every Trigger ability ``seat`` could use now."""
    found = []
    for permanent in table.state.players[seat].in_play:
        for index, ability in enumerate(live_abilities(table.state, permanent)):
            if ability.type is AbilityType.TRIGGER:
                found.append((table.ref_of(permanent.iid), index, ability))
    return found


def ability_choices(table: LabTable, seat: int, source: str, index: int) -> list[list[str | None]]:
    """The legal targets of each chosen slot of the ability ``index`` of card ``source``."""
    iid = table.card_iid(source)
    return slot_choices(table, seat, chosen_slots((_ability(table, seat, iid, index),)))


def _ability(table: LabTable, seat: int, iid: int, index: int) -> Ability:
    permanent = table.state.players[seat].permanent(iid)
    if permanent is None:
        raise LabError(f"seat {seat + 1} has no {table.ref_of(iid)} in play")
    abilities = live_abilities(table.state, permanent)
    if not 0 <= index < len(abilities) or abilities[index].type is not AbilityType.TRIGGER:
        raise LabError(f"{table.state.card(iid).name} has no Trigger ability {index} now")
    return abilities[index]


def _targets(table: LabTable, play: LabPlay, options: list[list[str | None]]) -> list[int | None]:
    if len(play.targets) != len(options):
        raise LabError(f"this needs {plural(len(options), 'chosen target')}, not {len(play.targets)}")
    chosen: list[int | None] = []
    for number, (ref, legal) in enumerate(zip(play.targets, options, strict=False), start=1):
        if ref not in legal:
            shown = ", ".join("nothing" if item is None else item for item in legal)
            raise LabError(f"target {number} ({ref}) is not a legal choice; legal: {shown}")
        if ref is None:
            chosen.append(None)
        elif ref.startswith(("play/", "unit/")):
            chosen.append(table.unit_uid(ref))
        else:
            chosen.append(table.card_iid(ref) if ref in table.refs else int(ref.partition("/")[2]))
    return chosen


def _add(table: LabTable, play: LabPlay) -> None:
    state = table.state
    answering = table.priority is not None
    if (table.started and not answering) or state.over or state.pillar is None:
        raise LabError("the pillar is resolving; reset the Lab to build again")
    if play.seat not in (0, 1):
        raise LabError("seat is 0 or 1")
    if answering and play.seat != table.priority:
        raise LabError(f"{state.players[table.priority or 0].name} holds Priority: only they can add a unit now")
    if answering and play.kind == "damage":
        raise LabError("damage units are built before resolution; a trigger is answered with cards and abilities")
    on = _foundation(table, play.on)
    player = state.players[play.seat]
    uid = state.pillar.next_uid
    triggers: list[JsonDict] = []
    if play.kind == "card":
        assert play.card is not None
        _card(play.card, "card")
        targets = _targets(table, play, card_choices(table, play.seat, play.card))
        card = CARDS_BY_ID[play.card]
        # A fresh copy of the card joins the table; the tables are shared between copies, so replace them.
        state.cards = [*state.cards, play.card]
        state.owners = [*state.owners, play.seat]
        iid = len(state.cards) - 1
        play_unit(state, UnitKind.CARD, play.seat, card.name, {"iid": iid, "targets": targets}, on)
        table.events.append(Event("play", f"{player.name} plays {card.name}{newest_unit_arrow(state)}"
                                  " (Lab: no cost).",
                                  {"seat": play.seat, "iid": iid, "card": card.card_id, "on": on}))
        if card.category is Category.ELEMENT:
            triggers = collect_triggers(state, TriggerEvent.OPPONENT_PLAYS_ELEMENT, iid, opponent(play.seat))
    elif play.kind == "ability":
        assert play.source is not None
        iid = table.card_iid(play.source)
        _ability(table, play.seat, iid, play.ability)
        targets = _targets(table, play, ability_choices(table, play.seat, play.source, play.ability))
        permanent = state.permanent(iid)
        assert permanent is not None
        name = state.card(iid).name
        payload = {"iid": iid, "ability": play.ability, "flip": permanent.seceded, "targets": targets}
        play_unit(state, UnitKind.ABILITY, play.seat, f"{name} ability", payload, on)
        table.events.append(Event("activate", f"{player.name} uses an ability of {name}"
                                  f"{newest_unit_arrow(state)} (Lab: no cost).",
                                  {"seat": play.seat, "iid": iid, "ability": play.ability,
                                   "flip": permanent.seceded}))
    else:
        _add_damage(table, play, on)
    table.units.append(uid)
    if not answering:  # an answer to a trigger is practice; the scenario keeps what was built before resolving
        table.scenario = replace(table.scenario, plays=(*table.scenario.plays, play))
    if triggers:
        place_triggers(state, triggers, table.events)


def _add_damage(table: LabTable, play: LabPlay, on: int | None) -> None:
    state = table.state
    if table.scenario.base != "damage" or not play.damage:
        raise LabError("damage units stand only on a Damage base, and deal at least one share")
    shares = []
    for ref, points in play.damage:
        iid = table.card_iid(ref)
        if state.permanent(iid) is None or not state.card(iid).is_character or points < 1:
            raise LabError(f"damage goes to characters in play, at least 1 point each ({ref})")
        shares.append([iid, points])
    name = state.players[play.seat].name
    text = ", ".join(f"{points} to {state.card(iid).name}" for iid, points in shares)
    play_unit(state, UnitKind.DAMAGE, play.seat, f"Damage from {name}", {"damage": shares}, on)
    table.events.append(Event("damage_declared", f"{name} deals {text}.", {"seat": play.seat, "damage": shares}))
