"""Protocol revisions and the reserved ``_meta`` keys of the 2026-07-28 envelope."""
from __future__ import annotations

#: Revisions reached through the ``initialize`` handshake, oldest first.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: Revisions that use the stateless per-request envelope.
STATELESS_VERSIONS = ("2026-07-28",)
LATEST_HANDSHAKE = HANDSHAKE_VERSIONS[-1]
LATEST_STATELESS = STATELESS_VERSIONS[-1]

META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"
META_LOG_LEVEL = "io.modelcontextprotocol/logLevel"
