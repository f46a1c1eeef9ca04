"""Live sessions counted across processes of one data folder (:mod:`tui.server.live_tickets`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tui.server.limits import SessionCounter
from tui.server.live_tickets import FOLDER, LiveTickets


def test_two_doors_at_one_data_folder_share_one_cap(tmp_path: Path) -> None:
    ssh, web = SessionCounter(2, LiveTickets(tmp_path)), SessionCounter(2, LiveTickets(tmp_path))
    assert ssh.try_admit() and web.try_admit()
    assert ssh.full() and web.full()
    assert not ssh.try_admit() and not web.try_admit()
    assert len(os.listdir(tmp_path / FOLDER)) == 2  # a refused newcomer's ticket is given back
    web.release()
    assert not ssh.full() and ssh.try_admit()
    assert ssh.count == 2 and web.count == 0


def test_a_ticket_of_a_process_that_is_gone_is_removed_and_counts_for_nothing(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    folder = tmp_path / FOLDER
    folder.mkdir()
    (folder / f"{gone.pid}-0-0badf00d").touch()  # a door killed while a player was in
    counter = SessionCounter(1, LiveTickets(tmp_path))
    assert not counter.full() and counter.try_admit()
    assert f"{gone.pid}-0-0badf00d" not in os.listdir(folder)


def test_a_reused_process_id_does_not_keep_a_dead_doors_ticket(tmp_path: Path) -> None:
    folder = tmp_path / FOLDER
    folder.mkdir()
    stale = f"{os.getpid()}-1-0badf00d"  # this process's id, but another start time: a door long gone
    (folder / stale).touch()
    counter = SessionCounter(1, LiveTickets(tmp_path))
    assert counter.try_admit()
    assert stale not in os.listdir(folder)


def test_names_that_are_not_tickets_count_for_nothing_and_are_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / FOLDER
    folder.mkdir()
    for name in ("notes.txt", "0-0-00000000", "12-x-0badf00d", f"{os.getpid()}-0-0BADF00D"):
        (folder / name).touch()
    counter = SessionCounter(1, LiveTickets(tmp_path))
    assert counter.try_admit()
    assert counter.full()
    assert {"notes.txt", "0-0-00000000", "12-x-0badf00d"} <= set(os.listdir(folder))
