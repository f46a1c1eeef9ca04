"""``coven bench seat-memory``: what one seat's process holds after whole games, and whether it comes back.

Each measurement runs in a fresh interpreter, so it starts from nothing: the
real :class:`~tui.app.CovenApp`, headless at 80x24 with a throw-away data
folder, plays whole games against the Hard bot and returns to the main menu
after each. The person's seat is played by the Normal bot through the table's
own :class:`~tui.games.base.GameTable.ActionChosen` message (what a key press
ends in), so a long game costs no key presses. Two plans are measured:

- ``wizards-cup``: Wizards Cup against Hard, the coach asked once every round
  (on the lineup as arranged, as ``h`` does), its panel closed once it has spoken;
- ``wizbits``: Wizbits against Hard, at the shortest thinking time the Settings offer.

The figures are USS (``Private_Clean + Private_Dirty`` of ``/proc/self/smaps_rollup``:
what the process alone holds, which a forked seat's shared pages do not inflate)
and RSS, at the menu after start-up, after game 1 and after game N, each after a
full garbage collection, in MB of 1,000,000 bytes as issue 24 states its targets.
:func:`play_and_measure` is the core: it drives an app that is already running
(any driver, e.g. a forked SSH seat's) and returns the figures.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from engine.core.words import plural
from tui.app import GIVE_BACK_SECONDS
from tui.cli.bench.memory import read_rollup, seats_per_gb
from tui.cli.bench.progress import Progress

if TYPE_CHECKING:
    from saves import LiveSession
    from tui.app import CovenApp

GAMES = 1
"""Games a plan plays when ``--games`` is not given. The growth from game to game needs ``--games 2`` or more."""
MAX_GAMES = 50
"""The most games a plan plays, whatever ``--games`` says."""
PLANS = ("wizards-cup", "wizbits")
"""What :func:`run` measures when ``--games`` is given, each in its own fresh process."""
DEFAULT_PLANS = ("wizards-cup",)
"""What a run without ``--games`` measures: one Wizards Cup game, fresh and warm, to stay under a minute (with
Wizbits too, one game each took 100 s of CPU here)."""
TARGET_USS_MB = 40.0
"""A seat's USS after a whole game, at most, in MB of 1,000,000 bytes (issue 24)."""
TARGET_GROWTH = 0.2
"""USS after the last game at most this share above USS after the first."""
GAME_BOUND_SECONDS = 1800.0
"""A generous bound on one whole game, only there to end a hung measurement."""
STALL_SECONDS = 300.0
"""A generous bound on a game that shows no change (no move, no other screen), only there to end a hung one."""
OPTIONS: dict[str, dict[str, Any]] = {"wizards-cup": {}, "wizbits": {}}
"""Each plan's game options: the defaults, a whole game as a player starts one. The children of :func:`measure`
play with the ones this process holds (a test plays Wizards Cup to one Cup Token, one round)."""
MENU_POLL_SECONDS = 0.02
"""How often :func:`until_menu_drawn` looks at the menu while it is being built."""
THINK_TIME = "0.25"
"""Wizbits Hard's thinking time a move: the shortest the Settings offer (the bench measures memory, not strength)."""


@dataclass(frozen=True)
class Sample:
    """The process's memory at one point, after a full garbage collection.

    Attributes:
        when: Where the seat was ("menu", "game 1", ...).
        uss_mb: Memory only this process holds, in MB (1,000,000 bytes).
        rss_mb: Resident memory, shared pages included, in MB.
    """

    when: str
    uss_mb: float
    rss_mb: float


def memory_now(when: str) -> Sample:
    """This process's USS and RSS now (Linux), after :func:`gc.collect`."""
    gc.collect()
    rollup = read_rollup()
    return Sample(when, rollup.uss_mb, rollup.rss_mb)


def _menu_laid_out(app: Any) -> bool:
    """Whether the main menu is on top, with its options, laid out on the screen."""
    from textual.widgets import OptionList

    from tui.screens.menu import MainMenu

    if not isinstance(app.screen, MainMenu):
        return False
    menu = next(iter(app.screen.query("#menu").results(OptionList)), None)
    return menu is not None and menu.option_count > 0 and menu.region.height > 0


async def until_menu_drawn(pilot: Any) -> None:
    """Wait until the main menu is laid out with its options and the app has handled what that sent.

    The menu's sample is then what a seat at rest at the menu holds. Taken as soon as the menu screen was pushed,
    before it was built and drawn, it was about 4.5 MB less than a served seat's at the menu.
    """
    deadline = time.monotonic() + STALL_SECONDS
    while not _menu_laid_out(pilot.app):
        if time.monotonic() > deadline:
            raise RuntimeError("the main menu was never drawn")
        await asyncio.sleep(MENU_POLL_SECONDS)
    await pilot.pause()  # what laying it out sent: its Footer's keys, the focus, the first paint
    await pilot.pause()


# -- playing one game through the app ------------------------------------------------------------------


def _new_game(app: CovenApp, plan: str, seed: int, opponent: str, people: Sequence[str]) -> LiveSession:
    from saves import LiveSession, SeatInfo

    assert app.store is not None, app.store_problem
    game_id = {"wizards-cup": "wizards-cup", "wizbits": "wizbits"}[plan]
    seats = [SeatInfo(name) for name in people]
    if len(seats) < 2:
        seats.append(SeatInfo("Merlin", "bot", opponent))
    return LiveSession.create(app.store, game_id, OPTIONS[plan], seed, seats)


def _person_moves(live: LiveSession, seat: int, moves: int) -> Any:
    """What the Normal bot would play for the person's ``seat`` (the person's keys, without the keys)."""
    from engine.core import seeded_rng

    view = live.rules.view(live.state, seat)
    legal = live.rules.legal_actions(live.state, seat)
    return live.spec.bots["normal"](view, legal, seeded_rng(live.seed, "person", seat, moves))


async def play_one_game(app: CovenApp, plan: str, seed: int, *, coach: bool = True, opponent: str = "hard",
                        tick: float = 0.02, bound: float = GAME_BOUND_SECONDS,
                        start: Callable[[LiveSession], None] | None = None,
                        at_keyboard: Sequence[str] = ("Ana",)) -> int:
    """Play one whole game of ``plan`` on ``app`` (running, at its menu) and return to the menu.

    The person's seat plays the Normal bot's moves through the table; the ``opponent`` bot plays
    the other seat as the game screen runs it (in its worker). With two names ``at_keyboard`` the
    game is pass-and-play, both seats played so, each behind its curtain. With ``coach`` (Wizards Cup),
    the coach is asked once a round, on the lineup as arranged, and closed once it has spoken.
    ``start``, when given, moves the new session on before its screen opens (a test's way to play
    only a game's end through the screen).

    Returns:
        How many times the coach spoke.

    Raises:
        RuntimeError: the game did not end within ``bound`` seconds, or a screen came up that
            the driver does not know.
    """
    from tui.games.base import GameTable
    from tui.screens.game.screen import GameScreen
    from tui.screens.menu import MainMenu
    from tui.widgets.game_over import GameOverScreen

    live = _new_game(app, plan, seed, opponent, at_keyboard)
    if start is not None:
        start(live)
    app.start_game(live)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    coached: set[int] = set()
    spoke = 0
    moved_at = -1  # the log length when the person last moved: one move per turn, however long the screen takes
    seen: tuple[object, ...] = ()
    closing = False
    changed = loop.time()
    while True:
        await asyncio.sleep(tick)
        screen = app.screen
        now = (type(screen), len(live.log))
        if now != seen:
            seen, changed = now, loop.time()
        elif loop.time() - changed > STALL_SECONDS:
            raise RuntimeError(f"a {plan} game stalled: {_describe(screen, live)}")
        if loop.time() > deadline:
            raise RuntimeError(f"a {plan} game did not end within {bound:g} s: {_describe(screen, live)}")
        if isinstance(screen, MainMenu):
            # Textual removes a popped screen's widgets after the menu is back: wait for that.
            if live.finished and not any(isinstance(node, GameScreen) for node in app._nodes):
                return spoke
            continue
        if isinstance(screen, GameOverScreen):
            if not closing:  # closing posts GoToMenu: a second one would pop the next game's screen
                closing = True
                screen.action_close()
            continue
        if not isinstance(screen, GameScreen):
            spoke += _close_modal(screen)
            continue
        if screen.live is not live:
            raise RuntimeError(f"an unexpected game screen is in front: {screen!r}")
        if live.finished or screen._bot_log_length is not None:
            continue  # the final screen is on its way, or the bot thinks
        people = [seat for seat in live.to_act if not live.seats[seat].is_bot]
        if not people:
            if live.table_action is not None and not screen.auto_play:
                screen.auto_play = True  # the table's steps (duels, phases) play by themselves, as `a` does
            continue
        seat = people[0]
        if coach and _ask_coach(screen, live, seat, coached):
            continue
        if moved_at == len(live.log):
            continue
        moved_at = len(live.log)
        screen.table.post_message(GameTable.ActionChosen(seat, _person_moves(live, seat, len(live.log))))


def _describe(screen: Any, live: LiveSession) -> str:
    """Where a game stands, for a stalled measurement's message."""
    status = getattr(screen, "status_text", "")
    # What the game screen waits on, for a stall seen once in CI and never again here: its own auto-play state.
    waits = {name: getattr(screen, name, None) for name in ("auto_play", "_auto_timer", "_bot_log_length",
                                                             "_curtain_up", "_pending_modal", "is_current")}
    return (f"screen {type(screen).__name__} ({status!r}), {len(live.log)} moves, to act {live.to_act}, "
            f"table step {live.table_action!r}, finished {live.finished}, screen state {waits}")


def _ask_coach(screen: Any, live: LiveSession, seat: int, coached: set[int]) -> bool:
    """Ask the coach on this round's lineup, once a round (Wizards Cup); True when asked now."""
    if live.spec.game_id != "wizards-cup":
        return False
    from engine.wizards_cup.state import Phase
    from tui.games.wizards_cup.lineup import LineupEditor

    state = live.state
    if state.phase is not Phase.LINEUP or state.round in coached:
        return False
    editors = screen.query(LineupEditor)
    if not editors:
        return False
    coached.add(state.round)
    editors.first(LineupEditor).action_coach()  # what `h` does
    return True


def _close_modal(screen: Any) -> int:
    """Close a modal the game put up (a round's summary, the coach once it has spoken, a pass-and-play curtain,
    lifted as Enter does); 1 for a coach that spoke."""
    from tui.games.wizards_cup.coach import CoachScreen
    from tui.games.wizards_cup.results import RoundResultScreen
    from tui.screens.curtain import CurtainScreen

    if isinstance(screen, CurtainScreen):
        screen.action_reveal()
        return 0

    if isinstance(screen, CoachScreen):
        if screen.thinking:
            return 0
        if "could not" in screen.words():
            raise RuntimeError(f"the coach failed: {screen.words()}")
        screen.action_close()
        return 1
    if isinstance(screen, RoundResultScreen):
        screen.action_close()
        return 0
    raise RuntimeError(f"the seat-memory driver does not know the screen {type(screen).__name__}")


async def play_and_measure(app: CovenApp, plan: str, games: int, *, seed: int = 1,
                           sample: Callable[[str], Sample] = memory_now,
                           report: Callable[[Sample], None] | None = None) -> list[Sample]:
    """Play ``games`` whole games of ``plan`` on ``app`` (running, at its menu), sampling memory.

    Samples are taken at the menu before the first game, after game 1 and after the last
    (and after every game when ``report`` is given, which is called with each sample).

    Returns:
        The samples in order: "menu", "game 1", ..., "game N".
    """
    if plan not in PLANS:
        raise ValueError(f"unknown plan {plan!r}; plans: {', '.join(PLANS)}")
    samples = [sample("menu")]
    if report is not None:
        report(samples[0])
    for played in range(1, games + 1):
        await play_one_game(app, plan, seed + played - 1)
        await asyncio.sleep(GIVE_BACK_SECONDS + 0.5)  # the app hands the game's freed memory back meanwhile
        if played in (1, games) or report is not None:
            samples.append(sample(f"game {played}"))
            if report is not None:
                report(samples[-1])
    return samples


# -- one fresh process per plan -----------------------------------------------------------------------


def child_main(plan: str, games: int) -> int:
    """In a fresh interpreter: start Coven headless, play the games, print one JSON line per sample."""
    from tui.app import CovenApp
    from tui.player_settings import write_setting

    with tempfile.TemporaryDirectory(prefix="coven-bench-memory-") as folder:
        app = CovenApp(store_path=Path(folder) / "coven.db", auto_delay=0.0)
        assert app.store is not None, app.store_problem
        write_setting(app.store, None, "bots.think_time", THINK_TIME)
        failure: list[BaseException] = []

        def report(sample: Sample) -> None:
            print(json.dumps(asdict(sample)), flush=True)

        async def drive(pilot: Any) -> None:
            try:
                await until_menu_drawn(pilot)
                await play_and_measure(app, plan, games, report=report)
            except BaseException as error:  # noqa: BLE001 - told to the parent below, after the app has ended
                failure.append(error)
            finally:
                app.exit()

        app.run(headless=True, size=(80, 24), auto_pilot=drive)
    if failure:
        print(f"seat-memory: {type(failure[0]).__name__}: {failure[0]}", file=sys.stderr)
        return 3
    return 0


def measure(plan: str, games: int, *, warm: bool = False) -> list[Sample]:
    """Run ``plan`` for ``games`` games in a fresh interpreter; its samples (menu, then after each game).

    With ``warm`` the interpreter first becomes what ``coven serve``'s warm parent is (everything preloaded,
    then frozen) and the seat is a process forked from it, whose USS leaves out what it shares.
    """
    env = dict(os.environ)
    env.pop("COVEN_DEBUG", None)
    # The child plays with this process's OPTIONS (plain JSON values, so their repr is Python source).
    options = f"from tui.cli.bench import seat_memory; seat_memory.OPTIONS.update({OPTIONS!r})"
    code = f"import sys; {options}; sys.exit(seat_memory.child_main({plan!r}, {games}))"
    if warm:
        code = ("import os, sys; from tui.server import warm; warm.get_ready(); pid = os.fork()\n"
                "if pid == 0:\n"
                f"    {options}\n"
                f"    sys.stdout.flush(); os._exit(seat_memory.child_main({plan!r}, {games}))\n"
                "sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))")
    with tempfile.TemporaryDirectory(prefix="coven-bench-memory-") as folder:
        env["COVEN_DATA_DIR"] = folder
        done = subprocess.run([sys.executable, "-c", code], env=env, cwd=folder, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the seat-memory probe failed ({done.returncode}): {done.stderr.strip()[-800:]}")
    return [Sample(**json.loads(line)) for line in done.stdout.splitlines() if line.startswith("{")]


def _rows(plan: str, samples: Sequence[Sample]) -> list[tuple[str, str, str]]:
    first = next(s for s in samples if s.when == "game 1")
    last = samples[-1]
    shown = (samples[0], first) if last is first else (samples[0], first, last)
    rows = [(f"{plan}: {s.when}", f"{s.uss_mb:.1f} MB", f"{s.rss_mb:.1f} MB") for s in shown]
    growth = last.uss_mb / first.uss_mb - 1
    rows.append((f"{plan}: USS growth game 1 → {last.when}", f"{growth:+.1%}", ""))
    return rows


def _met(met: bool) -> str:
    return "met" if met else "not met"


def run(games: int | None = None) -> int:
    """Measure each plan in its own fresh process and print the figures; 0 (the targets are reported, not enforced).

    ``games`` None is the default run: :data:`GAMES` games of :data:`DEFAULT_PLANS`; a number plays every plan.
    """
    console = Console()
    plans = DEFAULT_PLANS if games is None else PLANS
    games = GAMES if games is None else max(1, min(games, MAX_GAMES))
    console.print(f"Playing {plural(games, 'game')} against Hard in one seat, for each of {', '.join(plans)} "
                  "(Wizards Cup with the coach every round), each in a fresh headless Coven and in one forked from "
                  "a warm parent as coven serve's are...")
    table = Table(title="coven bench seat-memory: one seat's memory (after a full gc)")
    table.add_column("when")
    table.add_column("USS", justify="right")
    table.add_column("RSS", justify="right")
    first_met = every_met = growth_met = True
    in_play: list[str] = []
    progress = Progress("coven bench seat-memory")
    for plan in plans:
        for warm in (False, True):
            progress.stage(f"{plan}, {'forked warm' if warm else 'fresh'}", games, "game")
            samples = measure(plan, games, warm=warm)
            if warm:
                in_play.append(f"{plan} {seats_per_gb(max(s.uss_mb for s in samples[1:])):.0f}")
            for row in _rows(f"{plan}, forked warm" if warm else plan, samples):
                table.add_row(*row)
            if warm:  # the targets are a served seat's, and coven serve forks its seats warm (--no-warm is a fallback)
                first = next(s for s in samples if s.when == "game 1")
                first_met = first_met and first.uss_mb <= TARGET_USS_MB
                every_met = every_met and max(s.uss_mb for s in samples) <= TARGET_USS_MB
                growth_met = growth_met and samples[-1].uss_mb <= first.uss_mb * (1 + TARGET_GROWTH)
    progress.stage("done", 0)
    console.print(table)
    console.print(f"Seats in play per GB, forked warm (by the largest USS after a game): {', '.join(in_play)}.")
    console.print("Targets, for seats forked warm as coven serve's are:")
    console.print(f"- USS at most {TARGET_USS_MB:g} MB after a whole game: after the first, {_met(first_met)}; "
                  f"after every game played, {_met(every_met)}.")
    console.print(f"- USS after the last game within {TARGET_GROWTH:.0%} of after the first: {_met(growth_met)}.")
    return 0


if __name__ == "__main__":
    sys.exit(run(int(sys.argv[1]) if len(sys.argv) > 1 else None))
