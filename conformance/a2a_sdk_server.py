"""The A2A agent behind the recordings, built on the official A2A Python SDK (a2a-sdk) from a
world file.

The agent is ``a2a_world.WorldAgent`` following the world named by ``AGENT_LOOP_SIM_WORLD``
(``agent_loop_sim/worlds/research-agent.json`` by default: the research agent another agent
delegates summaries to), served with the SDK's request handler, card route and JSON-RPC route.
``scripts/record_a2a_sdk.py`` serves :func:`app`; the engine reads the same world file
(``agent_loop_sim.protocols.a2a.world``) and must give the same JSON-RPC replies and SSE events,
up to generated IDs and timestamps.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from starlette.applications import Starlette

from a2a.server.agent_execution import AgentExecutor
from a2a.server.request_handlers import DefaultRequestHandlerV2
from a2a.server.routes.agent_card_routes import create_agent_card_routes
from a2a.server.routes.jsonrpc_routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore

sys.path.insert(0, str(Path(__file__).resolve().parent))

import a2a_world  # noqa: E402

DEFAULT_WORLD = Path(__file__).resolve().parent.parent / "agent_loop_sim" / "worlds" / "research-agent.json"
WORLD = a2a_world.load(os.environ.get("AGENT_LOOP_SIM_WORLD") or DEFAULT_WORLD)

BASE_URL, JSONRPC_PATH = a2a_world.address(WORLD)
CARD = a2a_world.card(WORLD)


class ResearchAgent(a2a_world.WorldAgent):
    """The world's agent (the research agent unless the environment names another world)."""

    def __init__(self) -> None:
        super().__init__(WORLD)


def app(executor: AgentExecutor | None = None) -> Starlette:
    """The agent as an ASGI app: the card at the well-known path, JSON-RPC at the card's path.

    ``executor`` replaces the world's agent (the recorder's fault tests pass a broken one).
    """
    handler = DefaultRequestHandlerV2(
        agent_executor=executor or ResearchAgent(),
        task_store=InMemoryTaskStore(),
        agent_card=CARD,
    )
    return Starlette(routes=create_agent_card_routes(CARD) + create_jsonrpc_routes(handler, JSONRPC_PATH))
