"""Pilot tests of the Pillar Lab: every shipped scenario stepped on screen, building by keyboard, files, set-up edits.

What the screen shows is compared with what the Lab engine says for the
same scenario, computed apart from the screen, so no rule is restated here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input, OptionList, RichLog

from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.decklist import decklist
from engine.wizbits.lab.json_form import read_scenario, scenario_to_json, shipped_scenarios
from engine.wizbits.lab.table import Scenario, build, next_group, pass_priority, start, step
from engine.wizbits.pillar.text import describe_group
from engine.wizbits.pillar.tree import UnitKind
from saves import SessionStore
from saves.decks import DeckStore
from tests.helpers.pillar_lab_tui import LabHost, lab
from tests.helpers.waiting import until
from tui.games.wizbits.dice_log import DiceLog
from tui.games.wizbits.lab.cards import LabCards
from tui.games.wizbits.lab.dialogs import PickScreen
from tui.games.wizbits.lab.screen import PillarLabScreen, blank_scenario
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.screens.help import HelpScreen
from tui.widgets.problem_list import ProblemListScreen


def logged(screen: PillarLabScreen) -> str:
    """The event log as one line of text (wrapping undone)."""
    return " ".join(" ".join(strip.text for strip in screen.query_one("#lab-log", RichLog).lines).split())


def engine_steps(scenario: Scenario) -> list[tuple[int, ...]]:
    """The uids of each resolution step, as the Lab engine resolves the scenario on its own."""
    table, _ = start(build(scenario))
    steps = []
    while next_group(table):
        if table.priority is not None:  # a trigger opened Priority; nobody answers it
            table, _ = pass_priority(table)
            continue
        table, _, group = step(table)
        steps.append(tuple(unit.uid for unit in group))
    return steps


async def pick(pilot: Any, wanted: str) -> None:
    """Choose the entry whose id is ``wanted`` in the open picker, its last step and the choice by keyboard."""
    await until(pilot, lambda: (isinstance(pilot.app.screen, (PickScreen, HelpScreen))),
                'isinstance(screen, (PickScreen, HelpScreen))')
    screen = pilot.app.screen
    assert isinstance(screen, (PickScreen, HelpScreen))
    options = screen.query_one(OptionList)
    ids = [options.get_option_at_index(n).id for n in range(options.option_count)]
    # The highlight goes next to the entry at once (a down key a row cost a redraw each, up to 32 of them),
    # then the last move and the choice are keys, as a player's are.
    if ids.index(wanted):
        options.highlighted = ids.index(wanted) - 1
        await pilot.press("down")
    assert options.highlighted == ids.index(wanted)
    await pilot.press("enter")
    await pilot.pause()


async def test_each_shipped_scenario_steps_in_the_engines_order() -> None:
    # One Lab serves every example: loading one rebuilds the table and clears the logs, as a player sees it.
    app = LabHost(blank_scenario())
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        for index, scenario in enumerate(shipped_scenarios()):
            await step_a_shipped_scenario(pilot, screen, index, scenario)


async def step_a_shipped_scenario(pilot: Any, screen: PillarLabScreen, index: int, scenario: Scenario) -> None:
    """Load the ``index``-th example by keyboard and step it to its end, comparing each step with the engine's."""
    expected = engine_steps(scenario)
    # Loaded from the examples picker, as a player would.
    await pilot.press("o")
    await pick(pilot, str(index))
    assert screen.table.scenario == scenario, scenario.title
    tree = screen.query_one(PillarTree)
    assert tree.mode == "build", scenario.title
    await pilot.press("g")
    await until(pilot, lambda: tree.mode == "step", 'tree.mode == "step"')
    for number, uids in enumerate(expected, start=1):
        while screen.table.priority is not None:  # a trigger opened Priority: g passes, as a game's players do
            assert tree.mode == "build"
            await pilot.press("g")
            await pilot.pause()
        # Before the step: the highlighted group and its explanation are the engine's next step.
        assert tuple(unit.uid for unit in tree.next_group) == uids, f"{scenario.title}, step {number}"
        # (A card whose Incomes differ in speed adds why its Reverse Pillar runs in that order.)
        explanation = describe_group(tree.next_group, scenario.rtf)
        assert tree.explanation.startswith(explanation)
        await pilot.press("n")
        await until(pilot, lambda explanation=explanation, uids=uids: (
            explanation in logged(screen)
            and tree.pillar is not None and not set(uids) & {unit.uid for unit in tree.pillar.units()}
        ), 'explanation in logged(screen)')
        # After it, the log shows that same line and the units have left the tree.
        assert explanation in logged(screen)
        assert tree.pillar is not None and not set(uids) & {unit.uid for unit in tree.pillar.units()}
    assert not tree.next_group and tree.explanation == "The pillar has resolved.", scenario.title
    assert "Resolved" in str(screen.query_one("#lab-status").render())
    # Checks rolled on the way are in the dice log, one line each (the log starts empty with each example).
    checks = [event for event in screen.table.events if event.kind == "check"]
    assert screen.query_one(DiceLog).count == len(checks), scenario.title


async def test_auto_resolves_to_the_end() -> None:
    scenario = shipped_scenarios()[0]
    app = LabHost(scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        await pilot.press("g", "a")
        await until(pilot, lambda: screen.table.done, "the pillar to resolve")
        assert len([e for e in screen.table.events if e.kind == "resolve_step"]) == \
            len(engine_steps(scenario))


async def test_build_a_pillar_by_keyboard_for_both_sides() -> None:
    app = LabHost(blank_scenario())
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        tree = screen.query_one(PillarTree)
        # Ana plays Sparkswarm Volley for free; Bo's Sage is the only target, so it is taken.
        await pilot.press("c")
        await pick(pilot, "sparkswarm-volley")
        units = list(screen.table.pillar.units())
        assert [(u.name, u.owner, u.height) for u in units] == [("Sparkswarm Volley", 0, 1)]
        assert len(screen.table.state.players[0].deck) == 59  # nothing was paid from the deck
        # Bo counters it with his Sage's Trigger ability: a new subpillar on the Volley.
        await pilot.press("t", "b")
        await pick(pilot, "1/main#1")
        ability = list(screen.table.pillar.units())[-1]
        assert (ability.kind, ability.owner, ability.height, ability.iph, ability.branch) == \
               (UnitKind.ABILITY, 1, 2, 1, 1)
        # f moves the foundation to the subpillar's tip; Quiet Between Wings goes there.
        await pilot.press("f")
        assert tree.foundation == ability.uid
        await pilot.press("c")
        await pick(pilot, "quiet-between-wings")
        quiet = list(screen.table.pillar.units())[-1]
        assert (quiet.name, quiet.owner, quiet.height, quiet.iph, quiet.foundation) == \
               ("Quiet Between Wings", 1, 3, 2, ability.uid)
        await pilot.press("u")
        await until(pilot, lambda: (len(list(screen.table.pillar.units())) == 2),
                    'len(list(screen.table.pillar.units())) == 2')
        await pilot.press("g")
        await until(pilot, lambda: (
            tree.next_group == next_group(screen.table) and tree.next_group[0].uid == ability.uid
        ), 'tree.next_group == next_group(screen.table) and tree.next...')


async def test_set_up_edits_rebuild_the_table() -> None:
    app = LabHost(blank_scenario())
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        await pilot.press("i")
        await pick(pilot, "pondskater-scout")
        assert screen.table.scenario.sides[0].table[0].card == "pondskater-scout"
        cards = screen.query_one(LabCards)
        cards.focus()
        refs = [cards.get_option_at_index(n).id for n in range(cards.option_count)]
        cards.highlighted = refs.index("0/table/1")
        await pilot.press("plus", "plus", "v")
        await until(pilot, lambda: screen.table.scenario.sides[0].table[0].seceded, "the scout seceded")
        scout = screen.table.scenario.sides[0].table[0]
        assert (scout.damage, scout.seceded) == (2, True)
        permanent = screen.table.state.permanent(screen.table.refs["0/table/1"])
        assert permanent is not None and permanent.damage == 2 and permanent.seceded
        cards.highlighted = refs.index("0/main")
        await pilot.press("x")  # the Main Character can't leave
        await until(pilot, lambda: (screen.table.scenario.sides[0].main.card == "cinderwing-archmage"),
                    'screen.table.scenario.sides[0].main.card == "cinderwing-a...')


async def test_save_load_and_a_clear_error_for_a_bad_file(tmp_path: Path) -> None:
    scenario = shipped_scenarios()[1]
    app = LabHost(scenario)
    target = tmp_path / "mine.json"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**scenario_to_json(scenario), "colour": 2}), encoding="utf-8")  # one mistake: a toast
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)

        async def type_path(key: str, path: Path) -> None:
            await pilot.press(key)
            await pilot.pause()
            field = pilot.app.screen.query_one(Input)
            field.value = str(path)
            await pilot.press("enter")
            await pilot.pause()

        await type_path("w", target)
        assert read_scenario(target) == scenario
        await type_path("l", bad)
        assert screen.table.scenario == scenario  # unchanged
        assert any("unknown key 'colour'" in str(n.message) for n in app._notifications)
        await pilot.press("o")
        await pick(pilot, "3")
        assert screen.table.scenario.title == shipped_scenarios()[3].title
        await type_path("l", target)
        assert screen.table.scenario == scenario


async def test_loading_a_file_lists_every_mistake_in_a_dialog(tmp_path: Path) -> None:
    scenario = shipped_scenarios()[1]
    bad = tmp_path / "bad.json"
    data = scenario_to_json(scenario)
    data["colour"] = 2
    data["sides"][0]["hand"] = ["no-such-card"]
    data["plays"].append({"seat": 7, "card": "prism-kite"})
    bad.write_text(json.dumps(data), encoding="utf-8")
    app = LabHost(scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = lab(app)
        await pilot.press("l")
        await until(pilot, lambda: bool(app.screen.query(Input)), "the path prompt")
        app.screen.query_one(Input).value = str(bad)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ProblemListScreen), "the list of mistakes")
        listed = app.screen
        assert isinstance(listed, ProblemListScreen)
        assert len(listed.problems) == 3 and str(bad) in listed.heading
        assert [problem.split(" ", 1)[0].split(".", 1)[0] for problem in listed.problems] == \
            ["scenario", "sides[0]", f"plays[{len(scenario.plays)}]"]
        assert screen.table.scenario == scenario  # unchanged
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back at the Lab")


async def test_the_main_menu_opens_the_lab() -> None:
    from tui.app import CovenApp
    from tui.screens.menu import MainMenu

    app = CovenApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MainMenu)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, PillarLabScreen), 'isinstance(app.screen, PillarLabScreen)')
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), 'isinstance(app.screen, MainMenu)')


async def test_setup_changes_the_rules_text_format_and_the_base_then_damage_is_built() -> None:
    from textual.widgets import Select

    app = LabHost(blank_scenario())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = lab(app)
        await pilot.press("s")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#setup-rtf", Select).value = 2
        dialog.query_one("#setup-base", Select).value = "damage"
        dialog.query_one("#setup-title", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: screen.table.scenario.rtf == 2, "the scenario's new set-up")
        scenario = screen.table.scenario
        assert (scenario.rtf, scenario.base, scenario.attackers, scenario.defenders) == \
               (2, "damage", ("0/main",), ("1/main",))
        assert screen.query_one(PillarTree).rtf == 2
        # Ana deals 5 to Bo's Sage, as a damage unit on the Damage Base Foundation.
        await pilot.press("d")
        await pick(pilot, "1/main")
        await pick(pilot, "5")
        unit = list(screen.table.pillar.units())[0]
        assert (unit.kind, unit.owner, unit.payload["damage"]) == (UnitKind.DAMAGE, 0, [[screen.table.refs["1/main"], 5]])
        await pilot.press("g")
        await pilot.press("n")
        await until(pilot, lambda: (screen.table.done and screen.query_one(DiceLog).count == 2),
                    'screen.table.done and screen.query_one(DiceLog).count == 2')


async def test_setup_offers_saved_decks_and_keeps_a_listed_deck(store: SessionStore) -> None:
    from textual.widgets import Select

    tidal = STARTER_DECKS["tidal-dusk"].deck
    DeckStore(store).save_deck("Night Tide", decklist(tidal))
    app = LabHost(blank_scenario(), store)  # the Lab is given the store, as CovenApp gives it its own
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one("#setup-deck-0", Select).value = "saved:Night Tide"
        app.screen.query_one("#setup-title", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: (screen.table.scenario.sides[0].main.card == tidal.main),
                    'ana.main.card == tidal.main and isinstance(ana.deck, tuple)')
        ana = screen.table.scenario.sides[0]
        # The saved deck's Main Character takes the seat, and its other 59 cards are the deck.
        assert ana.main.card == tidal.main and isinstance(ana.deck, tuple)
        expected = tidal.card_ids()
        expected.remove(tidal.main)
        assert sorted(ana.deck) == sorted(expected)
        # Opening the set-up again and applying keeps that list.
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one("#setup-title", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: (screen.table.scenario.sides[0].deck == ana.deck),
                    'screen.table.scenario.sides[0].deck == ana.deck')


def footer_shown(app: App[None]) -> list[str]:
    """The descriptions of the Footer's keys, checking that none is cut at the screen's edge."""
    from textual.widgets._footer import FooterKey

    keys = list(app.screen.query(FooterKey))
    assert all(key.region.right <= app.size.width for key in keys), [(k.description, k.region) for k in keys]
    return [key.description for key in keys]


async def test_the_footer_fits_save_and_menu_at_100x30_and_80x24() -> None:
    # Keys the Footer has no room for are left out whole (and still work: see the next test), never cut.
    damage_lesson = next(s for s in shipped_scenarios() if s.base == "damage")
    for scenario, size, building, stepping in [
        (shipped_scenarios()[0], (100, 30), {"Card", "Ability", "Side", "Resolve", "Undo", "Save", "Menu", "Keys",
                                             "Load", "Setup"}, {"Step", "Auto", "Rebuild", "Save", "Load", "Menu"}),
        (damage_lesson, (100, 30), {"Card", "Damage", "Resolve", "Undo", "Save", "Menu", "Keys", "Load"},
         {"Step", "Save", "Menu", "Keys", "Load", "Setup"}),
        (shipped_scenarios()[0], (80, 24), {"Card", "Ability", "Resolve", "Undo", "Save", "Menu", "Keys"},
         {"Step", "Auto", "Save", "Menu", "Keys", "Load"}),
        (damage_lesson, (80, 24), {"Card", "Damage", "Side", "Resolve", "Undo", "Save", "Menu", "Keys"},
         {"Step", "Save", "Menu", "Keys", "Load", "Setup"}),
    ]:
        app = LabHost(scenario)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda app=app, building=building: building <= set(footer_shown(app)),
                        'building <= set(shown)')
            shown = footer_shown(app)
            assert building <= set(shown), (size, scenario.title, shown)
            await pilot.press("g")
            await until(pilot, lambda app=app, stepping=stepping: (
                stepping <= set(footer_shown(app)) and "Card" not in footer_shown(app)
            ), 'stepping <= set(shown) and "Card" not in shown')
            shown = footer_shown(app)
            assert stepping <= set(shown) and "Card" not in shown, (size, scenario.title, shown)


async def test_the_keys_list_holds_the_hidden_keys_and_presses_the_one_chosen() -> None:
    app = LabHost(shipped_scenarios()[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the keys list")
        listed = app.screen
        assert isinstance(listed, HelpScreen)
        options = listed.query_one(OptionList)
        labels = [str(options.get_option_at_index(n).prompt) for n in range(options.option_count)]
        for hidden in ("Examples", "Setup", "Load", "Put into play", "New table"):
            assert any(label.endswith(f"  {hidden}") for label in labels), (hidden, labels)
        await pick(pilot, "o")  # the Examples key, which the Footer doesn't show
        await until(pilot, lambda: isinstance(app.screen, PickScreen), "the examples list")
        examples = app.screen
        assert isinstance(examples, PickScreen) and examples.title_text == "Open which example?"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, PillarLabScreen), "the Lab again")
        assert "Load" not in footer_shown(app)  # no room at 80 columns while building, yet the key works
        await pilot.press("l")
        await until(pilot, lambda: app.screen.query(Input), "the file name prompt")
        assert app.screen.query_one(Input).value.endswith("pillar-lab.json")


async def test_the_event_log_wraps_again_when_the_terminal_narrows() -> None:
    app = LabHost(shipped_scenarios()[0])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = lab(app)
        await pilot.press("g", "n")
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await until(pilot, lambda: (screen.query_one('#lab-log', RichLog).scrollable_content_region.width < 60),
                    'width < 60 and all(len(strip.text.rstrip()) <= width for ...')
        log = screen.query_one("#lab-log", RichLog)
        width = log.scrollable_content_region.width
        assert width < 60 and all(len(strip.text.rstrip()) <= width for strip in log.lines)
        text = logged(screen)
        assert all(" ".join(event.text.split()) in text for event in screen.table.events)


async def test_a_scenario_is_saved_in_the_exports_folder_and_not_replaced_unasked(
        coven_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.widgets.confirm import ConfirmScreen

    app = LabHost(shipped_scenarios()[0])
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        await pilot.press("w")
        await until(pilot, lambda: (
            app.screen.query_one(Input).value == str(coven_data_dir / "exports" / "pillar-lab.json")
        ), 'app.screen.query_one(Input).value == str(coven_data_dir /...')
        await pilot.press("enter")
        await until(pilot, lambda: (
            read_scenario((coven_data_dir / 'exports' / 'pillar-lab.json').resolve()) == screen.table.scenario
        ), 'read_scenario(saved) == screen.table.scenario')
        saved = (coven_data_dir / "exports" / "pillar-lab.json").resolve()
        assert read_scenario(saved) == screen.table.scenario
        assert any(f"Saved to {saved}" in str(n.message) for n in app._notifications)
        await pilot.press("o")
        await pick(pilot, "3")
        await pilot.press("w")
        await pilot.pause()
        monkeypatch.chdir(saved.parent)
        app.screen.query_one(Input).value = "pillar-lab.json"  # a bare name: relative to the working directory
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 'isinstance(app.screen, ConfirmScreen)')
        await pilot.press("n")
        await until(pilot, lambda: (read_scenario(saved) == shipped_scenarios()[0]),
                    'read_scenario(saved) == shipped_scenarios()[0]')
        await pilot.press("w")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await until(pilot, lambda: (read_scenario(saved) == shipped_scenarios()[3]),
                    'read_scenario(saved) == shipped_scenarios()[3]')


async def test_the_lab_stops_for_priority_after_a_trigger_and_g_passes() -> None:
    scenario = next(s for s in shipped_scenarios() if s.title == "Destroyed or sent home?")
    app = LabHost(scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        tree = screen.query_one(PillarTree)
        await pilot.press("g")
        await pilot.pause()
        while screen.table.priority is None:
            assert tree.next_group, "the Swarm's trigger opens Priority before the pillar is done"
            await pilot.press("n")
            await pilot.pause()
        # The Lab waits for the players: building again for the seat holding Priority, with g to pass in the Footer.
        holder = screen.table.priority
        assert holder == scenario.active and screen.seat == holder and tree.mode == "build"
        assert "Priority" in str(screen.query_one("#lab-status").render())
        shown = {active.binding.action: active.binding.description for active in screen.active_bindings.values()}
        assert shown.get("pass_priority") == "Pass" and screen.check_action("pass_priority", ()) is True
        assert screen.check_action("play_card", ()) is True and screen.check_action("resolve", ()) is False
        await pilot.press("n")  # no step while Priority is open
        await until(pilot, lambda: screen.table.priority == holder, 'screen.table.priority == holder')
        await pilot.press("g")
        await until(pilot, lambda: (screen.table.priority == 1 - holder and screen.seat == 1 - holder),
                    'screen.table.priority == 1 - holder and screen.seat == 1 ...')
        await pilot.press("g")
        await until(pilot, lambda: (screen.table.priority is None and tree.mode == "step"),
                    'screen.table.priority is None and tree.mode == "step"')
        names = [player.name for player in screen.table.state.players]
        assert f"{names[holder]} passes. {names[1 - holder]} passes." in logged(screen)
