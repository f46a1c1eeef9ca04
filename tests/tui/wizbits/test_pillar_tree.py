"""Behaviour tests for the Wizbits pillar tree: highlights, foundations, steps, Reverse Pillars, RTF, Continue units.

Pillars are built with the engine (``Pillar.open`` / ``play``) and each test
compares what the widget shows with what the engine says, so no rule is
restated here.
"""

from __future__ import annotations

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.pillar.json_form import pillar_to_json
from engine.wizbits.pillar.text import describe_group
from engine.wizbits.pillar.tree import BASE_UID, Pillar, UnitKind
from engine.wizbits.text import ability_text
from engine.wizbits.unit_targets import TargetView
from tests.helpers.layout_audit import rows
from tests.helpers.pillar_tree import Host, two_subpillars
from tests.helpers.waiting import until
from tui.games.wizbits.pillar_tree.text import PillarOutline, Row
from tui.games.wizbits.pillar_tree.tree import PillarTree


def lines(app: Host) -> list[str]:
    """The tree's lines as plain text, unlimited in width."""
    tree = app.query_one(PillarOutline)
    widget = app.query_one(PillarTree)
    out = []
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        assert node is not None and node.data is not None
        out.append(widget.row_text(node.data, 0).plain)
    return out


def line_of(app: Host, name: str) -> str:
    """The line of the unit called ``name`` (not a subpillar header naming it)."""
    return next(line for line in lines(app) if f"{name} · " in line)


async def test_building_highlights_the_main_tip_and_f_cycles_the_legal_foundations() -> None:
    pillar = two_subpillars()
    app = Host(pillar)
    async with app.run_test(size=(80, 24)) as pilot:
        widget = app.query_one(PillarTree)
        legal = pillar.foundations()
        assert widget.foundation == legal[0] == pillar.main_tip_uid()
        assert "◀ next" in line_of(app, "Wildfire Cascade")
        seen = []
        for _ in legal:
            await pilot.press("f")
            seen.append(widget.foundation)
        assert seen == [*legal[1:], legal[0]]
        assert [message.uid for message in app.of(PillarTree.FoundationChanged)] == seen
        await pilot.press("F")
        assert widget.foundation == legal[-1]
        # The highlight and the explanation follow the foundation.
        name = pillar.unit(legal[-1]).name
        assert "◀ next" in line_of(app, name) and "◀ next" not in line_of(app, "Wildfire Cascade")
        assert widget.explanation.startswith(f"Next unit goes on {name}")


async def test_f_does_nothing_without_subpillars_and_enter_picks_a_foundation() -> None:
    pillar = Pillar.open()
    pillar.play(UnitKind.CARD, 0, "Dawnfly Oracle", {"iid": 10})
    app = Host(pillar)
    async with app.run_test(size=(80, 24)) as pilot:
        widget = app.query_one(PillarTree)
        await pilot.press("f")
        assert app.of(PillarTree.FoundationChanged) == []
        assert not widget.check_action("cycle_foundation", (1,))
        pillar.play(UnitKind.ABILITY, 1, "Ashmoth Duelist ability", {"iid": 11, "ability": 0})
        widget.show(pillar)
        await pilot.pause()
        tip = pillar.foundations()[1]
        # The cursor starts on the foundation; move it to the subpillar tip and press enter.
        while widget.cursor_uid != tip:
            await pilot.press("up")
        await pilot.press("enter")
        assert widget.foundation == tip
        assert app.of(PillarTree.FoundationChanged)[-1].uid == tip


async def test_the_foundation_follows_its_branch_when_a_card_covers_it() -> None:
    pillar = two_subpillars()
    app = Host(pillar)
    async with app.run_test(size=(80, 24)) as pilot:
        widget = app.query_one(PillarTree)
        await pilot.press("f")
        chosen = widget.foundation
        card = pillar.play(UnitKind.CARD, 1, "Morning Chorus", {"iid": 20}, on=chosen)
        widget.show(pillar_to_json(pillar))
        await until(pilot, lambda: widget.foundation == card.uid != chosen, 'widget.foundation == card.uid != chosen')


async def test_step_mode_highlights_the_next_group_in_precedence_and_explains_it() -> None:
    pillar = two_subpillars()
    pillar.resolve_group()  # Sunlit Insight alone at height 3; three units stand at height 2
    app = Host(pillar, mode="step")
    async with app.run_test(size=(80, 24)):
        widget = app.query_one(PillarTree)
        group = pillar.next_group()
        assert len(group) == 3
        assert widget.explanation == describe_group(group, 1) + " Wildfire Cascade: Reverse Pillar: quick first."
        # #1 is the unit that prevails: the last of the engine's increasing precedence.
        for rank, unit in enumerate(reversed(group), start=1):
            assert line_of(app, unit.name).startswith(f"#{rank} ")
        assert "prevails" in line_of(app, group[-1].name)
        assert not line_of(app, "Dawnfly Oracle").startswith("#")
        assert widget.cursor_uid == group[-1].uid


async def test_n_posts_a_step_and_the_new_pillar_drops_the_resolved_units() -> None:
    pillar = two_subpillars()
    app = Host(pillar, mode="step")
    async with app.run_test(size=(80, 24)) as pilot:
        widget = app.query_one(PillarTree)
        await pilot.press("n")
        assert [message.auto for message in app.of(PillarTree.StepRequested)] == [False]
        gone = pillar.resolve_group()
        widget.show(pillar)
        await until(pilot, lambda: (all((unit.name not in '\n'.join(lines(app)) for unit in gone))),
                    'all(unit.name not in shown for unit in gone)')
        shown = "\n".join(lines(app))
        assert all(unit.name not in shown for unit in gone)
        assert all(unit.name in shown for unit in pillar.units())


async def test_auto_steps_until_paused_and_stops_when_the_pillar_is_resolved() -> None:
    pillar = two_subpillars()
    app = Host(pillar, mode="step")
    async with app.run_test(size=(80, 24)) as pilot:
        widget = app.query_one(PillarTree)
        await pilot.press("a")
        assert widget.auto and app.of(PillarTree.AutoToggled)[-1].auto
        await until(pilot, lambda: (len(app.of(PillarTree.StepRequested)) == 1),
                    'len(app.of(PillarTree.StepRequested)) == 1')
        while not pillar.is_resolved():
            pillar.resolve_group()
            widget.show(pillar)
            await pilot.pause(0.1)
        await until(pilot, lambda: widget.explanation == "The pillar has resolved.", "the pillar resolved")
        assert not widget.auto
        assert widget.explanation == "The pillar has resolved."
        assert all(message.auto for message in app.of(PillarTree.StepRequested))

        widget.show(two_subpillars())
        await pilot.press("a")
        await pilot.press("p")
        assert not widget.auto and [m.auto for m in app.of(PillarTree.AutoToggled)][-2:] == [True, False]


async def test_reverse_pillar_opens_with_e_and_by_itself_when_about_to_resolve() -> None:
    pillar = two_subpillars()
    app = Host(pillar)
    async with app.run_test(size=(80, 24)) as pilot:
        widget = app.query_one(PillarTree)
        oracle = next(unit for unit in pillar.units() if unit.name == "Dawnfly Oracle")
        assert not widget.is_expanded(oracle.uid)
        while widget.cursor_uid != oracle.uid:
            await pilot.press("down")
        await pilot.press("e")
        assert widget.is_expanded(oracle.uid)
        shown = lines(app)
        at = shown.index(line_of(app, "Dawnfly Oracle"))
        # The engine's Reverse Pillar order (fastest first), each with its generated text.
        incomes = CARDS_BY_ID["dawnfly-oracle"].incomes
        assert [line.split(" [printed")[0] for line in shown[at + 1:at + 3]] == [
            f"{step}. {ability_text(ability)}" for step, ability in enumerate(incomes, start=1)]
        assert shown[at + 1].startswith("1. Income (quick)")
        await pilot.press("e")
        assert not widget.is_expanded(oracle.uid)

        widget.mode = "step"
        await until(pilot, lambda: (
            widget.is_expanded(pillar.next_group()[0].uid) and (not widget.is_expanded(oracle.uid))
        ), 'widget.is_expanded(sunlit.uid) and not widget.is_expanded...')
        sunlit = pillar.next_group()[0]
        assert widget.is_expanded(sunlit.uid) and not widget.is_expanded(oracle.uid)


async def test_rtf_two_says_spire() -> None:
    app = Host(two_subpillars(), rtf=2, width=80)
    async with app.run_test(size=(100, 24)):
        shown = "\n".join(lines(app))
        assert "Spire 1 · on Dawnfly Oracle" in shown and "Spire 2" in shown
        assert "Subpillar" not in shown
        app.query_one(PillarTree).rtf = 1
        assert "Subpillar 1 · on Dawnfly Oracle" in "\n".join(lines(app))


async def test_continue_units_show_under_the_base_only_in_constructed() -> None:
    for format in ("constructed", "limited"):
        app = Host(two_subpillars(format))
        async with app.run_test(size=(80, 24)):
            shown = lines(app)
            base = shown.index(line_of(app, "Turn Base Foundation"))
            if format == "constructed":
                assert shown[base + 1:] == [line_of(app, "Halo Lantern continue")]
                assert "h-1" in shown[-1]
            else:
                assert base == len(shown) - 1 and not any("continue" in line for line in shown)


async def test_each_line_fits_its_pane_and_keeps_owner_kind_height_and_iph() -> None:
    pillar = Pillar.open("damage")
    pillar.play(UnitKind.DAMAGE, 1, "Damage from a very long seat name indeed", {"damage": []})
    app = Host(pillar, seats=("Ana", "Bartholomew the Patient"), width=40)
    async with app.run_test(size=(80, 24)):
        tree = app.query_one(PillarOutline)
        text = tree.render_label(tree.get_node_at_line(1), tree.rich_style, tree.rich_style).plain  # type: ignore[arg-type]
        # The name gives way first; the owner is cut only when even a short name leaves no room for it.
        assert "…" in text and text.endswith(" dmg h1 IPH1") and "Bartholom…" in text and "S1 Damage" in text
        assert len(text) <= tree.size.width - tree.guide_depth
        assert line_of(app, "Foundation").strip().startswith("◆ Damage Base Foundation")


async def test_highlighting_a_unit_posts_its_uid() -> None:
    pillar = two_subpillars()
    app = Host(pillar)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")
        widget = app.query_one(PillarTree)
        assert app.of(PillarTree.UnitHighlighted)[-1].uid == widget.cursor_uid
        assert widget.cursor_uid in {BASE_UID, *(unit.uid for unit in pillar.units())} or widget.cursor_uid is None
        assert isinstance(app.query_one(PillarOutline).cursor_node.data, Row)  # type: ignore[union-attr]


async def test_a_narrow_row_cuts_the_name_and_keeps_the_next_foundation_tag() -> None:
    pillar = Pillar.open("turn")
    volley = pillar.play(UnitKind.CARD, 0, "Sparkswarm Volley", {"iid": 13})
    aimed = {volley.uid: [TargetView("card", 40, "Pondskater Scout", 1)]}
    app = Host(pillar, width=44, targets=aimed, viewer=0)
    async with app.run_test(size=(80, 24)):
        tree = app.query_one(PillarOutline)
        assert app.query_one(PillarTree).foundation == volley.uid
        texts = [tree.render_label(tree.get_node_at_line(line), tree.rich_style, tree.rich_style).plain  # type: ignore[arg-type]
                 for line in range(tree.last_line + 1)]
        text = next(text for text in texts if "Spark" in text)
        # The row is too narrow for the whole line: the name is cut, the target and the tag stay.
        assert "Sparkswarm Volley" not in text and text.endswith("◀ next") and "→" in text, text
        assert len(text) <= tree.size.width


async def test_a_why_too_long_for_its_six_rows_scrolls_with_a_scrollbar_instead_of_being_cut() -> None:
    pillar = two_subpillars()
    pillar.resolve_group()  # three units at height 2: a long explanation
    app = Host(pillar, mode="step", width=24)
    async with app.run_test(size=(80, 24)) as pilot:
        info = app.query_one(PillarTree).query_one("#pt-info-box")
        # Its scrollbar is the mark that more follows.
        await until(pilot, lambda: info.region.height == 6 and info.max_scroll_y > 0 and info.show_vertical_scrollbar,
                    "the explanation laid out with a scrollbar")
        info.scroll_end(animate=False)
        await until(pilot, lambda: info.max_scroll_y > 0 and info.scroll_y == info.max_scroll_y,
                    "the end of the explanation")
        last_words = app.query_one(PillarTree).explanation.split()[-1]
        region = info.region
        drawn = " ".join(row[region.x:region.right] for row in rows(app)[region.y:region.bottom])
        assert last_words in drawn
