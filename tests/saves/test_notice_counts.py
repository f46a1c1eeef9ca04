"""Notices per player, counted across processes in the data folder: the limit holds whoever sends."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from saves.notice_counts import NoticeCounts


def _count_in_another_process(directory: str, results: multiprocessing.Queue[bool]) -> None:
    results.put(NoticeCounts(3, 3600.0, Path(directory)).allow("bea"))


def test_two_processes_share_one_player_s_count_and_the_limit_is_hit(tmp_path: Path) -> None:
    here = NoticeCounts(3, 3600.0, tmp_path)
    assert here.allow("bea") and here.allow("bea")
    results: multiprocessing.Queue[bool] = multiprocessing.Queue()
    other = multiprocessing.get_context("fork").Process(target=_count_in_another_process, args=(str(tmp_path), results))
    other.start()
    other.join(60)
    assert results.get(timeout=60) is True  # the third notice, sent by another Coven
    assert not here.allow("bea")  # the limit, hit: two here and one there
    assert here.allow("ana")  # another player has their own count
    assert not any("bea" in path.name or "ana" in path.name for path in tmp_path.iterdir())  # hashed names


def test_the_window_passes_and_a_damaged_count_file_counts_as_nothing(tmp_path: Path) -> None:
    now = [1_000_000.0]
    counts = NoticeCounts(2, 3600.0, tmp_path, clock=lambda: now[0])
    assert counts.allow("bea") and counts.allow("bea") and not counts.allow("bea")
    now[0] += 3600.0
    assert counts.allow("bea")  # an hour later
    [path] = list(tmp_path.iterdir())
    path.write_bytes(b"nan\ninf\nnot a time\n" + b"9" * 40 + b"\n")  # damage, and a time far ahead of the clock
    assert counts.allow("bea") and counts.allow("bea") and not counts.allow("bea")
    path.write_bytes(b"1" * 10_000)  # too big to be a count file
    assert counts.allow("bea")
