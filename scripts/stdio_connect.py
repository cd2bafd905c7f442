"""What the SDK's stdio client starts for each session: ``stdio_connect.py SOCKET LOG``.

The SDK's stdio transport starts a process and speaks over its stdin and stdout. This process
hands exactly those two pipes to a fresh fixture server from the fork server at SOCKET (over
the socket, ``SCM_RIGHTS``), with a header naming LOG (the server's tee logs each line there) and
LOG.stderr (the server's stderr), then waits until that server ends, and ends with it. It imports
only ``agent_loop_sim.processes`` and the standard library (the recorder starts it with ``-I -S``),
so the interpreter the transport must start costs little more than the interpreter itself.
"""
from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agent_loop_sim.processes import die_with_parent, unix_address  # noqa: E402


def main() -> int:
    address, log = sys.argv[1:]
    die_with_parent()  # the SDK starts this in a session of its own: end with the recorder, not after it
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(unix_address(address))
        header = json.dumps({"stderr": log + ".stderr", "log": log}).encode() + b"\n"
        socket.send_fds(sock, [header], [0, 1])
        # Only the server may hold the client's pipes now: the client reads end-of-file when it ends.
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        while sock.recv(4096):  # the connection closes when the server's process ends
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
