"""The served peers' one edge to the network: a listening socket, and uvicorn serving an app on it."""
from __future__ import annotations

import socket
import sys
from typing import Any

from ..errors import printable


def listen(host: str, port: int, verb: str) -> tuple[socket.socket, str] | None:
    """A socket listening on ``host``:``port`` (0: any free port) and its ``http://`` address, or
    None after one line on stderr saying why not (standard output closed: the address is the
    first line out, and nowhere to write it; the address taken or not ours)."""
    if sys.stdout is None:  # started with `>&-`: the URL has nowhere to go (and uvicorn logs there)
        print(f"error: {verb}: standard output, where the URL is written, is closed", file=sys.stderr)
        return None
    # IPPROTO_TCP, not 0: asyncio turns Nagle off only on sockets that say TCP, and uvicorn writes a
    # response's head and body in two sends (the body would wait for the client's delayed ACK).
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        print(printable(f"error: cannot listen on {host}:{port}: {exc.strerror}"), file=sys.stderr)
        return None
    listener.listen(2048)  # connections wait in the backlog until uvicorn accepts them
    bound_host, bound_port = listener.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    return listener, f"http://{shown}:{bound_port}"


def run(app: Any, listener: socket.socket) -> int:
    """Serve ``app`` with uvicorn on ``listener`` until interrupted."""
    import uvicorn  # the serve extra; imported here so that the engine itself needs nothing

    config = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False, timeout_graceful_shutdown=1)
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    return 0
