"""The pillar tree's two modes, and stepping: the step key and the auto-resolve clock.

:class:`SteppingTree` is the base of :class:`~tui.games.wizbits.pillar_tree.tree.PillarTree`.
It decides when to ask for a step (``n``, or every ``auto_pause`` seconds
while ``auto`` is on, never again before the pillar it asked for has come);
the tree says what resolves next (:attr:`SteppingTree.next_group`) and draws.
"""

from __future__ import annotations

from typing import Literal

from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from engine.wizbits.pillar.tree import Unit
from tui.games.wizbits.pillar_tree import messages

Mode = Literal["build", "step"]


class SteppingTree(Widget):
    """A pillar widget that is building or stepping, and in step mode asks its owner for each step."""

    mode: reactive[Mode] = reactive("build")
    """``"build"`` highlights the foundation for the next unit; ``"step"`` the units about to resolve."""

    auto: reactive[bool] = reactive(False)
    """While True (step mode), a ``StepRequested`` is posted every :attr:`auto_pause` seconds."""

    def __init__(self, *, auto_pause: float, name: str | None, id: str | None, classes: str | None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.auto_pause = auto_pause
        """Seconds between auto-resolve steps."""
        self._mounted = False  # is_mounted is still False while on_mount runs
        self._timer: Timer | None = None
        self._waiting = False  # an auto step was asked for and the new pillar has not come yet

    @property
    def next_group(self) -> tuple[Unit, ...]:
        """The units that resolve next (the tree reads them off its pillar)."""
        raise NotImplementedError

    def _rebuild(self) -> None:
        """Lay the tree out again and redraw its texts (the tree does it)."""
        raise NotImplementedError

    def _update_texts(self) -> None:
        """Redraw the title and the lines under the tree (the tree does it)."""
        raise NotImplementedError

    def stepping_allows(self, action: str) -> bool | None:
        """Whether the ``step``, ``auto`` or ``pause`` key works now; None for any other action."""
        stepping = self.mode == "step" and bool(self.next_group)
        if action in ("step", "auto"):
            return stepping and not self.auto
        if action == "pause":
            return self.mode == "step" and self.auto
        return None

    def action_step(self) -> None:
        """Ask the owner for one resolution step."""
        if self.mode == "step" and self.next_group:
            self.post_message(messages.StepRequested(self, auto=False))

    def action_auto(self) -> None:
        self.auto = True

    def action_pause(self) -> None:
        self.auto = False

    def validate_mode(self, mode: str) -> Mode:
        if mode not in ("build", "step"):
            raise ValueError(f"mode is 'build' or 'step', not {mode!r}")
        return "build" if mode == "build" else "step"

    def watch_mode(self) -> None:
        if self.mode == "build":
            self.auto = False
        self._rebuild()

    def watch_auto(self, auto: bool) -> None:
        if auto and self.mode != "step":
            self.auto = False
            return
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if auto:
            self._timer = self.set_interval(self.auto_pause, self._auto_step)
        self._waiting = False
        self.post_message(messages.AutoToggled(self, auto))
        if self._mounted:
            self._update_texts()
        self.refresh_bindings()

    def _auto_step(self) -> None:
        if not self.next_group:
            self.auto = False
        elif not self._waiting:
            self._waiting = True
            self.post_message(messages.StepRequested(self, auto=True))
