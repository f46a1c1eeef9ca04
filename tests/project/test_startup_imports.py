"""Start-up imports only what the main menu needs: no game's rules or bots, no heavy optional packages."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Runs `coven` (the CLI entry point, no arguments) to the main menu's first frame, headless
# at 80x24, then prints every module loaded by then.
_TO_THE_MENU = """
import json, sys
from tui import cli
from tui.app import CovenApp
from tui.screens.menu import MainMenu

async def reach_menu(pilot):
    # Waits as long as it takes: the test's subprocess timeout is the only bound.
    while not isinstance(pilot.app.screen, MainMenu):
        await pilot.pause(0.05)
    await pilot.pause()
    pilot.app.exit(type(pilot.app.screen).__name__)

original_run = CovenApp.run
def run_to_menu(self, *args, **kwargs):
    shown = original_run(self, headless=True, size=(80, 24), auto_pilot=reach_menu)
    print(json.dumps({"screen": shown, "modules": sorted(sys.modules)}))
    return 0
CovenApp.run = run_to_menu
cli.main([])
"""

FORBIDDEN_AT_START = ("engine.wizards_cup", "engine.witchdraft", "engine.wizbits",
                      "numpy", "scipy", "asyncssh", "hypothesis", "pytest",
                      # The browser door's server and its tests' browser driver: only `coven web` loads aiohttp.
                      "aiohttp", "selenium", "tui.web.site", "tui.web.door",
                      # Loaded when first used: the text area and table (transcripts, sessions), the ladder.
                      "textual.widgets._text_area", "textual.widgets._data_table", "rich.progress",
                      "tui.cli.ladder")


def test_coven_reaches_the_menu_without_importing_any_games_rules_or_bots(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), COVEN_DATA_DIR=str(tmp_path / "data"))
    keyboard, terminal = pty.openpty()  # coven reads keys from a terminal, and refuses anything else
    try:
        done = subprocess.run([sys.executable, "-c", _TO_THE_MENU], cwd=tmp_path, env=env, stdin=terminal,
                              capture_output=True, text=True, timeout=300, check=True)
    finally:
        os.close(keyboard)
        os.close(terminal)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["screen"] == "MainMenu"
    loaded = report["modules"]
    assert "tui.app" in loaded and "engine.core.registry" in loaded  # the probe saw a real start
    unwanted = sorted(name for name in loaded
                      if any(name == root or name.startswith(root + ".") for root in FORBIDDEN_AT_START))
    assert unwanted == []


def test_a_game_loads_its_rules_on_first_use(tmp_path: Path) -> None:
    code = ("import sys, engine; before = 'engine.wizbits' in sys.modules; "
            "spec = engine.get_game('wizbits'); print(before, 'engine.wizbits.bots.normal' in sys.modules, "
            "spec.title == engine.game_entries()[2].title, bool(spec.bots))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False", "True", "True", "True"]


def test_coven_without_a_terminal_to_read_keys_from_says_so_and_leaves(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), COVEN_DATA_DIR=str(tmp_path / "data"))
    for stdin in (subprocess.DEVNULL, subprocess.PIPE):  # /dev/null, and a pipe at end of file
        done = subprocess.run([sys.executable, "-m", "tui.cli"], cwd=tmp_path, env=env, stdin=stdin, input=None,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2
        assert done.stderr == "coven: the card table reads keys from a terminal, and standard input is not one.\n"
        assert done.stdout == ""  # no screen modes switched on and left behind
