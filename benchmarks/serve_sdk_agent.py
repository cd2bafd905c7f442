"""The SDK's research agent (``conformance/a2a_sdk_server.py``) served as ``serve a2a`` serves
the model: uvicorn on 127.0.0.1, a free port printed on the first line, no access log."""
import logging
import socket
import sys
from pathlib import Path

import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conformance import a2a_sdk_server  # noqa: E402

logging.disable(logging.WARNING)
# (IPPROTO_TCP: asyncio turns Nagle off on the connections, as when uvicorn binds the address itself)
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
listener.bind(("127.0.0.1", 0))
listener.listen(2048)
print(f"http://127.0.0.1:{listener.getsockname()[1]}", flush=True)
config = uvicorn.Config(a2a_sdk_server.app(), lifespan="off", log_level="warning", access_log=False,
                        timeout_graceful_shutdown=1)
uvicorn.Server(config).run(sockets=[listener])
