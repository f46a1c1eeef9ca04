"""What the pillar tree tells the screen that owns it.

The messages are reached as :class:`~tui.games.wizbits.pillar_tree.tree.PillarTree`'s own
(``PillarTree.StepRequested``, handled by an ``@on(PillarTree.StepRequested)`` method);
they live here so the widget's module holds only what it shows and decides.
"""

from __future__ import annotations

from textual.message import Message
from textual.widget import Widget


class Signal(Message, namespace="pillar_tree"):
    """Base of the tree's messages."""

    def __init__(self, tree: Widget) -> None:
        super().__init__()
        self.tree = tree

    @property
    def control(self) -> Widget:
        """The pillar tree that sent this."""
        return self.tree


class FoundationChanged(Signal, namespace="pillar_tree"):
    """The foundation the next unit would go on is now ``uid`` (``BASE_UID`` for the base)."""

    def __init__(self, tree: Widget, uid: int) -> None:
        super().__init__(tree)
        self.uid = uid


class StepRequested(Signal, namespace="pillar_tree"):
    """The player asked for one resolution step (``auto``: the auto-resolve timer did)."""

    def __init__(self, tree: Widget, auto: bool) -> None:
        super().__init__(tree)
        self.auto = auto


class AutoToggled(Signal, namespace="pillar_tree"):
    """Auto-resolve was switched on or off."""

    def __init__(self, tree: Widget, auto: bool) -> None:
        super().__init__(tree)
        self.auto = auto


class UnitHighlighted(Signal, namespace="pillar_tree"):
    """The cursor moved onto unit ``uid`` (None: a line that is no unit)."""

    def __init__(self, tree: Widget, uid: int | None) -> None:
        super().__init__(tree)
        self.uid = uid
