"""Help for the screen in front: what it is for, then every key it answers now, grouped.

``?`` and F1 open it on every screen (the app's bindings; an Input still types
``?``). A screen says what it is for in a ``HELP`` class attribute (its
docstring's first line otherwise) and may name a group for some of its actions
in ``HELP_GROUPS``; the keys are read from the screen's active bindings, so
the help always matches what the keys do now, including the ones a narrow
Footer leaves out. Choosing a key with enter presses it on the screen below.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.safe_text import plain

MOVING_KEYS = frozenset({"up", "down", "left", "right", "tab", "pageup", "pagedown", "home", "end"})
"""Keys (after any modifier) that move a cursor, a view or the focus."""

LEAVING_ACTIONS = frozenset({"menu", "leave", "back", "cancel", "dismiss", "quit", "pop_screen", "close"})
"""Actions that close a screen or leave Coven."""

GROUP_ORDER = ("Choosing", "Moving", "Showing", "Table", "This screen", "Leaving")
"""Groups in the order the help lists them; a group a screen names itself comes before "Leaving"."""

SHOWING_WORDS = ("toggle", "zoom", "log", "pane", "inspect", "show", "detail", "pan", "area", "find")
"""Words in an action's name that make it a "Showing" key: it changes what is shown, not the game."""

KEYS_ROWS = 6
"""Rows of keys the help keeps in view however long its intro: the intro takes the rest of the terminal's height."""

CHROME_ROWS = 4
"""The help box's rows besides its intro and keys: the border's two, the title and the hint."""

HELP_CSS = """
HelpScreen { align: center middle; background: $background 60%; }
#help-box { width: 76; max-width: 100%; height: auto; max-height: 100%; border: thick $accent;
            background: $surface; padding: 0 1; }
#help-title { text-style: bold; width: 100%; }
#help-about-box { height: auto; max-height: 6; scrollbar-size-vertical: 1; }
#help-about { color: $text-muted; height: auto; }
#help-keys { height: auto; max-height: 1fr; border: round $primary 50%; }
#help-hint { color: $text-muted; height: 1; }
"""


def about_text(screen: Screen[Any]) -> str:
    """What ``screen`` is for: its ``HELP``, else its docstring's first line."""
    about = getattr(screen, "HELP", None)
    if isinstance(about, str) and about:
        return about
    doc = type(screen).__doc__ or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _defined_here(node: DOMNode) -> set[str]:
    """Actions bound by Coven's own classes of ``node`` (not Textual's cursor and scroll keys)."""
    actions: set[str] = set()
    for cls in type(node).__mro__:
        if not cls.__module__.startswith("tui."):
            continue
        bindings: list[BindingType] = list(cls.__dict__.get("BINDINGS", []))
        for entry in bindings:
            actions.add(entry.action if isinstance(entry, Binding) else entry[1])
    return actions


def group_of(screen: Screen[Any], key: str, binding: Binding, node: DOMNode) -> str:
    """The group a key is listed under (see :data:`GROUP_ORDER`); a screen's ``HELP_GROUPS`` decides first."""
    action = binding.action
    bare = action.split("(")[0].removeprefix("app.").removeprefix("screen.")
    named: dict[str, str] = getattr(screen, "HELP_GROUPS", {})
    if bare in named:
        return named[bare]
    if bare in LEAVING_ACTIONS or key in ("escape", "ctrl+q"):
        return "Leaving"
    if key.split("+")[-1] in MOVING_KEYS or any(word in bare for word in ("cursor", "scroll", "focus", "move")):
        return "Moving"
    if any(word in bare for word in SHOWING_WORDS):
        return "Showing"
    if node is screen:
        return str(getattr(screen, "HELP_KEYS_GROUP", "This screen"))
    return "Choosing"


_NUMBERS = re.compile(r"^\s*-?\d+(\s*,\s*-?\d+)*\s*$")
"""The arguments of a direction: ``-1`` or ``0, 1``."""


def _direction_family(action: str) -> str | None:
    """``"pan"`` for ``"pan(-1, 0)"``: an action whose arguments are only numbers (a direction), else None."""
    name, bracket, rest = action.partition("(")
    if not bracket or not rest.endswith(")") or not _NUMBERS.match(rest[:-1]):
        return None
    return name


def _keys_together(screen: Screen[Any], keys: list[str]) -> str:
    """Several keys of one row as briefly as they read: ``⇧← → ↑ ↓`` for shift and the arrows, ``[ ]``."""
    split = [key.rpartition("+") for key in keys]
    modifiers = {modifier for modifier, _, _ in split}
    if len(modifiers) != 1:
        return "/".join(screen.app.get_key_display(Binding(key, "")) for key in keys)
    modifier = modifiers.pop()
    lead = {"": "", "shift": "⇧"}.get(modifier, f"{modifier}+")
    return lead + " ".join(screen.app.get_key_display(Binding(base, "")) for _, _, base in split)


def _fold_directions(by_action: dict[str, tuple[str, list[str], Binding, bool, str]],
                     keys_of: dict[str, list[str]], screen: Screen[Any]) -> None:
    """List one row for the directions of one action (``[`` and ``]``, the four pans) where they mean one thing.

    They fold when they all read the same or only one of them is in the
    Footer (the others its hidden companions); the row takes the Footer's
    description and lists every key.
    """
    families: dict[str, list[str]] = {}
    for action in by_action:
        family = _direction_family(action)
        if family is not None:
            families.setdefault(family, []).append(action)
    for actions in families.values():
        if len(actions) < 2:
            continue
        bindings = [by_action[action][2] for action in actions]
        shown = [binding for binding in bindings if binding.show]
        if len({binding.description for binding in bindings}) > 1 and len(shown) != 1:
            continue
        lead = shown[0] if shown else bindings[0]
        first = actions[0]
        key, _, _, _, group = by_action[first]
        keys = [k for action in actions for k in keys_of[action]]
        enabled = any(by_action[action][3] for action in actions)
        for action in actions[1:]:
            del by_action[action]
        by_action[first] = (key, [_keys_together(screen, keys)], lead, enabled, group)  # keeps the first's place


def help_rows(screen: Screen[Any]) -> list[tuple[str, str, Text]]:
    """Every key ``screen`` answers now as ``(group, key, label)``, grouped; keys not usable now are dimmed.

    A binding's ``tooltip``, when it has one, is the row's words: the Footer
    keeps its short description, the help says it whole.
    """
    by_action: dict[str, tuple[str, list[str], Binding, bool, str]] = {}
    keys_of: dict[str, list[str]] = {}
    own: dict[int, set[str]] = {}
    for key, active in screen.active_bindings.items():
        binding, node = active.binding, active.node
        if binding.action in ("app.help", "help", "help(True)", "keys") or not binding.description:
            continue  # this screen is the help
        if node is screen.app:
            if binding.action not in ("quit", "find_card"):
                continue  # the command palette and Textual's own keys are the same everywhere
        elif not binding.show:
            mine = own.setdefault(id(node), _defined_here(node))
            if binding.action not in mine:
                continue  # Textual's hidden cursor, scroll, focus and copy keys (tab is listed below)
        shown = binding.key_display or screen.app.get_key_display(Binding(key, binding.action))
        keys_of.setdefault(binding.action, []).append(key)
        if binding.action in by_action:
            by_action[binding.action][1].append(shown)
            continue
        by_action[binding.action] = (key, [shown], binding, active.enabled, group_of(screen, key, binding, node))
    _fold_directions(by_action, keys_of, screen)
    rows: list[tuple[str, str, Text]] = []
    used = {key for key, *_ in by_action.values()}  # a row's id is its key: each key is listed once
    if "down" in screen.active_bindings and not used & {"up", "down"}:
        rows.append(("Moving", "down", Text.assemble((f"{'↑ ↓':>9}  ", "bold"), "Move the highlight (or scroll)")))
    if "tab" in screen.active_bindings and "tab" not in used:
        rows.append(("Moving", "tab", Text.assemble((f"{'tab':>9}  ", "bold"), "Next pane (shift+tab: the one before)")))
    for key, displays, binding, enabled, group in by_action.values():
        label = Text.assemble((f"{'/'.join(dict.fromkeys(displays)):>9}  ", "bold"), binding.tooltip or binding.description)
        if not enabled:
            label.stylize("dim")
            label.append("  (not now)", style="dim italic")
        rows.append((group, key, label))
    order = {group: index for index, group in enumerate(GROUP_ORDER)}
    leaving = order["Leaving"]
    rows.sort(key=lambda row: order.get(row[0], leaving - 0.5))  # a stable sort keeps each group's own order
    return rows


class HelpScreen(ModalScreen[str | None]):
    """Help for one screen: what it is for and its keys, grouped; enter presses the highlighted key."""

    DEFAULT_CSS = HELP_CSS
    BINDINGS = [Binding("escape", "close", "Close"), Binding("f1,question_mark", "close", "Close", show=False)]

    def __init__(self, title: str, about: str, rows: Iterable[tuple[str, str, Text]]) -> None:
        """``about`` says what the screen is for; ``rows`` are ``(group, key, label)`` from :func:`help_rows`."""
        super().__init__()
        self.title_text = title
        self.about = about
        self.rows = list(rows)

    @classmethod
    def of(cls, screen: Screen[Any]) -> HelpScreen:
        """The help for ``screen`` as it is now."""
        title = getattr(screen, "HELP_TITLE", None) or getattr(screen, "SCREEN_TITLE", None) or screen.title or "this screen"
        about = about_text(screen)
        now = getattr(screen, "help_now", None)
        if callable(now):
            extra = now()
            if extra:
                about = f"{about}\n\nNow: {extra}"
        return cls(f"Help · {title}", about, help_rows(screen))

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Label(plain(self.title_text), id="help-title")
            with VerticalScroll(id="help-about-box", can_focus=False):
                yield Static(plain(self.about), id="help-about")  # may quote names from players: never markup
            options: list[Option] = []
            last = ""
            for group, key, label in self.rows:
                heading = Text(f"{group if group != last else '':<12}", style="bold")
                options.append(Option(Text.assemble(heading, label), id=key))
                last = group
            yield OptionList(*options, id="help-keys")
            yield Static("enter: press the key · escape: close", id="help-hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.call_after_refresh(self._fit_about)

    def on_resize(self) -> None:
        """A taller terminal shows more of the intro (a fixed cap hid its last sentences even at 120x40)."""
        self.call_after_refresh(self._fit_about)

    def _fit_about(self) -> None:
        """Share the rows between the intro and the keys: the intro whole while the keys keep a few in view.

        Whatever part does not fit scrolls, with its scrollbar showing; the hint line always stays.
        """
        about = self.query_one("#help-about", Static).outer_size.height
        keys = len(self.rows) + 2  # with their border
        room = self.app.size.height - CHROME_ROWS
        keys = min(keys, max(room - about, KEYS_ROWS + 2))
        self.query_one("#help-about-box").styles.max_height = max(room - keys, 3)
        self.query_one("#help-keys").styles.max_height = keys

    @on(OptionList.OptionSelected, "#help-keys")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)


def open_help(screen: Screen[Any]) -> None:
    """Open the help for ``screen`` (closing it if ``screen`` is the help); a chosen key is pressed there."""
    if isinstance(screen, HelpScreen):
        screen.dismiss(None)
        return

    def chosen(key: str | None) -> None:
        if key is not None:
            screen.app.simulate_key(key)

    screen.app.push_screen(HelpScreen.of(screen), chosen)
