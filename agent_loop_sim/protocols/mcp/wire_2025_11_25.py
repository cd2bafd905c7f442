"""Wire shapes of the handshake era (``initialize``; the SDK serialises every handshake
revision, 2024-11-05 to 2025-11-25, through the 2025-11-25 surface).

Key order follows the SDK's serialiser: generated result models list their fields
alphabetically; a JSON Schema keeps ``properties, required, type`` (the modelled keys) and
then the rest.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...jsonio import copy_json, keys_first
from .definition import AskModel, AskUser, ServerDefinition, Tool, listed_with
from .eras import Era
from .jsonrpc import ProtocolError, notification
from .methods import PARAMS_FIELDS as _COMMON

ERA = Era.HANDSHAKE
ENVELOPED = False  # (`envelope` returns a request's params as they are)
PARAMS_FIELDS = _COMMON
_MODELLED = ("properties", "required", "type")  # the JSON Schema keys the 2025-11-25 models name


@lru_cache(maxsize=None)
def tool_listing(tool: Tool) -> dict[str, Any]:
    """A tool as ``tools/list`` shows it (cached: the same every time; callers copy before changing)."""
    listed = {"description": tool.description, "inputSchema": keys_first(tool.input_schema(), _MODELLED),
              "name": tool.name}
    if tool.annotations is not None:
        listed = {"annotations": dict(tool.annotations), **listed}
    output = tool.output_schema()
    if output is not None:
        listed["outputSchema"] = keys_first(output, _MODELLED)
    if tool.title is not None:
        listed["title"] = tool.title
    if tool.extras:
        listed = listed_with(listed, None, tool.extras)
    return listed


def capabilities(server: ServerDefinition) -> dict[str, Any]:
    # What initialize reports: the server's own (static) list-changed flags, all false.
    completions = {} if server.completions is None else {"completions": {}}  # (a completion handler)
    return {
        **completions,
        "prompts": {"listChanged": False},
        "resources": {"listChanged": False, "subscribe": False},
        "tools": {"listChanged": False},
    }


def initialize_result(server: ServerDefinition, version: str) -> dict[str, Any]:
    body = {"capabilities": capabilities(server)}
    if server.instructions is not None:
        body["instructions"] = server.instructions
    body.update(protocolVersion=version, serverInfo=server.info(sort=True))
    return body


def finish(method: str, body: dict[str, Any], server: ServerDefinition) -> dict[str, Any]:
    """The handshake era sends a result as the handler made it."""
    return body


def envelope(params: dict[str, Any] | None, version: str, client_info: dict[str, Any],
             capabilities: dict[str, Any], log_level: str | None = None) -> dict[str, Any] | None:
    """The handshake era puts nothing around a request: who the client is was said in ``initialize``."""
    return params


def server_request(effect: AskUser | AskModel) -> tuple[str, dict[str, Any]]:
    """A question as a request from the server to the client, in construction order."""
    if isinstance(effect, AskUser):
        return "elicitation/create", {"mode": "form", "message": effect.message,
                                      "requestedSchema": copy_json(effect.requested_schema)}
    return "sampling/createMessage", {
        "messages": [{"role": "user", "content": {"type": "text", "text": effect.text}}],
        "maxTokens": effect.max_tokens,
    }


#: what the SDK's result model of each question (ElicitResult, CreateMessageResult) requires of
#: the client's answer: each required member, with its allowed values where they are a few literals
#: (None: any value of the type given)
ANSWER_MODELS: dict[type, dict[str, tuple[type, tuple[str, ...] | None]]] = {
    AskUser: {"action": (str, ("accept", "decline", "cancel"))},
    AskModel: {"role": (str, ("user", "assistant")), "content": (dict, None), "model": (str, None)},
}


def answer_fits(effect: AskUser | AskModel, answer: Any) -> bool:
    """Whether the client's answer validates as the question's result: one that does not raises
    inside the tool, as the SDK's ``elicit_form``/``create_message`` do."""
    if type(answer) is not dict:
        return False
    for member, (kind, allowed) in ANSWER_MODELS[type(effect)].items():
        value = answer.get(member)
        if type(value) is not kind or (allowed is not None and value not in allowed):
            return False
    return True


def crash_error(message: str) -> ProtocolError:
    """A handler's ordinary exception: the stream dispatcher keeps code 0 (v1 compatibility) and the text."""
    return ProtocolError(0, message)


def sent(method: str, uri: str | None) -> list[dict[str, Any]]:
    """``ctx.session.send_...``: the notification, on the connection's own channel."""
    return [notification(method, None if uri is None else {"uri": uri})]
