"""Where a file path the player typed points: one rule for every file Coven reads or writes.

The rule, the same in the app (deck import and export, the Pillar Lab's
scenarios, session import and export) and in the ``coven`` command
(``export``, ``import``, ``deck``, ``simulate --deck-1``):

- spaces around the path are dropped, and a leading ``~`` is your home folder;
- a relative path is relative to the current working directory, the folder
  Coven was started from, as in a shell;
- the path is made absolute (symbolic links are left as they are), and every
  message about the file names it whole, so there is no doubt where it is.

Where a dialog offers a path, it offers an absolute one (in the exports folder
of Coven's data directory), so accepting the offer never depends on the folder.
"""

from __future__ import annotations

import os
from pathlib import Path


class NoPathError(ValueError):
    """Nothing but spaces was typed where a file's path was asked for."""


def user_path(typed: str | os.PathLike[str]) -> Path:
    """The absolute path ``typed`` names under the rule above.

    Raises:
        NoPathError: ``typed`` is empty or only spaces.
    """
    text = os.fspath(typed).strip()
    if not text:
        raise NoPathError("No file was given.")
    return Path(os.path.abspath(Path(text).expanduser()))


__all__ = ["NoPathError", "user_path"]
