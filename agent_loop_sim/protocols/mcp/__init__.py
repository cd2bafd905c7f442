"""The engine's model of MCP: the SDK's stdio server and its ``Client``, in both eras.

- `FIXTURE_SERVER` describes ``conformance/sdk_server.py`` declaratively (`definition`);
  `ServerConnection` serves it, one line in, messages out.
- `ClientModel` is the SDK client in ``legacy``, ``2026-07-28`` and ``auto`` modes.
- `ERA_TRANSITIONS` is the era rule of a connection, as a table.
- `run_session` plays a scenario session and returns its messages, un-normalised.
- `FAMILY` is all of it, for the rest of the project.
"""
from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from ...normalise import normalise_mcp, normalise_mcp_http
from ..family import Family
from . import scenario
from .client import Answers, ClientModel
from .definition import ServerDefinition, Tool
from .eras import ERA_TRANSITIONS, Era, era_rules
from .fixture import FIXTURE_SERVER
from .releases import MCP_RELEASES
from .server import ServerConnection
from .world import read_world
from .session import Observer, play_client, play_raw
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


def run_session(session: "Session", definition: ServerDefinition | None = None,
                release: str | None = None, rules: frozenset[str] | None = None,
                observe: Observer | None = None) -> list["Message"]:
    """Play one MCP scenario session against ``definition`` (by default the session's world, or
    the fixture server), as ``release`` of the SDK says it (`releases.MCP_RELEASES`), or with the
    wire changes ``rules``."""
    served = definition or session.world or FIXTURE_SERVER
    # (the table read when the session is played, not a copy taken at import: tests swap it)
    return _run_with(session, served, MCP_RELEASES.rules(release) if rules is None else rules, observe)


#: Everything the project knows about MCP: its words are data (``family.json``), its rules code.
FAMILY = Family.from_file(Path(__file__).with_name("family.json"), run_session=run_session,
                          normalise=lambda messages: normalise_mcp_http(normalise_mcp(messages)), scenario=scenario, rule_tables=era_rules,
                          releases=MCP_RELEASES, read_world=read_world)
