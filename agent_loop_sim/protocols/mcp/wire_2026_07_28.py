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

from ...jsonio import copy_json, keys_first
from .definition import AskModel, AskUser, ServerDefinition, Tool, listed_with
from .eras import Era
from .jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, UNSUPPORTED_PROTOCOL_VERSION, ProtocolError
from .methods import CACHEABLE
from .methods import PARAMS_FIELDS as _COMMON
from .versions import (
    META_LOG_LEVEL,
    META_CLIENT_CAPABILITIES,
    META_CLIENT_INFO,
    META_PROTOCOL_VERSION,
    META_SERVER_INFO,
    STATELESS_VERSIONS,
)

ERA = Era.STATELESS
ENVELOPED = True
#: The requests that can ask for input take the client's answers when they are sent again.
_INPUT = {"inputResponses": (dict, False), "requestState": (str, False)}
PARAMS_FIELDS = {method: {**fields, **_INPUT} if method in ("tools/call", "resources/read", "prompts/get") else fields
                 for method, fields in _COMMON.items()}


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


@lru_cache(maxsize=None)
def tool_listing(tool: Tool) -> dict[str, Any]:
    """A tool as ``tools/list`` shows it (cached: the same every time; callers copy before changing)."""
    listed = {"description": tool.description,
              "inputSchema": keys_first(tool.input_schema(), ("type", "$defs", "properties", "required")), "name": tool.name}
    if tool.annotations is not None:
        listed = {"annotations": dict(tool.annotations), **listed}
    output = tool.output_schema()
    if output is not None:
        listed["outputSchema"] = output
    if tool.title is not None:
        listed["title"] = tool.title
    if tool.extras:
        listed = listed_with(listed, None, tool.extras)
    return listed


def capabilities(server: ServerDefinition, listens: bool | None = None) -> dict[str, Any]:
    # What server/discover advertises: the change notifications are a listen stream's, so they
    # are there exactly when the server serves subscriptions/listen (which its initialize ignores).
    completions = {} if server.completions is None else {"completions": {}}  # (a completion handler)
    listens = server.subscriptions if listens is None else listens
    return {
        **completions,
        "prompts": {"listChanged": listens},
        "resources": {"listChanged": listens, "subscribe": listens},
        "tools": {"listChanged": listens},
    }


def discover_result(server: ServerDefinition, listens: bool | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"capabilities": capabilities(server, listens)}
    if server.instructions is not None:
        body["instructions"] = server.instructions
    body["supportedVersions"] = list(STATELESS_VERSIONS)
    return body


def finish(method: str, body: dict[str, Any], server: ServerDefinition) -> dict[str, Any]:
    """The result ``body`` as it goes on the wire (``body`` is the handler's fresh object, the
    server's to change: it is finished in place, not copied first)."""
    out = body
    if method in CACHEABLE and out.get("resultType") != "input_required":
        out.setdefault("ttlMs", 0)
        out.setdefault("cacheScope", "private")
    out.setdefault("resultType", "complete")
    meta = out.pop("_meta", None)
    out = dict(sorted(out.items()))  # (keys are unique: sorted by key alone)
    info = server.info()
    if meta:  # the handler's own _meta first, the server's stamp last
        meta = dict(meta)
        meta[META_SERVER_INFO] = info
    else:
        meta = {META_SERVER_INFO: info}
    out["_meta"] = meta
    return out


def envelope(params: dict[str, Any] | None, version: str, client_info: dict[str, Any],
             capabilities: dict[str, Any], log_level: str | None = None) -> dict[str, Any]:
    """Every message carries its own envelope in ``_meta``: revision, client, capabilities, and the
    log-level opt-in when set (a caller's own key wins). Merged into the caller's ``_meta`` where it
    stands, appended as ``_meta`` when there is none, as the SDK's stamp does. (``params`` and its
    ``_meta`` are the client's fresh objects, made for this message: enveloped in place, not copied.)"""
    out = params if params is not None else {}
    meta = out.get("_meta")
    if not meta:  # (none, or an empty one: put where it stands, or appended, as a new one)
        meta = out["_meta"] = {}
    meta[META_PROTOCOL_VERSION] = version  # (in this order; a key the caller's _meta has keeps its place)
    meta[META_CLIENT_INFO] = client_info
    meta[META_CLIENT_CAPABILITIES] = capabilities
    if log_level is not None:
        meta.setdefault(META_LOG_LEVEL, log_level)
    return out


def envelope_version(params: dict[str, Any] | None) -> str:
    """The revision a request's envelope names; the first rung of the ladder that fails decides the error."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        raise ProtocolError(INVALID_PARAMS, "params._meta must be an object carrying the required "
                            f"{META_PROTOCOL_VERSION!r} and {META_CLIENT_CAPABILITIES!r} envelope keys")
    if META_PROTOCOL_VERSION not in meta or META_CLIENT_CAPABILITIES not in meta:
        missing = [k for k in (META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES) if k not in meta]
        raise ProtocolError(INVALID_PARAMS, f"params._meta is missing the required envelope key(s): {', '.join(missing)}")
    version = meta[META_PROTOCOL_VERSION]
    if not isinstance(version, str):
        raise ProtocolError(INVALID_PARAMS, "the protocol-version envelope value must be a string")
    if version not in STATELESS_VERSIONS:
        raise ProtocolError(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version",
                            {"supported": list(STATELESS_VERSIONS), "requested": version})
    return version


def input_request(effect: AskUser | AskModel) -> dict[str, Any]:
    if isinstance(effect, AskUser):
        # The schema's own members in sorted order (the SDK's model of it); the properties as the
        # tool gave them (a plain dict there).
        schema = effect.requested_schema
        requested = {k: copy_json(schema[k]) if k == "properties" else _sorted(schema[k]) for k in sorted(schema)}
        params = {"message": effect.message, "mode": "form", "requestedSchema": requested}
        return {"method": "elicitation/create", "params": params}
    params = {"messages": [{"role": "user", "content": {"type": "text", "text": effect.text}}],
              "maxTokens": effect.max_tokens}
    return {"method": "sampling/createMessage", "params": _sorted(params)}


def input_required(requests: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"inputRequests": requests, "resultType": "input_required"}


def crash_error(message: str) -> ProtocolError:
    """A handler's ordinary exception: a generic internal error; the text stays on the server."""
    return ProtocolError(INTERNAL_ERROR, "Internal server error")


def sent(method: str, uri: str | None) -> list[dict[str, Any]]:
    """``ctx.session.send_...``: 2026-07-28 has no channel of the connection's own for change
    notifications (they ride listen streams, `Notify`): the SDK drops it."""
    return []


def no_back_channel(method: str) -> ProtocolError:
    """A request a tool sends the client itself (``ctx.elicit``): 2026-07-28 has no channel for a
    server's requests, and the call ends with this error (its questions go in ``inputRequests``)."""
    return ProtocolError(INVALID_REQUEST, f"Cannot send {method!r}: this transport context has no back-channel for "
                                          f"server-initiated requests.")
