"""The mcp releases the MCP model speaks, and the wire changes between them.

2.3.0 is pinned and the newest release; 2.2.0, recorded live from its own environment, differs
from it on the wire in the handshake era only. The mcp sdist ships no changelog, so each change
names the upstream issue that reports it (both are fixed in 2.3.0, as the two releases'
recordings show).
"""
from __future__ import annotations

from ..releases import Releases, WireChange

RELEASES_URL = "https://github.com/modelcontextprotocol/python-sdk/releases/tag/v2.3.0"

#: A request whose ``_meta`` would be empty carries none; before, the dispatcher sent
#: ``_meta: {}`` on every request, adding ``params`` when there were none.
EMPTY_META_OMITTED = "empty_meta_omitted"
#: ``initialize`` reports no empty ``experimental`` capability; before, capabilities began with it.
EMPTY_EXPERIMENTAL_OMITTED = "empty_experimental_omitted"

MCP_RELEASES = Releases(
    package="mcp",
    versions=("2.3.0", "2.2.0"),
    changelog=RELEASES_URL,
    changes=(
        WireChange(EMPTY_META_OMITTED, "2.3.0",
                   "[Bug] Client sends empty _meta:{} on every request; strict servers (Meta Ads MCP) "
                   "reject with HTTP 400 (#3473)",
                   "https://github.com/modelcontextprotocol/python-sdk/issues/3473",
                   "a handshake-era request, the client's or the server's, carries no empty _meta "
                   "(2.2.0 adds _meta: {} to its params)"),
        WireChange(EMPTY_EXPERIMENTAL_OMITTED, "2.3.0",
                   "[v2] MCPServer reports empty experimental capabilities as {} via initialize but None "
                   "via server/discover (#3254)",
                   "https://github.com/modelcontextprotocol/python-sdk/issues/3254",
                   "the initialize result's capabilities have no empty experimental object "
                   "(2.2.0 starts them with experimental: {})"),
    ),
)
