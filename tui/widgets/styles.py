"""Styles shipped beside the widgets and screens that use them."""

from __future__ import annotations

from pathlib import Path


def load_css(module_file: str) -> str:
    """The text of the ``.tcss`` file beside ``module_file`` (used as a widget's DEFAULT_CSS)."""
    return Path(module_file).with_suffix(".tcss").read_text(encoding="utf-8")


def css_beside(module_file: str, name: str) -> str:
    """The path of the ``.tcss`` file ``name`` beside ``module_file``, for a screen's ``CSS_PATH``.

    Textual reads a relative ``CSS_PATH`` from the folder of the class's subclass, so a screen that
    other folders subclass (the game screen, the confirm dialogs) names its file by its full path.
    """
    return str(Path(module_file).with_name(name))
