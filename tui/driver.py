"""Textual's Unix driver, taught to end Coven when its terminal goes away.

When the terminal vanishes without a SIGHUP (its pty master closed by a
crashed emulator, or stdin at end of file), Textual 8's input thread finds
the descriptor always readable, reads nothing and asks again at once, so
Coven would spin on a core for ever with nobody to see it. Its writer
thread dies on the first EIO, after which the next frame blocks the app for
good. Every action is committed before it is shown, so the clean answer is
to quit; the app's unmount then closes the store (checkpointing its WAL).
"""

from __future__ import annotations

import errno
import os
import select
import sys
import threading
from typing import IO

from textual.drivers.linux_driver import LinuxDriver

WATCH_SECONDS = 0.5
"""How often the terminal is checked for a hang-up."""

_GONE_ERRNOS = frozenset({errno.EIO, errno.EBADF, errno.ENXIO, errno.EPIPE})
"""Errors from reading or writing the terminal that mean it is no longer there."""

# POLLNVAL is left out on purpose: macOS's poll reports it for every tty.
_HANG_UP = select.POLLHUP | select.POLLERR


class _TerminalOutput:
    """The terminal's output for Textual's writer thread: a write that finds the terminal gone says so."""

    def __init__(self, file: IO[str], driver: CovenDriver) -> None:
        self._file = file
        self._driver = driver

    def write(self, text: str) -> int:
        """Write ``text``; once the terminal is gone, drop it."""
        if not self._driver.terminal_gone:
            try:
                return self._file.write(text)
            except OSError as error:
                self._driver.output_failed(error)
        return len(text)

    def flush(self) -> None:
        """Flush, unless the terminal is gone."""
        if not self._driver.terminal_gone:
            try:
                self._file.flush()
            except OSError as error:
                self._driver.output_failed(error)

    def fileno(self) -> int:
        """The terminal's descriptor."""
        return self._file.fileno()

    def isatty(self) -> bool:
        """Whether the output is a terminal."""
        return self._file.isatty()


class CovenDriver(LinuxDriver):
    """:class:`LinuxDriver` that quits the app on a hang-up, end of file or EIO from the terminal."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        """Create the driver (same arguments as Textual's)."""
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._gone = threading.Event()
        self._watch_stop = threading.Event()
        self._file = _TerminalOutput(self._file, self)  # type: ignore[arg-type, assignment]

    @property
    def terminal_gone(self) -> bool:
        """True once the terminal was found gone (the app is then quitting)."""
        return self._gone.is_set()

    def start_application_mode(self) -> None:
        """Start as Textual does, then watch the terminal for a hang-up (Linux reports it through poll)."""
        super().start_application_mode()  # type: ignore[no-untyped-call]  # Textual leaves it unannotated
        if sys.platform.startswith("linux"):
            self._watch_stop.clear()
            threading.Thread(target=self._watch, name="coven-terminal-watch", daemon=True).start()

    def stop_application_mode(self) -> None:
        """Stop watching, then restore the terminal as Textual does (its writes go nowhere if it is gone)."""
        self._watch_stop.set()
        super().stop_application_mode()

    def run_input_thread(self) -> None:
        """Read input as Textual does; an EIO (or a closed descriptor) means the terminal went away."""
        try:
            super().run_input_thread()
        except OSError as error:
            if error.errno not in _GONE_ERRNOS:
                raise
            self.terminal_lost()

    def output_failed(self, error: OSError) -> None:
        """A write to the terminal failed: quit if it is gone, else let Textual see the error."""
        if error.errno not in _GONE_ERRNOS:
            raise error
        self.terminal_lost()

    def terminal_lost(self) -> None:
        """The terminal went away: send output nowhere and ask the app to exit (only the first call acts)."""
        if self._gone.is_set():
            return
        self._gone.set()
        # Python flushes stdout and stderr at exit; into a dead terminal that would fail the exit status.
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            for fd in (1, 2):
                if os.isatty(fd):
                    os.dup2(null, fd)
            os.close(null)
        except OSError:
            pass
        # The input thread would keep reading nothing until the app shuts it down.
        self.exit_event.set()
        try:
            self._loop.call_soon_threadsafe(self._app.exit)
        except RuntimeError:  # the loop has closed: the app is ending anyway
            pass

    def _watch(self) -> None:
        """Poll the input descriptor for a hang-up only, so no keystroke is taken from Textual."""
        poller = select.poll()
        poller.register(self.fileno, 0)  # no events asked: poll still reports POLLHUP and POLLERR
        while not self._watch_stop.wait(WATCH_SECONDS):
            try:
                ready = poller.poll(0)
            except OSError:
                return
            if any(mask & _HANG_UP for _, mask in ready):
                self.terminal_lost()
                return
