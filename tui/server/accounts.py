"""Accounts for ``--auth password`` and keys for ``--auth keys``.

The password file holds one account a line: ``name:scrypt$N$r$p$salt$hash``
with the salt and hash in base64. Only the salted scrypt hash is stored.
"""

from __future__ import annotations

import base64
import getpass
import hashlib
import hmac
import os
import re
import secrets
import stat
import sys
from pathlib import Path
from typing import TextIO

import asyncssh

from tui.server.account_names import KEY_ACCOUNT_PREFIX, find_account, same_account
from tui.server.config import ServeError, ServeUsageError

SCRYPT_N = 2 ** 14
SCRYPT_R = 8
SCRYPT_P = 1
_HASH_BYTES = 32
_SALT_BYTES = 16
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
MIN_PASSWORD_LENGTH = 8

_DUMMY_ENTRY: str | None = None


def valid_account_name(name: str) -> bool:
    """Whether ``name`` may be an account: 1-32 letters, digits, ``_``, ``.`` or ``-``."""
    return _NAME.fullmatch(name) is not None


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """The stored form of ``password``: ``scrypt$N$r$p$salt$hash`` (base64 parts)."""
    salt = salt if salt is not None else secrets.token_bytes(_SALT_BYTES)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                            dklen=_HASH_BYTES)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def _b64(raw: bytes) -> str:
    """``raw`` as base64 text, for the stored hash's parts."""
    return base64.b64encode(raw).decode("ascii")


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches the stored hash (compared in constant time)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest, validate=True)
        actual = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt, validate=True),
                                n=int(n), r=int(r), p=int(p), dklen=len(expected), maxmem=256 * 1024 * 1024)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


def read_password_file(path: Path) -> dict[str, str]:
    """The accounts in ``path``, name (as written) → stored hash; malformed lines are skipped.

    A name written twice in two cases (by an older Coven) counts once, its first line.

    Raises:
        ServeError: the file is missing or cannot be read.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ServeError(f"The password file {path} does not exist; add an account with "
                         f"`coven serve --add-user NAME`.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ServeError(f"Cannot read the password file {path} ({error}).") from None
    accounts: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, stored = line.strip().partition(":")
        if sep and valid_account_name(name) and stored.startswith("scrypt$") and find_account(accounts, name) is None:
            accounts[name] = stored
    return accounts


def check_password(accounts: dict[str, str], name: str, password: str) -> bool:
    """Whether ``name`` (in any case) is an account and ``password`` is its password."""
    return signed_in_as(accounts, name, password) is not None


def signed_in_as(accounts: dict[str, str], name: str, password: str) -> str | None:
    """The account ``name`` signs in to with ``password``, as the file spells it; None when it does not.

    The file's spelling is what the account's sessions and settings are kept under, whatever case
    the player typed. An unknown name costs the same scrypt work, so timing does not tell which names exist.
    """
    global _DUMMY_ENTRY
    account = find_account(accounts, name)
    if account is None:
        if _DUMMY_ENTRY is None:
            _DUMMY_ENTRY = hash_password(secrets.token_hex(8))
        verify_password(password, _DUMMY_ENTRY)
        return None
    return account if verify_password(password, accounts[account]) else None


def _ask_password(name: str, stdin: TextIO) -> str:
    """The new password for ``name``: typed twice at a terminal, or one line read from a pipe."""
    if not stdin.isatty():
        # Scripts and tests pipe the password in: one line, no confirmation.
        return stdin.readline().rstrip("\r\n")
    first = getpass.getpass(f"Password for {name}: ")
    second = getpass.getpass("Again: ")
    if first != second:
        raise ServeUsageError("The two passwords differ; nothing was changed.")
    return first


def add_user(path: Path, name: str, stdin: TextIO | None = None) -> bool:
    """Ask for a password and write ``name`` into the password file; True if it replaced an account.

    Names do not depend on case: ``ANA`` replaces the account ``ana``, which keeps its spelling (its
    sessions and settings are kept under it). The file is created with mode 0600 and rewritten
    whole, so it never holds half a line.

    Raises:
        ServeUsageError: bad name or password.
        ServeError: the file cannot be read or written.
    """
    if not valid_account_name(name):
        raise ServeUsageError(
            f"Account names are 1 to 32 letters, digits, '_', '.' or '-', not {name!r}.")
    if name.lower().startswith(KEY_ACCOUNT_PREFIX):
        # Under --auth keys a key holder's account is key-<fingerprint>: a password account spelt so
        # could hold a key holder's sessions and settings if one data folder serves both ways.
        raise ServeUsageError(f"Account names beginning with {KEY_ACCOUNT_PREFIX!r} are kept for key accounts "
                              f"(--auth keys); choose another name than {name!r}.")
    password = _ask_password(name, stdin or sys.stdin)
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServeUsageError(f"Choose a password of at least {MIN_PASSWORD_LENGTH} characters.")
    lines: list[str] = []
    replaced = False
    if path.exists():
        try:
            existing = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise ServeError(f"Cannot read the password file {path} ({error}).") from None
        spellings = {line.partition(":")[0].strip() for line in existing
                     if same_account(line.partition(":")[0].strip(), name)}
        if len(spellings) > 1:
            # An older Coven kept case apart: these are two players' accounts, and replacing both
            # would silently take one of them away. The operator must choose which stays.
            raise ServeUsageError(f"The password file {path} holds {len(spellings)} accounts that now read as one "
                                  f"({', '.join(sorted(spellings))}); remove all but one line first.")
        for line in existing:
            written = line.partition(":")[0].strip()
            if same_account(written, name):
                name = written if valid_account_name(written) else name
                replaced = True
            elif line.strip():
                lines.append(line)
    lines.append(f"{name}:{hash_password(password)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
    return replaced


def check_password_file_private(path: Path) -> None:
    """Refuse a password file that other users could read.

    Raises:
        ServeError: the file's mode lets the group or others read or write it.
    """
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise ServeError(f"The password file {path} is open to other users (mode {mode:04o}); "
                         f"run `chmod 600 {path}`.")


def load_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """The keys allowed to log in, from an OpenSSH ``authorized_keys`` file.

    Raises:
        ServeError: the file is missing, unreadable, or holds no usable key.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ServeError(f"The authorized keys file {path} does not exist.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ServeError(f"Cannot read the authorized keys file {path} ({error}).") from None
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise ServeError(f"The authorized keys file {path} holds no keys.")
    try:
        return asyncssh.import_authorized_keys(text)
    except (asyncssh.KeyImportError, ValueError) as error:
        raise ServeError(f"The authorized keys file {path} has a bad line ({error}).") from None
