"""Styles shipped beside the widgets and screens that use them."""

from __future__ import annotations

from pathlib import Path


def load_css(module_file: str) -> str:
    """The text of the ``.tcss`` file beside ``module_file`` (used as a widget's DEFAULT_CSS)."""
    return Path(module_file).with_suffix(".tcss").read_text(encoding="utf-8")
