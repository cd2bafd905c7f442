"""A broken MCP server for the recorder's fault tests: reads requests, never answers."""
import sys
import time

for _ in sys.stdin:
    time.sleep(3600)
