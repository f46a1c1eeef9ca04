"""``coven doctor``: check the session database, say what was found, and offer to move it aside.

The checks live in :mod:`saves.checkup`; this module only words them. The
database is moved aside (renamed, with its -wal and -shm, never deleted) only
with ``--move-aside`` or when the user answers yes at a terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engine.core.text import shown_text
from saves import StoreError, db_path
from saves.checkup import Checkup, examine, move_aside
from saves.preferences import UnreadablePreference
from tui.settings import SETTINGS

MOVE_ASIDE_EXPLAINED = (
    "Moving it aside renames it (with its -wal and -shm) next to where it is, and the next Coven "
    "starts a fresh, empty database. Nothing is deleted."
)
UNREADABLE_EXPLAINED = (
    "Coven uses the default in place of each value it cannot read. Choosing a setting again (on the Settings "
    "screen, or `coven settings set NAME VALUE`, with `--account ACCOUNT` for a served account's) writes over "
    "its damaged value; the rest are written over when Coven next keeps them."
)
_SHOWN_PREFERENCES = 20
"""How many unreadable preferences a report names one by one (a hostile database may hold thousands)."""
_SETTING_BY_KEY = {item.stored_key: item.name for item in SETTINGS}


def run(move: bool, *, path: Path | None = None, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Check the database, print the findings, and move it aside if ``move`` or the user says so.

    Returns:
        0 when nothing is wrong or the file was moved aside, 1 when a problem is left as it is.
    """
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    path = db_path() if path is None else path

    def say(text: str) -> None:
        print(shown_text(text), file=out)  # the findings quote the database: never a terminal control

    say(f"Checking {path}")
    checkup = examine(path)
    if not checkup.exists:
        say("There is no session database yet, so there is nothing to check.")
        return 0
    report(checkup, say)
    if checkup.healthy:
        say("Nothing is wrong with your saves.")
        return 0
    if checkup.newer:
        say("Upgrade Coven to check it. It was left as it is.")
        return 1
    if not checkup.problems and not checkup.damaged_sessions:
        say(UNREADABLE_EXPLAINED)  # only preferences: no reason to move the whole database aside
        say("It was left as it is.")
        return 1
    if not checkup.problems:
        say("The other sessions work as before; you may also delete the damaged ones from the Sessions screen.")
    say(MOVE_ASIDE_EXPLAINED)
    if not move and _is_terminal(stdin):
        move = _ask(stdin, out, "Move the database aside and start fresh? [y/N] ")
    if not move:
        say("It was left as it is. Run `coven doctor --move-aside` to move it aside.")
        return 1
    try:
        target = move_aside(path)
    except StoreError as error:
        print(f"coven: {shown_text(error)}", file=sys.stderr)
        return 1
    say(f"Moved it to {target}. Coven will start a fresh database next time.")
    return 0


def report(checkup: Checkup, say: Callable[[str], None]) -> None:
    """Say what was checked and every problem, one line each."""
    for line in checkup.checked:
        say(f"  ok       {line}")
    for line in checkup.problems:
        say(f"  PROBLEM  {line}")
    for entry in checkup.damaged_sessions:
        say(f"  PROBLEM  Session {entry.session_id} cannot be opened: {entry.reason}.")
    for found in checkup.unreadable_preferences[:_SHOWN_PREFERENCES]:
        say(f"  PROBLEM  {unreadable_line(found)}")
    more = len(checkup.unreadable_preferences) - _SHOWN_PREFERENCES
    if more > 0:
        say(f"  PROBLEM  ... and {more} more stored preference{'s' if more != 1 else ''} that cannot be read.")


def unreadable_line(found: UnreadablePreference) -> str:
    """One sentence naming an unreadable preference: a setting by its name, whose it is, and why."""
    whose = "this machine's player" if found.for_this_machine else f"account '{found.account}'"
    name = _SETTING_BY_KEY.get(found.key)
    what = f"Setting '{name}'" if name is not None else f"Stored preference '{found.key}'"
    return f"{what} of {whose} cannot be read ({found.problem.value}), so it is back to its default."


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _ask(stdin: TextIO, out: TextIO, question: str) -> bool:
    print(question, end="", file=out, flush=True)
    try:
        answer = stdin.readline()
    except (OSError, ValueError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in ("y", "yes")
