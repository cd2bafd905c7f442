"""Wire shapes of the stateless 2026-07-28 revision.

Every result gains ``resultType`` ("complete" unless the handler said otherwise), the
cacheable ones ``ttlMs: 0`` and ``cacheScope: "private"``, and all end with the server's
``serverInfo`` stamped into ``_meta``. A question to the user or the model is not a request
from the server (there is no back channel) but an ``input_required`` result naming it; the
client answers by retrying with ``inputResponses``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .jsonrpc import INTERNAL_ERROR, ProtocolError
from .definition import AskModel, AskUser, ServerDefinition, Tool
from .methods import CACHEABLE
from .versions import META_SERVER_INFO, STATELESS_VERSIONS


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


@lru_cache(maxsize=None)
def tool_listing(tool: Tool) -> dict[str, Any]:
    """A tool as ``tools/list`` shows it (cached: the same every time; callers copy before changing)."""
    schema = tool.input_schema()
    modelled = ("type", "properties", "required")
    input_schema = {k: schema[k] for k in modelled}
    input_schema.update({k: v for k, v in schema.items() if k not in modelled})
    return {
        "description": tool.description,
        "inputSchema": input_schema,
        "name": tool.name,
        "outputSchema": tool.output_schema(),
    }


def capabilities() -> dict[str, Any]:
    # What server/discover advertises (the SDK's discover, unlike its initialize, says true).
    return {
        "prompts": {"listChanged": True},
        "resources": {"listChanged": True, "subscribe": True},
        "tools": {"listChanged": True},
    }


def discover_result() -> dict[str, Any]:
    return {"capabilities": capabilities(), "supportedVersions": list(STATELESS_VERSIONS)}


def finish(method: str, body: dict[str, Any], server: ServerDefinition) -> dict[str, Any]:
    out = dict(body)
    if method in CACHEABLE and out.get("resultType") != "input_required":
        out.setdefault("ttlMs", 0)
        out.setdefault("cacheScope", "private")
    out.setdefault("resultType", "complete")
    meta = out.pop("_meta", None)
    out = {k: out[k] for k in sorted(out)}
    out["_meta"] = {**(meta or {}), META_SERVER_INFO: {"name": server.name, "version": server.version}}
    return out


def input_request(effect: AskUser | AskModel) -> dict[str, Any]:
    if isinstance(effect, AskUser):
        params = {"mode": "form", "message": effect.message, "requestedSchema": effect.requested_schema}
        return {"method": "elicitation/create", "params": _sorted(params)}
    params = {"messages": [{"role": "user", "content": {"type": "text", "text": effect.text}}],
              "maxTokens": effect.max_tokens}
    return {"method": "sampling/createMessage", "params": _sorted(params)}


def input_required(requests: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"inputRequests": requests, "resultType": "input_required"}


def crash_error(message: str) -> ProtocolError:
    """A handler's ordinary exception: a generic internal error; the text stays on the server."""
    return ProtocolError(INTERNAL_ERROR, "Internal server error")
