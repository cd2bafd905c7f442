"""The Streamable HTTP transport, sans-IO: the SDK client's requests and the SDK server's replies.

The same client model and server model as over stdio (`session.play_client`) exchange the same
messages in the same order; this edge only says how each crosses HTTP, so the era rules stay in
the models and the transport's rules stay here, as tables:

- each message the client sends is a POST; its headers depend on the era the client speaks
  (`client_headers`): the handshake era names the session the server issued and the negotiated
  revision, 2026-07-28 names the revision and routes the request (``Mcp-Method``, ``Mcp-Name``);
- a request opens a stream that carries what the server says while handling it, and ends with the
  response; a notification or a response from the client is acknowledged with 202 (`REPLIES`);
- in the handshake era the server answers every request as an SSE stream, and the client opens
  its GET stream after ``notifications/initialized`` and ends the session with DELETE; in
  2026-07-28 a reply is JSON (its status mapped from the error code, `ERROR_STATUS`) unless the
  server said something before the response, which makes it a stream.

Nothing here does I/O: messages in, messages (with their ``http`` envelope) out.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...mcp_http_log import ENDPOINT, event_message, reply_message, request_message
from ...transcript import Message
from . import jsonrpc
from .client import ClientModel
from .server import ServerConnection

ACCEPT = "application/json, text/event-stream"
JSON = "application/json"
SSE = "text/event-stream"
#: The revision whose requests carry their own envelope: no session, routing headers.
STATELESS = "2026-07-28"
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"
#: The methods whose ``Mcp-Name`` header mirrors a parameter of the request (2026-07-28).
NAME_BEARING_METHODS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY = -32020, -32021
#: 2026-07-28: the HTTP status of a JSON reply that is an error, by its code (any other: 200).
ERROR_STATUS = {jsonrpc.PARSE_ERROR: 400, jsonrpc.INVALID_REQUEST: 400, jsonrpc.INVALID_PARAMS: 400,
                HEADER_MISMATCH: 400, MISSING_REQUIRED_CLIENT_CAPABILITY: 400,
                jsonrpc.UNSUPPORTED_PROTOCOL_VERSION: 400, jsonrpc.METHOD_NOT_FOUND: 404}
#: What the server answers a POST with, by the era of the session and what the body is.
REPLIES = {
    ("handshake", "request"): "stream",
    ("handshake", "notification"): "202",
    ("handshake", "response"): "202",
    (STATELESS, "request"): "json, or a stream if the server speaks before the response",
    (STATELESS, "notification"): "202",
    (STATELESS, "response"): "202",
}


def _kind(message: Any) -> str:
    if type(message) is dict and "method" in message:
        return "request" if "id" in message else "notification"
    return "response"


def _stateless(message: Any) -> bool:
    params = message.get("params") if type(message) is dict else None
    meta = params.get("_meta") if type(params) is dict else None
    return type(meta) is dict and meta.get(ENVELOPE_VERSION) == STATELESS


@dataclass
class _Exchange:
    """One HTTP exchange: the request and what the server said on it."""

    request: Message
    era: str
    reply: str                      #: "stream", "202", or "json" (2026-07-28, until it must be a stream)
    request_id: Any = None
    said: list[Any] = field(default_factory=list)
    status: int = 200
    headers: list[tuple[str, str]] = field(default_factory=list)

    def messages(self) -> list[Message]:
        if self.reply == "json" and len(self.said) == 1:
            body = self.said[0]
            error = body.get("error") if type(body) is dict else None
            status = ERROR_STATUS.get(error.get("code"), 200) if type(error) is dict else 200
            return [self.request, reply_message(status, [("Content-Type", JSON)], body)]
        if self.reply == "202" or (self.reply == "json" and not self.said):
            return [self.request, reply_message(self.status, self.headers)]
        headers = self.headers if self.reply == "stream" else [("Content-Type", SSE)]
        if not self.said:
            return [self.request, reply_message(self.status, headers, sse=True)]
        return [self.request, reply_message(self.status, headers, self.said[0], sse=True),
                *[event_message(body) for body in self.said[1:]]]


class ClientOverHttp:
    """What the SDK client's Streamable HTTP transport adds to each message: the method, the
    headers of the era it speaks, and the session it was issued."""

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.version: str | None = None

    def headers(self, message: Any) -> list[tuple[str, str]]:
        if _stateless(message):
            headers = [("Accept", ACCEPT), ("Content-Type", JSON), ("MCP-Protocol-Version", STATELESS)]
            if type(message) is dict and "method" in message:
                headers.append(("Mcp-Method", message["method"]))
                key = NAME_BEARING_METHODS.get(message["method"])
                if key is not None and key in message.get("params", {}):
                    headers.append(("Mcp-Name", str(message["params"][key])))
            return headers
        return [("Accept", ACCEPT), ("Content-Type", JSON), *self.session_headers()]

    def session_headers(self) -> list[tuple[str, str]]:
        out = []
        if self.session_id is not None:
            out.append(("Mcp-Session-Id", self.session_id))
        if self.version is not None:
            out.append(("MCP-Protocol-Version", self.version))
        return out

    def learn(self, response: Any, session_id: str | None) -> None:
        """What the client keeps from the handshake's answer: the session and the revision."""
        if session_id is not None:
            self.session_id = session_id
        result = response.get("result") if type(response) is dict else None
        if type(result) is dict and "protocolVersion" in result and "serverInfo" in result:
            self.version = result["protocolVersion"]


class StreamableHttpServer:
    """The SDK server's Streamable HTTP app for the client's session: the handshake era's
    session it issues (one `ServerConnection` per session) and the stateless requests."""

    def __init__(self, connection: ServerConnection) -> None:
        self.connection = connection
        self.issued = 0
        self.session_id: str | None = None

    def issue(self) -> str:
        self.issued += 1
        self.session_id = f"{self.issued:032x}"  # (random in the SDK; the normal form names it)
        return self.session_id

    def reply_headers(self) -> list[tuple[str, str]]:
        return [("Content-Type", SSE), ("Mcp-Session-Id", self.session_id)] if self.session_id else [("Content-Type", SSE)]


def play_client_http(client: ClientModel, server: ServerConnection, observe: Any = None) -> list[Message]:
    """A client session over Streamable HTTP: the messages of `session.play_client`, delivered in
    the same order, each in its exchange; the exchanges in the order the client started them."""
    edge = ClientOverHttp()
    app = StreamableHttpServer(server)
    exchanges: list[_Exchange] = []
    streams: list[_Exchange] = []   # open streams, oldest first
    get_stream: _Exchange | None = None

    def post(message: Any) -> None:
        nonlocal get_stream
        era = STATELESS if _stateless(message) else "handshake"
        kind = _kind(message)
        request = request_message("POST", ENDPOINT, edge.headers(message), message)
        reply = "stream" if era == "handshake" and kind == "request" else "json" if kind == "request" else "202"
        exchange = _Exchange(request, era, reply, message.get("id") if kind == "request" else None)
        if era == "handshake" and type(message) is dict and message.get("method") == "initialize":
            exchange.headers = [("Content-Type", SSE), ("Mcp-Session-Id", app.issue())]
        elif era == "handshake":
            exchange.headers = (app.reply_headers() if reply == "stream"
                                else [("Content-Type", JSON)] + app.reply_headers()[1:])
        else:
            exchange.headers = [("Content-Type", JSON)]
        exchange.status = 202 if reply == "202" else 200
        exchanges.append(exchange)
        if kind == "request":
            streams.append(exchange)
        if era == "handshake" and type(message) is dict and message.get("method") == "notifications/initialized":
            get = request_message("GET", ENDPOINT, [("Accept", ACCEPT), ("Content-Type", JSON), *edge.session_headers()])
            get_stream = _Exchange(get, era, "stream", headers=app.reply_headers())
            exchanges.append(get_stream)

    def said(message: Any) -> None:
        """A message from the server: on the stream of the request it answers, else on the oldest
        open stream (the request being handled), else on the client's GET stream."""
        if _kind(message) == "response":
            stream = next((s for s in streams if s.request_id == message.get("id")), None)
            if stream is not None:
                streams.remove(stream)
                stream.said.append(message)
                if stream.request.json.get("method") == "initialize":
                    edge.learn(message, app.session_id)
                return
        target = streams[0] if streams else get_stream
        if target is None:
            raise ValueError("the server spoke outside any request, with no GET stream open")
        target.said.append(message)

    wire: list[tuple[str, Any]] = [("client", m) for m in client.start()]
    delivered = 0
    while delivered < len(wire):
        sender, message = wire[delivered]
        delivered += 1
        if sender == "client":
            post(message)
            for m in server.receive_decoded(jsonrpc.classify(message)):
                wire.append(("server", m))
        else:
            said(message)
            for m in client.receive(message):
                wire.append(("client", m))
        if observe is not None:
            observe(delivered, server.state())
    if app.session_id is not None:  # the handshake era's client ends its session
        delete = request_message("DELETE", ENDPOINT, [("Accept", ACCEPT), ("Content-Type", JSON), *edge.session_headers()])
        exchanges.append(_Exchange(delete, "handshake", "202", status=200,
                                   headers=[("Content-Type", JSON), ("Mcp-Session-Id", app.session_id)]))
    return [m for exchange in exchanges for m in exchange.messages()]


def play_raw_http(requests: list[dict[str, Any]], definition: Any, rules: frozenset[str],
                  observe: Any = None) -> list[Message]:
    """Hand-written HTTP requests: not modelled yet."""
    raise NotImplementedError("raw sessions over Streamable HTTP are not modelled yet")
