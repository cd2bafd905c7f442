"""Serve the fixture MCP server to many sessions quickly: ``mcp_fork_server.py SOCKET``.

Starting the SDK takes most of a session's time (about 0.6 s of imports), so this process
imports ``conformance/sdk_server.py`` once, listens on a Unix socket, and forks a fresh copy
for every connection. The child makes the connection its stdin and stdout and runs the
server's ordinary stdio transport, exactly as ``python conformance/sdk_server.py`` would; the
first line a client sends is a JSON header naming the file for the child's stderr.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sdk_server  # noqa: E402  (the expensive import, done once)
from agent_loop_sim.processes import die_with_parent, unix_address  # noqa: E402


def _serve_child(conn: socket.socket) -> None:
    die_with_parent()  # the fork server's end is this server's end (no orphan when it is killed)
    header = b""
    while not header.endswith(b"\n"):
        chunk = conn.recv(1)
        if not chunk:
            os._exit(0)
        header += chunk
    stderr_path = json.loads(header)["stderr"]
    err = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(err, 2)
    os.dup2(conn.fileno(), 0)
    os.dup2(conn.fileno(), 1)
    conn.close()
    sdk_server.mcp.run()


def main() -> int:
    path = sys.argv[1]
    die_with_parent()  # the recorder's end is this server's end
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(unix_address(path))
    listener.listen(128)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    print("ready", flush=True)
    while True:
        conn, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            try:
                _serve_child(conn)
            finally:
                os._exit(0)
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
