"""The SDK's research agent (``conformance/a2a_sdk_server.py``) served as people deploy it: uvicorn
on 127.0.0.1, one event loop, a free port printed on the first line, and its card naming the
address it serves (a deployment sets its card's URL to its own; the recorded one names
https://research.example.com, which a client that follows the card cannot reach)."""
import logging
import socket
import sys
from pathlib import Path

import uvicorn
from a2a.types import AgentCard

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from conformance import a2a_sdk_server  # noqa: E402

logging.disable(logging.WARNING)
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(2048)
served = f"http://127.0.0.1:{listener.getsockname()[1]}"
card = AgentCard()
card.CopyFrom(a2a_sdk_server.CARD)
card.supported_interfaces[0].url = served + a2a_sdk_server.JSONRPC_PATH
a2a_sdk_server.CARD = card  # (read by app() when it builds the routes)
print(served, flush=True)
config = uvicorn.Config(a2a_sdk_server.app(), lifespan="off", log_level="warning", access_log=False,
                        timeout_graceful_shutdown=1)
uvicorn.Server(config).run(sockets=[listener])
