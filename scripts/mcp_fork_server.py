"""Serve the fixture MCP server to many sessions quickly: a fresh fork of one process per connection.

Importing the SDK is most of a session's cost, so the process that serves (the *zygote*) has
``conformance/sdk_server.py`` imported and never serves a session itself: it forks a fresh copy
for every connection to its Unix socket, and that copy runs the server's ordinary stdio
transport, exactly as ``python conformance/sdk_server.py`` would. No state can pass from one
session to the next: each server is a copy of the zygote as it was before any session began.

The recorder forks its zygote itself (`start`: it has imported the SDK anyway, so nothing is
imported twice); ``python mcp_fork_server.py SOCKET`` serves as a process of its own (the swap
test's), printing ``ready`` once it listens.

A connection's first line is a JSON header: ``{"stderr": PATH}`` (the server's stderr) makes the
connection itself the server's stdin and stdout (raw sessions write lines straight to it); with
``"log": PATH`` too, the header comes with two file descriptors (``SCM_RIGHTS``), the stdin and
stdout of ``stdio_connect.py``, the process the SDK's stdio client started: the server speaks over
those pipes, through the line tee of ``stdio_tee.py``, which logs each line as it crosses.
"""
from __future__ import annotations

import gc
import json
import os
import signal
import socket
import sys
import threading
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sdk_server  # noqa: E402  (the expensive import, done once)
import anyio._backends._asyncio  # noqa: E402,F401  (imported by anyio.run: once here, not in every server)
import anyio.streams.stapled  # noqa: E402,F401  (likewise, for the stdio transport)
from agent_loop_sim.processes import die_with_parent, unix_address  # noqa: E402
from stdio_tee import SocketWriter, tee  # noqa: E402

MAX_FDS = 2  # the connector's stdin and stdout


def _read_header(conn: socket.socket) -> tuple[dict[str, str], list[int]]:
    """The header line, byte by byte (what follows it is the session's), and the descriptors
    that came with it."""
    header, fds = b"", []
    while not header.endswith(b"\n"):
        chunk, received, _, _ = socket.recv_fds(conn, 1, MAX_FDS)
        fds += received
        if not chunk:
            os._exit(0)
        header += chunk
    return json.loads(header), fds


def _serve_child(conn: socket.socket, run: Callable[[], object]) -> None:
    die_with_parent()  # the zygote's end is this server's end (no orphan when it is killed)
    for sig, action in ((signal.SIGCHLD, signal.SIG_DFL), (signal.SIGTERM, signal.SIG_DFL),
                        (signal.SIGINT, signal.default_int_handler)):
        signal.signal(sig, action)  # a server's own, as in a fresh interpreter
    header, fds = _read_header(conn)
    err = os.open(header["stderr"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(err, 2)
    os.close(err)
    if "log" not in header:
        os.dup2(conn.fileno(), 0)
        os.dup2(conn.fileno(), 1)
        conn.close()
        run()
        return
    client_in, client_out = fds
    # The server's stdin and stdout are one end of a socket pair, as a raw session's are the
    # connection: the SDK keeps a duplicate of its stdout open after it returns, and only a
    # socket's shutdown (unlike a pipe's close) reaches every duplicate.
    server_end, tee_end = socket.socketpair()
    os.dup2(server_end.fileno(), 0)
    os.dup2(server_end.fileno(), 1)
    server_end.close()
    log = open(header["log"], "a", encoding="utf-8")
    lock = threading.Lock()
    upstream = threading.Thread(target=tee, args=(os.fdopen(client_in, "rb"), SocketWriter(tee_end), "client",
                                                  log, lock), daemon=True)
    downstream = threading.Thread(target=tee, args=(tee_end.makefile("rb"), os.fdopen(client_out, "wb"),
                                                    "server", log, lock))
    upstream.start()
    downstream.start()
    try:
        run()
    finally:
        with socket.socket(fileno=os.dup(1)) as end:
            end.shutdown(socket.SHUT_WR)  # the tee reads end-of-file and closes the client's stdout
        downstream.join()  # the connection closes as this process ends: the connector's cue to end


def _reap(signum: int, frame: object) -> None:
    """Reap every server that ended (so its CPU time counts in the zygote's, and the recorder's)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def serve(listener: socket.socket, run: Callable[[], object] | None = None) -> None:
    """Fork a fresh server for every connection, for ever: each serves stdio with ``run`` (the
    fixture's ``mcp.run`` by default)."""
    run = run or sdk_server.mcp.run
    signal.signal(signal.SIGCHLD, _reap)
    while True:
        conn, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            try:
                _serve_child(conn, run)
            finally:
                os._exit(0)
        conn.close()


def start(address: str, run: Callable[[], object] | None = None) -> int:
    """Fork the zygote from this process (which must not have started a thread or an event loop
    yet) listening at ``address``; its pid. It listens before this returns: no wait for it. Its
    servers serve stdio with ``run`` (`serve`)."""
    assert threading.active_count() == 1, "fork the zygote before any thread starts"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(unix_address(address))
    listener.listen(128)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            die_with_parent()  # the recorder's end is the zygote's end
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the recorder's owner-gone handler
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            gc.freeze()  # what is here now, the collector of a server never walks (nor copies on write)
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, 0)
            os.dup2(null, 1)  # the recorder's stdout is its output: nothing of the zygote's goes there
            os.close(null)
            serve(listener, run)
        finally:
            os._exit(0)
    listener.close()
    return pid


def stop(pid: int) -> None:
    """End the zygote `start` forked (its servers end with it) and reap it."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


def main() -> int:
    path = sys.argv[1]
    die_with_parent()  # the caller's end is this server's end
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(unix_address(path))
    listener.listen(128)
    print("ready", flush=True)
    serve(listener)
    return 0


if __name__ == "__main__":
    sys.exit(main())
