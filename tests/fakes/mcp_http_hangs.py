"""A broken MCP server over HTTP for the recorder's fault tests: prints its URL, takes every
connection, and never answers (``AGENT_LOOP_SIM_MCP_HTTP_PEER``)."""
import socket
import time

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.bind(("127.0.0.1", 0))
listener.listen()
print(f"http://127.0.0.1:{listener.getsockname()[1]}/mcp", flush=True)
held = []
while True:
    held.append(listener.accept()[0])  # kept open: the client waits on it
    time.sleep(0)
