"""The README's settings table names every setting the Settings screen offers."""

from __future__ import annotations

import re
from pathlib import Path

from tui.player_settings import SETTINGS

README = Path(__file__).resolve().parents[2] / "README.md"


def settings_table_names() -> set[str]:
    """The names in the first column of the README's settings table."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index("| setting | what it does | default |")
    names: set[str] = set()
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        found = re.match(r"\|\s*`([^`]+)`", line)
        if found:
            names.add(found.group(1))
    return names


def test_every_setting_is_in_the_readme_table() -> None:
    listed = settings_table_names()
    missing = [setting.name for setting in SETTINGS if setting.name not in listed]
    assert not missing, f"settings missing from the README's table: {missing}"


def test_the_readme_table_lists_no_setting_that_does_not_exist() -> None:
    offered = {setting.name for setting in SETTINGS}
    assert settings_table_names() <= offered
