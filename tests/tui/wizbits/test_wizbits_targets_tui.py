"""Pilot tests: chosen targets, threats and waiting triggers are on the Wizbits screens and in the Lab.

Ana's Sparkswarm Volley targets Bo's Pondskater Scout and Bo's Ripple of
Doubt counters the Volley (``resolving``); each is drawn with its target in
the tree, in Inspect and in the log, and the Scout is marked while the
Volley stands. The Lab's Damage Pillar example ends with Gloomgnat Swarm's
trigger waiting for the next pillar, which the tree lists.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from engine.wizbits.actions import Attack
from engine.wizbits.lab.json_form import shipped_scenarios
from tests.helpers.waiting import until
from tests.helpers.wizbits_battle import BIG, SMALL, BattleApp, conflict, names, resolving, run
from tui.games.wizbits.pillar_tree.text import PillarOutline
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.games.wizbits.side import THREAT_MARK, SidePanel


def drawn(tree: PillarOutline) -> list[Text]:
    """The tree's lines as drawn, each fitted to its pane (guides and icons not included)."""
    nodes = [tree.get_node_at_line(line) for line in range(tree.last_line + 1)]
    return [tree.render_label(node, tree.rich_style, tree.rich_style)  # type: ignore[arg-type]
            for node in nodes if node is not None]


def line_of(lines: list[Text], name: str) -> str:
    return next(line.plain for line in lines if name in line.plain)


def test_each_unit_shows_its_target_from_the_viewers_seat() -> None:
    app = BattleApp(resolving(), viewer=0)

    async def scenario(pilot: Any) -> None:
        lines = drawn(app.table.query_one(PillarOutline))
        assert "→Sparkswarm" in line_of(lines, "Ripple") and line_of(lines, "Ripple").endswith("(h1)")
        assert "→Pondskater" in next(line.plain for line in lines if "Sparkswarm" in line.plain
                                     and "Ripple" not in line.plain)
        # The cursor stands on Ripple of Doubt, which resolves first; the line under the tree names its target.
        tree = app.table.query_one(PillarTree)
        assert "Targets your Sparkswarm Volley (h1)." in str(tree.query_one("#pt-detail").render())

    run(app, scenario, BIG)


def test_bo_reads_the_target_as_anas_card() -> None:
    app = BattleApp(resolving(), viewer=1)

    async def scenario(pilot: Any) -> None:
        tree = app.table.query_one(PillarTree)
        assert "Targets Ana's Sparkswarm Volley (h1)." in str(tree.query_one("#pt-detail").render())

    run(app, scenario, BIG)


def test_at_80x24_every_line_keeps_its_target_and_fits_its_pane() -> None:
    app = BattleApp(resolving(), viewer=0)

    async def scenario(pilot: Any) -> None:
        await pilot.press("t")
        await until(pilot, lambda: app.table.query_one(PillarOutline).size.width > 0, 'outline.size.width > 0')
        outline = app.table.query_one(PillarOutline)
        assert outline.size.width > 0
        lines = drawn(outline)
        ripple = line_of(lines, "Ripple")
        volley = next(line.plain for line in lines if "Sparkswarm" in line.plain and "Ripple" not in line.plain)
        assert ("→Sparkswa" in ripple or "→your Sparkswarm" in ripple) and ripple.endswith("(h1)"), ripple
        assert "→Pondskat" in volley or "→Bo's Pondskater" in volley
        for line in lines:
            assert line.cell_len <= outline.size.width, line.plain

    run(app, scenario, SMALL)


def test_a_threatened_card_is_marked_while_the_unit_stands() -> None:
    game = resolving()
    app = BattleApp(game, viewer=1)

    async def scenario(pilot: Any) -> None:
        mine = app.table.query_one("#wb-you", SidePanel).text.plain
        scout = next(line for line in mine.splitlines() if "Pondskater Scout" in line)
        assert f"{THREAT_MARK} targeted" in scout
        assert f"{THREAT_MARK}" not in app.table.query_one("#wb-opp", SidePanel).text.plain
        # Ripple of Doubt resolves first and counters the Volley: nothing targets the Scout any more.
        await pilot.press("m")
        while game.state.pillar is not None and any(u.name == "Sparkswarm Volley" for u in game.state.pillar.units()):
            app.on_game_table_step_requested(None)  # type: ignore[arg-type]
            await pilot.pause()
        await until(pilot, lambda: THREAT_MARK not in app.table.query_one("#wb-you", SidePanel).text.plain,
                    "the Scout's threat mark gone")

    run(app, scenario, BIG)


def test_inspect_names_targets_and_who_is_targeted() -> None:
    app = BattleApp(resolving(), viewer=1)

    async def scenario(pilot: Any) -> None:
        await pilot.press("i")
        shown = names(app)
        assert any(line.startswith("Pillar Sparkswarm Volley Ana → your Pondskater Scout") for line in shown)
        assert any("Pondskater Scout" in line and f"{THREAT_MARK} targeted" in line for line in shown)
        assert "Bo plays Ripple of Doubt → Ana's Sparkswarm Volley (h1)." in [event.text for event in app.game.events]

    run(app, scenario, BIG)


async def test_the_lab_lists_the_trigger_waiting_for_the_next_pillar() -> None:
    from tests.helpers.pillar_lab_tui import LabHost, lab

    scenario = next(s for s in shipped_scenarios() if s.title == "A Damage Pillar")
    app = LabHost(scenario)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = lab(app)
        tree = screen.query_one(PillarTree)
        assert not tree.waiting
        await pilot.press("g", "a")
        await until(pilot, lambda: screen.table.done, "the pillar to resolve")
        await until(pilot, lambda: ([(w.owner, w.name) for w in tree.waiting] == [(1, "Gloomgnat Swarm")]),
                    '[(w.owner, w.name) for w in tree.waiting] == [(1, "Gloomg...')
        outline = tree.query_one(PillarOutline)
        lines = [line.plain for line in drawn(outline)]
        assert any(line.startswith("▾ Waiting for the next pillar · 1") for line in lines)
        swarm = next(line for line in lines if line.startswith("⧗ Gloomgnat Swarm"))
        assert "Bo" in swarm and "trig" in swarm
        for line in drawn(outline):
            assert line.cell_len <= outline.size.width, line.plain


def test_the_compact_opponent_side_still_names_its_threatened_card() -> None:
    app = BattleApp(resolving(), viewer=0)

    async def scenario(pilot: Any) -> None:
        opponent = app.table.query_one("#wb-opp", SidePanel)
        assert opponent.brief
        # The brief side shows the Scout itself now, marked where its name is.
        assert any("Pondskater Scout" in line and THREAT_MARK in line for line in opponent.text.plain.splitlines())

    run(app, scenario, SMALL)


def test_inspect_lists_a_trigger_waiting_for_the_next_pillar() -> None:
    game, attackers, _ = conflict()
    game.act(0, Attack(tuple(attackers)))  # the Squire's "declared as an attacker" trigger waits: no pillar is open
    app = BattleApp(game, viewer=1)

    async def scenario(pilot: Any) -> None:
        await pilot.press("i")
        looks = names(app)
        assert any(line.startswith("Waiting Emberbeetle Squire Ana") for line in looks)

    run(app, scenario, BIG)
