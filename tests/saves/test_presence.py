"""Presence: a claim is alive exactly while its process holds the lock, whatever way that process ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from saves import Presence

REPO = Path(__file__).resolve().parents[2]

HOLDER = """
import sys
from pathlib import Path
from saves.presence import Presence
presence = Presence(Path(sys.argv[1]))
print(presence.claim, flush=True)
sys.stdin.read()  # hold the claim until the parent closes our stdin or kills us
"""


def start_holder(directory: Path) -> tuple[subprocess.Popen[str], str]:
    """A child process holding a claim in ``directory``, and that claim."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(directory)],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    claim = child.stdout.readline().strip()
    assert len(claim) == 16, claim
    return child, claim


def test_default_directory_is_in_the_data_dir(coven_data_dir: Path) -> None:
    with Presence() as presence:
        assert presence.directory == coven_data_dir / "presence"
        assert (coven_data_dir / "presence" / f"{presence.claim}.lock").exists()


def test_own_claim_is_alive_until_closed(tmp_path: Path) -> None:
    presence = Presence(tmp_path)
    lock = tmp_path / f"{presence.claim}.lock"
    assert presence.alive(presence.claim)
    assert lock.exists()
    presence.close()
    assert not presence.alive(presence.claim)
    assert not lock.exists()
    presence.close()  # twice is fine
    assert list(tmp_path.iterdir()) == []


def test_two_presences_see_each_other_until_one_closes(tmp_path: Path) -> None:
    first, second = Presence(tmp_path), Presence(tmp_path)
    assert first.claim != second.claim
    assert first.alive(second.claim) and second.alive(first.claim)
    # Asking does not steal or disturb the other's lock.
    assert first.alive(second.claim)
    second.close()
    assert not first.alive(second.claim)
    first.close()


def test_a_killed_process_is_noticed_and_its_lock_file_removed(tmp_path: Path) -> None:
    child, claim = start_holder(tmp_path)
    with Presence(tmp_path) as presence:
        try:
            assert presence.alive(claim)
            assert presence.alive(claim)  # still alive after being asked
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
            child.stdin.close()  # type: ignore[union-attr]
            child.stdout.close()  # type: ignore[union-attr]
        # SIGKILL gives no chance to clean up; the OS released the lock anyway.
        assert (tmp_path / f"{claim}.lock").exists()
        assert not presence.alive(claim)
        assert not (tmp_path / f"{claim}.lock").exists()
        assert not presence.alive(claim)


def test_a_process_that_exits_without_closing_is_gone(tmp_path: Path) -> None:
    child, claim = start_holder(tmp_path)
    with Presence(tmp_path) as presence:
        assert presence.alive(claim)
        child.communicate("", timeout=30)  # stdin closed: the child exits normally
        assert child.returncode == 0
        assert not presence.alive(claim)


def test_unknown_and_malformed_claims_are_not_alive(tmp_path: Path) -> None:
    outside = tmp_path / "outside.lock"
    outside.write_text("")
    with Presence(tmp_path / "presence") as presence:
        assert not presence.alive("0123456789abcdef")
        assert not presence.alive("")
        assert not presence.alive("../outside")
        assert not presence.alive("0123456789ABCDEF")
    assert outside.exists()  # never touched: a claim never names a path outside the directory


def test_a_new_presence_sweeps_away_lock_files_of_dead_processes(tmp_path: Path) -> None:
    child, claim = start_holder(tmp_path)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    child.stdin.close()  # type: ignore[union-attr]
    child.stdout.close()  # type: ignore[union-attr]
    living, living_claim = start_holder(tmp_path)
    try:
        with Presence(tmp_path) as presence:
            names = sorted(path.name for path in tmp_path.iterdir())
            assert names == sorted([f"{presence.claim}.lock", f"{living_claim}.lock"])
            assert presence.alive(living_claim)
    finally:
        living.communicate("", timeout=30)
    assert claim not in {path.stem for path in tmp_path.iterdir()}
