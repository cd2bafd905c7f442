"""A line tee between an MCP client and a stdio server.

    stdio_tee.py LOG -- COMMAND...     start COMMAND as the server (its stderr goes to LOG.stderr)

It relays every line both ways unchanged and appends each line to LOG as
``{"from": "client"|"server", "line": ...}`` at the moment it is read, before it is forwarded.
A reply can only be read after its request was forwarded, so LOG is in causal order.
`tee` is that relay, one direction; the servers ``mcp_fork_server.py`` forks run it in process
(the SDK's client reaches them through ``stdio_connect.py``).
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agent_loop_sim.processes import die_with_parent  # noqa: E402


class SocketWriter:
    """The writing half of a socket, looking like a pipe: closing it is end-of-file for the reader."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.sock.shutdown(socket.SHUT_WR)  # the server reads end-of-file, as on a closed pipe


def tee(source: IO[bytes], sink: Any, sender: str, log: IO[str], lock: threading.Lock) -> None:
    """Relay ``source`` to ``sink`` line by line, logging each line as ``sender``'s before it is
    forwarded; close ``sink`` at the end of ``source``."""
    for line in iter(source.readline, b""):
        with lock:
            log.write(json.dumps({"from": sender, "line": line.decode("utf-8", "replace").rstrip("\n")}) + "\n")
            log.flush()
        try:
            sink.write(line)
            sink.flush()
        except (BrokenPipeError, ValueError):
            break
    try:
        sink.close()
    except OSError:
        pass


def main() -> int:
    log_path, how, *target = sys.argv[1:]
    die_with_parent()  # the SDK starts this in a session of its own: end with the recorder, not after it
    assert how == "--" and target, "usage: stdio_tee.py LOG -- COMMAND..."
    # The server's stderr (its tracebacks for failing tools) goes beside the log, not to ours.
    with open(log_path + ".stderr", "ab") as errors:
        server = subprocess.Popen(target, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                                  preexec_fn=die_with_parent)
    assert server.stdin and server.stdout
    lock = threading.Lock()
    log = open(log_path, "a", encoding="utf-8")
    upstream = threading.Thread(target=tee, args=(sys.stdin.buffer, server.stdin, "client", log, lock), daemon=True)
    upstream.start()
    tee(server.stdout, sys.stdout.buffer, "server", log, lock)
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
