"""Coven never writes into a pipe, device or folder, and never blocks trying: every command and screen that writes."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Self

import pytest

from engine.core.textfile import TextFileError, write_text_file
from engine.wizbits.lab.json_form import shipped_scenarios, write_scenario
from engine.wizbits.lab.table import LabError
from saves import LiveSession, SeatInfo, SessionStore
from tui.cli import main


def clean_output(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    captured = capsys.readouterr()
    for text in (captured.out, captured.err):
        assert "Traceback" not in text and "Unexpected error" not in text, text
    return captured.out, captured.err


def finishes(function: Callable[[], object], fifo: Path, seconds: float = 20.0) -> object:
    """Run ``function`` in a thread; if it blocks on ``fifo``, open its read end to free it, then fail."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(function())
        except Exception as error:  # noqa: BLE001 - the test looks at what came out
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        worker.join(seconds)
        os.close(reader)
        pytest.fail("writing blocked on a FIFO instead of refusing it")
    return outcome[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_export_starter_refuses_a_fifo(fifo: Path, force: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code = finishes(lambda: main(["deck", "export-starter", "ember-dawn", str(fifo), *force]), fifo)
    assert code == 1
    _, err = clean_output(capsys)
    assert "not a regular file" in err


def test_export_starter_refuses_a_device(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "export-starter", "ember-dawn", "/dev/null", "--force"]) == 1
    assert "not a regular file" in clean_output(capsys)[1]


def test_session_export_refuses_a_fifo(fifo: Path, store: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    session = LiveSession.create(store, "wizards-cup", {}, 3, [SeatInfo("Ana"), SeatInfo("Bea")])
    code = finishes(lambda: main(["export", str(session.session_id), str(fifo), "--force"]), fifo)
    assert code == 1
    assert "not a regular file" in clean_output(capsys)[1]


def test_a_lab_scenario_is_never_written_into_a_fifo(fifo: Path) -> None:
    outcome = finishes(lambda: write_scenario(fifo, shipped_scenarios()[0]), fifo)
    assert isinstance(outcome, LabError) and "not a regular file" in str(outcome)


def test_write_text_file_replaces_a_regular_file_and_refuses_a_folder(tmp_path: Path) -> None:
    target = tmp_path / "a.txt"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o644)
    write_text_file(target, "new", overwrite=True)
    assert target.read_text(encoding="utf-8") == "new" and (target.stat().st_mode & 0o777) == 0o644
    with pytest.raises(TextFileError, match="a folder, not a regular file"):
        write_text_file(tmp_path, "x", overwrite=True)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.txt"]


class Watchdog:
    """Frees a writer stuck on ``fifo`` after ``seconds`` (by opening its read end) and remembers it had to."""

    def __init__(self, fifo: Path, seconds: float = 20.0) -> None:
        self.fifo = fifo
        self.fired = False
        self._reader: int | None = None
        self._timer = threading.Timer(seconds, self._free)

    def _free(self) -> None:
        self.fired = True
        self._reader = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)

    def __enter__(self) -> Self:
        self._timer.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._timer.cancel()
        if self._reader is None:  # also free a writer still waiting when the test body failed early
            self._reader = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        time.sleep(0.2)
        os.close(self._reader)  # a writer still going gets a broken pipe and ends


async def test_the_deck_editor_refuses_to_export_into_a_fifo(store: SessionStore, fifo: Path) -> None:
    from tests.helpers.deck_editor_helpers import SIZE, editor, message, open_starter
    from tui.app import CovenApp
    from tui.widgets.confirm import ConfirmScreen

    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        await open_starter(pilot, 0)
        with Watchdog(fifo) as watchdog:
            editor(app).export_path(str(fifo))
            await pilot.pause()
        assert not watchdog.fired, "the export blocked on the FIFO"
        assert not isinstance(app.screen, ConfirmScreen)  # nothing to replace: refused at once
        assert "not a regular file" in message(app)


async def test_a_screenshot_is_never_written_into_a_fifo(store: SessionStore, tmp_path: Path) -> None:
    from tui.app import CovenApp

    folder = tmp_path / "shots"
    folder.mkdir()
    fifo = folder / "shot.svg"
    os.mkfifo(fifo)
    app = CovenApp(store=store, auto_delay=60)
    async with app.run_test(size=(100, 30)) as pilot:
        with Watchdog(fifo) as watchdog:
            assert app.deliver_screenshot(filename="shot.svg", path=str(folder)) is None
            await pilot.pause()
            for thread in threading.enumerate():  # Textual writes a screenshot in a thread of its own
                if thread is not threading.current_thread() and thread.name != watchdog._timer.name \
                        and not thread.daemon:
                    thread.join(1)
        assert not watchdog.fired, "the screenshot blocked on the FIFO"
        assert any("not a regular file" in str(note.message) for note in app._notifications)
    assert list(folder.iterdir()) == [fifo]
