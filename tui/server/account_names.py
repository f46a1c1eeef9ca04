"""Which account a name stands for under ``coven serve``: one rule for the server and ``coven settings``.

- A password account's name does not depend on case, as join codes do not:
  ``Ana``, ``ANA`` and ``ana`` are one account, kept under the spelling of the
  password file. Only ASCII letters fold (see :func:`same_account`).
- A key account (``--auth keys``) is ``key-`` and the first 22 characters of
  the key's SHA256 fingerprint. The fingerprint is base64, where case carries
  meaning, so a key account is never folded.

Nothing here imports asyncssh, so a command that only names an account stays light.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

KEY_ACCOUNT_PREFIX = "key-"
"""How every key account begins."""
KEY_ACCOUNT_FINGERPRINT = 22
"""How many characters of the key's fingerprint a key account keeps."""
_KEY_ACCOUNT = re.compile(rf"{KEY_ACCOUNT_PREFIX}[A-Za-z0-9+/]{{{KEY_ACCOUNT_FINGERPRINT}}}")


def same_account(first: str, second: str) -> bool:
    """Whether two account names are one account: names do not depend on case, as join codes do not."""
    # Account names are ASCII: Unicode folding would let "ſam", "baß" or a Kelvin-sign "Kate" stand for
    # sam, bass and kate, names the password file never held.
    return first.isascii() and second.isascii() and first.lower() == second.lower()


def find_account(written: Iterable[str], name: str) -> str | None:
    """The account ``name`` stands for, spelt as ``written`` (the password file's names) spells it, or None."""
    names = list(written)
    if name in names:
        return name
    return next((spelt for spelt in names if same_account(spelt, name)), None)


def account_key(name: str) -> str:
    """The account ``name`` stands for: its case folded, so "Ana", "ANA" and "ana" are one account."""
    return name.lower() if name.isascii() else name  # ASCII only: see same_account


def key_account(fingerprint: str) -> str:
    """The account of the key whose SHA256 fingerprint is ``fingerprint`` (with or without ``SHA256:``)."""
    return KEY_ACCOUNT_PREFIX + fingerprint.removeprefix("SHA256:")[:KEY_ACCOUNT_FINGERPRINT]


def is_key_account(name: str) -> bool:
    """Whether ``name`` is a key account as :func:`key_account` writes it (case and all)."""
    return _KEY_ACCOUNT.fullmatch(name) is not None


def served_account(name: str, written: Iterable[str] = ()) -> str:
    """The account under which ``coven serve`` keeps ``name``'s sessions and settings.

    Args:
        name: an account as an operator typed it.
        written: the names in the password file, as it spells them.

    Returns:
        ``name`` itself for a key account; the password file's spelling when it holds ``name``
        in any case (a login in any case signs in to it); else ``name`` with its ASCII case folded.
    """
    if is_key_account(name):
        return name
    found = find_account(written, name)
    return found if found is not None else account_key(name)
