"""Parsed CSS shared by every app of the process, and parsed ahead in ``coven serve``'s warm parent.

Textual parses each CSS source (a widget's ``DEFAULT_CSS``, a ``.tcss``
file) once per stylesheet, so every new app parses all of Coven's CSS again:
about a tenth of a served seat's start, and a few hundred kilobytes of rules
the seat builds for itself. :func:`install` puts one cache in front of
Textual's parser for the whole process, keyed by everything the parse reads
(the text, where it came from, its priority and scope, and the theme's
variables); :func:`warm` parses every widget's and screen's CSS and Coven's
own files for a theme before any app exists. The warm parent of ``coven
serve`` (:mod:`tui.server.warm`) warms it before it forks, so each player
starts with the rules already parsed, in pages it shares.

Rules are never changed once parsed (Textual's own per-stylesheet cache
hands the same ones out again), so sharing them between apps is safe.
This uses Textual's private ``Stylesheet._parse_rules``; Textual is pinned.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path, PurePath
from types import SimpleNamespace
from typing import Any

from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.screen import Screen

MAX_ENTRIES = 4096
"""Parsed sources kept at most (about 150 per theme in use); the least recently used go first."""

_ParseRules = Callable[..., list[RuleSet]]
_parsed: OrderedDict[tuple[Any, ...], list[RuleSet]] = OrderedDict()
_textual_parse_rules: _ParseRules = Stylesheet._parse_rules
_themes: dict[tuple[tuple[str, str], ...], int] = {}
"""A small number for each set of theme variables seen, so a key hashes and compares quickly."""
_last_variables: list[Any] = [None, 0]
"""The variables dict seen last and its number: one app asks with the same dict a hundred times in a row."""


def _variables_key(variables: dict[str, str]) -> int:
    if variables is not _last_variables[0]:
        number = _themes.setdefault(tuple(sorted(variables.items())), len(_themes))
        _last_variables[:] = [variables, number]
    key: int = _last_variables[1]
    return key


def _shared_parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                        tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
    """Textual's ``_parse_rules``, answered from the process's cache when the same parse was made before."""
    key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_key(self._variables))
    rules = _parsed.get(key)
    if rules is not None:
        _parsed.move_to_end(key)
        return rules
    rules = _textual_parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
    _parsed[key] = rules
    if len(_parsed) > MAX_ENTRIES:
        _parsed.popitem(last=False)
    return rules


def install() -> None:
    """Put the shared cache in front of Textual's CSS parser, for every stylesheet of this process."""
    Stylesheet._parse_rules = _shared_parse_rules  # type: ignore[method-assign]


def cached_sources() -> int:
    """How many parsed CSS sources the cache holds."""
    return len(_parsed)


def _node_classes() -> Iterator[type[DOMNode]]:
    """Every DOMNode class defined so far (widgets and screens of Textual and Coven)."""
    seen: set[type[DOMNode]] = set()
    waiting: list[type[DOMNode]] = [DOMNode]
    while waiting:
        node_class = waiting.pop()
        for subclass in node_class.__subclasses__():
            if subclass not in seen:
                seen.add(subclass)
                waiting.append(subclass)
    yield from sorted(seen, key=lambda each: (each.__module__, each.__qualname__))


def _file_source(path: str | PurePath) -> tuple[str, Any, bool, int, str] | None:
    """A CSS file as Textual reads it into a stylesheet, or None if it cannot be read (the app then says so)."""
    try:
        css = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return css, (os.path.abspath(os.path.expanduser(path)), ""), False, 0, ""


def _sources(app: App[Any]) -> Iterator[tuple[str, Any, bool, int, str] | None]:
    """``(css, read_from, is_default, tie_breaker, scope)`` of every source, as Textual adds each."""
    for path in app.css_path:
        yield _file_source(path)
    for node_class in [type(app), *(each for each in _node_classes() if not issubclass(each, App))]:
        # _get_default_css reads only the class's bases: a stand-in for an instance does.
        stand_in = SimpleNamespace(_node_bases=DOMNode._css_bases(node_class))
        for read_from, css, tie_breaker, scope in DOMNode._get_default_css(stand_in):  # type: ignore[arg-type]
            yield css, read_from, True, tie_breaker, scope
        if issubclass(node_class, Screen):
            css_path = node_class.__dict__.get("CSS_PATH")
            named: list[Any] = [css_path] if isinstance(css_path, (str, PurePath)) else list(css_path or ())
            for screen_path in named:
                if isinstance(screen_path, (str, PurePath)) and os.path.isabs(screen_path):
                    yield _file_source(screen_path)


def warm(app: App[Any]) -> int:
    """Parse, for ``app``'s theme as it stands, its CSS files and every widget's and screen's CSS.

    ``app`` need not run: only its CSS paths, its class and its theme's
    variables are read. Sources are keyed as Textual keys them, so a running
    app with the same theme finds them all. A source that does not parse is
    left for the app to report. Returns the number of sources parsed.
    """
    install()
    stylesheet = Stylesheet(variables=app.get_css_variables())
    parsed = 0
    for source in _sources(app):
        if source is None:
            continue
        css, read_from, is_default, tie_breaker, scope = source
        try:
            _shared_parse_rules(stylesheet, css, read_from, is_default, tie_breaker, scope)
        except Exception:  # noqa: BLE001 - the app parses it again and shows the error
            continue
        parsed += 1
    return parsed
