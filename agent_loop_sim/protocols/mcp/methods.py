"""Which client requests each revision defines, and which of them an ``MCPServer`` answers."""
from __future__ import annotations

from .versions import HANDSHAKE_VERSIONS, STATELESS_VERSIONS

_ALL = HANDSHAKE_VERSIONS + STATELESS_VERSIONS

#: method -> the revisions that define it (the SDK's per-revision request surface)
CLIENT_REQUESTS: dict[str, tuple[str, ...]] = {
    "initialize": HANDSHAKE_VERSIONS,
    "ping": HANDSHAKE_VERSIONS,
    "logging/setLevel": HANDSHAKE_VERSIONS,
    "resources/subscribe": HANDSHAKE_VERSIONS,
    "resources/unsubscribe": HANDSHAKE_VERSIONS,
    "completion/complete": _ALL,
    "tools/list": _ALL,
    "tools/call": _ALL,
    "resources/list": _ALL,
    "resources/templates/list": _ALL,
    "resources/read": _ALL,
    "prompts/list": _ALL,
    "prompts/get": _ALL,
    "server/discover": STATELESS_VERSIONS,
    "subscriptions/listen": STATELESS_VERSIONS,
}

#: the requests an MCPServer registers a handler for (initialize is the kernel's own)
HANDLED = frozenset({
    "ping", "server/discover", "tools/list", "tools/call", "resources/list", "resources/templates/list",
    "resources/read", "prompts/list", "prompts/get", "subscriptions/listen",
})

#: results that carry the 2026-07-28 cache hints (ttlMs, cacheScope)
CACHEABLE = frozenset({
    "server/discover", "tools/list", "resources/list", "resources/templates/list", "resources/read", "prompts/list",
})

#: requests answered even before the handshake completes
BEFORE_INITIALIZE = frozenset({"ping"})
