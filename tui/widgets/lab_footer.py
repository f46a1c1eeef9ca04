"""Which of a screen's optional keys its Footer has room for (the Pillar Lab has more keys than 80 columns hold).

An optional key is a pair of bindings for one action: ``action(True)`` shown in
the Footer and ``action(False)`` hidden. :meth:`FooterRoom.check` enables the
one that matches the room left, so the key always works and the Footer never
shows a key cut at the edge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.binding import Binding
from textual.screen import Screen


class FooterRoom:
    """Decides, for a screen's ``check_action``, which optional keys show in its compact Footer."""

    def __init__(self, screen: Screen[Any], optional: Sequence[str], usable: Callable[[str], bool]) -> None:
        """``optional`` actions, most wanted first; ``usable(action)`` is whether one applies at all now."""
        self.screen = screen
        self.optional = tuple(optional)
        self.usable = usable
        self._planning = False  # active_bindings asks check_action again: optional keys count as hidden meanwhile

    def _width(self, binding: Binding) -> int:
        """Columns of a key in a compact Footer, with the gap after it."""
        return len(binding.key_display or self.screen.app.get_key_display(binding)) + len(binding.description) + 2

    def fits(self) -> set[str]:
        """The optional actions the Footer has room for beside the keys it always shows."""
        if self._planning:
            return set()
        self._planning = True
        try:
            shown = [active.binding for active in self.screen.active_bindings.values()
                     if active.binding.show and active.node is not self.screen.app]
        finally:
            self._planning = False
        used = sum(self._width(binding) for binding in shown) - 1  # no gap after the last key
        fits = set()
        for action in self.optional:
            binding = next(b for b in self.screen.BINDINGS if isinstance(b, Binding) and b.action == f"{action}(True)")
            if self.usable(action) and used + self._width(binding) <= self.screen.size.width:
                used += self._width(binding)
                fits.add(action)
        return fits

    def check(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """For one of a pair, whether it is the one enabled now; None for any other action."""
        if action not in self.optional or not parameters:
            return None
        return self.usable(action) and bool(parameters[0]) == (action in self.fits())
