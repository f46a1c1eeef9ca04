"""The browser door's side of a kept seat: sealing a seat's token for its page, and opening what a page hands back.

The page keeps its seat's code and token in its session storage (never a cookie, never the address), so that a
refresh takes the seat back without the token typed (:mod:`tui.kept_seat` is the Coven's side). What the page
keeps is sealed by the door: the code, the token and a digest of the login cookie it was given under, signed
with a key made from the door's secret. So a value handed back is taken only from the same login, unchanged, and
only one a visit; it is checked for form and length here, and the Coven then checks the token itself as it would
a typed one (counting a wrong one against the connection). A value from another login, forged or from before a
restart is refused before the Coven hears of it. The token is never logged.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

from saves.table_tokens import normalise_token
from saves.tables import normalise_code

MAX_KEPT_LENGTH = 512
"""The longest kept value a page may hand back (a sealed seat is about 200 characters); longer is refused unread."""


def _b64(raw: bytes) -> str:
    """``raw`` as unpadded URL-safe base64."""
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def login_digest(cookie: str) -> str:
    """A short digest naming the login ``cookie`` (the cookie itself never goes into the page's storage)."""
    return _b64(hashlib.sha256(cookie.encode("utf-8", "replace")).digest()[:18])


class SeatSeal:
    """Seals and opens the seats that pages keep, under one key."""

    def __init__(self, key: bytes) -> None:
        """Seal with ``key`` (made from the door's secret: a restart breaks every seal, as it ends every login)."""
        self._key = key

    def _signature(self, payload: str) -> str:
        """The HMAC of ``payload``."""
        return _b64(hmac.new(self._key, payload.encode("ascii"), hashlib.sha256).digest())

    def seal(self, cookie: str, code: str, token: str) -> str:
        """What the page keeps for the seat ``code``/``token`` held under the login ``cookie``."""
        body = {"c": code, "t": token, "l": login_digest(cookie)}
        payload = _b64(json.dumps(body, separators=(",", ":")).encode("ascii"))
        return f"{payload}.{self._signature(payload)}"

    def open(self, cookie: str, kept: object) -> tuple[str, str] | None:
        """The code and token in ``kept`` when this door sealed it under the login ``cookie``; else None."""
        if not isinstance(kept, str) or not kept or len(kept) > MAX_KEPT_LENGTH or not kept.isascii():
            return None
        payload, dot, signature = kept.partition(".")
        if not dot or not hmac.compare_digest(self._signature(payload), signature):
            return None
        try:
            body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        except ValueError:
            return None
        if not isinstance(body, dict) or not isinstance(body.get("l"), str):
            return None
        if not hmac.compare_digest(body["l"], login_digest(cookie)):
            return None
        code, token = body.get("c"), body.get("t")
        if not isinstance(code, str) or not isinstance(token, str):
            return None
        code, token = normalise_code(code), normalise_token(token)
        return (code, token) if code is not None and token is not None else None
