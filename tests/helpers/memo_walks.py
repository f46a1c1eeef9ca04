"""Counting the modules :mod:`tui.render_memos` looks at, for its tests and the warm parent's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tui import render_memos


def count_walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every module (or class's module) the memo finder walks from now on, in order."""
    walked: list[str] = []
    walk = render_memos._memos_in

    def counted(namespace: dict[str, Any], module: str) -> Iterator[Any]:
        walked.append(module)
        return walk(namespace, module)

    monkeypatch.setattr(render_memos, "_memos_in", counted)
    return walked
