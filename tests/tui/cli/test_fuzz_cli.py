"""Fuzzing every ``coven`` subcommand with odd arguments, in process (``tui.cli.main``).

Each call must end with an exit code and, on stderr, a message in words or
argparse's usage line: never a traceback or "Unexpected error". Odd arguments
include huge and non-ASCII numbers, escape sequences, lone surrogates (what
undecodable bytes on the command line become), and paths to a FIFO, a folder
and a device as files to read or write. The data directory is the test's own
(``tests/conftest.py``); the seed is fixed and the example counts small.
"""

from __future__ import annotations

import argparse
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from saves import LiveSession, SeatInfo, SessionStore
from tui.cli import main
from tui.server.config import ServeUsageError, add_serve_parser, config_from_args

ODD = st.one_of(
    st.sampled_from(["", " ", "-", "--", "-1", "0", "1", "9" * 30, "9" * 5000, "1e9", "0x10", "٣", "１", "NaN",
                     "\x1b[31m", "\x1b]0;owned\x07", "\ud800", "\udcff", "\u202e", "\x00", "x" * 5000, "..", "~",
                     "{fifo}", "{folder}", "/dev/null", "/dev/zero", "{missing}/x", "{file}"]),
    st.text(max_size=10),
)
BAD_AUTH = st.sampled_from(["", "nonee", "\x1b", "\ud800", "9" * 5000, "keys;", "PASSWORD!"])
# Never three real bot levels in a row: odd bots stop `simulate` before it plays.
BAD_BOTS = st.text(min_size=1, max_size=10).filter(
    lambda text: any(part.strip() not in {"easy", "normal", "hard"} for part in text.split(",")))

COMMANDS_WITH_FLAGS = [["serve"], ["simulate", "wizbits"], ["bench", "wizbits"], ["deck", "save", "x", "y"],
                       ["export", "1", "f"]]
FLAGS = ["--port", "--games", "--option", "--seed", "--bots", "--idle-timeout", "--host"]

TEMPLATES: list[tuple[str, Callable[[st.DrawFn], list[str]]]] = [
    ("rules", lambda d: ["rules", d(ODD)]),
    ("doctor", lambda d: ["doctor", d(ODD)]),
    ("sessions", lambda d: ["sessions", d(ODD)]),
    ("export", lambda d: ["export", d(ODD), d(ODD)]),
    ("export a real session", lambda d: ["export", "1", d(ODD), *d(st.sampled_from([[], ["--force"]]))]),
    ("import", lambda d: ["import", d(ODD)]),
    ("bench", lambda d: ["bench", d(ODD), "--games", d(ODD)]),
    ("simulate", lambda d: ["simulate", d(ODD), "--games", d(ODD), "--seed", d(ODD)]),
    ("simulate bots", lambda d: ["simulate", "wizbits", "--games", d(ODD), "--bots", d(BAD_BOTS)]),
    ("simulate options", lambda d: ["simulate", "wizards-cup", "--games", "1", "--option", d(ODD)]),
    ("simulate option value", lambda d: ["simulate", "wizbits", "--games", "1", "--option", f"deck_1={d(ODD)}",
                                         "--bots", "x"]),
    ("deck", lambda d: ["deck", d(ODD)]),
    ("deck check", lambda d: ["deck", "check", d(ODD)]),
    ("deck save", lambda d: ["deck", "save", d(ODD), d(ODD), *d(st.sampled_from([[], ["--force"]]))]),
    ("deck list", lambda d: ["deck", "list", d(ODD)]),
    ("deck show", lambda d: ["deck", "show", d(ODD)]),
    ("deck rename", lambda d: ["deck", "rename", d(ODD), d(ODD)]),
    ("deck delete", lambda d: ["deck", "delete", d(ODD)]),
    ("deck export-starter", lambda d: ["deck", "export-starter", d(ODD), d(ODD)]),
    ("deck export-starter file", lambda d: ["deck", "export-starter", "ember-dawn", d(ODD),
                                            *d(st.sampled_from([[], ["--force"]]))]),
    ("serve", lambda d: ["serve", "--auth", d(BAD_AUTH), d(st.sampled_from(["--port", "--max-sessions",
                                                                           "--idle-timeout", "--rate-burst",
                                                                           "--login-grace", "--max-auth-tries",
                                                                           "--rate-refill-seconds"])), d(ODD)]),
    ("serve flags", lambda d: ["serve", d(st.sampled_from(["--bad", "--port", "--auth", "-x", "--add-user"]))]),
    ("a flag given '--'", lambda d: [*d(st.sampled_from(COMMANDS_WITH_FLAGS)), d(st.sampled_from(FLAGS)) + "=--"]),
]


@st.composite
def argv(draw: st.DrawFn) -> tuple[str, list[str]]:
    name, build = draw(st.sampled_from(TEMPLATES))
    return name, build(draw)


def run_without_blocking(args: list[str], fifo: Path) -> object:
    """``main(args)`` in a thread; if it blocks on the FIFO, free it by opening the read end, then fail."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(main(args))
        except BaseException as error:  # noqa: BLE001 - anything escaping main is itself the failure
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    if worker.is_alive():
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        worker.join(10)
        os.close(reader)
        pytest.fail(f"coven {args!r} blocked")
    return outcome[0]


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Odd paths: a FIFO, a folder, a missing folder, a plain file holding a few bytes.

    The working directory is the test's own too: a relative FILE lands there.
    """
    monkeypatch.chdir(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_bytes(b"\xff\xfe{not text")
    with SessionStore() as store:  # session 1, so `export 1 FILE` reaches the writing
        LiveSession.create(store, "wizards-cup", {}, 1, [SeatInfo("Ana"), SeatInfo("Bea")])
    return {"fifo": str(fifo), "folder": str(tmp_path / "folder"), "missing": str(tmp_path / "missing"),
            "file": str(tmp_path / "file")}


@settings(derandomize=True, max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(drawn=argv())
def test_every_subcommand_answers_odd_arguments_in_words(
    drawn: tuple[str, list[str]], places: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    name, raw = drawn
    args = [arg.format(**places) if arg.startswith("{") and arg.endswith("}") or "{missing}" in arg else arg
            for arg in raw]
    code = run_without_blocking(args, Path(places["fifo"]))
    captured = capsys.readouterr()
    assert isinstance(code, int), (name, args, code)
    for text in (captured.out, captured.err):
        assert "Traceback" not in text and "Unexpected error" not in text, (name, args, text)
    if code != 0:  # a deck list's problems go to stdout, everything else to stderr
        assert (captured.err + captured.out).strip(), (name, args, "a failure without a message")


@settings(derandomize=True, max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(flag=st.sampled_from(["--port", "--max-sessions", "--idle-timeout", "--rate-burst", "--login-grace",
                             "--max-auth-tries", "--rate-refill-seconds", "--host"]),
       value=ODD.filter(lambda text: text != "--"))  # "--flag=--" is refused by main before parsing
def test_serve_flags_are_checked_in_words_before_anything_starts(flag: str, value: str, tmp_path: Path) -> None:
    # The flags are checked by config_from_args alone, so it is fuzzed without starting a server.
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers())
    args = parser.parse_args(["serve", f"{flag}={value}"])
    try:
        config_from_args(args, tmp_path)
    except ServeUsageError as error:
        assert str(error).strip() and "Traceback" not in str(error)
