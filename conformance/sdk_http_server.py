"""The MCP server of ``sdk_server.py`` (the world ``AGENT_LOOP_SIM_WORLD`` names, the fixture by
default) over Streamable HTTP, as people deploy it: its ``streamable_http_app()`` under uvicorn.

    python conformance/sdk_http_server.py [--port N]

The endpoint's URL is the first line on stdout (``--port 0``, the default, picks a free port).
The official conformance suite (``scripts/mcp_conformance_suite.py``) runs against it and against
``serve mcp --http``.
"""
from __future__ import annotations

import argparse
import logging
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import uvicorn  # noqa: E402

import sdk_server  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # a failing tool's traceback is the tool's answer, not news
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(2048)  # (before the URL is printed: a client may connect at once)
    print(f"http://127.0.0.1:{listener.getsockname()[1]}/mcp", flush=True)
    config = uvicorn.Config(sdk_server.mcp.streamable_http_app(), lifespan="on", log_level="error",
                            timeout_graceful_shutdown=1)
    uvicorn.Server(config).run(sockets=[listener])
    return 0


if __name__ == "__main__":
    sys.exit(main())
