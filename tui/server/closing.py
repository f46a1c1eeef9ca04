"""Closing a refused connection so that the client reads why.

asyncssh sends its disconnect message and then drops the socket at once. If
the client's own next packet (OpenSSH sends its key exchange right away) is
still unread at that moment, the kernel answers it with a reset, and the
client fails on a broken pipe before it reads the reason. So the server keeps
a duplicate of the socket: after the message it only shuts down its sending
half and reads (and throws away) whatever the client still sends, until the
client hangs up or :data:`LINGER_SECONDS` pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

import asyncssh

LINGER_SECONDS = 5.0
"""Longest a refused client is given to read the reason and hang up."""
_READ_SIZE = 4096


def disconnect_politely(conn: asyncssh.SSHServerConnection, code: int, reason: str, *,
                        linger: bool = True) -> asyncio.Task[None] | None:
    """Disconnect ``conn`` with ``reason``; returns the task that lingers until the client is gone.

    With ``linger`` off this is a plain disconnect, for when too many already linger.
    """
    transport_socket = conn.get_extra_info("socket")
    kept: socket.socket | None = None
    if transport_socket is not None and linger:
        with contextlib.suppress(OSError):
            kept = transport_socket.dup()
    conn.disconnect(code, reason)  # writes the message now; asyncssh closes its own descriptor soon after
    if kept is None:
        return None
    return asyncio.get_running_loop().create_task(_linger(kept))


async def _linger(kept: socket.socket) -> None:
    """Half-close ``kept`` and read until the client closes too or a few seconds pass, so the reason reaches it."""
    loop = asyncio.get_running_loop()
    try:
        kept.setblocking(False)
        kept.shutdown(socket.SHUT_WR)  # the reason, then the end of the stream
        deadline = loop.time() + LINGER_SECONDS
        while (left := deadline - loop.time()) > 0:
            if not await asyncio.wait_for(loop.sock_recv(kept, _READ_SIZE), left):
                break
    except (OSError, TimeoutError):
        pass
    finally:
        kept.close()


def tell_and_exit(chan: asyncssh.SSHServerChannel[bytes], reason: str, status: int = 1) -> None:
    """Print ``reason`` on the client's stderr and end its session with ``status``.

    A client may close its channel at any moment, and asyncssh then refuses
    every write with BrokenPipeError: there is nobody left to tell, so that
    is not an error of the server's.
    """
    with contextlib.suppress(OSError):
        chan.write_stderr(f"{reason}\r\n".encode())
        chan.exit(status)
