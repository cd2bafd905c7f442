"""The Streamable HTTP transport, sans-IO: the SDK client's side and the SDK server's app.

The same client model and server model as over stdio (`session.play_client`) exchange the same
messages in the same order; this edge only says how each crosses HTTP, so the era rules stay in
the models and the transport's rules stay here, in two places, one per side:

- `ClientOverHttp`, the client's transport: each message it sends is a POST whose headers depend
  on the era it speaks (the handshake era names the session it was issued and the negotiated
  revision; 2026-07-28 names the revision and routes the request, ``Mcp-Method``, ``Mcp-Name``);
  the handshake era's client opens its GET stream after ``notifications/initialized`` and ends
  its session with DELETE; a 2026-07-28 client cancels a stream by closing it.
- `StreamableHttpApp`, the SDK's ``streamable_http_app()``: which requests open, need or end a
  session, the refusals in the SDK's order, a stream per request that carries what the server
  says while handling it (202 for the rest), JSON or a stream in 2026-07-28 (an error's status
  mapped from its code, `ERROR_STATUS`), a 2026-07-28 stream started only with its first event
  (`Reply.deferred`), and what is written on a quiet stream (`Keepalive`).

`play_client_http` plays an SDK client session through both, `play_raw_http` hand-written
requests through the app, and ``serve mcp --http`` serves the app. Nothing here does I/O.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ...mcp_http_log import ENDPOINT, event_message, reply_message, request_message
from ...transcript import Message
from . import jsonrpc
from .client import ClientModel
from .definition import SENT
from .server import ServerConnection
from .versions import HANDSHAKE_VERSIONS, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION

ACCEPT = "application/json, text/event-stream"
JSON = "application/json"
SSE = "text/event-stream"
#: The revision whose requests carry their own envelope: no session, routing headers.
STATELESS = "2026-07-28"
ENVELOPE_VERSION = "io.modelcontextprotocol/protocolVersion"
#: The methods whose ``Mcp-Name`` header mirrors a parameter of the request (2026-07-28).
NAME_BEARING_METHODS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY = -32020, -32021
REQUEST_CANCELLED = -32800
#: 2026-07-28: the HTTP status of a JSON reply that is an error, by its code (any other: 200).
ERROR_STATUS = {jsonrpc.PARSE_ERROR: 400, jsonrpc.INVALID_REQUEST: 400, jsonrpc.INVALID_PARAMS: 400,
                HEADER_MISMATCH: 400, MISSING_REQUIRED_CLIENT_CAPABILITY: 400,
                jsonrpc.UNSUPPORTED_PROTOCOL_VERSION: 400, jsonrpc.METHOD_NOT_FOUND: 404}
#: the notifications the server sends on no request's stream (`definition.SENT`)
STANDALONE = frozenset(SENT.values())


def _kind(message: Any) -> str:
    if type(message) is dict and "method" in message:
        return "request" if "id" in message else "notification"
    return "response"


def _stateless(message: Any) -> bool:
    params = message.get("params") if type(message) is dict else None
    meta = params.get("_meta") if type(params) is dict else None
    return type(meta) is dict and meta.get(ENVELOPE_VERSION) == STATELESS


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


# --- The SDK server's Streamable HTTP app, request by request ---------------------------------
#
# What it answers a request (its method, headers and body) with, in the order the SDK checks:
# the era is routed on the MCP-Protocol-Version header (a value that is not a handshake revision
# goes to the 2026-07-28 entry); a request without a session id opens a session (its id on every
# answer) that is kept only if the request was a valid initialize; then Content-Type, Accept,
# JSON, the JSON-RPC shape and the session, each refused with its status.

JSONRPC_MODELS = (("JSONRPCRequest", ("jsonrpc", "id", "method")), ("JSONRPCNotification", ("jsonrpc", "method")),
                  ("JSONRPCResponse", ("jsonrpc", "id", "result")), ("JSONRPCError", ("jsonrpc", "id", "error")))
NOT_ACCEPTABLE_POST = "Not Acceptable: Client must accept both application/json and text/event-stream"
NOT_ACCEPTABLE_GET = "Not Acceptable: Client must accept text/event-stream"


NOT_READ: Any = object()  # (a request's body not decoded yet)

#: An open SSE stream: (session id, the id of the request it answers), or (session id, None) for
#: the GET stream.
Stream = tuple[str, Any]


@dataclass(frozen=True)
class Keepalive:
    """What the SDK's app writes on an open stream that stays quiet: an SSE comment, ``seconds``
    after the stream's last write (``after_silence``: the 2026-07-28 entry's own loop), or every
    ``seconds`` from the stream's start whatever else was written (the handshake era's streams:
    sse-starlette's ping task, whose comment names the time it was written)."""

    seconds: float
    after_silence: bool
    stamped: bool

    def comment(self, now: datetime) -> bytes:
        """The comment written at ``now`` (the edge's clock, in UTC)."""
        return (f": ping - {now}" if self.stamped else ": ping").encode() + b"\r\n\r\n"


STATELESS_KEEPALIVE = Keepalive(15.0, after_silence=True, stamped=False)
HANDSHAKE_KEEPALIVE = Keepalive(15.0, after_silence=False, stamped=True)


def _stream_headers(session_id: str | None) -> list[tuple[str, str]]:
    """An SSE reply's headers, in the SDK's order: the 2026-07-28 entry writes its own list; a
    handshake-era stream is the transport's (its session's id among them), then sse-starlette's."""
    if session_id is None:
        return [("Content-Type", SSE), ("Cache-Control", "no-cache, no-transform"), ("Connection", "keep-alive"),
                ("X-Accel-Buffering", "no")]
    return [("Cache-Control", "no-cache, no-transform"), ("Connection", "keep-alive"), ("Content-Type", SSE),
            ("Mcp-Session-Id", session_id), ("X-Accel-Buffering", "no")]


@dataclass
class Reply:
    """What the app answers one HTTP request with: a status, headers, and a JSON body, a text, no
    body, or the events of an SSE stream (``events`` not None)."""

    status: int
    headers: list[tuple[str, str]]
    body: Any = None
    text: str | None = None
    events: list[Any] | None = None
    #: a stream's key while it stays open (a request whose response is still to come, or the GET
    #: stream): what the server says later on it comes in another request's ``elsewhere``
    stream: Stream | None = None
    #: what the server said, while answering this request, on other open streams, in order
    elsewhere: list[tuple[Stream, Any]] = field(default_factory=list)
    #: the streams this request ended (a DELETE ends its session's)
    ended: list[Stream] = field(default_factory=list)
    #: everything the server said while answering, in the order it said it (wherever it went)
    said: list[Any] = field(default_factory=list)
    #: the status line and headers wait for the stream's first event or first keepalive: the
    #: 2026-07-28 entry commits to an event stream only then (until then the reply could still
    #: be JSON), so a call that has said nothing has no HTTP reply at all
    deferred: bool = False
    #: what the app writes on the open stream while it is quiet
    keepalive: Keepalive | None = None

    def messages(self) -> list[Message]:
        if self.events is None:
            return [reply_message(self.status, self.headers, self.body, self.text)]
        if not self.events:
            return [] if self.deferred else [reply_message(self.status, self.headers, sse=True)]
        return [reply_message(self.status, self.headers, self.events[0], sse=True),
                *[event_message(e) for e in self.events[1:]]]


def _header(headers: list[tuple[str, str]], name: str) -> str | None:
    return next((v for k, v in headers if k.lower() == name.lower()), None)


def _accepts(headers: list[tuple[str, str]]) -> tuple[bool, bool]:
    """(JSON, SSE) accepted, wildcards included."""
    types = [t.strip().split(";")[0].strip().lower() for t in (_header(headers, "Accept") or "").split(",")]
    wildcard = "*/*" in types
    return (wildcard or any(t in (JSON, "application/*") for t in types),
            wildcard or any(t in (SSE, "text/*") for t in types))


def _error(message: str, code: int = jsonrpc.INVALID_REQUEST, id: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}


def json_parse_error(text: str) -> str:
    """What the SDK's JSON parser (serde_json, through pydantic-core) says of a body that is not
    JSON, from where Python's parser stops: its words and its line and column."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        at, line = exc.pos, exc.lineno
        column = at - (text.rfind("\n", 0, at) + 1)
        if exc.msg.startswith("Expecting value") and at >= len(text.rstrip()):
            return f"EOF while parsing a value at line {line} column {column}"
        words = {"Expecting property name enclosed in double quotes": "key must be a string",
                 "Expecting value": "expected value", "Extra data": "trailing characters",
                 "Expecting ':' delimiter": "expected `:`"}.get(exc.msg, exc.msg)
        return f"{words} at line {line} column {column + 1}"
    return ""


def jsonrpc_validation_error(value: Any) -> str:
    """pydantic's words for a body that is JSON but none of the four JSON-RPC messages: each
    model of the union, in order, with what it misses (or that it wanted an object)."""
    from .annotations import Problem, rejection

    problems = []
    for model, fields in JSONRPC_MODELS:
        if type(value) is not dict:
            problems.append(Problem(model, "model_type", f"Input should be a valid dictionary or instance of {model}",
                                    value))
            continue
        problems += [Problem(f"{model}.{name}", "missing", "Field required", value) for name in fields if name not in value]
    if not problems:
        raise NotImplementedError("a JSON-RPC message the SDK's union refuses for another reason")
    text = str(rejection("union[" + ",".join(m for m, _ in JSONRPC_MODELS) + "]", problems))
    return "Validation error: " + text


class StreamableHttpApp:
    """The SDK's ``streamable_http_app()`` over the server model: one `ServerConnection` per
    handshake-era session, one for the stateless requests. Requests are answered one at a time
    (a stream is answered whole: the server model answers at once, or never, and then the
    stream stays open until the client closes it)."""

    def __init__(self, new_connection: Any) -> None:
        self.new_connection = new_connection
        self.sessions: dict[str, ServerConnection] = {}
        self.stateless: ServerConnection | None = None
        self.issued = 0
        self.streams: list[Stream] = []  # open, oldest first

    def _route(self, session_id: str, said: list[Any], own: Stream | None) -> tuple[list[Any], list[tuple[Stream, Any]]]:
        """Where each message the server said goes: a response on the stream of the request it
        answers (which it ends), anything else on the session's oldest open request stream, else
        on its GET stream (else nowhere: no stream is open to carry it). Returns what goes on
        ``own`` and what goes elsewhere."""
        mine: list[Any] = []
        elsewhere: list[tuple[Stream, Any]] = []
        for message in said:
            if _kind(message) == "response" and (session_id, message.get("id")) in self.streams:
                target: Stream | None = (session_id, message.get("id"))
                self.streams.remove(target)  # type: ignore[arg-type]
            elif _kind(message) == "notification" and message["method"] in STANDALONE:
                # what the server sends on the connection's own channel (``ctx.session.send_...``),
                # related to no request: the GET stream's, if one is open
                target = (session_id, None) if (session_id, None) in self.streams else None
            else:
                target = next((k for k in self.streams if k[0] == session_id and k[1] is not None), None)
                if target is None and (session_id, None) in self.streams:
                    target = (session_id, None)
            if target is None:
                continue
            if target == own:
                mine.append(message)
            else:
                elsewhere.append((target, message))
        return mine, elsewhere

    def closed(self, stream: Stream) -> None:
        """The client hung up ``stream`` (the edge says so); a 2026-07-28 listen ends with it (what
        the server says as it ends has no stream left to go on)."""
        if stream in self.streams:
            self.streams.remove(stream)
            if stream[0] == "" and self.stateless is not None:
                self.stateless.receive_decoded(jsonrpc.classify(
                    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": stream[1]}}))

    def _issue(self) -> str:
        self.issued += 1
        return f"{self.issued:032x}"  # (random in the SDK; the normal form names it)

    def handle(self, method: str, headers: list[tuple[str, str]], text: str | None, decoded: Any = NOT_READ) -> Reply:
        """The answer to one request: its body as ``text``, or already ``decoded`` (an SDK client's
        message, whose JSON text the model has no use for)."""
        version = _header(headers, "MCP-Protocol-Version")
        if version is not None and version not in HANDSHAKE_VERSIONS:
            return self._stateless(method, headers, text, decoded)
        session_id = _header(headers, "Mcp-Session-Id")
        if session_id is not None:
            if session_id not in self.sessions:
                return Reply(404, [("Content-Type", JSON)], _error("Session not found"))
            return self._in_session(session_id, method, headers, text, decoded, opening=False)
        opened = self._issue()  # a session for the request, kept if it was a valid initialize
        self.sessions[opened] = self.new_connection()
        reply = self._in_session(opened, method, headers, text, decoded, opening=True)
        if not (reply.status == 200 and reply.events is not None):
            del self.sessions[opened]
        return reply

    def _in_session(self, session_id: str, method: str, headers: list[tuple[str, str]], text: str | None,
                    decoded: Any, opening: bool) -> Reply:
        refused = _security(method, headers)
        if refused is not None:
            return refused
        tagged = [("Content-Type", JSON), ("Mcp-Session-Id", session_id)]
        wants_json, wants_sse = _accepts(headers)
        if method == "GET":
            if not wants_sse:
                return Reply(406, tagged, _error(NOT_ACCEPTABLE_GET))
            if opening:
                return Reply(400, tagged, _error("Bad Request: Missing session ID"))
            if (session_id, None) not in self.streams:
                self.streams.append((session_id, None))
            return Reply(200, _stream_headers(session_id), events=[], stream=(session_id, None),
                         keepalive=HANDSHAKE_KEEPALIVE)
        if method == "DELETE":
            if opening:
                return Reply(400, tagged, _error("Bad Request: Missing session ID"))
            del self.sessions[session_id]
            ended = [k for k in self.streams if k[0] == session_id]
            self.streams = [k for k in self.streams if k[0] != session_id]
            return Reply(200, tagged, ended=ended)
        if not (wants_json and wants_sse):
            return Reply(406, tagged, _error(NOT_ACCEPTABLE_POST))
        if decoded is NOT_READ:
            try:
                decoded = json.loads(text or "")
            except json.JSONDecodeError:
                return Reply(400, tagged, _error("Parse error: " + json_parse_error(text or ""), jsonrpc.PARSE_ERROR))
        message = jsonrpc.classify(decoded)
        if message is None:
            return Reply(400, tagged, _error(jsonrpc_validation_error(decoded), jsonrpc.INVALID_PARAMS))
        initialize = type(message) is jsonrpc.Request and message.method == "initialize"
        if opening and not initialize:
            return Reply(400, tagged, _error("Bad Request: Missing session ID"))
        own = (session_id, message.id) if type(message) is jsonrpc.Request else None
        if own is not None:
            self.streams.append(own)
        said = list(self.sessions[session_id].receive_decoded(message))
        if type(message) is jsonrpc.Notification and message.method == "notifications/cancelled":
            wanted = (message.params or {}).get("requestId")
            # The handshake era's stream ends only with a response for its id: the transport ends
            # a cancelled call's with one, REQUEST_CANCELLED, where the server itself is silent.
            if (session_id, wanted) in self.streams:
                said.append(_error("Request cancelled", REQUEST_CANCELLED, wanted))
        mine, elsewhere = self._route(session_id, said, own)
        if own is None:
            return Reply(202, tagged, elsewhere=elsewhere, said=said)
        still_open = own in self.streams
        return Reply(200, _stream_headers(session_id), events=mine, stream=own if still_open else None,
                     elsewhere=elsewhere, said=said, keepalive=HANDSHAKE_KEEPALIVE if still_open else None)

    def _stateless(self, method: str, headers: list[tuple[str, str]], text: str | None, decoded: Any) -> Reply:
        """The 2026-07-28 entry: POST only, no session; the request's envelope must agree with
        its headers before the server model sees it."""
        refused = _security(method, headers)
        if refused is not None:
            return refused
        if method != "POST":
            return Reply(405, [("Allow", "POST")])
        if decoded is NOT_READ:
            decoded = json.loads(text or "")
        if type(decoded) is dict and "id" not in decoded:
            return Reply(202, [])  # a notification: acknowledged and dropped (no cross-request state)
        message = jsonrpc.classify(decoded)
        if type(message) is not jsonrpc.Request:
            raise NotImplementedError("a 2026-07-28 POST that is not a request")
        refused = _ladder(decoded, headers)
        if refused is not None:
            code, words = refused
            return Reply(ERROR_STATUS.get(code, 200), [("Content-Type", JSON)], _error(words, code, decoded["id"]))
        if self.stateless is None:
            self.stateless = self.new_connection()
        said = list(self.stateless.receive_decoded(message))
        # what the server publishes to an open listen stream goes on that stream
        mine, elsewhere = [], []
        for m in said:
            stream = self._listen_stream(m)
            if stream is None:
                mine.append(m)
            else:
                elsewhere.append((stream, m))
        answered = any(_kind(m) == "response" and m.get("id") == message.id for m in mine)
        if not answered:
            # its answer is a stream, open until the client closes it: a listen's (unless refused),
            # and a call's that the server has not answered yet (what it said so far on it)
            own = ("", message.id)
            self.streams.append(own)
            return Reply(200, _stream_headers(None), events=mine, stream=own, said=said, deferred=not mine,
                         keepalive=STATELESS_KEEPALIVE, elsewhere=elsewhere)
        if len(mine) == 1:
            error = mine[0].get("error")
            status = ERROR_STATUS.get(error.get("code"), 200) if type(error) is dict else 200
            return Reply(status, [("Content-Type", JSON)], mine[0], said=said, elsewhere=elsewhere)
        return Reply(200, _stream_headers(None), events=mine, said=said, elsewhere=elsewhere)

    def _listen_stream(self, message: Any) -> Stream | None:
        """The open 2026-07-28 listen stream a notification is stamped for, if any."""
        if _kind(message) != "notification" or message["method"] == "notifications/subscriptions/acknowledged":
            return None
        meta = (message.get("params") or {}).get("_meta")
        stream = ("", meta.get("io.modelcontextprotocol/subscriptionId")) if type(meta) is dict else None
        return stream if stream in self.streams else None


#: The SDK's app served on 127.0.0.1 guards against DNS rebinding: these hosts and origins only
#: (any port).
ALLOWED_HOSTS = ("127.0.0.1", "localhost", "[::1]")
ALLOWED_ORIGINS = ("http://127.0.0.1", "http://localhost", "http://[::1]")


def _security(method: str, headers: list[tuple[str, str]]) -> Reply | None:
    """The transport's first checks, before anything else is read: a POST's Content-Type, then
    the Host and Origin headers (refused in plain text, with no header that matters)."""
    if method == "POST" and not (_header(headers, "Content-Type") or "").lower().startswith(JSON):
        return Reply(400, [], text="Invalid Content-Type header")
    host = _header(headers, "Host") or ""
    if not any(host.startswith(allowed + ":") for allowed in ALLOWED_HOSTS):
        return Reply(421, [], text="Invalid Host header")
    origin = _header(headers, "Origin")
    if origin and not any(origin.startswith(allowed + ":") for allowed in ALLOWED_ORIGINS):
        return Reply(403, [], text="Invalid Origin header")
    return None


def _ladder(body: dict[str, Any], headers: list[tuple[str, str]]) -> tuple[int, str] | None:
    """The 2026-07-28 envelope against the headers, rung by rung: (code, words) of the first
    that refuses, or None."""
    params = body.get("params")
    meta = params.get("_meta") if type(params) is dict else None
    if type(meta) is not dict:
        return jsonrpc.INVALID_PARAMS, (f"params._meta must be an object carrying the required "
                                        f"{META_PROTOCOL_VERSION!r} and {META_CLIENT_CAPABILITIES!r} envelope keys")
    missing = [k for k in (META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES) if k not in meta]
    if missing:
        return jsonrpc.INVALID_PARAMS, f"params._meta is missing the required envelope key(s): {', '.join(missing)}"
    if _header(headers, "MCP-Protocol-Version") != meta[META_PROTOCOL_VERSION]:
        return HEADER_MISMATCH, "mcp-protocol-version header does not match the request envelope's protocol version"
    if _header(headers, "Mcp-Method") != body.get("method"):
        return HEADER_MISMATCH, "mcp-method header does not match the request body's method"
    key = NAME_BEARING_METHODS.get(body["method"])
    if key is not None and params.get(key) is not None and _header(headers, "Mcp-Name") != params.get(key):
        return HEADER_MISMATCH, f"mcp-name header does not match the request body's {key!r} parameter"
    return None


# --- The SDK client over HTTP, against the app -----------------------------------------------

#: The host the client names (any loopback passes the app's guard; the port is not written down).
CLIENT_HOST = ("Host", "127.0.0.1:8000")


@dataclass
class _Exchange:
    """One HTTP exchange of a client session: the request, the app's answer, and what the server
    said on its stream while answering later requests."""

    request: Message
    reply: Reply
    later: list[Any] = field(default_factory=list)

    def messages(self) -> list[Message]:
        reply = self.reply if not self.later else replace(self.reply, events=[*(self.reply.events or []), *self.later])
        return [self.request, *reply.messages()]


def play_client_http(client: ClientModel, server: ServerConnection, observe: Any = None) -> list[Message]:
    """A client session over Streamable HTTP: the messages of `session.play_client`, delivered in
    the same order, each POSTed to the app (`StreamableHttpApp`) by the client's transport
    (`ClientOverHttp`) and answered on its own exchange; the exchanges in the order the client
    started them. The app's sessions and stateless requests are all served by ``server``, one
    connection, as over stdio."""
    edge = ClientOverHttp()
    app = StreamableHttpApp(lambda: server)
    exchanges: list[_Exchange] = []
    streams: dict[Stream, _Exchange] = {}

    def send(method: str, headers: list[tuple[str, str]], message: Any = None) -> Reply:
        request = request_message(method, ENDPOINT, headers, message)
        reply = app.handle(method, [CLIENT_HOST, *headers], None, message)
        exchange = _Exchange(request, reply)
        exchanges.append(exchange)
        if reply.stream is not None:
            streams[reply.stream] = exchange
        for stream, said in reply.elsewhere:
            streams[stream].later.append(said)
        return reply

    wire: list[tuple[str, Any]] = [("client", m) for m in client.start()]
    delivered = 0
    while delivered < len(wire) or _timed_out(client, wire):
        sender, message = wire[delivered]
        delivered += 1
        if sender == "server":
            for m in client.receive(message):
                wire.append(("client", m))
        elif _closes_a_stream(message, app):  # 2026-07-28: the client cancels by closing the stream
            app.closed(("", message["params"]["requestId"]))
        else:
            reply = send("POST", edge.headers(message), message)
            wire.extend(("server", m) for m in reply.said)
            if type(message) is dict and message.get("method") == "initialize" and reply.events:
                edge.learn(reply.events[-1], _header(reply.headers, "Mcp-Session-Id"))
            if not _stateless(message) and type(message) is dict and message.get("method") == "notifications/initialized":
                send("GET", [("Accept", ACCEPT), ("Content-Type", JSON), *edge.session_headers()])  # its GET stream
        if observe is not None:
            observe(delivered, server.state())
    if edge.session_id is not None:  # the handshake era's client ends its session
        send("DELETE", [("Accept", ACCEPT), ("Content-Type", JSON), *edge.session_headers()])
    return [m for exchange in exchanges for m in exchange.messages()]


def _timed_out(client: ClientModel, wire: list[tuple[str, Any]]) -> bool:
    """The exchanges are quiet and the client still waits: its read timeout runs out, and what it
    then sends goes on as over stdio (`session._timed_out`)."""
    sent = client.time_out()
    wire.extend(("client", m) for m in sent)
    return bool(sent)


def _closes_a_stream(message: Any, app: StreamableHttpApp) -> bool:
    """Whether ``message`` is the client's ``notifications/cancelled`` for an open 2026-07-28
    stream, which over HTTP the client closes instead of posting the notification."""
    if type(message) is not dict or message.get("method") != "notifications/cancelled":
        return False
    params = message.get("params")
    return type(params) is dict and ("", params.get("requestId")) in app.streams


def play_raw_http(requests: list[dict[str, Any]], new_connection: Any, observe: Any = None) -> list[Message]:
    """Hand-written HTTP requests, one at a time, each with the app's answer; ``<session-N>`` in
    a header stands for the N-th session id the app issued."""
    app = StreamableHttpApp(new_connection)
    log: list[Message] = []
    issued: list[str] = []
    for request in requests:
        headers = []
        for name, value in request.get("headers", []):
            for n, session_id in enumerate(issued, 1):
                value = value.replace(f"<session-{n}>", session_id)
            headers.append((name, value))
        # The writer's HTTP library (httpx) starts from its own Accept, */*, which a request's own
        # replaces where it stands: first among the headers that matter.
        accept = _header(headers, "Accept") or "*/*"
        headers = [("Accept", accept)] + [(k, v) for k, v in headers if k.lower() != "accept"]
        text = request.get("body")
        sent = [("Host", "127.0.0.1:8000"), *headers]  # (the library names the host it connects to)
        body, raw = (None, None)
        if text:
            try:
                body = json.loads(text)
            except json.JSONDecodeError:
                raw = text
        log.append(request_message(request["method"], ENDPOINT, headers, body, raw))
        reply = app.handle(request["method"], sent, text)
        for name, value in reply.headers:
            if name == "Mcp-Session-Id" and value not in issued:
                issued.append(value)
        log.extend(reply.messages())
        if observe is not None:
            observe(len(log), {})
    return log
