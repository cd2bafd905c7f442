"""A simulated peer that differs from the fixture in one field, for the swap test's own test.

    peer_differs.py mcp            serve mcp, but the server says version 1.0.1
    peer_differs.py a2a            serve a2a --port 0, but the card's description has a word more
    peer_differs.py a2a-header     serve a2a --port 0, but JSON answers say their charset in Content-Type
"""
import dataclasses
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agent_loop_sim.protocols.a2a import RESEARCH_AGENT, RESEARCH_CARD, Agent  # noqa: E402
from agent_loop_sim.protocols.mcp import FIXTURE_SERVER  # noqa: E402
from agent_loop_sim.serve import a2a_http, mcp_stdio  # noqa: E402

if sys.argv[1] == "mcp":
    sys.exit(mcp_stdio.serve(sys.stdin.buffer, sys.stdout.buffer, dataclasses.replace(FIXTURE_SERVER, version="1.0.1")))


class CharsetApp(a2a_http.AgentApp):
    def answer(self, *args):  # noqa: ANN002, ANN201
        response = super().answer(*args)
        response.headers = [(k, v + "; charset=utf-8" if (k, v) == ("Content-Type", "application/json") else v)
                            for k, v in response.headers]
        return response


if sys.argv[1] == "a2a-header":
    sys.exit(a2a_http.main("127.0.0.1", 0, CharsetApp(Agent(RESEARCH_CARD, RESEARCH_AGENT))))
card = dataclasses.replace(RESEARCH_CARD, description=RESEARCH_CARD.description + " Quickly.")
sys.exit(a2a_http.main("127.0.0.1", 0, a2a_http.AgentApp(Agent(card, RESEARCH_AGENT))))
