"""What the SDK's stdio client starts for each session: ``stdio_connect.py SOCKET HEADER``.

The SDK's stdio transport starts a process and speaks over its stdin and stdout. This process
hands exactly those two pipes to a fresh fixture server from the fork server at SOCKET (an
abstract Unix socket's ``@NAME``), over the socket (``SCM_RIGHTS``) with HEADER (the recorder's
JSON line naming the server's log and stderr), then waits until that server ends, and ends too.

The transport must start a process per session, so this one is as cheap as a Python process
gets: the recorder starts it with ``-I -S`` and it imports ``socket`` alone (the header comes
ready-made; nothing to parse). It needs no `die_with_parent`: the connection ends when the
server's process does, and the server ends with its fork server, which ends with the recorder.
"""
import os
import socket
import sys


def main() -> int:
    address, header = sys.argv[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect("\0" + address.removeprefix("@"))  # Linux's abstract namespace, as processes.unix_address
        socket.send_fds(sock, [header.encode() + b"\n"], [0, 1])
        # Only the server may hold the client's pipes now: the client reads end-of-file when it ends.
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        while sock.recv(4096):  # the connection closes when the server's process ends
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
