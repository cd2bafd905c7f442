"""The MCP server of ``sdk_server.py`` (the world ``AGENT_LOOP_SIM_WORLD`` names, the fixture by
default) over Streamable HTTP, as people deploy it: its ``streamable_http_app()`` under uvicorn.

    python conformance/sdk_http_server.py [--port N]
    python conformance/sdk_http_server.py --fork

The endpoint's URL is the first line on stdout (``--port 0``, the default, picks a free port).
The official conformance suite (``scripts/mcp_conformance_suite.py``) runs against it and against
``serve mcp --http``.

``--fork`` serves many sessions, each by a fresh server, without importing the SDK for each
(the import is most of a short session's cost): this process imports it once, prints ``ready``,
then for each line ``new`` on stdin forks a copy that serves on a fresh port and prints
``PID URL``; ``end PID`` ends that copy (as a terminal's SIGTERM would end a server of its own)
and prints ``ended``. A copy is this process as it was before any session began: no state passes
from one session to the next.
"""
from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import uvicorn  # noqa: E402

import sdk_server  # noqa: E402


def listen(port: int) -> tuple[socket.socket, str]:
    """A listening socket (before the URL is known to anyone: a client may connect at once) and its URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(2048)
    return listener, f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"


def serve(listener: socket.socket) -> None:
    config = uvicorn.Config(sdk_server.mcp.streamable_http_app(), lifespan="on", log_level="error",
                            timeout_graceful_shutdown=1)
    uvicorn.Server(config).run(sockets=[listener])


def fork_servers() -> None:
    """The ``--fork`` loop: a fresh copy of this process per ``new``, ended by ``end PID``; the
    copies still serving when stdin ends end with it."""
    serving: set[int] = set()
    print("ready", flush=True)
    for line in sys.stdin:
        verb, _, arg = line.strip().partition(" ")
        if verb == "new":
            listener, url = listen(0)
            pid = os.fork()
            if pid == 0:
                try:
                    null = os.open(os.devnull, os.O_RDWR)
                    for fd in (0, 1):  # the control lines are the fork loop's, not a server's
                        os.dup2(null, fd)
                    serve(listener)
                finally:
                    os._exit(0)
            listener.close()
            serving.add(pid)
            print(pid, url, flush=True)
        elif verb == "end" and int(arg) in serving:
            end(int(arg))
            serving.discard(int(arg))
            print("ended", flush=True)
    for pid in serving:
        end(pid)


def end(pid: int) -> None:
    """End a server as a terminal's SIGTERM would (uvicorn's graceful shutdown), and reap it."""
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fork", action="store_true", help="a fresh copy of this server per session (see above)")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # a failing tool's traceback is the tool's answer, not news
    if args.fork:
        fork_servers()
        return 0
    listener, url = listen(args.port)
    print(url, flush=True)
    serve(listener)
    return 0


if __name__ == "__main__":
    sys.exit(main())
