"""Several processes opening a new session database at the very same moment, as players of `coven serve` do."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from tests.helpers.store_race import race

RACERS = 8
ROUNDS = 150
"""Enough that the old code failed every run: its immediate "database is locked" came 17 to 19 times in 150 rounds."""


def test_processes_preparing_one_new_database_together_all_open_it(tmp_path: Path) -> None:
    paths = [str(tmp_path / f"round-{number}" / "coven.sqlite3") for number in range(ROUNDS)]
    for path in paths:
        Path(path).parent.mkdir(mode=0o700)
    context = multiprocessing.get_context("spawn")  # no fork of the test process and its threads
    barrier = context.Barrier(RACERS)
    racers = [context.Process(target=race, args=(barrier, paths)) for _ in range(RACERS)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(600)
    assert [racer.exitcode for racer in racers] == [0] * RACERS  # an open that failed is printed above
