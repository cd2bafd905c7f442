"""A broken MCP server for the recorder's fault tests: dies on the first request."""
import sys

sys.stdin.readline()
sys.exit(3)
