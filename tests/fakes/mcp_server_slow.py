"""A slow but working MCP server for the recorders' tests: answers every request, each after
``SLOW_SECONDS`` (0.6 by default), so a session of a few requests takes longer in all than a
short ``--timeout`` while no single answer does. The standard library only: it starts at once,
so its start-up is no part of the wait."""
import json
import os
import sys
import time

DELAY = float(os.environ.get("SLOW_SECONDS", "0.6"))

for line in sys.stdin:
    try:
        message = json.loads(line)
    except json.JSONDecodeError:
        continue
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        continue  # a notification: nothing to answer
    time.sleep(DELAY)
    method, params = message["method"], message.get("params") or {}
    if method == "initialize":
        result = {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "slow", "version": "1.0.0"}}
    elif method == "tools/list":
        result = {"tools": []}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
    sys.stdout.flush()
