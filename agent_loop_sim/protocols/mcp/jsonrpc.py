"""JSON-RPC 2.0 framing as the SDK's stdio transport reads and writes it.

Every line is validated as one of four message shapes (the SDK's ``JSONRPCMessage`` union);
a line that fits none of them -- not JSON, a batch, a bad id -- is dropped without a reply.
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNSUPPORTED_PROTOCOL_VERSION = -32022
CONNECTION_CLOSED = -32000  # the SDK's own code, for requests still open when the connection ends


# The shapes a line the server reads can have, as named tuples: read-only, compared by type.

class Request(NamedTuple):
    id: int | str
    method: str
    params: dict[str, Any] | None


class Notification(NamedTuple):
    method: str
    params: dict[str, Any] | None


class Response(NamedTuple):
    id: int | str
    result: dict[str, Any]


class ErrorResponse(NamedTuple):
    id: int | str | None
    error: dict[str, Any]


Incoming = Request | Notification | Response | ErrorResponse


class ProtocolError(Exception):
    """A request the server answers with a JSON-RPC error instead of a result."""

    __slots__ = ("code", "message", "data", "has_data")  # (no dict made for each: one for every error answered)

    def __init__(self, code: int, message: str, data: Any = None, *, has_data: bool = False) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data
        self.has_data = has_data or data is not None

    def to_error(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.has_data:
            error["data"] = self.data
        return error


def parse_line(line: str) -> Incoming | None:
    """The message a line holds, or ``None`` for a line the transport drops."""
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return None
    return classify(data)


def classify(data: Any) -> Incoming | None:
    """Which of the four message shapes a decoded line is, or ``None`` if it is none of them.

    Extra members are ignored, as the SDK's models ignore them; so a "request" whose id is
    not a valid id is still a well-formed *notification* (it has a method and no usable id).
    """
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        return None
    method, params = data.get("method"), data.get("params")
    has_id = "id" in data
    # An id is a strict int (not a bool, not a float) or a string.
    good_id = has_id and (type(data["id"]) is int or isinstance(data["id"], str))
    # (each shape made by tuple.__new__ itself: its fields are already checked here)
    if isinstance(method, str) and (params is None or isinstance(params, dict)):
        return _new(Request, (data["id"], method, params)) if good_id else _new(Notification, (method, params))
    if good_id and isinstance(data.get("result"), dict):
        return _new(Response, (data["id"], data["result"]))
    if has_id and (good_id or data["id"] is None) and _is_error(data.get("error")):
        return _new(ErrorResponse, (data["id"], data["error"]))
    return None


_new = tuple.__new__


def _is_error(value: Any) -> bool:
    return isinstance(value, dict) and type(value.get("code")) is int and isinstance(value.get("message"), str)


def request(id: int | str, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        out["params"] = params
    return out


def notification(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        out["params"] = params
    return out


def result(id: int | str, body: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "result": body}


def error(id: int | str | None, exc: ProtocolError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "error": exc.to_error()}
