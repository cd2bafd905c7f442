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
    "resources/read", "prompts/list", "prompts/get",
})
#: the methods a server handles or not as it is declared (`ServerDefinition.optional_methods`):
#: completion with an ``@mcp.completion()`` handler, listen streams unless ``subscriptions=False``
OPTIONAL = frozenset({"completion/complete", "subscriptions/listen"})

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
#: the same, least severe first (a level opted in lets every level after it through)
LOG_LEVELS_IN_ORDER = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
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


# --- The rest of the wire surface: every method each side may send, by revision ----------------
_SINCE_2025_06 = ("2025-06-18", "2025-11-25")

#: client notification -> the revisions that define it
CLIENT_NOTIFICATIONS: dict[str, tuple[str, ...]] = {
    "notifications/initialized": HANDSHAKE_VERSIONS,
    "notifications/cancelled": _ALL,
    "notifications/progress": HANDSHAKE_VERSIONS,
    "notifications/roots/list_changed": HANDSHAKE_VERSIONS,
}

#: server request (to the client) -> the revisions that define it
SERVER_REQUESTS: dict[str, tuple[str, ...]] = {
    "ping": HANDSHAKE_VERSIONS,
    "roots/list": HANDSHAKE_VERSIONS,
    "sampling/createMessage": HANDSHAKE_VERSIONS,
    "elicitation/create": _SINCE_2025_06,
}

#: server notification -> the revisions that define it
SERVER_NOTIFICATIONS: dict[str, tuple[str, ...]] = {
    "notifications/cancelled": _ALL,
    "notifications/progress": _ALL,
    "notifications/message": _ALL,
    "notifications/prompts/list_changed": _ALL,
    "notifications/resources/list_changed": _ALL,
    "notifications/resources/updated": _ALL,
    "notifications/tools/list_changed": _ALL,
    "notifications/elicitation/complete": ("2025-11-25",),
    "notifications/subscriptions/acknowledged": STATELESS_VERSIONS,
}

#: (direction, method) -> why the engine has no rule for it: the fixture server never sends it,
#: so nothing in a session can make it appear (the client's callbacks for it would be silent)
NOT_SENT_BY_THE_FIXTURE: dict[tuple[str, str], str] = {
    ("server request", "ping"): "the fixture server never pings its client",
    ("server request", "roots/list"): "no fixture tool asks for the client's roots",
    ("server notification", "notifications/message"): "no fixture tool logs",
    ("server notification", "notifications/elicitation/complete"): "no fixture tool uses URL elicitation",
}

#: (direction, method, revision) -> why it cannot be sent in that revision's era
UNREACHABLE_IN: dict[tuple[str, str, str], str] = {
    ("server notification", "notifications/cancelled", STATELESS_VERSIONS[0]):
        "the server asks the client nothing in the stateless era, so it never withdraws a question",
}

#: direction -> its table, in the order the coverage page shows them
SURFACE: dict[str, dict[str, tuple[str, ...]]] = {
    "client request": CLIENT_REQUESTS,
    "client notification": CLIENT_NOTIFICATIONS,
    "server request": SERVER_REQUESTS,
    "server notification": SERVER_NOTIFICATIONS,
}

#: the requests that can end in input_required and be retried with inputResponses/requestState
INPUT_METHODS = frozenset({"tools/call", "resources/read", "prompts/get"})
