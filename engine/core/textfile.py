"""Reading small text files safely: regular files only, with a size bound.

Session files, deck lists and Lab scenarios all come from paths a person
types, so each is read the same careful way: never a pipe or device (which
could block or never end), at most ``limit + 1`` bytes (a file that grows
while being read can't exhaust memory), and only UTF-8 text without NUL bytes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class TextFileError(ValueError):
    """A file could not be read as a small text file; the message says why, naming the file."""


def read_text_file(path: str | os.PathLike[str], limit: int, what: str) -> str:
    """Return the text of ``path``.

    Args:
        path: The file to read.
        limit: The largest size accepted, in bytes.
        what: What the file should be, for messages, e.g. ``"a deck list"``.

    Raises:
        TextFileError: missing, not a regular file, unreadable, larger than
            ``limit`` or not UTF-8 text.
    """
    source = Path(path)
    not_regular = f"{source} is not a regular file."
    too_large = f"{source} is too large to be {what} (at most {max(1, limit // 1024)} KiB)."
    try:
        # Checked before opening: opening a FIFO for reading blocks until a writer comes.
        info = os.stat(source)
        if not stat.S_ISREG(info.st_mode):
            raise TextFileError(not_regular)
        if info.st_size > limit:
            raise TextFileError(too_large)
        # Non-blocking, in case the name was swapped for a FIFO since the check.
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        with os.fdopen(os.open(source, flags), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise TextFileError(not_regular)
            raw = file.read(limit + 1)
    except OSError as error:
        raise TextFileError(f"Could not read {source}: {error.strerror or error}") from None
    if len(raw) > limit:
        raise TextFileError(too_large)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = "\x00"
    if "\x00" in text:
        raise TextFileError(f"{source} is not a text file, so not {what}.")
    return text
