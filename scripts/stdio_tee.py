"""A line tee between an MCP client and a stdio server.

    stdio_tee.py LOG -- COMMAND...     start COMMAND as the server (its stderr goes to LOG.stderr)
    stdio_tee.py LOG --socket PATH     a fresh server from scripts/mcp_fork_server.py at PATH

It relays every line both ways unchanged and appends each line to LOG as
``{"from": "client"|"server", "line": ...}`` at the moment it is read, before it is forwarded.
A reply can only be read after its request was forwarded, so LOG is in causal order.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agent_loop_sim.processes import die_with_parent, unix_address  # noqa: E402


class _SocketServer:
    """The fork server's connection, looking like a subprocess's pipes."""

    def __init__(self, path: str, stderr_path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(unix_address(path))
        self.sock.sendall(json.dumps({"stderr": stderr_path}).encode() + b"\n")
        self.stdout = self.sock.makefile("rb")
        self.stdin = _SocketWriter(self.sock)

    def wait(self) -> int:
        return 0


class _SocketWriter:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.sock.shutdown(socket.SHUT_WR)  # the server reads end-of-file, as on a closed pipe


def main() -> int:
    log_path, how, *target = sys.argv[1:]
    die_with_parent()  # the SDK starts this in a session of its own: end with the recorder, not after it
    assert how in ("--", "--socket") and target, "usage: stdio_tee.py LOG -- COMMAND... | LOG --socket PATH"
    if how == "--socket":
        server = _SocketServer(target[0], log_path + ".stderr")
    else:
        # The server's stderr (its tracebacks for failing tools) goes beside the log, not to ours.
        with open(log_path + ".stderr", "ab") as errors:
            server = subprocess.Popen(target, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                                      preexec_fn=die_with_parent)
    lock = threading.Lock()
    log = open(log_path, "a", encoding="utf-8")

    def relay(source, sink, sender: str) -> None:
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

    upstream = threading.Thread(target=relay, args=(sys.stdin.buffer, server.stdin, "client"), daemon=True)
    upstream.start()
    relay(server.stdout, sys.stdout.buffer, "server")
    return server.wait()


if __name__ == "__main__":
    sys.exit(main())
