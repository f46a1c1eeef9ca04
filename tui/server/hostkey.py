"""The server's ed25519 host key: made once, kept private, re-used on every start."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh

from tui.server.config import ServeError

HOST_KEY_FILENAME = "ssh_host_ed25519_key"


def _check_private(path: Path) -> None:
    """Refuse a key file that the group or other users could read or change."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise ServeError(
            f"The host key {path} is open to other users (mode {mode:04o}); "
            f"run `chmod 600 {path}` or delete it to make a new one.")


def load_or_create_host_key(data_dir: Path) -> tuple[asyncssh.SSHKey, bool]:
    """Return the host key from ``data_dir`` and whether it was just created.

    A new key is written with mode 0600 from the start (``os.open`` with the
    mode), so it is never readable by others, not even for a moment.

    Raises:
        ServeError: the key file is readable by others or is not a private key.
    """
    path = data_dir / HOST_KEY_FILENAME
    if path.exists():
        _check_private(path)
        try:
            return asyncssh.import_private_key(path.read_bytes()), False
        except (asyncssh.KeyImportError, ValueError) as error:
            raise ServeError(f"The host key {path} cannot be read ({error}); move it away to make a new one.") \
                from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="coven host key")
    data = key.export_private_key("openssh")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    return key, True


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The key's SHA256 fingerprint as ssh prints it, e.g. ``SHA256:abc...``."""
    return key.get_fingerprint("sha256")
