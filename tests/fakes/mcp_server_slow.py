"""A slow but working MCP server for the recorders' tests: answers every request, each after
``SLOW_SECONDS`` (0.6 by default), so a session of a few requests takes longer in all than a
short ``--timeout`` while no single answer does. The standard library only: it starts at once,
so its start-up is no part of the wait. ``mcp_http_slow.py`` answers the same over HTTP."""
import json
import os
import sys
import time

DELAY = float(os.environ.get("SLOW_SECONDS", "0.6"))


def answer(message: object) -> dict | None:
    """The answer to one message, after `DELAY`; none to a notification or a response."""
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        return None
    time.sleep(DELAY)
    method, params = message["method"], message.get("params") or {}
    if method == "initialize":
        result = {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "slow", "version": "1.0.0"}}
    elif method == "tools/list":
        result = {"tools": []}
    else:
        result = {}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


if __name__ == "__main__":
    for line in sys.stdin:
        try:
            said = answer(json.loads(line))
        except json.JSONDecodeError:
            continue
        if said is not None:
            sys.stdout.write(json.dumps(said) + "\n")
            sys.stdout.flush()
