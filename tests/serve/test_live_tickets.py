"""Live sessions counted across processes of one data folder (:mod:`tui.server.live_tickets`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui.server import live_tickets
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
    oversize = "3000000000-0-00000000"  # no process id: os.kill would overflow on it
    for name in ("notes.txt", "0-0-00000000", "12-x-0badf00d", f"{os.getpid()}-0-0BADF00D", oversize):
        (folder / name).touch()
    counter, web = SessionCounter(1, LiveTickets(tmp_path)), SessionCounter(1, LiveTickets(tmp_path))
    assert not web.full()
    assert counter.try_admit()
    assert counter.full() and web.full()
    assert {"notes.txt", "0-0-00000000", "12-x-0badf00d", oversize} <= set(os.listdir(folder))


def _my_ticket() -> str:
    """A ticket name of this (live) process, with its true start time."""
    return f"{os.getpid()}-{live_tickets._started(os.getpid())}-0badf00d"


def test_a_ticket_naming_a_live_process_but_not_its_start_time_counts_for_nothing(tmp_path: Path) -> None:
    folder = tmp_path / FOLDER
    folder.mkdir()
    forged = [f"1-0-{index:08x}" for index in range(3)]  # pid 1 is always alive; 0 would be "start time unknown"
    for name in forged:
        (folder / name).touch()
    counter = SessionCounter(2, LiveTickets(tmp_path))
    assert not counter.full()
    assert counter.try_admit() and counter.try_admit()
    assert not set(forged) & set(os.listdir(folder))


def test_a_start_time_of_0_counts_while_proc_cannot_be_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / FOLDER
    folder.mkdir()
    unknown = f"{os.getpid()}-0-0badf00d"  # made by a holder that could not read /proc either
    (folder / unknown).touch()
    monkeypatch.setattr(live_tickets, "_started", lambda pid: None)
    counter = SessionCounter(1, LiveTickets(tmp_path))
    assert counter.full() and not counter.try_admit()
    assert unknown in os.listdir(folder)


def test_a_symlink_or_a_folder_named_like_a_live_ticket_counts_for_nothing(tmp_path: Path) -> None:
    folder = tmp_path / FOLDER
    folder.mkdir()
    target = tmp_path / "elsewhere"
    target.write_text("not a ticket")
    name = _my_ticket()
    (folder / name).symlink_to(target)
    (folder / name.replace("0badf00d", "0badf00e")).mkdir()
    counter = SessionCounter(1, LiveTickets(tmp_path))
    assert not counter.full() and counter.try_admit()
    assert target.read_text() == "not a ticket"  # never followed


def test_another_users_ticket_counts_for_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / FOLDER
    folder.mkdir()
    (folder / _my_ticket()).touch()  # a live process's true ticket, but (below) of another user
    counter = SessionCounter(1, LiveTickets(tmp_path))
    assert counter.full()
    real_uid = os.getuid()
    monkeypatch.setattr(live_tickets.os, "getuid", lambda: real_uid + 1)
    assert not counter.full()


def test_a_failing_count_gives_the_newcomers_ticket_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: LiveTickets) -> set[str]:
        raise RuntimeError("listing failed")

    monkeypatch.setattr(LiveTickets, "live", broken)
    counter = SessionCounter(1, LiveTickets(tmp_path))
    with pytest.raises(RuntimeError):
        counter.try_admit()
    assert os.listdir(tmp_path / FOLDER) == [] and counter.count == 0


def test_a_process_id_beyond_any_process_is_not_alive() -> None:
    assert not live_tickets._alive(3000000000, 0)
    assert not live_tickets._alive(2**64, 0)
