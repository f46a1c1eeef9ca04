"""Textual's background-style cache, keyed on colours alone so that it keeps no widget's rendered lines.

In Textual 8.2.8 ``StylesCache.get_inner_outer`` is an ``lru_cache`` of 1,024
entries on a method, so each key holds the ``StylesCache`` of the widget that
asked, and with it every line that widget last rendered. A finished game's
widgets then stayed in memory until 1,024 newer widgets had pushed them out:
a seat grew with each game it played (``coven bench seat-memory``). The
answer depends on the two colours only, so :func:`mend_style_cache` puts
Textual's own body behind a cache keyed on them. A Textual whose method is not
such a cache is left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from textual._styles_cache import StylesCache
from textual.color import Color

INNER_OUTER_SIZE = 1024
"""Entries the colour-keyed cache keeps, as many as Textual's own."""


def mend_style_cache() -> bool:
    """Key ``StylesCache.get_inner_outer``'s cache on its two colours; True when it was mended now."""
    current: Any = StylesCache.get_inner_outer
    if getattr(current, "coven_mended", False) or not hasattr(current, "cache_clear"):
        return False
    body: Callable[..., Any] = current.__wrapped__  # Textual's function; it never reads its first argument

    @lru_cache(INNER_OUTER_SIZE)
    def by_colours(base_background: Color, background: Color) -> Any:
        return body(StylesCache, base_background, background)

    def get_inner_outer(self: StylesCache, base_background: Color, background: Color) -> Any:
        return by_colours(base_background, background)

    get_inner_outer.coven_mended = True  # type: ignore[attr-defined]
    get_inner_outer.cache_info = by_colours.cache_info  # type: ignore[attr-defined]
    get_inner_outer.cache_clear = by_colours.cache_clear  # type: ignore[attr-defined]  # emptied after a game
    StylesCache.get_inner_outer = get_inner_outer  # type: ignore[method-assign,assignment]
    return True
