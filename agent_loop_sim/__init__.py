"""agent_loop_sim: a deterministic, sans-IO simulator of MCP and A2A traffic.

The engine (``agent_loop_sim.protocols``) derives every message from the protocol rules and a
declarative description of the fixture server or agent; it never reads a recording. Recordings
of the official SDKs (made by ``scripts/``) are only ever *compared* with what the engine says.
"""

__version__ = "0.1.0"
