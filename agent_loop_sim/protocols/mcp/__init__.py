"""The engine's model of MCP: the SDK's stdio server and its ``Client``, in both eras.

* :data:`FIXTURE_SERVER` describes ``conformance/sdk_server.py`` declaratively
  (:mod:`.definition`); :class:`ServerConnection` serves it, one line in, messages out.
* :class:`ClientModel` is the SDK client in ``legacy``, ``2026-07-28`` and ``auto`` modes.
* :data:`ERA_TRANSITIONS` is the era rule of a connection, as a table.
* :func:`run_session` plays a scenario session and returns its messages, un-normalised.
"""
from __future__ import annotations

from ...scenarios import Session
from ...transcript import Message
from .client import Answers, ClientModel
from .definition import ServerDefinition, Tool
from .eras import ERA_TRANSITIONS, Era
from .fixture import FIXTURE_SERVER
from .server import ServerConnection
from .session import Observer, play_client, play_raw
from .session import run_session as _run_with

__all__ = [
    "ERA_TRANSITIONS",
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


def run_session(session: Session, definition: ServerDefinition = FIXTURE_SERVER,
                observe: Observer | None = None) -> list[Message]:
    """Play one MCP scenario session against ``definition`` (the fixture server by default)."""
    return _run_with(session, definition, observe)
