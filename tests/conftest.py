"""Shared fixtures. Every test gets its own data directory, never the user's.

An ``async def`` test runs in a fresh event loop of its own: pytest-asyncio in auto mode (pyproject.toml).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

from engine import GameSpec, register
from engine.core import registry
from saves import Presence, SessionStore, TableStore

if TYPE_CHECKING:  # the app's modules load only for the tests that use its fakes
    from tests.helpers.table_helpers import Opener
    from tests.helpers.tui_fakes import FakeUI


# The same examples on every run (a failure reproduces; CI never meets a new one by chance), and no
# per-example deadline, which a busy machine's pause would break. An explicit @settings keeps its own values.
settings.register_profile("coven", derandomize=True, deadline=None)
settings.load_profile("coven")


HEAVY_TESTS = (
    "tests/tui/test_seat_memory.py::test_games_one_after_another_leave_no_game_screen_behind",
    "tests/tui/cli/test_bench.py::test_bench_serve_prints_each_figure_for_coven_warm_and_fresh_and_the_bare_app",
    "tests/tui/test_layout_audit_games.py::test_every_phase_fits_for_a_seat_and_a_spectator_at_80x24_and_120x40",
    "tests/tui/cli/test_bench.py::test_bench_seat_memory_prints_uss_and_rss_at_the_menu_and_after_the_game",
    "tests/tui/cli/test_bench.py::test_bench_web_prints_a_browser_session_beside_an_ssh_session",
    "tests/engine/witchdraft/test_witchdraft_draft.py::test_150_random_games_with_a_json_round_trip_at_every_step",
    "tests/tui/wizbits/test_deck_editor_files.py::test_import_shows_the_bad_line_and_export_round_trips",
    "tests/engine/test_game_contract.py::test_random_playouts_keep_the_contract",
    "tests/serve/test_serve_game.py::test_two_ssh_players_play_a_whole_wizards_cup_table_and_a_dropped_one_comes_back_with_the_seat_token",
    "tests/web/test_web_table_actions.py::test_a_browser_player_joins_by_code_talks_undoes_plays_again_and_watches",
    "tests/web/test_web_tables.py::test_a_table_hosted_from_a_browser_is_joined_over_ssh_and_played_to_its_end",
    "tests/web/test_web_refresh.py::test_a_refresh_mid_game_takes_the_seat_back_from_the_tabs_session_storage",
    "tests/web/test_web_refresh.py::test_a_kept_seat_is_refused_to_another_login_and_the_typed_token_still_works",
    "tests/web/test_web_secrets.py::test_neither_seat_s_page_shows_a_card_the_other_holds_hidden_in_a_whole_witchdraft_game",
    "tests/tui/wizbits/test_deck_editor.py::test_every_key_in_every_pane_at_80x24",
    "tests/serve/test_serve_abuse.py::test_password_guessing_is_bounded_per_connection_and_slowed_per_address",
    "tests/serve/test_serve_rematch.py::test_two_ssh_players_play_again_at_the_same_table",
    "tests/tui/wizbits/test_wizbits_passing.py::test_yield_until_my_turn_spares_most_curtains_of_a_turn_with_no_card_played",
    "tests/tui/wizbits/test_deck_editor.py::test_live_validation_messages_then_build_a_legal_deck_and_start_a_game_with_it",
)
"""The longest tests (each 15 s or more of a quiet 2-core run), longest first, every parametrisation of each.

They run first: the workers share them out while many short tests remain to even up the end, so no
worker finishes the run alone on one long test. tests/project/test_heavy_tests.py checks every name
still exists.
"""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Workers for ``-n logical``: one and a half a CPU (3 on 2 CPUs), or ``PYTEST_XDIST_AUTO_NUM_WORKERS``.

    A quarter of a worker's time goes to waiting (a timer in the app, a served child, a subprocess), so
    one worker a CPU left the CPUs idle that long; a third worker on two CPUs fills most of it.
    """
    wanted = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cpus + (cpus + 1) // 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put :data:`HEAVY_TESTS` first, longest first; the rest keep their order (the sort is stable)."""
    rank = {name: place for place, name in enumerate(HEAVY_TESTS)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("[")[0], len(rank)))


GC_THRESHOLDS = (20_000, 10, 10)
"""The worker's collection thresholds (Python's default is 700, 10, 10): see :func:`pytest_collection_finish`."""


def pytest_collection_finish(session: pytest.Session) -> None:
    """Take what the worker has imported and collected out of the garbage collector's reach, and collect less often.

    Textual, Rich, the engine and the collected tests are a hundred thousand objects or more that live as long
    as the worker, and an app test makes as many again, most of them kept until its app closes. The collector
    walked all of them over and over: a fifth of the app tests' CPU. Frozen, the worker's own objects are never
    walked again; collecting when 20,000 objects are new instead of 700 cuts the walks over a test's app.
    Nothing frozen is garbage (a collection runs first), and what a test makes is collected as before, so a
    check that an object is freed (``gc.collect()``, then a weak reference) means what it says.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@pytest.fixture(autouse=True)
def plain_element_look() -> Iterator[None]:
    """Every test starts and ends with elements drawn the default way (a settings test may change it)."""
    from tui.widgets.element_look import set_element_look

    set_element_look(False, {})
    yield
    set_element_look(False, {})


@pytest.fixture(autouse=True)
def plain_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich prints plain text, 80 columns wide, to a captured stream, whatever the runner's environment says.

    Colour-forcing variables would add escapes; COLUMNS and LINES would change where tables wrap (and
    the size a served child assumes). A test that needs room asks for ``wide_output``.
    """
    for variable in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR_FORCE", "COLUMNS", "LINES"):
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture(autouse=True)
def coven_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point COVEN_DATA_DIR at a fresh temporary folder for every test."""
    path = tmp_path / "coven-data"
    monkeypatch.setenv("COVEN_DATA_DIR", str(path))
    # The new-game form suggests the login name; make it the same on every machine.
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.setenv(variable, "ana")
    return path


@pytest.fixture
def wide_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """Print Rich tables 200 columns wide, so a long figure on a slow machine cannot wrap the row names a test reads."""
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture
def fake_spec() -> Iterator[GameSpec]:
    """Register the test-only "count-to-ten" game for one test."""
    from tests.helpers.fake_game import SPEC

    register(SPEC)
    yield SPEC
    # The registry has no public unregister; drop it so other tests' game lists stay real.
    registry._REGISTRY.pop(SPEC.game_id, None)


@pytest.fixture
def store() -> Iterator[SessionStore]:
    """A store in the test's data directory, closed after the test."""
    with SessionStore() as opened:
        yield opened


@pytest.fixture
def fake_ui(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeUI]:
    """Use the fake table for every game during one test."""
    import tui.games
    from tests.helpers.tui_fakes import FakeUI

    ui = FakeUI()
    monkeypatch.setattr(tui.games, "_GAME_UIS", {"wizards-cup": ui, "count-to-ten": ui})
    yield ui


@pytest.fixture
def open_tables(fake_spec: GameSpec, tmp_path: Path) -> Iterator[Opener]:
    """Open a TableStore as another process would: its own connection and its own presence."""
    with ExitStack() as stack:

        def opener() -> TableStore:
            store = stack.enter_context(SessionStore())
            presence = stack.enter_context(Presence(tmp_path / "presence"))
            return TableStore(store, presence)

        yield opener


@pytest.fixture
def other() -> Iterator[TableStore]:
    """Another player's process at a shared table: its own connection and presence claim."""
    with SessionStore() as store, Presence() as presence:
        yield TableStore(store, presence)
