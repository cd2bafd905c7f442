"""Which client requests each revision defines, and which of them an ``MCPServer`` answers."""
from __future__ import annotations

from typing import Any

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


#: The params fields every revision's request models type: method -> {field: (accepted type or
#: values, required)}. A value of the wrong type is a -32602 ("Invalid request parameters"),
#: raised before the server looks for a handler. Each wire module adds its revision's own.
_LIST = {"cursor": (str, False)}
LOG_LEVELS = ("alert", "critical", "debug", "emergency", "error", "info", "notice", "warning")
PARAMS_FIELDS: dict[str, dict[str, tuple[Any, bool]]] = {
    "initialize": {"protocolVersion": (str, True), "capabilities": (dict, True), "clientInfo": (dict, True)},
    "tools/list": _LIST, "prompts/list": _LIST, "resources/list": _LIST, "resources/templates/list": _LIST,
    "tools/call": {"name": (str, True), "arguments": (dict, False)},
    "resources/read": {"uri": (str, True)},
    "prompts/get": {"name": (str, True), "arguments": (dict, False)},
    "resources/subscribe": {"uri": (str, True)},
    "resources/unsubscribe": {"uri": (str, True)},
    "logging/setLevel": {"level": (LOG_LEVELS, True)},
    "completion/complete": {"ref": (dict, True), "argument": (dict, True)},
    "subscriptions/listen": {"notifications": (dict, True)},
}
