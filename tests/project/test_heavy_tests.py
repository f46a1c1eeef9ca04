"""Every test conftest runs first is still there: a renamed heavy test would silently lose its place."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import HEAVY_TESTS

ROOT = Path(__file__).resolve().parents[2]


def test_every_heavy_test_names_a_test_function_that_exists() -> None:
    missing = []
    for name in HEAVY_TESTS:
        path, function = name.split("::")
        file = ROOT / path
        defined = ({node.name for node in ast.walk(ast.parse(file.read_text(encoding="utf-8")))
                    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)} if file.is_file() else set())
        if function not in defined:
            missing.append(name)
    assert not missing, f"HEAVY_TESTS names tests that no longer exist: {missing}"
