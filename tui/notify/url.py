"""Checking a notice URL: typed by a server's operator or by a player, so hostile until checked.

Only ``http`` and ``https`` are allowed (never ``file:``, ``ftp:`` or a
scheme urllib would open in some other way), with a host, at most
:data:`MAX_URL_LENGTH` characters of printable ASCII (no control
characters, spaces or anything that could split a request line), and no
user name or password in it: a notice URL is shown on the Settings screen
and kept in the session database, where a credential must never be.
"""

from __future__ import annotations

from urllib.parse import urlsplit

MAX_URL_LENGTH = 512
"""The longest notice URL accepted, in characters."""

SCHEMES = ("http", "https")

ENV_URL = "COVEN_NOTIFY_URL"
"""The variable ``coven serve`` passes ``--notify-url`` in to each player's Coven."""


class NotifyUrlError(ValueError):
    """A notice URL that is refused; the message says why, in words for the person who typed it."""


def check_notify_url(text: object) -> str:
    """``text`` as a notice URL, without surrounding spaces.

    Raises:
        NotifyUrlError: it is not text, is too long, holds a control character or a space, has a scheme
            other than http or https, has no host, or carries a user name or password.
    """
    if not isinstance(text, str):
        raise NotifyUrlError("A notice URL must be text.")
    url = text.strip()
    if not url:
        raise NotifyUrlError("The notice URL is empty.")
    if len(url) > MAX_URL_LENGTH:
        raise NotifyUrlError(f"A notice URL may be at most {MAX_URL_LENGTH} characters; this one has {len(url)}.")
    if any(not "\x21" <= char <= "\x7e" for char in url):
        # Only printable ASCII: a control character could end the request line, and a space or
        # a non-ASCII look-alike hides what is really sent. Non-ASCII hosts are typed in punycode.
        raise NotifyUrlError("A notice URL may hold only printable ASCII: no spaces, control characters or "
                             "accented letters (write a non-ASCII host in its xn-- form).")
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - reading it checks the port is a number in range
    except ValueError:
        raise NotifyUrlError("This notice URL cannot be read (check its host and port).") from None
    if parts.scheme.lower() not in SCHEMES:
        shown = f"{parts.scheme}:" if parts.scheme else "none"
        raise NotifyUrlError(f"A notice URL starts with http:// or https:// (its scheme is {shown}).")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise NotifyUrlError("A notice URL must not carry a user name or password (user:password@host): "
                             "they would be kept and shown in plain text.")
    if not host:
        raise NotifyUrlError("A notice URL needs a host, as in https://ntfy.example/?topic=coven.")
    return url
