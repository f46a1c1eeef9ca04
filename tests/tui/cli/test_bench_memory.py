"""The benches' memory figures are MB of 1,000,000 bytes, read from the kernel's kB of 1024 bytes."""

from __future__ import annotations

import math
import os

import pytest

from tui.cli.bench.memory import kib_to_mb, parse_rollup, read_rollup, seats_per_gb
from tui.cli.bench.seat_memory import memory_now
from tui.cli.bench.serve import memory_mb

# The shape of /proc/PID/smaps_rollup (Linux 6), with round figures in the kernel's kB.
ROLLUP = """\
55d0c2a5e000-7ffd5a1f1000 ---p 00000000 00:00 0                          [rollup]
Rss:                2048 kB
Pss:                1536 kB
Pss_Anon:            512 kB
Shared_Clean:        512 kB
Shared_Dirty:          0 kB
Private_Clean:       512 kB
Private_Dirty:      1024 kB
Referenced:         2048 kB
Anonymous:           512 kB
Swap:                  0 kB
Locked:                0 kB
"""


def test_a_kernel_kb_is_1024_bytes_and_a_mb_a_million() -> None:
    assert kib_to_mb(1024) == pytest.approx(1.048576)
    assert kib_to_mb(1_000_000 / 1024) == pytest.approx(1.0)
    assert kib_to_mb(0) == 0.0


def test_seats_per_gb_divide_a_billion_bytes_by_a_seat() -> None:
    assert seats_per_gb(20.0) == pytest.approx(50.0)
    assert seats_per_gb(kib_to_mb(1024)) == pytest.approx(1000 / 1.048576)
    assert seats_per_gb(0.0) == 0.0


def test_a_rollup_text_gives_rss_uss_and_pss_in_mb() -> None:
    rollup = parse_rollup(ROLLUP)
    assert rollup.rss_mb == pytest.approx(2048 * 1024 / 1e6)
    assert rollup.uss_mb == pytest.approx((512 + 1024) * 1024 / 1e6)  # Private_Clean + Private_Dirty
    assert rollup.pss_mb == pytest.approx(1536 * 1024 / 1e6)


def test_a_rollup_without_a_field_counts_it_as_nothing() -> None:
    rollup = parse_rollup("Rss: 1024 kB\nPrivate_Dirty: 1024 kB\nnot a line\nPss: many kB\n")
    assert (rollup.rss_mb, rollup.uss_mb, rollup.pss_mb) == (pytest.approx(1.048576), pytest.approx(1.048576), 0.0)


def test_both_benches_read_a_process_through_the_same_conversion() -> None:
    with open("/proc/self/status", encoding="ascii") as status:
        rss_kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    rss, uss, pss = memory_mb(os.getpid())
    sample = memory_now("here")
    # The kernel's own count of this process's pages, converted by hand, agrees with both benches' figures
    # (the process moves a little between the readings; a MiB read as a MB would be 4.9% off).
    assert rss == pytest.approx(rss_kib * 1024 / 1e6, rel=0.02)
    assert sample.rss_mb == pytest.approx(rss, rel=0.02) and sample.uss_mb == pytest.approx(uss, rel=0.02)
    assert 0 < uss <= pss <= rss
    assert read_rollup(os.getpid()).rss_mb == pytest.approx(rss, rel=0.02)


def test_a_process_that_cannot_be_read_gives_no_figure() -> None:
    assert all(math.isnan(value) for value in memory_mb(2**22 + 1))  # above Linux's largest pid
