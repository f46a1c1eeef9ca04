"""Wizbits effect interpreter: each primitive, Tough, checks, secession and flip Incomes, triggers."""

from __future__ import annotations

from typing import Any

from engine.core.contract import Event
from engine.wizbits.cards.card_set import CARDS
from engine.wizbits.continuous import has_attribute, points_of
from engine.wizbits.dice import SPECIAL_CHECK_BREAK_GLOBAL_CHECK, SPECIAL_CHECK_GLOBAL_CHECK, Stat, parse_check
from engine.wizbits.effects import (
    CardFilter,
    ChangeStat,
    Check,
    Damage,
    Destroy,
    Discard,
    DiscardMode,
    Draw,
    Duration,
    Effect,
    GainPoints,
    GrantAttribute,
    Heal,
    Mill,
    ReturnToHand,
    Search,
    Secede,
    Target,
    iter_effects,
)
from engine.wizbits.model import AbilityType, Category, Element, TriggerEvent
from engine.wizbits.resolve import (
    Resolution,
    collect_triggers,
    end_of_turn_cleanup,
    make_check,
    pending_slots,
    run_effects,
    run_pending,
    secede,
)
from engine.wizbits.terms import Attribute
from tests.helpers.wizbits_table import Table, zone_of


def run(table: Table, *effects: Effect, seat: int = 0, source: int | None = None,
        targets: list[int | None] | None = None) -> Resolution:
    ctx = Resolution(seat, source, targets=list(targets or []))
    run_effects(table.state, ctx, effects)
    return ctx


def kinds(events: list[Event]) -> list[str]:
    return [event.kind for event in events]


# -- damage, heal and Tough ---------------------------------------------------------------


def test_damage_raises_the_scn_one_point_at_a_time() -> None:
    table = Table()
    wanderer = table.put("voidhopper-wanderer", 1)  # SCN 3
    ctx = run(table, Damage(Target.CHOSEN_OPPOSING_CHARACTER, 3), targets=[wanderer])
    assert table.perm(wanderer).damage == 3
    assert points_of(table.state, table.perm(wanderer)).scn == 6
    assert ctx.events[-1].data["scn"] == 6


def test_tough_ignores_only_the_first_point_each_turn() -> None:
    table = Table()
    squire = table.put("emberbeetle-squire", 1)  # Tough
    run(table, Damage(Target.CHOSEN_OPPOSING_CHARACTER, 2), targets=[squire])
    assert table.perm(squire).damage == 1
    run(table, Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1), targets=[squire])
    assert table.perm(squire).damage == 2
    end_of_turn_cleanup(table.state, [])
    run(table, Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1), targets=[squire])
    assert table.perm(squire).damage == 2  # a new turn: Tough is ready again


def test_heal_removes_damage_but_never_below_none() -> None:
    table = Table()
    table.perm(table.main_0).damage = 2
    run(table, Heal(Target.YOUR_MAIN, 3))
    assert table.perm(table.main_0).damage == 0


def test_the_log_says_what_a_heal_removed_and_never_heals_0_damage() -> None:
    table = Table()
    name = table.state.card(table.main_0).name
    table.perm(table.main_0).damage = 2
    (healed,) = run(table, Heal(Target.YOUR_MAIN, 3)).events
    assert healed.text == f"{name} heals 2 damage." and healed.data["amount"] == 2
    (nothing,) = run(table, Heal(Target.YOUR_MAIN, 3)).events
    assert nothing.text == f"{name} has no damage to heal." and nothing.data["amount"] == 0


# -- players' cards -----------------------------------------------------------------------


def test_draw_takes_from_the_top_and_an_empty_deck_loses() -> None:
    table = Table()
    bottom, top = table.put("pollen-drift", 0, "deck"), table.put("overgrowth", 0, "deck")
    run(table, Draw(Target.YOU, 1))
    assert table.players[0].hand == [top] and table.players[0].deck == [bottom]
    ctx = run(table, Draw(Target.YOU, 2), GainPoints(Target.YOU, 1))
    assert table.players[0].hand == [top, bottom]
    assert table.state.winner == 1 and "empty deck" in table.state.reason
    assert table.players[0].points == 0  # nothing happens once the game is over
    assert ctx.events[-1].kind == "game_over"


def test_random_discard_is_seeded_and_lowest_cost_takes_the_earliest_of_equals() -> None:
    def discard_random(seed: int) -> list[int]:
        table = Table(seed)
        for card_id in ("pollen-drift", "overgrowth", "hollow-gaze", "tidal-recall"):
            table.put(card_id, 1, "hand")
        run(table, Discard(Target.OPPONENT, 2))
        assert len(table.players[1].hand) == 2
        return table.players[1].discard

    assert discard_random(3) == discard_random(3)
    assert len({tuple(discard_random(seed)) for seed in range(8)}) > 1
    table = Table()
    tidal, drift, gaze, quiet = (table.put(card_id, 1, "hand") for card_id in
                                 ("tidal-recall", "pollen-drift", "hollow-gaze", "quiet-between-wings"))
    run(table, Discard(Target.OPPONENT, 2, DiscardMode.LOWEST_COST))  # costs 2, 1, 2, 0
    assert table.players[1].discard == [quiet, drift]
    run(table, Discard(Target.OPPONENT, 1, DiscardMode.LOWEST_COST))
    assert table.players[1].discard == [quiet, drift, tidal] and table.players[1].hand == [gaze]


def test_mill_takes_what_the_deck_has_and_never_loses() -> None:
    table = Table()
    cards = [table.put("pollen-drift", 1, "deck") for _ in range(2)]
    run(table, Mill(Target.OPPONENT, 3))
    assert table.players[1].discard == cards[::-1] and not table.players[1].deck
    assert not table.state.over


def test_gained_points_add_up_and_vanish_at_end_of_turn() -> None:
    table = Table()
    run(table, GainPoints(Target.YOU, 2), GainPoints(Target.YOU, 1))
    assert table.players[0].points == 3
    end_of_turn_cleanup(table.state, [])
    assert table.players[0].points == 0


def test_search_takes_the_first_matches_from_the_top_then_shuffles() -> None:
    table = Table()
    deck = [table.put(card_id, 0, "deck") for card_id in
            ("tidal-recall", "ripple-of-doubt", "pollen-drift", "undertow-refusal", "overgrowth", "morning-chorus")]
    rolls = table.state.rolls
    run(table, Search(Target.YOU, CardFilter(Category.ELEMENT, Element.WATER), 2))
    assert table.players[0].hand == [deck[3], deck[1]]  # top is last: Undertow first, then Ripple
    assert sorted(table.players[0].deck) == sorted([deck[0], deck[2], deck[4], deck[5]])
    assert table.state.rolls == rolls + 1  # one seeded shuffle


# -- changes to characters ---------------------------------------------------------------


def test_stat_changes_step_die_levels_and_only_turn_ones_end() -> None:
    table = Table()
    oracle = table.perm(table.main_0)  # S d6, W d8
    run(table, ChangeStat(Target.YOUR_MAIN, Stat.STRENGTH, 1),
         ChangeStat(Target.YOUR_MAIN, Stat.WILL, -2, Duration.PERMANENT))
    assert (points_of(table.state, oracle).strength, points_of(table.state, oracle).will) == (8, 5)
    run(table, ChangeStat(Target.YOUR_MAIN, Stat.STRENGTH, 9))
    assert points_of(table.state, oracle).strength == 20  # the ladder stops at d20
    end_of_turn_cleanup(table.state, [])
    assert (points_of(table.state, oracle).strength, points_of(table.state, oracle).will) == (6, 5)


def test_granted_attributes_last_as_long_as_they_say() -> None:
    table = Table()
    oracle = table.perm(table.main_0)
    run(table, GrantAttribute(Target.YOUR_MAIN, Attribute.WARD),
        GrantAttribute(Target.YOUR_MAIN, Attribute.TOUGH, Duration.PERMANENT))
    assert has_attribute(table.state, oracle, Attribute.WARD) and has_attribute(table.state, oracle, Attribute.TOUGH)
    end_of_turn_cleanup(table.state, [])
    assert not has_attribute(table.state, oracle, Attribute.WARD)
    assert has_attribute(table.state, oracle, Attribute.TOUGH)


def test_destroy_and_return_move_cards_but_never_a_main_character() -> None:
    table = Table()
    swarm = table.put("gloomgnat-swarm", 1, damage=2)
    kite = table.put("prism-kite", 1, damage=0)
    run(table, Destroy(Target.CHOSEN_OPPOSING_CARD), ReturnToHand(Target.CHOSEN_OPPOSING_CARD),
        Destroy(Target.OPPONENT_MAIN), ReturnToHand(Target.OPPONENT_MAIN), Secede(Target.OPPONENT_MAIN),
        targets=[swarm, kite])
    assert zone_of(table.state, swarm) == "discard" and zone_of(table.state, kite) == "hand"
    assert zone_of(table.state, table.main_1) == "play" and not table.perm(table.main_1).seceded


def test_a_returned_card_comes_back_fresh() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 1, damage=3, lasting_steps={"will": 2}, lasting_attributes=["ward"])
    run(table, ReturnToHand(Target.CHOSEN_OPPOSING_CARD), targets=[scout])
    assert table.players[1].hand == [scout]


def test_each_targets_pass_over_main_characters_for_moves_only() -> None:
    table = Table()
    squire, scout = table.put("emberbeetle-squire", 1), table.put("pondskater-scout", 1)
    run(table, Damage(Target.EACH_OPPOSING_CHARACTER, 2), Secede(Target.EACH_OPPOSING_CHARACTER))
    assert table.perm(table.main_1).damage == 2 and not table.perm(table.main_1).seceded
    assert table.perm(squire).seceded and table.perm(scout).seceded


def test_a_chosen_target_that_left_play_is_skipped() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 1)
    ctx = run(table, ReturnToHand(Target.CHOSEN_OPPOSING_CARD), Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1),
              Heal(Target.YOUR_MAIN, 1), targets=[scout, scout])
    assert kinds(ctx.events) == ["return", "heal"]


# -- checks -------------------------------------------------------------------------------


def test_a_break_check_is_made_by_the_main_character() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 0)
    events: list[Event] = []
    make_check(table.state, scout, parse_check("Will Check Break 0"), events, [])
    assert events[0].data["iid"] == table.main_0 and events[0].data["dice"] == [8]


def test_a_special_check_uses_the_scn_with_its_damage() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 1, damage=3)  # SCN 3
    events: list[Event] = []
    roll = make_check(table.state, scout, parse_check("Special Magic Check"), events, [])
    assert roll.number == 6 and events[0].data["number"] == 6 and events[0].data["special"]


def test_a_failed_special_check_global_check_secedes_for_no_points() -> None:
    table = Table()
    voidhopper = table.put("voidhopper-wanderer", 0, damage=60)  # a sum of three dice can't beat 63
    table.put("pollen-drift", 0, "deck")
    make_check(table.state, voidhopper, SPECIAL_CHECK_GLOBAL_CHECK, [], [])
    assert table.perm(voidhopper).seceded and table.players[0].points == 0
    assert len(table.players[0].hand) == 1  # its flip Income drew a card
    assert not table.state.over


def test_a_failed_special_check_break_global_check_loses_the_game() -> None:
    table = Table()
    table.perm(table.main_1).damage = 60
    events: list[Event] = []
    make_check(table.state, table.main_1, SPECIAL_CHECK_BREAK_GLOBAL_CHECK, events, [])
    assert table.state.winner == 0 and "Special Check Break Global Check" in table.state.reason
    assert kinds(events) == ["check", "game_over"]


def test_every_roll_is_an_event_with_its_dice_and_result() -> None:
    table = Table()
    events: list[Event] = []
    roll = make_check(table.state, table.main_0, SPECIAL_CHECK_BREAK_GLOBAL_CHECK, events, [])
    data = events[0].data
    assert (data["dice"], data["rolls"], data["total"], data["number"]) == ([6, 8, 8], list(roll.rolls), roll.total, 5)
    assert data["success"] == roll.success and data["seat"] == 0


def test_check_outcomes_run_at_once_on_the_checker() -> None:
    table = Table()
    scout = table.put("pondskater-scout", 1)
    table.put("pollen-drift", 0, "deck")
    passes = Check(Target.CHOSEN_OPPOSING_CHARACTER, parse_check("Will Check 0"),
                   on_success=(Damage(Target.CHECKER, 2), Draw(Target.YOU, 1)))
    fails = Check(Target.CHOSEN_OPPOSING_CHARACTER, parse_check("Will Check 20"), on_fail=(Secede(Target.CHECKER),))
    run(table, passes, fails, targets=[scout, scout])
    assert table.perm(scout).damage == 2 and len(table.players[0].hand) == 1
    assert table.perm(scout).seceded


# -- secession and flip Incomes -----------------------------------------------------------


def test_seceding_runs_a_flip_income_without_choices_at_once() -> None:
    table = Table()
    kite = table.put("prism-kite", 0)
    table.put("pollen-drift", 0, "deck")
    events: list[Event] = []
    assert secede(table.state, kite, events, [])
    assert table.perm(kite).seceded and len(table.players[0].hand) == 1
    assert kinds(events) == ["secede", "draw"] and not table.state.pending
    assert not secede(table.state, kite, events, [])  # already seceded


def test_a_flip_income_with_a_choice_waits_for_its_seat() -> None:
    table = Table()
    squire = table.put("emberbeetle-squire", 0)  # flip: 1 damage to a chosen opposing character
    scout = table.put("pondskater-scout", 1)
    secede(table.state, squire, [], [])
    pending = table.state.pending[0]
    assert pending == {"seat": 0, "iid": squire, "ability": 0, "flip": True}
    assert [type(effect) for effect in pending_slots(table.state, pending)] == [Damage]
    run_pending(table.state, pending, [scout], [])
    assert table.perm(scout).damage == 1 and not table.state.pending


def test_a_flip_income_with_no_legal_choice_does_not_wait() -> None:
    table = Table(main_1="hollow-cicada-monk")  # the only opposing character has Ward
    squire = table.put("emberbeetle-squire", 0)
    secede(table.state, squire, [], [])
    assert not table.state.pending


# -- triggers -----------------------------------------------------------------------------


def payloads(found: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(item["iid"], item["event"]) for item in found]


def test_destruction_sets_off_this_card_and_your_other_cards() -> None:
    table = Table()
    swarm = table.put("gloomgnat-swarm", 1)
    drum = table.put("acorn-drum", 1)
    ctx = run(table, Destroy(Target.CHOSEN_OPPOSING_CHARACTER), targets=[swarm])
    assert payloads(ctx.triggers) == [(swarm, "this_destroyed"), (drum, "own_character_destroyed")]
    assert ctx.triggers[0] == {"iid": swarm, "ability": 0, "flip": False, "owner": 1, "name": "Gloomgnat Swarm",
                               "event": "this_destroyed"}


def test_damage_that_lands_sets_off_the_damaged_character() -> None:
    table = Table()
    beetle = table.put("mossback-stagbeetle", 1)  # Tough: the first point doesn't land
    ctx = run(table, Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1), targets=[beetle])
    assert ctx.triggers == []
    ctx = run(table, Damage(Target.CHOSEN_OPPOSING_CHARACTER, 1), targets=[beetle])
    assert payloads(ctx.triggers) == [(beetle, "this_damaged")]


def test_seceding_sets_off_your_other_cards_only() -> None:
    table = Table()
    box, kite = table.put("grim-music-box", 0), table.put("prism-kite", 0)
    table.put("grim-music-box", 1)
    table.put("pollen-drift", 0, "deck")
    triggers: list[dict[str, Any]] = []
    secede(table.state, kite, [], triggers)
    assert payloads(triggers) == [(box, "you_secede_another")]
    triggers.clear()
    secede(table.state, box, [], triggers)
    assert triggers == []  # "another": the box doesn't answer its own secession


def test_a_failed_check_sets_off_its_sides_answers() -> None:
    table = Table(main_0="hollow-cicada-monk")
    triggers: list[dict[str, Any]] = []
    make_check(table.state, table.main_0, parse_check("Will Check 20"), [], triggers)
    assert payloads(triggers) == [(table.main_0, "own_check_fails")]


def test_the_flow_asks_for_attacks_and_element_plays() -> None:
    table = Table()
    squire = table.put("emberbeetle-squire", 0)
    assassin = table.put("nightcrawler-assassin", 0)
    mayfly = table.put("mayfly-tidecaller", 1)
    state = table.state
    assert payloads(collect_triggers(state, TriggerEvent.THIS_ATTACKS, squire, 0)) == [(squire, "this_attacks")]
    assert collect_triggers(state, TriggerEvent.THIS_ATTACKS, assassin, 0)[0]["ability"] == 1
    assert payloads(collect_triggers(state, TriggerEvent.OPPONENT_PLAYS_ELEMENT, 99, 1)) == [
        (mayfly, "opponent_plays_element")]
    table.perm(squire).seceded = True  # seceded: its normal abilities are out of play
    assert collect_triggers(state, TriggerEvent.THIS_ATTACKS, squire, 0) == []


def test_no_trigger_continue_ability_in_the_set_chooses_a_target() -> None:
    for card in CARDS:
        for ability in (*card.abilities, *card.flip_abilities):
            if ability.type is AbilityType.TRIGGER_CONTINUE:
                assert not any(effect.target.is_chosen for effect in iter_effects(ability.effects)), card.name


def test_every_trigger_event_is_used_by_the_set() -> None:
    used = {ability.trigger for card in CARDS for ability in (*card.abilities, *card.flip_abilities)}
    assert set(TriggerEvent) <= used
