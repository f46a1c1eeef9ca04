"""A countered unit in the pillar tree: drawn only while a unit still standing rests on it, and then counted.

Issue 28: a countered unit stayed drawn after nothing rested on it any more,
while the header's count of units had already let it go. Pillars are built
and countered with the engine (``Pillar.remove``), as a Counter does.
"""

from __future__ import annotations

from textual.widgets import Static

from engine.wizbits.pillar.tree import Pillar, UnitKind
from tests.helpers.pillar_tree import Host
from tui.games.wizbits.pillar_tree.text import PillarOutline
from tui.games.wizbits.pillar_tree.tree import PillarTree


def shown(app: Host) -> str:
    """The tree's lines as plain text, unlimited in width."""
    tree = app.query_one(PillarOutline)
    widget = app.query_one(PillarTree)
    rows = (tree.get_node_at_line(line) for line in range(tree.last_line + 1))
    return "\n".join(widget.row_text(node.data, 0).plain for node in rows if node is not None and node.data is not None)


def title(app: Host) -> str:
    return str(app.query_one("#pt-title", Static).render())


async def test_a_countered_unit_nothing_rests_on_leaves_the_tree_with_the_count() -> None:
    pillar = Pillar.open("turn")
    pillar.play(UnitKind.CARD, 0, "Dawnfly Oracle", {"iid": 10})
    scout = pillar.play(UnitKind.CARD, 1, "Pondskater Scout", {"iid": 21})
    refusal = pillar.play(UnitKind.CARD, 0, "Undertow Refusal", {"iid": 22}, on=scout.uid)
    pillar.remove(scout.uid)  # the Refusal countered the Scout it stood on
    assert pillar.resolve_group() == (refusal,)
    assert any(unit.uid == scout.uid for _, unit in pillar.countered), "the engine still keeps the Scout"
    app = Host(pillar, mode="step", width=60)
    async with app.run_test(size=(80, 24)):
        assert "Pondskater Scout" not in shown(app)
        assert "Dawnfly Oracle" in shown(app)
        assert "1 unit ·" in title(app) and "countered" not in title(app)


async def test_a_countered_unit_still_rested_on_is_drawn_and_counted_in_the_header() -> None:
    pillar = Pillar.open("turn")
    pillar.play(UnitKind.CARD, 0, "Dawnfly Oracle", {"iid": 10})
    scout = pillar.play(UnitKind.CARD, 1, "Pondskater Scout", {"iid": 21})
    pillar.play(UnitKind.CARD, 0, "Sunlit Insight", {"iid": 14}, on=scout.uid)
    pillar.play(UnitKind.CARD, 1, "Undertow Refusal", {"iid": 22})
    pillar.remove(scout.uid)  # the Insight still stands on the countered Scout
    app = Host(pillar, mode="step", width=70)
    async with app.run_test(size=(80, 24)):
        assert "Pondskater Scout" in shown(app) and "countered" in shown(app)
        assert f"{pillar.remaining()} units · 1 countered" in title(app)
