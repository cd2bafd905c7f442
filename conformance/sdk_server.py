"""The MCP server the conformance recordings are made against, built with the official MCP SDK
from a world file.

The server is the program ``mcp_world.source`` writes for the world named by
``AGENT_LOOP_SIM_WORLD`` (``agent_loop_sim/worlds/fixture-server.json`` by default): real ``MCPServer`` tools
with real annotations, their steps as ``Context`` calls. ``python conformance/sdk_server.py
[WORLD]`` serves it over stdio; ``scripts/mcp_fork_server.py`` imports this module once and forks
a fresh copy of that process for every session. The engine reads the same world file
(``agent_loop_sim.protocols.mcp.world``) and must answer exactly as this process does, in both
protocol eras.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mcp_world  # noqa: E402

DEFAULT_WORLD = Path(__file__).resolve().parent.parent / "agent_loop_sim" / "worlds" / "fixture-server.json"
WORLD = Path(sys.argv[1] if __name__ == "__main__" and len(sys.argv) > 1
             else os.environ.get("AGENT_LOOP_SIM_WORLD") or DEFAULT_WORLD)

mcp = mcp_world.build(WORLD)

if __name__ == "__main__":
    mcp.run()
