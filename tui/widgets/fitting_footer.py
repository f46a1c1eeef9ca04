"""Footers that fit their width: a key is shown whole or not at all, and ``?`` lists what is left out.

:class:`FittingFooter` is the Footer every Coven screen uses. When a screen's
keys are wider than the terminal, it drops the command palette first, then the
keys from the end of the list, never the screen's way out (escape) nor ``?``,
and shows ``? Help`` so the player knows where the rest are (the help screen
lists every key). New keys go up before the next paint, which waits for them,
so no frame shows the keys of the moment before over a screen that has moved
on. :class:`FooterRoom` is the finer tool the Pillar Lab uses for
its optional keys (pairs of bindings); both measure a key with :func:`key_width`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

HELP_ACTIONS = frozenset({"app.help", "help", "help(True)", "keys"})
"""Actions that open a screen's help (the app's ``?`` and F1; the deck editor's and Lab's own ``?``)."""

HELP_LABEL = "Help"
"""What the ``?`` key says in a Footer that left keys out."""


def key_width(key_display: str, description: str, compact: bool) -> int:
    """Columns a key takes in a Footer, with the gap after it."""
    if compact:
        return len(key_display) + (len(description) + 1 if description else 0) + 1
    return len(key_display) + 2 + (len(description) + 1 if description else 0)


KEPT_WHEN_ENABLED = frozenset({"undo", "show_move", "skip_step"})
"""Actions a Footer keeps while they can be used: taking back a move is worth knowing about at once, and so
are a lesson's keys that show the step's move and play it (a busy game table would push them out)."""


def keeps(binding: Binding, enabled: bool = False) -> bool:
    """Whether a Footer keeps this key however narrow it is: the way out, help, and undo while it works."""
    return (binding.action in HELP_ACTIONS or "escape" in binding.key.split(",")
            or (enabled and binding.action in KEPT_WHEN_ENABLED))


@dataclass(frozen=True)
class _FooterPlan:
    """What a :class:`FittingFooter` shows at one width."""

    width: int
    kept: list[tuple[Binding, bool, str]]
    left_out: list[str]
    help_key: bool
    palette: tuple[Binding, bool] | None


class FittingFooter(Footer):
    """A Footer that never cuts a key at the edge (see the module docstring)."""

    shown: list[str]
    """The descriptions of the keys in the Footer now, in order (the help key's included)."""

    left_out: list[str]
    """The descriptions of the keys that had no room (the help screen lists them)."""

    def __init__(self, *, compact: bool = False, show_command_palette: bool = True, id: str | None = None) -> None:
        """A Footer like Textual's, ``compact`` or not, with the palette key while it fits."""
        super().__init__(compact=compact, show_command_palette=show_command_palette, id=id)
        self.shown = []
        self.left_out = []
        self._composed_width = 0
        self._composed: tuple[object, ...] | None = None
        self._recompose_pending = False
        self._holding = False  # paints wait for a recompose the app will run (see bindings_changed)

    def _room(self) -> int:
        """The columns the Footer has: its screen's width (the Footer spans it)."""
        return self.screen.size.width or self.app.size.width

    def _width(self, binding: Binding) -> int:
        return key_width(self.app.get_key_display(binding), binding.description, self.compact)

    def _plan(self) -> _FooterPlan:
        """The keys that fit the Footer's width now, what had no room, and the palette key if it fits."""
        room = self._room()
        width = room
        if self.compact:
            room += 1  # the last key's gap may fall past the edge
        active = self.screen.active_bindings
        firsts: dict[str, tuple[Binding, bool, str]] = {}
        for key, (_node, binding, enabled, tooltip) in active.items():
            if not binding.show and binding.priority and binding.action in HELP_ACTIONS:
                binding = self._own_key(key) or binding  # the app's "?" hides the screen's own "? Keys"
            if binding.show and binding.action not in firsts:
                firsts[binding.action] = (binding, enabled, tooltip)
        keys = list(firsts.values())
        total = sum(self._width(binding) for binding, _, _ in keys)
        palette = self._palette(active)
        kept = keys
        left_out: list[str] = []
        if total > room:
            has_help = any(binding.action in HELP_ACTIONS for binding, _, _ in keys)
            left = room - (0 if has_help else key_width("?", HELP_LABEL, self.compact))
            left -= sum(self._width(binding) for binding, enabled, _ in keys if keeps(binding, enabled))
            chosen = set()
            for index, (binding, enabled, _) in enumerate(keys):
                if keeps(binding, enabled):
                    chosen.add(index)
                elif self._width(binding) <= left:
                    left -= self._width(binding)
                    chosen.add(index)
            kept = [key for index, key in enumerate(keys) if index in chosen]
            left_out = [binding.description for index, (binding, _, _) in enumerate(keys) if index not in chosen]
            palette = None
        elif palette is not None and total + self._palette_width(palette[0]) > room:
            palette = None
        help_key = bool(left_out) and not any(binding.action in HELP_ACTIONS for binding, _, _ in kept)
        return _FooterPlan(width, kept, left_out, help_key, palette)

    def _signature(self, plan: _FooterPlan) -> tuple[object, ...]:
        """What a Footer composed from ``plan`` shows, at any width: two equal signatures draw the same keys."""
        keys = tuple((binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                      enabled, tooltip) for binding, enabled, tooltip in plan.kept)
        palette = None if plan.palette is None else (plan.palette[0].key, plan.palette[0].description,
                                                     plan.palette[1])
        return self.compact, keys, plan.help_key, palette

    def compose(self) -> ComposeResult:
        """The screen's shown keys that fit, in their order, then ``?`` when some had no room.

        Nothing until the screen first publishes its bindings: before that they lack the focused
        widget's, and a first frame would show keys of the moment before (a game's "Next step"
        over the player's own Priority).
        """
        self.shown, self.left_out = [], []
        if not self._bindings_ready:
            self._composed = None
            return
        plan = self._plan()
        self._composed_width = plan.width
        self._composed = self._signature(plan)
        self.left_out = plan.left_out
        yield from self._keys(plan.kept)
        self.shown = [binding.description for binding, _, _ in plan.kept]
        if plan.help_key:
            yield self._compacted(FooterKey("question_mark", "?", HELP_LABEL, "app.help"))
            self.shown.append(HELP_LABEL)
        if plan.palette is not None:
            binding, enabled = plan.palette
            yield FooterKey(binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                            classes="-command-palette", disabled=not enabled,
                            tooltip=binding.tooltip or binding.description)

    def _unchanged(self) -> bool:
        """Whether composing now would draw exactly the keys shown: then a recompose is only cost."""
        return self._composed is not None and self.is_attached and self._signature(self._plan()) == self._composed

    def _recompose_soon(self) -> None:
        """Recompose after the next refresh, once however often asked meanwhile, and only for new keys.

        A screen publishes its bindings on every focus change and refresh of its keys,
        and each recompose mounts every key anew; over SSH the first screen waits for
        them all (the one paint of :mod:`tui.resize_paint`).
        """
        if not self._recompose_pending:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._recompose_pending = False
        if self.is_attached and not self._holding and not self._unchanged():  # a held recompose is on its way
            await self.recompose()

    async def _recompose_held(self) -> None:
        try:
            if self.is_attached and not self._unchanged():
                await self.recompose()
        finally:
            self._holding = False
            self.app._end_batch()

    def on_mount(self, event: events.Mount) -> None:  # type: ignore[override]  # Textual passes the event if asked
        """Hear of new keys at once, not after the messages already queued (Textual's way): the screen may paint
        before those."""
        event.prevent_default()  # instead of Footer's own subscription
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed, immediate=True)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Recompose when the screen's keys changed what this Footer would show.

        Once keys are on show, new ones are put up before the next paint, which waits
        for them: a frame painted in between would show the keys of the moment before
        over the screen's new state (a watching seat's "Next step" over its own Priority).
        """
        ready, self._bindings_ready = self._bindings_ready, True
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            return
        if self._holding:
            return  # the held recompose reads the keys as they are when it runs
        if ready and self._composed is not None and not self._unchanged():
            self._holding = True
            self.app._begin_batch()  # ended by _recompose_held, which the app runs whatever becomes of this Footer
            self.app.call_later(self._recompose_held)
        else:
            self._recompose_soon()

    def _own_key(self, key: str) -> Binding | None:
        """The screen's (or a focused widget's) own shown binding of ``key``, under the app's priority one."""
        for _node, bindings in self.screen._modal_binding_chain:
            for binding in bindings.key_to_bindings.get(key, ()):
                if binding.show:
                    return binding
        return None

    def _keys(self, keys: Iterable[tuple[Binding, bool, str]]) -> ComposeResult:
        for binding, enabled, tooltip in keys:
            yield self._compacted(FooterKey(binding.key, self.app.get_key_display(binding), binding.description,
                                            binding.action, disabled=not enabled, tooltip=tooltip))

    def _compacted(self, key: FooterKey) -> FooterKey:
        """``key`` styled compact as this Footer is.

        Not ``data_bind``: each bound key adds a watcher to this Footer's ``compact`` that is
        dropped only when ``compact`` changes, which never happens, so every recompose (each
        change of the screen's keys) would keep all the keys it removed until the screen goes.
        """
        key.set_reactive(FooterKey.compact, self.compact)
        key.set_class(self.compact, "-compact", update=False)
        return key

    def watch_compact(self) -> None:
        """The keys were styled for the old ``compact``: make them anew."""
        if self._bindings_ready:
            self._composed = None  # the same keys, styled anew
            self._recompose_soon()

    def _palette(self, active: Any) -> tuple[Binding, bool] | None:
        """The command palette's key when this Footer shows it, else None."""
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        found = active.get(self.app.COMMAND_PALETTE_BINDING)
        return None if found is None else (found.binding, found.enabled)

    def _palette_width(self, binding: Binding) -> int:
        """The palette key sits at the right, after a rule, padded on both sides unless compact."""
        return len(self.app.get_key_display(binding)) + len(binding.description) + (3 if self.compact else 5)

    def on_resize(self, event: events.Resize) -> None:
        """A new width may hold more or fewer keys."""
        if self._bindings_ready and event.size.width != self._composed_width:
            self._recompose_soon()


class FooterRoom:
    """Decides, for a screen's ``check_action``, which optional keys show in its compact Footer.

    An optional key is a pair of bindings for one action: ``action(True)`` shown in
    the Footer and ``action(False)`` hidden. :meth:`check` enables the one that
    matches the room left, so the key always works and the Footer never shows a
    key cut at the edge (the Pillar Lab has more keys than 80 columns hold).
    """

    def __init__(self, screen: Screen[Any], optional: Sequence[str], usable: Callable[[str], bool]) -> None:
        """``optional`` actions, most wanted first; ``usable(action)`` is whether one applies at all now."""
        self.screen = screen
        self.optional = tuple(optional)
        self.usable = usable
        self._planning = False  # active_bindings asks check_action again: optional keys count as hidden meanwhile

    def _width(self, binding: Binding) -> int:
        """Columns of a key in a compact Footer, with the gap after it."""
        return key_width(binding.key_display or self.screen.app.get_key_display(binding), binding.description, True)

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
