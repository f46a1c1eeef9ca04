"""Agent and X11 forwarding, which asyncssh refuses without telling its application, refused with a reason."""

from __future__ import annotations

import contextlib
from typing import Protocol

import asyncssh


class Noter(Protocol):
    """Whatever logs a line about a connection (:meth:`tui.server.server.CovenConnection.note`)."""

    def note(self, message: str, *args: object, level: int = ...) -> None:
        """Log one line."""


_FORWARDING_REQUESTS = {
    "_process_auth_agent_req_at_openssh_dot_com_request": "agent",
    "_process_x11_req_request": "X11",
}
"""The channel requests asyncssh refuses without telling its application, by handler name."""


def refuse_forwarding_requests(chan: asyncssh.SSHServerChannel[bytes], owner: Noter) -> None:
    """Make ``chan`` refuse agent and X11 forwarding with a logged reason and a line on stderr.

    asyncssh answers these requests inside the channel and never asks the
    server, so the channel's own handlers are replaced for this one channel.
    """
    for handler, what in _FORWARDING_REQUESTS.items():
        if not hasattr(chan, handler):  # pragma: no cover - a future asyncssh that renamed it
            raise RuntimeError(f"asyncssh has no {handler}; check how it handles {what} forwarding")

        def refuse(packet: object, what: str = what) -> bool:
            """Log the request, tell the client why on stderr, and answer no."""
            reason = f"Coven does not forward {what} connections; nothing of yours is shared."
            owner.note("refused: %s forwarding", what)
            with contextlib.suppress(OSError):  # the client may already have closed the channel
                chan.write_stderr(f"{reason}\r\n".encode())
            return False

        setattr(chan, handler, refuse)
