"""Mapping the shared libraries' pages in the warm parent, so that no player is charged for them alone.

A page of a library's code or read-only data that a process maps is in the
kernel's page cache once, whoever maps it. The kernel counts such a page as
the process's own (USS) while no other process maps it, and as shared once
another does. A player forked from the warm parent maps again, at its first use,
each page of numpy, ``unicodedata`` or Python itself that the parent never ran:
about 2.5 MB in a Wizards Cup game against Hard, measured by
``coven bench seat-memory``, counted as that seat's alone until a second seat
used the same pages.

:func:`map_library_pages` maps every page of the parent's read-only file
mappings up front (``MADV_POPULATE_READ``), so each player's are shared with the
parent from its first use. It costs the host the pages no player uses: clean
page cache, held once, which the kernel may reclaim under pressure. Mappings
over :data:`LARGEST_MAPPING` are left alone: numpy's BLAS (about 20 MB of code,
of which a seat runs a sliver), and a system's whole locale archive.

Where two or more seats play, a library page any of them maps is shared among
them anyway: mapping ahead saves the host no memory (it costs the pages no seat
uses). What it changes is that a lone seat is no longer charged for pages
that are everyone's, so a seat's USS says what one more seat costs.
"""

from __future__ import annotations

import ctypes
import errno
import mmap
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MADV_POPULATE_READ = 22
"""madvise(2)'s advice that maps a range's pages readable, as reads would (Linux 5.14+)."""
LARGEST_MAPPING = 8 * 1024 * 1024
"""A read-only file mapping larger than this many bytes is not mapped ahead (see the module docstring)."""
_NOT_LIBRARIES = ("/dev/", "/memfd:", "/proc/", "/sys/")
"""Mappings whose path is not a file on disk: devices, memory files, the kernel's own."""


def read_only_file_mappings(maps_text: str) -> Iterator[tuple[int, int]]:
    """The ``(start, end)`` of each read-only mapping of a file in a ``/proc/PID/maps`` text.

    Writable, deleted and non-file mappings (``[heap]``, devices, memory files) are left out.
    """
    for line in maps_text.splitlines():
        fields = line.split(None, 5)
        if len(fields) < 6:
            continue
        span, permissions, path = fields[0], fields[1], fields[5]
        if not permissions.startswith("r") or "w" in permissions or not path.startswith("/"):
            continue
        if path.startswith(_NOT_LIBRARIES) or path.endswith(" (deleted)"):
            continue
        start, _, end = span.partition("-")
        try:
            yield int(start, 16), int(end, 16)
        except ValueError:
            continue


def _madvise() -> Any | None:
    """libc's ``madvise`` with its argument types (Linux), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        madvise = ctypes.CDLL(None, use_errno=True).madvise
    except (OSError, AttributeError):
        return None
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    madvise.restype = ctypes.c_int
    return madvise


def can_map_ahead() -> bool:
    """Whether this kernel maps a range's pages on request (``MADV_POPULATE_READ``, Linux 5.14+)."""
    madvise = _madvise()
    if madvise is None:
        return False
    with mmap.mmap(-1, mmap.PAGESIZE) as region:  # a page of its own, tried and dropped
        handle = ctypes.c_char.from_buffer(region)
        address = ctypes.addressof(handle)
        del handle  # the buffer is released before the page is unmapped
        return bool(madvise(address, mmap.PAGESIZE, MADV_POPULATE_READ) == 0)


def map_library_pages(largest: int = LARGEST_MAPPING, maps_path: Path = Path("/proc/self/maps")) -> int:
    """Map every page of this process's read-only file mappings up to ``largest`` bytes each; the bytes mapped.

    Nothing is read from a file by hand: the kernel maps the pages (and reports, rather than faults on, a
    mapping that runs past its file's end). Off Linux, or on a kernel without ``MADV_POPULATE_READ`` (see
    :func:`can_map_ahead`), it maps nothing and returns 0.
    """
    madvise = _madvise()
    if madvise is None:
        return 0
    try:
        text = maps_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 0
    mapped = 0
    for start, end in read_only_file_mappings(text):
        if not 0 < end - start <= largest:
            continue
        if madvise(start, end - start, MADV_POPULATE_READ) == 0:
            mapped += end - start
        elif ctypes.get_errno() == errno.EINVAL:
            return mapped  # the kernel does not know the advice: no other mapping would fare better
    return mapped
