"""Signed login tokens: what the login cookie holds, checked on every page and on the WebSocket.

A token is ``payload.signature``: the payload names the account and the
player with an expiry, the signature is an HMAC-SHA256 under a secret made
when the door starts (so a restart logs everyone out, and nothing secret is
ever written to disk). Only the server can make one; any change breaks it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable

from tui.server.players import Login

TOKEN_LIFETIME = 12 * 3600.0
"""Seconds a login lasts before the login page is shown again."""
MAX_TOKEN_LENGTH = 1024
"""Longer cookies are refused unread."""


def _b64(raw: bytes) -> str:
    """``raw`` as unpadded URL-safe base64."""
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    """The bytes of unpadded URL-safe base64 ``text``.

    Raises:
        ValueError: not base64.
    """
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    """Makes and checks login tokens under one secret."""

    def __init__(self, secret: bytes | None = None, *, clock: Callable[[], float] = time.time) -> None:
        """A signer with a fresh random secret unless one is given; ``clock`` is replaced by tests."""
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self._clock = clock

    def derived_key(self, purpose: str) -> bytes:
        """A key for ``purpose`` made from the secret, so nothing else the door signs passes for a login."""
        return hmac.new(self._secret, f"coven web key: {purpose}".encode(), hashlib.sha256).digest()

    def _signature(self, payload: str) -> str:
        """The HMAC of ``payload``."""
        return _b64(hmac.new(self._secret, payload.encode("ascii"), hashlib.sha256).digest())

    def sign(self, login: Login) -> str:
        """A token for ``login`` (its account, player name and join code), valid for :data:`TOKEN_LIFETIME`."""
        body = {"a": login.account, "p": login.player, "c": login.code, "e": int(self._clock() + TOKEN_LIFETIME)}
        payload = _b64(json.dumps(body, separators=(",", ":")).encode("utf-8"))
        return f"{payload}.{self._signature(payload)}"

    def verify(self, token: str | None) -> Login | None:
        """The login ``token`` was made for, or None when it is missing, forged, malformed or expired."""
        if not token or len(token) > MAX_TOKEN_LENGTH:
            return None
        payload, dot, signature = token.partition(".")
        if not dot or not payload.isascii() or not signature.isascii():
            return None
        if not hmac.compare_digest(self._signature(payload), signature):
            return None
        try:
            body = json.loads(_unb64(payload))
        except ValueError:
            return None
        if not isinstance(body, dict) or not isinstance(body.get("e"), int) or body["e"] < self._clock():
            return None
        account, player, code = body.get("a"), body.get("p"), body.get("c")
        if not isinstance(account, str) or not isinstance(player, str) or not (code is None or isinstance(code, str)):
            return None
        return Login(account=account, player=player, code=code)
