"""The wire shapes of each protocol revision, behind one interface, chosen by era.

The SDK keeps one wire-types module per revision (``mcp-types``); so does the engine: what a
result, a tool listing, a handler's crash or a request's envelope looks like on the wire is in
`wire_2025_11_25` (every handshake revision) or `wire_2026_07_28`, and the server and the client
look the module up in `WIRES` by the connection's era instead of branching on it.
"""
from __future__ import annotations

from typing import Any, Protocol

from . import wire_2025_11_25, wire_2026_07_28
from .definition import ServerDefinition, Tool
from .eras import Era
from .jsonrpc import ProtocolError
from .versions import STATELESS_VERSIONS


class Wire(Protocol):
    """What a revision decides about the shape of messages (a module implements it)."""

    ERA: Era
    #: whether a request carries an envelope of its own (`envelope` puts anything around it)
    ENVELOPED: bool
    #: method -> {params field: (accepted type or values, required)}: the revision's request typing
    PARAMS_FIELDS: dict[str, dict[str, tuple[Any, bool]]]

    def capabilities(self) -> dict[str, Any]: ...

    def tool_listing(self, tool: Tool) -> dict[str, Any]: ...

    def finish(self, method: str, body: dict[str, Any], server: ServerDefinition) -> dict[str, Any]: ...

    def crash_error(self, message: str) -> ProtocolError: ...

    def envelope(self, params: dict[str, Any] | None, version: str, client_info: dict[str, Any],
                 capabilities: dict[str, Any], log_level: str | None = None) -> dict[str, Any] | None: ...


#: era -> its wire shapes; an undecided connection has none (its first request decides)
WIRES: dict[Era, Wire] = {w.ERA: w for w in (wire_2025_11_25, wire_2026_07_28)}


def wire_for(version: str | None) -> Wire:
    """The wire shapes of a negotiated revision (none yet: the handshake's)."""
    return WIRES[Era.STATELESS if version in STATELESS_VERSIONS else Era.HANDSHAKE]
