"""The engine's model of MCP: the SDK's stdio server and its ``Client``, in both eras.

- `FIXTURE_SERVER` describes ``conformance/sdk_server.py`` declaratively (`definition`);
  `ServerConnection` serves it, one line in, messages out.
- `ClientModel` is the SDK client in ``legacy``, ``2026-07-28`` and ``auto`` modes.
- `ERA_TRANSITIONS` is the era rule of a connection, as a table.
- `run_session` plays a scenario session and returns its messages, un-normalised.
- `FAMILY` is all of it, for the rest of the project.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...normalise import normalise_mcp
from ..family import Family, FixtureServer
from . import scenario
from .client import Answers, ClientModel
from .definition import ServerDefinition, Tool
from .eras import ERA_TRANSITIONS, Era, era_rules
from .fixture import FIXTURE_SERVER
from .releases import MCP_RELEASES
from .server import ServerConnection
from .session import play_client, play_raw
from .session import run_session as _run_with

if TYPE_CHECKING:
    from ...scenarios import Session
    from ...transcript import Message

__all__ = [
    "ERA_TRANSITIONS",
    "FAMILY",
    "FIXTURE_SERVER",
    "Answers",
    "ClientModel",
    "Era",
    "ServerConnection",
    "ServerDefinition",
    "Tool",
    "play_client",
    "play_raw",
    "run_session",
]


def run_session(session: "Session", definition: ServerDefinition = FIXTURE_SERVER,
                release: str | None = None, rules: frozenset[str] | None = None) -> list["Message"]:
    """Play one MCP scenario session against ``definition`` (the fixture server by default), as
    ``release`` of the SDK says it (`releases.MCP_RELEASES`), or with the wire changes ``rules``."""
    return _run_with(session, definition, MCP_RELEASES.rules(release) if rules is None else rules)


FAMILY = Family(
    name="mcp",
    title="MCP",
    parties=("client", "server"),
    run_session=run_session,
    normalise=normalise_mcp,
    scenario=scenario,
    recorder="scripts/record_sdk.py",
    fixture=FixtureServer(
        "conformance/sdk_server.py", "The MCP server",
        "Written with the MCP SDK's high-level `MCPServer` and run over stdio. Its tools cover a "
        "plain call, progress, elicitation, sampling and an error; in the 2026-07-28 era it "
        "answers `input_required` where the handshake era sends the client a request."),
    intro="The Model Context Protocol, in both of its eras: the handshake era, where a connection "
          "opens with `initialize` (revisions up to 2025-11-25), and the stateless 2026-07-28 "
          "revision, where every request carries its own `_meta` envelope. The SDK's client was "
          "driven in the mode each session names; `raw` sessions are lines written by hand.",
    normal_form="request ids are renumbered in the order they appear, `c1`, `c2`, … for the "
                "client's requests and `s1`, `s2`, … for the server's; an answer takes the name of the "
                "request it answers, and a progress token takes the name of the request that carries it "
                "(the SDK uses the request's own id). Keys stay in the order the SDK wrote them.",
    mode_notes={
        "legacy": "the handshake era: `initialize` first, revisions up to 2025-11-25",
        "2026-07-28": "the stateless 2026-07-28 revision: no handshake, a `_meta` envelope on every request",
        "auto": "`server/discover` first, then the 2026-07-28 revision",
        "raw": "lines written by hand to the server, no SDK client",
    },
    rule_tables=era_rules,
    releases=MCP_RELEASES,
)
