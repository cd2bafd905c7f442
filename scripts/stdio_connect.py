"""What the SDK's stdio client starts for each session: ``stdio_connect.py SOCKET HEADER``.

The SDK's stdio transport starts a process and speaks over its stdin and stdout. This process
hands exactly those two pipes to a fresh fixture server from the fork server at SOCKET (an
abstract Unix socket's ``@NAME``), over the socket (``SCM_RIGHTS``) with HEADER (the recorder's
JSON line naming the server's log and stderr), then waits until that server ends, and ends too.

The transport must start a process per session, so this one is as cheap as a Python process
gets: the recorder starts it with ``-I -S``, and it imports no module but ``_socket``, the C half
of ``socket`` (whose Python half, with its enums, would double the process's start-up); the
header comes ready-made, nothing to parse. It needs no `die_with_parent`: the connection ends
when the server's process does, and the server ends with its fork server, which ends with the
recorder.
"""
import os
import sys

import _socket

STDIN_AND_STDOUT = b"".join(fd.to_bytes(4, sys.byteorder) for fd in (0, 1))  # two C ints, as socket.send_fds packs them


def main() -> int:
    address, header = sys.argv[1:]
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect("\0" + address.removeprefix("@"))  # Linux's abstract namespace, as processes.unix_address
        sock.sendmsg([header.encode() + b"\n"], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, STDIN_AND_STDOUT)])
        # Only the server may hold the client's pipes now: the client reads end-of-file when it ends.
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        while sock.recv(4096):  # the connection closes when the server's process ends
            pass
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
