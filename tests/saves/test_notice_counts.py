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


def test_racing_processes_never_both_take_the_last_place(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    results: multiprocessing.Queue[bool] = multiprocessing.Queue()
    racers = [context.Process(target=_count_in_another_process, args=(str(tmp_path), results)) for _ in range(8)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(60)
    allowed = [results.get(timeout=60) for _ in racers]
    assert allowed.count(True) <= 3  # never past the limit, however the eight interleaved
    [folder] = list(tmp_path.iterdir())
    assert len(list(folder.iterdir())) == allowed.count(True)  # a refused notice leaves no ticket behind


def test_the_window_passes_and_what_is_not_a_ticket_counts_as_nothing(tmp_path: Path) -> None:
    now = [1_000_000_000.0]
    counts = NoticeCounts(2, 3600.0, tmp_path, clock=lambda: now[0])
    assert counts.allow("bea") and counts.allow("bea") and not counts.allow("bea")
    now[0] += 3600.0
    assert counts.allow("bea")  # an hour later
    [folder] = list(tmp_path.iterdir())
    assert len(list(folder.iterdir())) == 1  # the hour-old tickets were swept
    (folder / "notes.txt").write_text("not a ticket")
    (folder / "9999999999999.000000-0badcafe").touch()  # a time far ahead of the clock: damage
    assert counts.allow("bea") and not counts.allow("bea")
