"""From an SSH user name to the player's name and an optional join code."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.text import clean_text
from tui.server.account_names import account_key

try:
    from saves.tables import JOIN_CODE_ALPHABET
except ImportError:  # the table store is not in this build yet; the alphabet is fixed by the plan
    JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"

DEFAULT_PLAYER_NAME = "Player"
DEFAULT_ACCOUNT = "player"
"""The account of a user name that held nothing showable."""
_CODE_LENGTH = 4
_PRINTABLE_NAME = re.compile(r"[\w .'-]{1,24}")


def as_join_code(text: str) -> str | None:
    """``text`` as a join code (4 letters of the join alphabet, any case), else None."""
    code = text.strip().upper()
    if len(code) == _CODE_LENGTH and all(letter in JOIN_CODE_ALPHABET for letter in code):
        return code
    return None


@dataclass(frozen=True)
class Login:
    """What a user name asks for.

    Attributes:
        account: the name to authenticate (the part before ``+``); with accounts, in lower case, since
            account names, like join codes, do not depend on case ("Ana" and "ana" are one account).
        player: the name the app is given for this player.
        code: the join code to open, if the user name carried one.
    """

    account: str
    player: str
    code: str | None


def parse_login(username: str, accounts: bool) -> Login:
    """Split ``NAME+CODE``; with ``accounts`` off a user name that looks like a code also joins.

    Control characters, bidi overrides and zero-width characters are removed
    (:func:`engine.core.text.clean_text`) before the name goes anywhere; a name
    with nothing left is "Player".

    Args:
        username: the user name the client sent.
        accounts: True for password and keys auth, where the name is an account.
    """
    username = clean_text(username) or DEFAULT_ACCOUNT
    name, plus, suffix = username.rpartition("+")
    code = as_join_code(suffix) if plus else None
    account = (name or DEFAULT_ACCOUNT) if code else username
    if not accounts and not code:
        code = as_join_code(username)
        if code:
            # "anna" looks like a code too; only the app knows whether a table has it. If none
            # does, the player simply is Anna, so the name is kept rather than "Player".
            player = username.capitalize() if _PRINTABLE_NAME.fullmatch(username) else DEFAULT_PLAYER_NAME
            return Login(account=username, player=player, code=code)
    player = account if _PRINTABLE_NAME.fullmatch(account) else DEFAULT_PLAYER_NAME
    # One rule for names and codes: neither depends on case. The player keeps the name as typed.
    return Login(account=account_key(account) if accounts else account, player=player, code=code)

