"""Reading and writing small text files safely: regular files only, never blocking.

Session files, deck lists and Lab scenarios all come from paths a person
types, so each is read the same careful way: never a pipe or device (which
could block or never end), at most ``limit + 1`` bytes (a file that grows
while being read can't exhaust memory), and only UTF-8 text without NUL bytes.
Exports, deck lists, Lab scenarios are written the same careful way
(:func:`write_text_file`): never into a pipe or device, and never half.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

_FULL_DISK = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})
"""A write that fails with one of these failed for want of room (a quota counts as the disk being full)."""


class TextFileError(ValueError):
    """A file could not be read as a small text file; the message says why, naming the file."""


RefusalCheck = Callable[[Path, "os.stat_result | None"], "str | None"]
"""Says why a file (by its path and ``os.stat``, None for a new name) must never be opened here, or None."""

_refusals: list[RefusalCheck] = []


def refuse_with(check: RefusalCheck) -> None:
    """Refuse, from now on, every file for which ``check`` gives a reason, before it is opened.

    The session store registers its database files: opening and closing one of
    them in a process that has a connection would drop SQLite's locks on it.
    """
    if check not in _refusals:
        _refusals.append(check)


def _refusal(path: Path, info: os.stat_result | None) -> TextFileError | None:
    for check in _refusals:
        reason = check(path, info)
        if reason is not None:
            return TextFileError(f"{path} is {reason}; Coven will not open it as another file.")
    return None


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
        refused = _refusal(source, info)
        if refused is not None:
            raise refused
        if info.st_size > limit:
            raise TextFileError(too_large)
        # Non-blocking, in case the name was swapped for a FIFO since the check.
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        with os.fdopen(os.open(source, flags), "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise TextFileError(not_regular)
            raw = file.read(limit + 1)
    except TextFileError:
        raise
    except OSError as error:
        raise TextFileError(f"Could not read {source}: {error.strerror or error}") from None
    except ValueError:  # a NUL, or a lone surrogate no file system name can hold
        raise TextFileError(_unusable_name(source)) from None
    if len(raw) > limit:
        raise TextFileError(too_large)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = "\x00"
    if "\x00" in text:
        raise TextFileError(f"{source} is not a text file, so not {what}.")
    return text


class TextFileExistsError(TextFileError):
    """The file to write already exists and replacing it was not asked for.

    Attributes:
        path: The file that exists.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} already exists; choose another name or allow replacing it.")
        self.path = path


def write_text_file(path: str | os.PathLike[str], text: str, *, overwrite: bool = False) -> Path:
    """Write ``text`` (UTF-8) to ``path`` without ever blocking and without a half-written file.

    Only a regular file (or a new name) is written: a FIFO, device, socket or
    folder is refused before anything is opened, since opening a FIFO for
    writing waits for a reader forever. The text goes to a temporary file
    beside the target, which is then renamed over it, so the target itself is
    never opened and a failure leaves any old file as it was. A symbolic link
    to a regular file is followed: the file it points at is replaced.

    Args:
        path: The file to write.
        text: What to write.
        overwrite: Replace an existing regular file; otherwise refuse it.

    Returns:
        The path written (the link's target when ``path`` is a symbolic link).

    Raises:
        TextFileExistsError: ``path`` exists and ``overwrite`` is false; nothing was written.
        TextFileError: ``path`` is not a regular file, or the file cannot be written.
    """
    target = Path(path)
    try:
        if os.path.lexists(target):
            info = os.stat(target)  # follows a link: what matters is what would be written
            if not stat.S_ISREG(info.st_mode):
                kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe, device or socket"
                raise TextFileError(f"{target} is {kind}, not a regular file; Coven only writes regular files.")
            refused = _refusal(target, info)
            if refused is not None:
                raise refused
            if not overwrite:
                raise TextFileExistsError(target)
            target = Path(os.path.realpath(target))
            mode: int | None = stat.S_IMODE(info.st_mode)
        else:
            refused = _refusal(target, None)
            if refused is not None:
                raise refused
            mode = None  # a new file keeps the private mode of its temporary file
        data = text.encode("utf-8")
        handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            if mode is not None:
                os.chmod(temp_name, mode)  # a replaced file keeps who may read it
            if overwrite:
                os.replace(temp_name, target)
            else:
                _rename_without_replacing(temp_name, target)
        finally:
            Path(temp_name).unlink(missing_ok=True)
    except TextFileError:
        raise
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise TextFileError(f"Could not write {target}: the folder {target.parent} does not exist.") from None
        raise TextFileError(f"Could not write {target}: it points at a file that does not exist.") from None
    except OSError as error:
        if error.errno in _FULL_DISK:
            raise TextFileError(f"Could not write {target}: the disk holding {target.parent} is full.") from None
        raise TextFileError(f"Could not write {target}: {error.strerror or error}") from None
    except UnicodeEncodeError as error:
        if error.object is not text:
            raise TextFileError(_unusable_name(target)) from None
        raise TextFileError(f"Could not write {target}: the text is not valid Unicode.") from None
    except ValueError:
        raise TextFileError(_unusable_name(target)) from None
    return target


def _unusable_name(path: Path) -> str:
    return f"{str(path)!r} is not a usable file name (it holds a NUL or a character that is not valid text)."


def _rename_without_replacing(temp_name: str, target: Path) -> None:
    """Give the finished temporary file the name ``target`` unless that name is taken.

    A hard link fails atomically if ``target`` appeared since it was checked;
    where links are unsupported (some file systems), check once more and rename.
    """
    try:
        os.link(temp_name, target)
    except FileExistsError:
        raise TextFileExistsError(target) from None
    except OSError:
        if os.path.lexists(target):
            raise TextFileExistsError(target) from None
        os.replace(temp_name, target)
