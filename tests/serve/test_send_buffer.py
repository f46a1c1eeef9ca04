"""A client that reads nothing can leave only a bounded amount in the kernel's send buffer (tui/server/output.py).

Linux grows a socket's send buffer by itself up to ``tcp_wmem``'s maximum (4 MiB by default): over loopback a
stalled client took some 2.8 MB before the server's own output budget even started to count.
"""

from __future__ import annotations

import socket

from tui.server.output import SEND_BUFFER_BYTES, cap_send_buffer

CHUNK = 65536


def _bytes_taken_by_a_client_that_reads_nothing(capped: bool) -> int:
    with socket.create_server(("127.0.0.1", 0)) as listener, socket.socket() as client:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(listener.getsockname())
        server_side, _ = listener.accept()
        with server_side:
            if capped:
                cap_send_buffer(server_side)
            server_side.setblocking(False)
            taken = 0
            while True:  # the client never reads, so the kernel's buffers fill and the send fails
                try:
                    taken += server_side.send(b"x" * CHUNK)
                except BlockingIOError:
                    return taken


def test_a_capped_socket_takes_no_more_than_its_buffer_and_the_clients() -> None:
    taken = _bytes_taken_by_a_client_that_reads_nothing(capped=True)
    # Linux doubles the size asked for; the client's receive buffer (4 KiB asked, doubled) holds a little more.
    assert 0 < taken <= 2 * SEND_BUFFER_BYTES + 2 * 4096, taken


def test_no_socket_is_left_alone() -> None:
    cap_send_buffer(None)  # a transport without a socket: nothing to cap, and no error
