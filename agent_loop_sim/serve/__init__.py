"""The simulated peers, served: the engine's MCP server over stdio and its A2A agent over HTTP.

The protocol logic stays in the sans-IO models (``agent_loop_sim.protocols``); the modules here
are only the edges that move bytes: :mod:`.mcp_stdio` (lines on stdin and stdout, no
dependency) and :mod:`.a2a_http` (an ASGI app served by uvicorn, from the ``serve`` extra).
"""
from __future__ import annotations

import argparse
import os

# serve a2a's memory bounds (see `a2a_http`).
from ..limits import at_least_one
from .limits import DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_TASKS


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535; 0: any free port)")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``serve`` verb's arguments (the command line itself lives in :mod:`agent_loop_sim.cli`)."""
    parser.add_argument("peer", choices=("mcp", "a2a"),
                        help="mcp: the fixture server over stdio; a2a: the research agent over HTTP")
    parser.add_argument("--world", metavar="FILE",
                        help="serve the server or agent this world file describes (default: $AGENT_LOOP_SIM_WORLD, "
                             "else the fixture server or the research agent)")
    parser.add_argument("--http", action="store_true",
                        help="mcp: serve over Streamable HTTP (uvicorn, as serve a2a) instead of stdio; the "
                             "endpoint's URL is printed on stdout")
    parser.add_argument("--host", default="127.0.0.1", help="a2a, mcp --http: the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8765,
                        help="a2a: the port (0: any free port; the address is printed on stdout)")
    parser.add_argument("--recorded-url", action="store_true",
                        help="a2a: the card names the URL its world gives (https://research.example.com/a2a), as "
                             "the recordings do, instead of the address served")
    parser.add_argument("--max-body-bytes", type=at_least_one, default=DEFAULT_MAX_BODY_BYTES, metavar="N",
                        help="a2a: a request body over N bytes is refused with 413 before it is parsed "
                             f"(default {DEFAULT_MAX_BODY_BYTES:,}, 10 MiB)")
    parser.add_argument("--max-tasks", type=at_least_one, default=DEFAULT_MAX_TASKS, metavar="N",
                        help=f"a2a: the task store keeps the newest N tasks (default {DEFAULT_MAX_TASKS:,})")
    parser.add_argument("--harness", choices=("per_request",), default=None,
                        help="a2a: answer as the SDK's agent run with an event loop per request (the seed page's "
                             "harness) instead of as deployed")


def run(args: argparse.Namespace) -> int:
    from ..scenarios import read_world_file
    from ..swap import WORLD_VARIABLE

    path = args.world or os.environ.get(WORLD_VARIABLE)
    world = read_world_file(args.peer, path) if path else None  # (a bad world is one line before anything is served)
    if args.peer == "mcp" and args.http:
        from . import mcp_http  # needs uvicorn (the serve extra), as serve a2a does

        return mcp_http.main(args.host, args.port, world)
    if args.peer == "mcp":
        from . import mcp_stdio

        return mcp_stdio.main(world)
    from . import a2a_http  # needs uvicorn (the serve extra); the MCP peer needs nothing

    return a2a_http.main(args.host, args.port, recorded_url=args.recorded_url, world=world, harness=args.harness,
                         max_body_bytes=args.max_body_bytes, max_tasks=args.max_tasks)
