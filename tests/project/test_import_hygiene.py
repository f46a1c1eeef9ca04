"""Layering: the engine stays pure, and saves never pulls in the UI toolkit."""

from __future__ import annotations

from tests.helpers.import_hygiene import modules_after_import


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
