"""The live sessions of one data folder, counted across processes: one empty ticket file per session.

``coven serve`` and ``coven web`` may run side by side at one save folder; ``--max-sessions`` is one cap for
both doors, so each process must see the others' sessions. Every admitted session holds a ticket in
``live-sessions/`` in the data folder, named by the holding process's id, that process's start time (so a
reused process id does not keep a dead process's ticket alive) and a random tail. A ticket whose process is gone
(a door that crashed or was killed) is removed by whoever lists the folder next.

No lock is taken (as in :mod:`saves.notice_counts`): a process first makes its ticket, then lists the folder.
Of two processes racing for the last place, the one that lists second always sees the first's ticket, so they
never both take it (at worst both step back, and the newcomer tries again). A name that is not a ticket counts
as nothing: the folder is the host's own, but nothing in it is trusted to be Coven's. Nor does an entry that is
not a regular file of this user's (a symlink, never followed, or another user's file), and a ticket's start time
must match its process's exactly, so forged names of long-lived processes (pid 1) cannot fill the cap.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from pathlib import Path

FOLDER = "live-sessions"
"""The tickets' folder inside the data folder (beside the database, never one of its files)."""
_TICKET = re.compile(r"([1-9][0-9]{0,6})-([0-9]{1,20})-[0-9a-f]{8}")
"""A ticket's name: the holder's process id (7 digits at most: Linux's pid_max is 4194304 at most, and a longer
one would overflow ``os.kill``), its start time (clock ticks since boot; 0: unknown), a random tail."""


def _started(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot, from ``/proc``); None when that cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # the command's name, in brackets, may hold spaces
    return int(fields[19]) if len(fields) > 19 and fields[19].isdigit() else None


def _alive(pid: int, started: int) -> bool:
    """Whether the process that made a ticket (``pid``, started at ``started``) still runs."""
    now_started = _started(pid)
    if now_started is not None:
        # An exact match only: another start time is another process that reused the id, and a 0 ("unknown",
        # from a holder that could not read /proc) is not taken from anyone while /proc can be read here.
        return started == now_started
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError, ValueError):  # no such process, or no process id at all
        return False
    except PermissionError:
        return True  # another user's process: alive
    except OSError:
        return True  # cannot tell: counting it is the safe side of a cap
    return True


class LiveTickets:
    """The live-session tickets in one data folder's ``live-sessions/``."""

    def __init__(self, data_dir: Path) -> None:
        """Tickets kept under ``data_dir`` (the folder is made when the first is)."""
        self.folder = data_dir / FOLDER
        self.pid = os.getpid()

    def take(self) -> str:
        """Make one ticket for this process and return its name.

        Raises:
            OSError: the ticket could not be made (the caller decides what then).
        """
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        name = f"{self.pid}-{_started(self.pid) or 0}-{secrets.token_hex(4)}"
        os.close(os.open(self.folder / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
        return name

    def give_back(self, name: str) -> None:
        """Remove this process's ticket ``name`` (gone already: nothing to do)."""
        with contextlib.suppress(OSError):
            (self.folder / name).unlink()

    def live(self) -> set[str]:
        """The names of the tickets whose processes still run; the others' tickets are removed on the way."""
        try:
            names = os.listdir(self.folder)
        except FileNotFoundError:
            return set()
        found: set[str] = set()
        for name in names:
            ticket = _TICKET.fullmatch(name)
            if ticket is None:
                continue
            if not self._own_file(name):
                continue
            pid, started = int(ticket.group(1)), int(ticket.group(2))
            if _alive(pid, started):
                found.add(name)
            else:
                self.give_back(name)  # its process is gone without giving it back (killed, or crashed)
        return found

    def _own_file(self, name: str) -> bool:
        """Whether entry ``name`` is a regular file of this user's (by lstat: a symlink is never followed)."""
        try:
            found = os.lstat(self.folder / name)
        except OSError:
            return False  # gone meanwhile
        return stat.S_ISREG(found.st_mode) and found.st_uid == os.getuid()
