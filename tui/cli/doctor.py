"""``coven doctor``: check the session database, say what was found, repair it in place or move it aside.

The checks live in :mod:`saves.checkup` and the repair in :mod:`saves.repair`;
this module only words them. Confined damage (rows, indexes, a missing table)
is repaired with ``--repair`` or when the user answers yes at a terminal; the
database is moved aside (renamed, with its -wal and -shm, never deleted) only
for damage that cannot be repaired, with ``--move-aside`` or a yes.
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
from saves.repair import beyond_repair, repair
from tui.player_settings import SETTINGS

MOVE_ASIDE_EXPLAINED = (
    "Moving it aside renames it (with its -wal and -shm) next to where it is, and the next Coven "
    "starts a fresh, empty database. Nothing is deleted."
)
UNREADABLE_EXPLAINED = (
    "Coven uses the default in place of each value it cannot read. Choosing a setting again (on the Settings "
    "screen, or `coven settings set NAME VALUE`, with `--account ACCOUNT` for a served account's) writes over "
    "its damaged value; the rest are written over when Coven next keeps them."
)
REPAIR_EXPLAINED = (
    "Run `coven doctor --repair` to take out only the damaged rows (each copied first to a file beside the "
    "database) and keep every other session, deck and setting."
)
_SHOWN_PREFERENCES = 20
"""How many unreadable preferences a report names one by one (a hostile database may hold thousands)."""
_SETTING_BY_KEY = {item.stored_key: item.name for item in SETTINGS}


def run(move: bool, *, mend: bool = False, path: Path | None = None, stdin: TextIO | None = None,
        out: TextIO | None = None) -> int:
    """Check the database, print the findings, repair it if ``mend``, and move it aside if ``move`` or the user says so.

    Returns:
        0 when nothing is wrong, the damage was repaired or the file was moved aside; 1 when a problem is
        left as it is.
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
    if mend and not checkup.newer:
        outcome = _repair(path, say)
        if outcome is not None:
            return outcome
        checkup = examine(path)
    if checkup.newer:
        say("Upgrade Coven to check it. It was left as it is.")
        return 1
    if not mend and not move and repairable(checkup):
        # Confined damage: offer the repair that keeps everything else, never the move that hides it all.
        if not checkup.problems and not checkup.damaged_sessions:
            say(UNREADABLE_EXPLAINED)
        say(REPAIR_EXPLAINED)
        if _is_terminal(stdin) and _ask(stdin, out, "Repair it now? [y/N] "):
            outcome = _repair(path, say)
            return 1 if outcome is None else outcome
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


def _repair(path: Path, say: Callable[[str], None]) -> int | None:
    """Repair in place and say what was done; the exit code when that settles it, else None (still damaged)."""
    try:
        done = repair(path)
    except StoreError as error:  # another Coven has it open, or SQLite refused: nothing half-done is left
        print(f"coven: {shown_text(error)}", file=sys.stderr)
        return 1
    for line in done.recreated:
        say(f"  repaired The {line} table was missing; it is there again, empty.")
    if done.reindexed:
        say("  repaired Every index was rebuilt from its table.")
    for line in done.removed:
        say(f"  repaired Took out {line}.")
    if done.kept_in is not None:
        say(f"A copy of every row taken out is in {done.kept_in} (readable by you alone).")
    if done.left:
        say("This damage cannot be repaired in place:")
        for line in done.left:
            say(f"  PROBLEM  {line}")
        return None
    after = examine(path)
    if after.healthy:
        say("Repaired. Nothing else is wrong with your saves.")
        return 0
    say("Checked again after the repair:")
    report(after, say)
    return None


def repairable(checkup: Checkup) -> bool:
    """Whether ``coven doctor --repair`` can mend what ``checkup`` found without moving the file aside."""
    return not checkup.healthy and not beyond_repair(checkup)


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
