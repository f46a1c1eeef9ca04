"""The warm parent prepares what every player needs before it forks: a player forked from it imports no module,
builds no parser and parses no CSS of its own on its way to the menu."""

from __future__ import annotations

import ctypes.util
import json
import os
import pty
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import pytest

import engine.wizards_cup.round_matrix
from saves import SessionStore
from tests.helpers.css_parses import count_parses, show_menu
from tests.helpers.memo_walks import count_walks
from tui import cli, css_cache, heap, render_memos
from tui.server import warm

REPO = Path(__file__).resolve().parents[2]

# Preloads as the warm parent does, then runs `coven play` (as a served player's command) headless to the menu,
# and prints the modules the menu imported that the warm parent had not.
_PRELOAD_THEN_MENU = """
import json, os, sys
os.environ.update({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
from tui.server import warm
warm.preload()
preloaded = set(sys.modules)
from tui import cli
from tui.app import CovenApp
from tui.screens.menu import MainMenu

async def reach_menu(pilot):
    while not (isinstance(pilot.app.screen, MainMenu) and pilot.app.screen.query("#menu")):
        await pilot.pause(0.05)
    await pilot.pause()
    pilot.app.exit(type(pilot.app.screen).__name__)

def run_to_menu(self, *args, **kwargs):
    result = original_run(self, headless=True, size=(100, 30), auto_pilot=reach_menu)
    web = sorted(name for name in preloaded if name.split(".")[0] == "aiohttp" or name.startswith("tui.web."))
    print(json.dumps({"screen": result, "new": sorted(set(sys.modules) - preloaded), "web": web}))
    return 0
original_run = CovenApp.run
CovenApp.run = run_to_menu
cli.main(["play", "--name=Ada"])
"""


def test_a_player_imports_no_module_the_warm_parent_did_not(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), COVEN_DATA_DIR=str(tmp_path / "data"))
    keyboard, terminal = pty.openpty()  # coven play reads keys from a terminal, and refuses anything else
    try:
        done = subprocess.run([sys.executable, "-c", _PRELOAD_THEN_MENU], cwd=tmp_path, env=env, stdin=terminal,
                              capture_output=True, text=True, timeout=300, check=True)
    finally:
        os.close(keyboard)
        os.close(terminal)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["screen"] == "MainMenu"
    assert report["new"] == [], "imported by each player instead of once by the warm parent"
    # No player runs the browser door's server: its code and aiohttp would only weigh on every seat.
    assert [name for name in report["web"] if name != "tui.web.config"] == []


# Becomes a warm parent (its drivers imported first, so that they are not counted), then, as a player forked from
# it would, plays the end of a Wizards Cup game (the coach asked) and of a Wizbits game and opens a WitchDraft
# table, headless. Prints the modules those games imported that the warm parent had not, and whether the games'
# ends looked at the modules again for their memos.
_WARM_THEN_GAMES = """
import asyncio, json, sys, time
# The test's drivers, imported before the warm parent is made so that they are not counted: a module one of them
# imports is not checked (none is one a game would import alone).
from saves import LiveSession, SeatInfo
from tests.helpers.near_the_end import near_the_end
from tui.app import CovenApp
from tui.cli.bench.seat_memory import play_one_game
from tui.screens.game.screen import GameScreen
from tui.screens.menu import MainMenu
from tui.server import warm
warm.get_ready()
from tui import app as app_module, render_memos
looked_at = render_memos._modules_at_last_look[0]
preloaded = set(sys.modules)
forgets = []
forget = app_module.forget_render_memos
app_module.forget_render_memos = lambda: forgets.append(1) or forget()

async def until(check, what):
    deadline = time.monotonic() + 120
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what} ({len(forgets)} memory give-backs so far)")
        await asyncio.sleep(0.05)

async def play(pilot):
    app = pilot.app
    await until(lambda: isinstance(app.screen, MainMenu), "the menu")
    spoke = await play_one_game(app, "wizards-cup", 1, opponent="normal", bound=240.0, start=near_the_end)
    await play_one_game(app, "wizbits", 2, opponent="normal", bound=240.0, start=near_the_end)
    # Screens left within a second share one give-back: each game's is awaited before the next is left.
    await until(lambda: len(forgets) >= 2, "the second game's memory back")
    seats = [SeatInfo("Ana"), SeatInfo("Merlin", "bot", "normal")]
    app.start_game(LiveSession.create(app.store, "witchdraft", {}, 3, seats))
    await until(lambda: isinstance(app.screen, GameScreen) and app.screen.query("GameTable"), "the WitchDraft table")
    app.go_to_menu()
    await until(lambda: isinstance(app.screen, MainMenu) and len(forgets) >= 3, "the third game's memory back")
    app.exit(spoke)

spoke = CovenApp(store_path=sys.argv[1], auto_delay=0.0).run(headless=True, size=(100, 30), auto_pilot=play)
print(json.dumps({"spoke": spoke, "new": sorted(set(sys.modules) - preloaded), "forgets": len(forgets),
                  "looked_again": render_memos._modules_at_last_look[0] != looked_at}))
"""


def test_a_player_imports_no_module_the_warm_parent_did_not_in_any_game(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), COVEN_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-c", _WARM_THEN_GAMES, str(tmp_path / "coven.db")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=1500)  # beyond the script's own bounds
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["spoke"] >= 1  # the coach was asked, and thought in a thread
    # Each seat would otherwise import these alone: Rich's emoji table (0.6 MB) for a Wizbits table's Pillar, and
    # the thread pool the coach thinks in.
    assert report["new"] == [], "imported by each player's game instead of once by the warm parent"
    # Going over every module again would copy some 4 MB of the parent's pages into the seat (measured).
    assert report["forgets"] >= 3  # each game's end emptied the memos...
    assert report["looked_again"] is False, "a game's end looked at every module again for the memos"


def test_the_warm_parent_builds_the_command_line_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warm, "PRELOADED_PACKAGES", ())  # all imported already in the test's process
    monkeypatch.setattr(warm, "PRELOADED_EXTRA", ())
    monkeypatch.setattr(cli, "_parsers", [])
    built: list[object] = []
    build = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: built.append(1) or build())
    warm.preload()
    assert len(built) == 1
    with pytest.raises(SystemExit):
        cli.shared_parser().parse_args(["play", "--help"])
    assert cli.main(["play", "--name=--"]) != 0  # a player's own command line: parsed, and refused, with it
    assert len(built) == 1, "a player built the parser again"


def test_the_warm_parent_finds_the_c_library_so_a_player_starts_no_subprocess(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warm, "PRELOADED_PACKAGES", ())
    monkeypatch.setattr(warm, "PRELOADED_EXTRA", ())
    getattr(heap._libc, "cache_clear", lambda: None)()  # as in a warm parent that has not looked yet
    looked: list[str] = []
    find = ctypes.util.find_library  # runs ldconfig in a subprocess, on Linux
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: looked.append(name) or find(name))
    warm.preload()
    assert looked == ["c"]
    heap.limit_arenas()  # a player's start (CovenApp), and its heap handed back after each game
    heap.give_back()
    heap.give_back()
    assert looked == ["c"], "the C library was looked for again"


async def test_the_warm_parent_parses_the_css_a_player_needs(store: SessionStore,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warm, "PRELOADED_PACKAGES", ())
    monkeypatch.setattr(warm, "PRELOADED_EXTRA", ())
    monkeypatch.setattr(css_cache, "_parsed", OrderedDict())
    warm.preload()
    assert css_cache.cached_sources() > 0
    parses = count_parses(monkeypatch)
    await show_menu(store)
    assert parses == [], "the menu parsed CSS the warm parent had not"


def test_the_warm_parent_builds_the_wizards_cup_duel_tables_before_any_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    prepared: list[bool] = []
    monkeypatch.setattr(engine.wizards_cup.round_matrix, "prepare", lambda: prepared.append(True))
    assert "numpy" in warm.preload()
    assert prepared == [True]


def test_the_warm_parent_looks_for_the_drawing_memos_as_it_prepares(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warm, "PRELOADED_PACKAGES", ())
    monkeypatch.setattr(warm, "PRELOADED_EXTRA", ())
    render_memos.look_again()  # as in a warm parent that has not looked yet
    walked = count_walks(monkeypatch)
    warm.preload()
    assert "textual.geometry" in walked and "rich.cells" in walked and "tui.contrast_floor" in walked
    # That a player then looks at no module again is checked with a real warm parent's last look (get_ready),
    # above and below: preload's own look comes before the later steps import a few more modules.


def test_the_warm_parent_has_looked_at_every_module_it_holds_when_it_forks(tmp_path: Path) -> None:
    """A seat's first game end would otherwise go over every module again (copying the pages it reads)."""
    script = ("import sys\nfrom tui.server import warm\nwarm.get_ready()\nfrom tui import render_memos\n"
              "print(render_memos._modules_at_last_look[0], len(sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    looked_at, held = map(int, done.stdout.split())
    assert looked_at == held
