"""How one exchange of MCP over Streamable HTTP is written down: messages with an ``http`` envelope.

As A2A's messages do (`agent_loop_sim.http_log`), every MCP message carried over HTTP holds,
beside its body, the part of the HTTP envelope that decides what happens to it:

- a request: ``{"method": "POST", "path": "/mcp", "headers": [["Accept", ...], ...]}``, its body
  as ``json`` (``null`` for a GET or DELETE), or ``raw`` when the body is not JSON;
- a reply: ``{"status": 200, "headers": [...]}`` with its JSON body, or ``raw`` text, or ``null``
  (a 202 has no body); an SSE stream is one message per event (``sse``), the first carrying the
  reply's status and headers; a stream that ended with no event is one ``sse`` message with a
  ``null`` body, so that its status is still written down.

Only the headers that decide the transport's rules are kept (`HEADERS_THAT_MATTER`), in the
order sent, under the spelling of that list. The recorder and the engine both build messages
with these functions, so the shape is written once.

A transcript lists the exchanges in the order the client started them, each request followed by
its reply. The one exception is the stream the client opens with a GET after the handshake: the
SDK opens it from a task of its own, racing the next POST, so it is written right after the
exchange that opened it (the client's ``notifications/initialized``), whenever it reached the
server.
"""
from __future__ import annotations

from typing import Any

from .transcript import Message

#: The headers of the Streamable HTTP transport (and the two of HTTP its rules read): the
#: session, the revision, the 2026-07-28 routing headers, content negotiation, resumption.
HEADERS_THAT_MATTER = ("Content-Type", "Accept", "Mcp-Session-Id", "MCP-Protocol-Version", "Mcp-Method",
                       "Mcp-Name", "Last-Event-ID", "Allow")
_SPELLING = {name.lower(): name for name in HEADERS_THAT_MATTER}

#: The endpoint the fixture's Streamable HTTP app serves (``streamable_http_app()``'s default).
ENDPOINT = "/mcp"


def kept_headers(headers: list[tuple[str, str]] | list[list[str]]) -> list[list[str]]:
    """The headers that matter, in the order sent, each ``[name, value]``."""
    return [[_SPELLING[name.lower()], value] for name, value in headers if name.lower() in _SPELLING]


def header_value(http: dict[str, Any] | None, name: str) -> str | None:
    for key, value in (http or {}).get("headers", []):
        if key.lower() == name.lower():
            return value
    return None


def request_message(method: str, path: str, headers: list[tuple[str, str]], body: Any = None,
                    raw: str | None = None) -> Message:
    http = {"method": method, "path": path, "headers": kept_headers(headers)}
    return Message("client", "server", body, raw, False, http)


def reply_message(status: int, headers: list[tuple[str, str]], body: Any = None, raw: str | None = None,
                  sse: bool = False) -> Message:
    """A whole reply (or a stream's first event, or a stream with no event when ``sse`` and no body)."""
    return Message("server", "client", body, raw, sse, {"status": status, "headers": kept_headers(headers)})


def event_message(body: Any, raw: str | None = None) -> Message:
    """An SSE event after a stream's first."""
    return Message("server", "client", body, raw, True, None)


def opens_get_stream(request: Message) -> bool:
    """Whether ``request`` is the exchange after which the SDK's client opens its GET stream."""
    body = request.json
    return (request.http is not None and request.http.get("method") == "POST" and type(body) is dict
            and body.get("method") == "notifications/initialized")


def in_transcript_order(exchanges: list[list[Message]]) -> list[Message]:
    """The exchanges of an SDK client's session (each a request and its reply messages, in the
    order the client started them) as one list, its GET stream right after the exchange that
    opened it. (A raw session sends one request at a time: its order needs no rule.)"""
    ordered: list[list[Message]] = []
    opened_at: int | None = None
    for exchange in exchanges:
        request = exchange[0]
        if opened_at is not None and request.http is not None and request.http.get("method") == "GET":
            ordered.insert(opened_at, exchange)
            opened_at = None  # (the client opens one)
            continue
        ordered.append(exchange)
        if opens_get_stream(request):
            opened_at = len(ordered)
    return [m for exchange in ordered for m in exchange]
