"""The errors an A2A agent answers with on the JSON-RPC binding, as the SDK encodes them.

An A2A error carries a JSON-RPC code, a message and, in ``data``, a list of ``google.rpc``
typed details: always one ``ErrorInfo`` (reason, domain ``a2a-protocol.org``, metadata), plus
a ``BadRequest`` with field violations when parameters failed validation. The plain JSON-RPC
errors of the dispatcher itself (an unknown method) carry no ``data`` at all.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"
DOMAIN = "a2a-protocol.org"


@dataclass(frozen=True)
class ErrorKind:
    """One A2A error: its JSON-RPC code, its ``ErrorInfo`` reason and its default message."""

    code: int
    reason: str
    message: str


#: The A2A error kinds by their names in the specification.
ERROR_KINDS: dict[str, ErrorKind] = {
    "TaskNotFoundError": ErrorKind(-32001, "TASK_NOT_FOUND", "Task not found"),
    "TaskNotCancelableError": ErrorKind(-32002, "TASK_NOT_CANCELABLE", "Task cannot be canceled"),
    "PushNotificationNotSupportedError": ErrorKind(-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED",
                                                   "Push Notification is not supported"),
    "UnsupportedOperationError": ErrorKind(-32004, "UNSUPPORTED_OPERATION", "This operation is not supported"),
    "ContentTypeNotSupportedError": ErrorKind(-32005, "CONTENT_TYPE_NOT_SUPPORTED", "Incompatible content types"),
    "InvalidAgentResponseError": ErrorKind(-32006, "INVALID_AGENT_RESPONSE", "Invalid agent response"),
    "ExtendedAgentCardNotConfiguredError": ErrorKind(-32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
                                                     "Authenticated Extended Card is not configured"),
    "ExtensionSupportRequiredError": ErrorKind(-32008, "EXTENSION_SUPPORT_REQUIRED", "Extension support required"),
    "VersionNotSupportedError": ErrorKind(-32009, "VERSION_NOT_SUPPORTED", "Version not supported"),
    "InvalidRequestError": ErrorKind(-32600, "INVALID_REQUEST", "Invalid Request"),
    "MethodNotFoundError": ErrorKind(-32601, "METHOD_NOT_FOUND", "Method not found"),
    "InvalidParamsError": ErrorKind(-32602, "INVALID_PARAMS", "Invalid params"),
    "InternalError": ErrorKind(-32603, "INTERNAL_ERROR", "Internal error"),
}


@dataclass
class A2AError(Exception):
    """An A2A error raised by the agent model; ``data`` becomes the ``ErrorInfo`` metadata."""

    kind: str
    message: str | None = None
    data: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.message is None:
            self.message = ERROR_KINDS[self.kind].message
        super().__init__(self.message)

    def details(self) -> list[dict[str, Any]]:
        info = {"@type": ERROR_INFO, "reason": ERROR_KINDS[self.kind].reason, "domain": DOMAIN,
                "metadata": self.data if isinstance(self.data, dict) else {}}
        out = [info]
        violations = (self.data or {}).get("errors") if self.kind == "InvalidParamsError" else None
        if violations:
            out.append({"@type": BAD_REQUEST,
                        "fieldViolations": [{"field": v["field"], "description": v["message"]} for v in violations]})
        return out

    def to_json(self) -> dict[str, Any]:
        return {"code": ERROR_KINDS[self.kind].code, "message": self.message, "data": self.details()}


@dataclass
class JsonRpcError(Exception):
    """A bare JSON-RPC 2.0 error of the dispatcher (no typed details)."""

    code: int
    message: str
    data: Any = field(default=None)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            out["data"] = self.data
        return out


def error_response(request_id: Any, error: A2AError | JsonRpcError) -> dict[str, Any]:
    """The JSON-RPC response object carrying ``error``."""
    # The json-rpc library's JSONRPC20Response writes error (or result), then id, and jsonrpc last.
    return {"error": error.to_json(), "id": request_id, "jsonrpc": "2.0"}


def result_response(request_id: Any, result: Any) -> dict[str, Any]:
    """The JSON-RPC response object carrying ``result``."""
    return {"result": result, "id": request_id, "jsonrpc": "2.0"}
