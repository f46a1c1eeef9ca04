"""The warm parent maps its libraries' pages ahead, so a player's use of them is shared, never its own."""

from __future__ import annotations

import ctypes
import errno
import json
import mmap
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui.server import library_pages, warm_link
from tui.server.library_pages import can_map_ahead, map_library_pages, read_only_file_mappings

REPO = Path(__file__).resolve().parents[2]
KIB = 1024

_MAPS = """\
55d0c0a00000-55d0c0a20000 r--p 00000000 08:01 131 /usr/lib/libdemo.so
55d0c0a20000-55d0c0a80000 r-xp 00020000 08:01 131 /usr/lib/libdemo.so
55d0c0a80000-55d0c0a90000 rw-p 00080000 08:01 131 /usr/lib/libdemo.so
55d0c1000000-55d0c1100000 rw-p 00000000 00:00 0 [heap]
7f0000000000-7f0000100000 rw-p 00000000 00:00 0
7f0000100000-7f0000200000 r--s 00000000 00:05 9 /dev/zero (deleted)
7f0000200000-7f0000300000 r--p 00000000 00:01 7 /memfd:cache (deleted)
7f0000300000-7f0000400000 r--p 00000000 08:01 8 /tmp/gone.so (deleted)
7f0000400000-7f0000401000 r-xp 00000000 00:00 0 [vdso]
7f0000500000-7f0000600000 ---p 00000000 08:01 131 /usr/lib/libdemo.so
7f0000600000-7f0000700000 r--p 00000000 08:01 12 /usr/lib/locale/C.utf8/LC_CTYPE
not a mapping line
"""


def test_only_a_files_read_only_mappings_are_mapped_ahead() -> None:
    assert list(read_only_file_mappings(_MAPS)) == [
        (0x55D0C0A00000, 0x55D0C0A20000),  # read-only data
        (0x55D0C0A20000, 0x55D0C0A80000),  # code
        (0x7F0000600000, 0x7F0000700000),  # a locale's table, a file like any library
    ]  # never writable pages, the heap, anonymous memory, devices, memory files, deleted files, guard pages


def _resident_kib(path: Path) -> int:
    """This process's resident kB of its mapping of ``path``, from /proc/self/smaps."""
    resident, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and not fields[0].endswith(":"):
            inside = fields[-1] == str(path)
        elif inside and fields[0] == "Rss:":
            resident += int(fields[1])
    return resident


MAPS_AHEAD = pytest.mark.skipif(not can_map_ahead(), reason="this kernel has no MADV_POPULATE_READ (Linux 5.14+)")


@MAPS_AHEAD
def test_a_mapping_is_mapped_whole_and_one_over_the_limit_is_left_alone(tmp_path: Path) -> None:
    small, large = tmp_path / "small.so", tmp_path / "large.so"
    small.write_bytes(os.urandom(256 * KIB))
    large.write_bytes(os.urandom(1024 * KIB))
    with small.open("rb") as small_file, large.open("rb") as large_file:
        maps = [mmap.mmap(handle.fileno(), 0, prot=mmap.PROT_READ) for handle in (small_file, large_file)]
        try:
            assert _resident_kib(small) == _resident_kib(large) == 0  # mapped, never read
            ours = [line for line in Path("/proc/self/maps").read_text().splitlines()
                    if line.endswith((str(small), str(large)))]
            listing = tmp_path / "maps"
            listing.write_text("\n".join(ours) + "\n")
            assert map_library_pages(largest=512 * KIB, maps_path=listing) == 256 * KIB
            assert _resident_kib(small) == 256  # every page, without reading a byte of it here
            assert _resident_kib(large) == 0
        finally:
            for each in maps:
                each.close()


def test_an_unreadable_listing_maps_nothing(tmp_path: Path) -> None:
    assert map_library_pages(maps_path=tmp_path / "missing") == 0


# A warm parent, then a player forked from it that makes a Hard Wizards Cup team pick (numpy, its random
# generator, the duel tables): what it imported, and the kB of library pages only it maps.
_PLAYER_PICKS_A_TEAM = """
import json, os, sys
from pathlib import Path
from tui.server import warm
names, mapped = warm.get_ready()
reader, writer = os.pipe()
pid = os.fork()
if pid == 0:
    before = set(sys.modules)
    from engine import TABLE
    from engine.core.registry import get_game
    from engine.core.rng import seeded_rng
    spec = get_game("wizards-cup")
    rules, state = spec.rules, spec.new_state({}, 5, 2)
    while (step := rules.table_action(state)) is not None:
        state, _ = rules.apply(state, TABLE, step)
    seat = rules.to_act(state)[0]
    action = spec.bots["hard"](rules.view(state, seat), rules.legal_actions(state, seat), seeded_rng(5, "pick"))
    own, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and not fields[0].endswith(":"):
            inside = (len(fields) >= 6 and fields[5].startswith("/") and "w" not in fields[1]
                      and int(fields[0].split("-")[1], 16) - int(fields[0].split("-")[0], 16) <= 8 << 20)
        elif inside and fields[0] in ("Private_Clean:", "Private_Dirty:"):
            own += int(fields[1])
    os.write(writer, json.dumps({"action": type(action).__name__, "new": sorted(set(sys.modules) - before),
                                 "own_kib": own}).encode())
    os._exit(0)
os.close(writer)
answer = os.read(reader, 1 << 20)
os.waitpid(pid, 0)
print(json.dumps({"mapped": mapped, "player": json.loads(answer)}))
"""


@MAPS_AHEAD
def test_a_warm_players_hard_team_pick_imports_nothing_and_maps_no_library_page_alone(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO), COVEN_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-c", _PLAYER_PICKS_A_TEAM], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["mapped"] > 8 * 1024 * KIB  # Python, numpy, the C library...: well over a few MB
    player = report["player"]
    assert player["action"] == "ChooseTeam"
    assert player["new"] == [], "imported by the player instead of once by the warm parent"
    # Every library page the pick used is the warm parent's too. A few kB are allowed for a page the kernel
    # dropped from the parent's mapping, which only memory pressure on the host would make it do.
    assert player["own_kib"] <= 64, player


def test_a_kernel_without_the_advice_is_asked_once_and_maps_nothing(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def unknown_advice(start: int, length: int, advice: int) -> int:
        asked.append(start)
        ctypes.set_errno(errno.EINVAL)  # what a kernel before 5.14 answers to MADV_POPULATE_READ
        return -1

    monkeypatch.setattr(library_pages, "_madvise", lambda: unknown_advice)
    listing = tmp_path / "maps"
    listing.write_text(_MAPS)
    assert library_pages.map_library_pages(maps_path=listing) == 0
    assert len(asked) == 1  # not once a mapping
    # The server's log says why nothing was mapped, rather than "0 MB".
    said = warm_link._library_pages({"maps_ahead": False, "library_pages": 0})
    assert "no library page mapped ahead" in said and "5.14" in said
    assert warm_link._library_pages({"maps_ahead": True, "library_pages": 38_576_128}) == (
        "38.6 MB of library pages mapped ahead")
