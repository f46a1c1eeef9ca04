"""The Pillar Lab's step back (issue 28): ``←`` undoes one move of resolution, as the replay's ``←`` does.

What the screen shows after stepping back is compared with the Lab engine's
own tables for the same scenario, computed apart from the screen.
"""

from __future__ import annotations

from textual.widgets import RichLog
from textual.widgets._footer import FooterKey

from engine.wizbits.lab.json_form import shipped_scenarios
from engine.wizbits.lab.table import build, next_group, start, step
from engine.wizbits.pillar.text import describe_group
from tests.helpers.pillar_lab_tui import LabHost, lab
from tests.helpers.waiting import until
from tui.games.wizbits.lab.screen import PillarLabScreen
from tui.games.wizbits.pillar_tree.tree import PillarTree


def logged(screen: PillarLabScreen) -> str:
    """The event log as one line of text (wrapping undone)."""
    return " ".join(" ".join(strip.text for strip in screen.query_one("#lab-log", RichLog).lines).split())


def uids(screen: PillarLabScreen) -> set[int]:
    tree = screen.query_one(PillarTree)
    return set() if tree.pillar is None else {unit.uid for unit in tree.pillar.units()}


async def test_left_steps_back_one_step_at_a_time_then_to_building() -> None:
    scenario = shipped_scenarios()[0]
    started, _ = start(build(scenario))
    first = describe_group(next_group(started), scenario.rtf)
    once, _, _ = step(started)
    second = describe_group(next_group(once), scenario.rtf)
    app = LabHost(scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        tree = screen.query_one(PillarTree)
        await pilot.press("g")
        await until(pilot, lambda: tree.mode == "step", 'tree.mode == "step"')
        await until(pilot, lambda: "Step back" in [key.description for key in screen.query(FooterKey)],
                    "the Footer offering the step back")
        await pilot.press("n")
        await until(pilot, lambda: first in logged(screen), "the first step in the log")
        await pilot.press("n")
        await until(pilot, lambda: second in logged(screen), "the second step in the log")
        await pilot.press("left")
        # Back before the second step: its units stand again, its lines left the log, and n steps it again.
        await until(pilot, lambda: second not in logged(screen), "the second step gone from the log")
        assert uids(screen) == {unit.uid for unit in once.pillar.units()}
        assert tree.explanation.startswith(second) and first in logged(screen)
        await pilot.press("left", "left")
        # Back before resolution began: building again with every play, and left does nothing more.
        await until(pilot, lambda: tree.mode == "build", 'tree.mode == "build"')
        assert not screen.table.started and screen.table.scenario == scenario
        assert uids(screen) == {unit.uid for unit in started.pillar.units()}
        assert first not in logged(screen) and screen.check_action("step_back", ()) is False
        await pilot.press("g", "n")
        await until(pilot, lambda: first in logged(screen), "the first step again")


async def test_left_stops_auto_and_a_rebuild_forgets_the_way_back() -> None:
    scenario = shipped_scenarios()[0]
    app = LabHost(scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        tree = screen.query_one(PillarTree)
        await pilot.press("g", "a")
        await until(pilot, lambda: screen.table.done, "the pillar to resolve")
        await pilot.press("left")
        await until(pilot, lambda: not screen.table.done and bool(tree.next_group), "one step undone")
        assert not tree.auto
        await pilot.press("r")
        await until(pilot, lambda: tree.mode == "build", 'tree.mode == "build"')
        assert screen.check_action("step_back", ()) is False


async def test_left_takes_back_a_pass_at_a_triggers_priority() -> None:
    scenario = next(s for s in shipped_scenarios() if s.title == "Destroyed or sent home?")
    app = LabHost(scenario)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = lab(app)
        tree = screen.query_one(PillarTree)
        await pilot.press("g")
        await until(pilot, lambda: tree.mode == "step", 'tree.mode == "step"')
        while screen.table.priority is None:
            assert tree.next_group, "the Swarm's trigger opens Priority before the pillar is done"
            before = len(screen.table.events)
            await pilot.press("n")
            await until(pilot, lambda before=before: len(screen.table.events) > before, "a step")
        holder = screen.table.priority
        await pilot.press("g")
        await until(pilot, lambda: screen.table.priority == 1 - holder, "the other side's Priority")
        await pilot.press("left")
        await until(pilot, lambda: screen.table.priority == holder and screen.seat == holder,
                    "the holder's Priority again")
        assert tree.mode == "build"
