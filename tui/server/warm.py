"""The warm parent of ``coven serve``: one process that has imported Coven once, and forks each player from it.

``coven serve`` starts this module as its own interpreter (``python -m
tui.server.warm --control-fd N``) with a clean environment, so it holds
nothing of the server's: no host key, no password hashes, no connection's
data. It imports what every player needs (Textual, Rich, every module of the
engine, the session store's code and the app, the three games and numpy
among them), calls
:func:`gc.freeze` so that those objects' pages stay shared, tells the server
it is ready, and then waits on its control socket.

For each player the server sends one request: the ``coven play`` command,
the child's environment and working directory, and the pty's terminal end as
an open file descriptor. The warm parent forks twice: the middle process
forks the player and exits at once, so the player is adopted by the server
(a child subreaper, :mod:`tui.server.warm_link`), which reaps it, signals it
and sees its exit status exactly as it would a process it had started
itself. A warm parent that dies leaves its players running.

The player, before anything else, becomes what ``coven play`` in a pty would
be: a new session with the pty as controlling terminal on fds 0-2, every
other descriptor closed, default signals, the parent-death signal aimed at
the server, its own environment, and a process title (``/proc/PID/cmdline``
and ``environ``) that shows its real command. Only then does it run the
command's module (``tui.cli``) as ``python -m`` would, by name, so this
module imports nothing of the app; it opens its own database connection: the warm
parent never opens one, and runs no event loop, so nothing that must not
cross a fork ever does.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import gc
import io
import json
import os
import runpy
import signal
import socket
import sys
import termios
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from tui.server.library_pages import can_map_ahead, map_library_pages

CONTROL_FD_FLAG = "--control-fd"
ROOM_FLAG = "--room"
"""The parent's argument that only reserves room in its command line for the players' titles."""
ROOM_ENV = "COVEN_WARM_ROOM"
"""The parent's variable that only reserves room in its environment block for the players' titles."""
ARGV_ROOM = 4096
ENV_ROOM = 2048
MAX_REQUEST = 64 * 1024
"""Largest request (command and environment) the server may send."""
MAX_FDS = 4
"""Most descriptors one request may carry: the terminal, then those the player keeps (its status pipe)."""
HEADER = 8
"""Bytes of a request's number, ahead of its JSON: the parent reads only these, the player the rest."""
PRELOADED_PACKAGES = ("engine", "saves", "tui")
"""Every module of these is imported once for every player: the screens, the three games, their bots and coach."""
NOT_PRELOADED = ("tui.server", "tui.web", "tui.cli.bench", "tui.screenshots", "tui.keeper")
"""The servers' own code (the SSH door's and the browser door's), the benchmarks, the screenshot maker and the
table keeper (a process of its own), which no player runs."""
PRELOADED_EXTRA = ("numpy", "numpy.random", "textual.pilot", "textual.scrollbar", "textual.layouts.factory",
                   "rich._emoji_codes", "concurrent.futures.thread")
"""Imported lazily: numpy by a player's Wizards Cup bots and coach (10-odd MB each if every player loaded it
alone; ``numpy.random`` at the Hard bot's first team pick, 2 MB more), the next three by Textual on every player's
way to the menu, Rich's emoji table (0.6 MB) at a Wizbits table's first label read as markup, and the thread pool
the Wizards Cup coach thinks in."""
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""numpy's BLAS would otherwise start a thread pool at import, and a process with threads must not fork."""
ADOPTION_SECONDS = 5.0
"""How long a new player waits to be adopted by the server before giving up."""

_PR_SET_PDEATHSIG = 1
_PR_SET_MEMORY_MERGE = 67
"""prctl(2) (Linux 6.4+): the kernel's same-page merging (KSM) may share any of this process's identical pages."""
KSM_RUN = "/sys/kernel/mm/ksm/run"
"""Whether the host's ksmd runs (1); only then are mergeable pages merged."""
_SIGNALS_RESET = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE)
_STAT_ARG_START = 48
"""Field number of ``arg_start`` in /proc/PID/stat (proc(5)); ``arg_end``, ``env_start``, ``env_end`` follow."""
_kept_alive: list[object] = []
"""The parent's standard streams, kept from the garbage collector in a player: closing them would close fds 0-2."""


# -- the player: what the forked process becomes ----------------------------------------------------


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _await_adoption(server_pid: int) -> None:
    """Wait until the server has adopted this process, then die with it (SIGHUP) like a child it started."""
    deadline = time.monotonic() + ADOPTION_SECONDS
    while os.getppid() != server_pid:
        if time.monotonic() > deadline:
            os._exit(1)  # the server is gone, or is no subreaper: nobody would ever reap this player
        time.sleep(0.001)
    _libc().prctl(_PR_SET_PDEATHSIG, int(signal.SIGHUP), 0, 0, 0)
    if os.getppid() != server_pid:  # the server died before prctl took effect
        os._exit(1)


def _take_environment(env: Mapping[str, str]) -> None:
    """Make ``env`` the whole environment, in memory that is the process's own.

    libc's ``environ`` still points into the block the parent was started with,
    which :func:`_retitle` overwrites; ``clearenv`` drops those pointers first.
    """
    _libc().clearenv()
    os.environ.clear()
    os.environ.update(env)


def _proc_regions() -> tuple[int, int, int, int] | None:
    """``(arg_start, arg_end, env_start, env_end)`` of this process, or None where /proc does not say."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
        first = _STAT_ARG_START - 3  # the text after ")" starts at field 3
        regions = tuple(int(value) for value in fields[first:first + 4])
    except (OSError, ValueError):
        return None
    if len(regions) != 4 or not all(regions) or regions[1] <= regions[0] or regions[3] <= regions[2]:
        return None
    return regions[0], regions[1], regions[2], regions[3]


def _fill(start: int, end: int, strings: Sequence[str]) -> None:
    """Write ``strings``, each ended by NUL, into ``[start, end)``; whatever does not fit is cut, the rest is NUL."""
    room = end - start
    data = b"".join(text.encode("utf-8", "backslashreplace") + b"\0" for text in strings)[:room - 1]
    ctypes.memmove(start, data.ljust(room, b"\0"), room)


def _retitle(argv: Sequence[str], env: Mapping[str, str]) -> None:
    """Show ``argv`` and ``env`` in /proc/PID/cmdline and environ, as a player started with them would.

    ``ps``, ``top`` and the host's own scripts then tell players apart and see
    each one's real command, not the warm parent's. The parent reserved the
    room (:data:`ARGV_ROOM`, :data:`ENV_ROOM`); it is written in place, as
    setproctitle does, and only after :func:`_take_environment`.
    """
    regions = _proc_regions()
    if regions is None:
        return
    arg_start, arg_end, env_start, env_end = regions
    _fill(arg_start, arg_end, argv)
    _fill(env_start, env_end, [f"{name}={value}" for name, value in env.items()])
    name = os.path.basename(argv[0]) if argv else "coven"
    _libc().prctl(15, name.encode()[:15], 0, 0, 0)  # PR_SET_NAME: what top shows


def _stream(fd: int, writing: bool) -> io.TextIOWrapper:
    """A text stream on ``fd`` that never closes it, as Python opens one at start-up for a terminal."""
    raw = io.open(fd, "wb" if writing else "rb", closefd=False)  # noqa: SIM115 - for the process's life
    return io.TextIOWrapper(raw, encoding="utf-8", errors="backslashreplace" if fd == 2 else "strict",
                            line_buffering=writing)


def _open_standard_streams() -> None:
    """Standard streams on the pty; Textual reads and writes ``sys.__stdin__`` and ``sys.__stderr__``."""
    _kept_alive.extend((sys.stdin, sys.stdout, sys.stderr))
    for name, fd in (("stdin", 0), ("stdout", 1), ("stderr", 2)):
        stream = _stream(fd, writing=fd != 0)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _place_descriptors(fds: Sequence[int], keep: Sequence[int]) -> None:
    """The terminal (``fds[0]``) on 0-2, ``fds[1:]`` under the numbers ``keep`` names, every other fd closed."""
    terminal, kept = fds[0], fds[1:]
    for fd in (0, 1, 2):
        os.dup2(terminal, fd)
    # Out of the way first, so placing one never overwrites another still to be placed.
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 1024) for fd in kept]
    wanted = {0, 1, 2}
    for fd, number in zip(high, keep, strict=True):
        if number > 2 and number not in wanted:
            os.dup2(fd, number)  # inheritable, as pass_fds leaves it
            wanted.add(number)
    # Everything else the parent had open (its control socket above all) is closed, as close_fds would.
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in wanted:
            try:
                os.close(int(name))
            except OSError:
                pass  # the directory listing's own descriptor, already gone


def _become_player(request: memoryview, fds: Sequence[int], server_pid: int) -> NoReturn:
    """Turn this freshly forked process into one player's ``coven play``, run it, and exit with its status."""
    status = 1
    try:
        order = json.loads(bytes(request))  # the player's own copy: the parent never makes one
        os.setsid()
        keep = [int(number) for number in order.get("keep", [])]
        if len(keep) != len(fds) - 1:
            os._exit(1)
        _place_descriptors(fds, keep)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        for number in _SIGNALS_RESET:
            signal.signal(number, signal.SIG_DFL)
        _await_adoption(server_pid)
        argv, env, cwd = list(order["argv"]), dict(order["env"]), order["cwd"]
        _take_environment(env)
        os.chdir(cwd)
        _retitle(argv, env)
        if argv[1:2] != ["-m"] or len(argv) < 3:
            raise ValueError(f"the warm parent runs modules (python -m NAME ...), not {argv[1:2]}")
        _open_standard_streams()
        # As `python -m NAME ARGS` would: the module named in the command runs as __main__ with its arguments.
        sys.argv = [argv[0], *argv[3:]]
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
        status = 0
    except SystemExit as leaving:
        status = leaving.code if isinstance(leaving.code, int) else 1
    except BaseException:  # noqa: BLE001 - whatever happened, the player's terminal shows it and the process ends
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status if 0 <= status < 256 else 1)


# -- the warm parent ---------------------------------------------------------------------------------


def allow_page_merging() -> bool:
    """Let the kernel merge this process's identical pages, and every player's it forks; whether it took.

    A seat at the menu has copied about 20 MB of the parent's pages, by
    writing reference counts and the like, and many are still byte for byte
    the parent's or the next seat's. Where the host runs KSM (``ksmd``, see
    :data:`KSM_RUN`), it finds such pages and shares them again; elsewhere
    this only marks the memory. Players inherit the mark through fork; the
    server, which holds the host key, never has it.
    """
    if not sys.platform.startswith("linux"):
        return False
    return bool(_libc().prctl(_PR_SET_MEMORY_MERGE, 1, 0, 0, 0) == 0)  # EINVAL before Linux 6.4: not merged


def ksm_runs() -> bool:
    """Whether the host's KSM daemon is merging pages now (Linux; False where it cannot be read)."""
    try:
        with open(KSM_RUN, encoding="ascii") as state:
            return state.read().strip() == "1"
    except OSError:
        return False


def _fork_player(request: memoryview, fds: Sequence[int], server_pid: int) -> int:
    """Start one player through a middle process that exits at once; the player's pid."""
    reading, writing = os.pipe()
    middle = os.fork()
    if middle == 0:
        status = 0
        try:
            os.close(reading)
            player = os.fork()
            if player == 0:
                os.close(writing)
                _become_player(request, fds, server_pid)
            os.write(writing, str(player).encode())
        except BaseException:  # noqa: BLE001 - the middle process only ever exits
            status = 1
        finally:
            os._exit(status)
    os.close(writing)
    try:
        answer = b""
        while chunk := os.read(reading, 32):
            answer += chunk
    finally:
        os.close(reading)
        os.waitpid(middle, 0)
    if not answer.isdigit():
        raise OSError(errno.ECHILD, "the player's process did not start")
    return int(answer)


def _threads() -> int:
    """Threads of this process as the kernel counts them (a library's own threads included)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _reply(control: socket.socket, message: dict[str, Any]) -> None:
    control.send(json.dumps(message).encode())


def serve_players(control: socket.socket, server_pid: int) -> int:
    """Answer the server's requests until it closes the control socket; the exit status."""
    buffer = bytearray(MAX_REQUEST)
    view = memoryview(buffer)  # requests are only ever read through this, never copied in the parent
    while True:
        try:
            size, ancillary, flags, _ = control.recvmsg_into([buffer], socket.CMSG_SPACE(4 * MAX_FDS))
        except InterruptedError:
            continue
        except OSError:
            return 1
        if size == 0:
            return 0  # the server closed its end: it is stopping, or gone
        fds = [int.from_bytes(data[i:i + 4], sys.byteorder) for level, kind, data in ancillary
               if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS for i in range(0, len(data) - 3, 4)]
        number = int.from_bytes(buffer[:HEADER], "big") if size >= HEADER else 0
        try:
            if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC) or not fds or size <= HEADER:
                _reply(control, {"id": number, "error": "a malformed request"})
                continue
            if _threads() != 1:
                # Forking a process with threads could hand a player a lock held forever; start none.
                _reply(control, {"id": number, "error": "the warm parent has threads"})
                return 1
            try:
                pid = _fork_player(view[HEADER:size], fds, server_pid)
            except OSError as error:
                _reply(control, {"id": number, "error": f"fork failed: {error.strerror or error}"})
                continue
            _reply(control, {"id": number, "pid": pid})
        finally:
            for fd in fds:
                os.close(fd)
            # The next player is forked from this buffer: nothing of this one's request may be in it.
            buffer[:size] = bytes(size)


def preload() -> list[str]:
    """Import what every player needs; the packages imported.

    The games are preloaded too, with numpy: a seat in play then shares their
    pages instead of importing them alone, which ``coven bench serve`` measures
    at about 28 MB less per seat for about 18 MB more in the parent, once.
    """
    import importlib
    import pkgutil

    for name in PRELOADED_PACKAGES:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, f"{name}."):
            if not module.name.endswith("__main__") and not module.name.startswith(NOT_PRELOADED):
                importlib.import_module(module.name)
    for name in PRELOADED_EXTRA:
        importlib.import_module(name)
    from rich._unicode_data import load as load_cell_table

    from engine.wizards_cup.round_matrix import prepare as build_duel_tables
    from saves.schema import learn_schema
    from tui.ahead import prepare

    load_cell_table("latest")  # Rich's table of character widths, imported at a player's first text

    learn_schema()  # in-memory databases only, closed again: the players' store is never opened here
    build_duel_tables()  # the Wizards Cup duel tables, shared by every seat rather than built in each one's first game
    prepare()  # what each player would build alike: parsed CSS, the command line's parser, libc (tui.ahead)
    return [*PRELOADED_PACKAGES, *PRELOADED_EXTRA]


def get_ready() -> tuple[list[str], int]:
    """Become what players are forked from: preload, map the libraries' pages, fill the C heap's holes
    (:func:`tui.heap.fill_heap_holes`), freeze; what was preloaded, and
    the bytes of library pages mapped (:mod:`tui.server.library_pages`).

    ``coven bench seat-memory`` makes its forked seats' parent the same way.
    """
    from tui.heap import fill_heap_holes
    from tui.render_memos import render_memos

    os.environ.update(SINGLE_THREADED)
    names = preload()
    mapped = map_library_pages()
    render_memos()  # looks at the modules imported since preload's look, so a player finds none to look at
    gc.collect()
    fill_heap_holes()  # last, once nothing more is freed: a player's blocks then come from pages of its own
    gc.freeze()  # every object so far moves out of the collector's reach, so players never write to its pages
    return names, mapped


def main(argv: Sequence[str] | None = None) -> int:
    """The warm parent's program: preload, freeze, say ready, serve."""
    words = list(sys.argv[1:] if argv is None else argv)
    control_fd = next((int(word.partition("=")[2]) for word in words if word.startswith(f"{CONTROL_FD_FLAG}=")), -1)
    if control_fd < 0:
        print("tui.server.warm is started by coven serve, never by hand.", file=sys.stderr)
        return 2
    server_pid = os.getppid()
    if sys.platform.startswith("linux"):
        _libc().prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)  # gone with the server, even killed
    control = socket.socket(fileno=control_fd)
    for number in (signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)  # the server stops the parent by closing its socket
    started = time.monotonic()
    merging = allow_page_merging()  # before preloading, so that every page of the parent may be merged
    maps_ahead, ksm = can_map_ahead(), ksm_runs()  # asked now: what they free would be holes in the filled heap
    try:
        names, mapped = get_ready()
    except Exception as error:  # noqa: BLE001 - the server falls back to fresh processes and logs why
        _reply(control, {"error": f"preload failed: {type(error).__name__}: {error}"})
        return 1
    _reply(control, {"ready": True, "preloaded": names, "seconds": round(time.monotonic() - started, 3),
                     "pid": os.getpid(), "library_pages": mapped, "maps_ahead": maps_ahead,
                     "mergeable": merging, "ksm": ksm})
    return serve_players(control, server_pid)


if __name__ == "__main__":
    sys.exit(main())
