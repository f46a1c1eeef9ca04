"""Layering: the engine stays pure, and saves never pulls in the UI toolkit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def modules_after_import(module: str) -> set[str]:
    """Import ``module`` in a fresh interpreter and return every loaded module name."""
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=True
    )
    return set(json.loads(done.stdout))


def top_level(names: set[str]) -> set[str]:
    return {name.partition(".")[0] for name in names}


def test_engine_imports_no_ui_storage_or_platform_modules() -> None:
    loaded = top_level(modules_after_import("engine"))
    assert loaded.isdisjoint({"textual", "rich", "sqlite3", "platformdirs"}), loaded & {
        "textual",
        "rich",
        "sqlite3",
        "platformdirs",
    }


def test_saves_does_not_import_textual() -> None:
    loaded = top_level(modules_after_import("saves"))
    assert "textual" not in loaded
