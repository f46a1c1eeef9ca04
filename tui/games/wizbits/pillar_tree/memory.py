"""What the pillar tree keeps for the seat looking: the Reverse Pillars opened or closed by hand.

A Reverse Pillar opens by itself while its unit resolves next; what the
player opened or closed overrides that, and survives each redraw. At a shared
keyboard every seat keeps its own (:meth:`~tui.games.wizbits.pillar_tree.tree.PillarTree.remember`
and ``restore``), together with its foundation.
"""

from __future__ import annotations

from collections.abc import Collection

from textual.widgets.tree import TreeNode

from tui.games.wizbits.pillar_tree.text import Row

Memo = tuple[int, frozenset[int], frozenset[int]]
"""One seat's own marks on the tree: its foundation, the Reverse Pillars it opened and those it closed."""


class ReversePillars:
    """Which units' Reverse Pillars are open, and the tree node of every unit drawn."""

    def __init__(self) -> None:
        self.nodes: dict[int, TreeNode[Row]] = {}
        """The node of each unit, the base and Continue unit, as the last fill laid them out."""
        self.opened: set[int] = set()
        """Reverse Pillars the player opened..."""
        self.closed: set[int] = set()
        """...or closed, overriding the automatic opening."""

    def starts_open(self, uid: int, resolving: Collection[int]) -> bool:
        """Whether unit ``uid``'s Reverse Pillar is drawn open: opened by hand, or resolving next and not closed."""
        return uid in self.opened or (uid in resolving and uid not in self.closed)

    def node(self, uid: int | None) -> TreeNode[Row] | None:
        """Unit ``uid``'s node if it has a Reverse Pillar to open, else None."""
        node = self.nodes.get(uid) if uid is not None else None
        return node if node is not None and node.allow_expand else None

    def is_open(self, uid: int) -> bool:
        """Whether unit ``uid``'s Reverse Pillar is open."""
        node = self.node(uid)
        return node is not None and node.is_expanded

    def note(self, uid: int, opened: bool) -> None:
        """The player opened (or closed) unit ``uid``'s Reverse Pillar."""
        (self.opened if opened else self.closed).add(uid)
        (self.closed if opened else self.opened).discard(uid)

    def note_node(self, node: TreeNode[Row], opened: bool) -> None:
        """A node was opened or closed in the tree; only a unit's counts."""
        if node.data is not None and node.data.kind == "unit":
            self.note(node.data.uid, opened)

    def set_open(self, uid: int, opened: bool) -> None:
        """Open or close unit ``uid``'s Reverse Pillar as the player did (nothing for other units)."""
        node = self.node(uid)
        if node is not None:
            self.note(uid, opened)
            node.expand() if opened else node.collapse()

    def keep(self, foundation: int) -> Memo:
        """What the seat looking did to the tree, with its ``foundation``."""
        return foundation, frozenset(self.opened), frozenset(self.closed)

    def take(self, memo: Memo | None) -> int | None:
        """Put back the Reverse Pillars ``memo`` kept (None: none by hand); returns its foundation (or None)."""
        foundation, opened, closed = memo or (None, frozenset(), frozenset())
        self.opened, self.closed = set(opened), set(closed)
        return foundation
