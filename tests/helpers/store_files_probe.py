"""Run every store-opening ``coven`` command inside one process that keeps a store open, and report every touch.

``python tests/helpers/store_files_probe.py`` (with ``COVEN_DATA_DIR`` set) opens a
long-lived store, plays a game into it, then runs the commands in-process one
after another, playing a move between them. An audit hook (PEP 578) sees each
``open``, ``chmod`` by descriptor and ``lockf``/``flock``/``fcntl`` the
process makes from Python; one that reaches the database, its ``-wal``,
``-shm`` or ``-journal`` (or a second descriptor of Coven's lock file) would
drop SQLite's locks, and is reported. SQLite's own opens happen in C and are
not seen. The last line printed is a JSON report.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from saves import LiveSession, SeatInfo, SessionStore, db_path  # noqa: E402
from tui.cli import main  # noqa: E402

_WATCHED_SUFFIXES = ("", "-wal", "-shm", "-journal")

armed = False
touches: list[str] = []
_watched: set[str] = set()
_lock_file = ""


def _path_of(target: object) -> str | None:
    if isinstance(target, int):
        try:
            return os.readlink(f"/proc/self/fd/{target}")
        except OSError:
            return None
    if isinstance(target, (str, bytes, os.PathLike)):
        name = os.fsdecode(target)
        return os.path.realpath(name)
    return None


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if not armed or not args:
        return
    if event == "open" or (event == "os.chmod" and isinstance(args[0], int)) or event.startswith("fcntl."):
        path = _path_of(args[0])
        if path is None:
            return
        if path.removesuffix(" (deleted)") in _watched or (event == "open" and path == _lock_file):
            touches.append(f"{event} {path}")


def _step(live: LiveSession) -> bool:
    """Play one move (any legal one); False once the game is over."""
    if live.finished:
        return False
    if live.table_action is not None:
        live.play_table()
        return True
    seat = live.to_act[0]
    live.apply(seat, live.rules.legal_actions(live.state, seat)[0])
    return True


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    return code, out.getvalue() + err.getvalue()


def probe() -> dict[str, Any]:
    """Open a store, arm the hook, run the commands; the findings."""
    global armed, _lock_file
    work = Path(os.environ["COVEN_DATA_DIR"]).parent
    database = db_path()
    _watched.update(os.path.realpath(f"{database}{suffix}") for suffix in _WATCHED_SUFFIXES)
    _lock_file = os.path.realpath(f"{database}.lock")
    store = SessionStore()
    live = LiveSession.create(store, "witchdraft", None, 7, [SeatInfo("Ana"), SeatInfo("Bea")])
    _step(live)
    deck = work / "deck.txt"
    export = work / "export.json"
    commands: list[list[str]] = [
        ["sessions"],
        ["deck", "export-starter", "ember-dawn", str(deck)],
        ["deck", "check", str(deck)],
        ["deck", "save", "Probe", str(deck)],
        ["deck", "list"],
        ["deck", "show", "Probe"],
        ["deck", "rename", "Probe", "Probe two"],
        ["settings", "list"],
        ["settings", "set", "theme", "textual-light"],
        ["settings", "get", "theme"],
        ["settings", "reset"],
        ["settings", "--account", "x", "list"],
        ["export", str(live.session_id), str(export)],
        ["import", str(export)],
        ["doctor"],
        ["deck", "delete", "Probe two"],
    ]
    # Names a person could type that are the database's own files: refused before anything is opened.
    refused: list[list[str]] = []
    for suffix in _WATCHED_SUFFIXES:
        name = f"{database}{suffix}"
        refused += [["deck", "check", name], ["deck", "save", "Bad", name], ["import", name],
                    ["export", "--force", str(live.session_id), name],
                    ["deck", "export-starter", "--force", "ember-dawn", name]]
    refused.append(["import", f"{database}.lock"])
    armed = True
    if os.environ.get("COVEN_PROBE_TOUCH"):  # what Coven once did: shows that the hook sees it
        os.close(os.open(f"{database}-shm", os.O_RDWR))
    results: list[dict[str, Any]] = []
    for argv in commands + refused:
        code, text = _run(argv)
        results.append({"argv": argv, "code": code, "text": text})
        _step(live)
    armed = False
    moves = len(live.log)
    store.close()
    return {"touches": touches, "results": results, "moves": moves, "session": live.session_id,
            "files": sorted(path.name for path in database.parent.iterdir())}


if __name__ == "__main__":
    sys.addaudithook(_hook)
    print(json.dumps(probe()))
