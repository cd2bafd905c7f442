"""The SDK's stdio server (``MCPServer``) as a sans-IO state machine.

``ServerConnection(definition).receive(line)`` takes one line the client wrote and returns
the JSON messages the server writes in answer, in order. No I/O, no clock: the same lines
always give the same messages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generator

from ...jsonio import copier, copy_json
from . import jsonrpc, wire_2025_11_25, wire_2026_07_28
from .definition import (
    EVENTS,
    SENT,
    AddResource,
    ArgumentsRejected,
    AskUser,
    Log,
    Notify,
    Progress,
    Prompt,
    PromptArgument,
    ReadResource,
    Resource,
    ResourceFailed,
    ResourceMissing,
    ResourceTemplate,
    Send,
    ServerDefinition,
    TemplateFailed,
    TemplateRefused,
    ToolCrash,
    ToolFailed,
    Wait,
    listed_with,
    unsafe_path,
    with_meta,
    with_store,
)
from .eras import ERA_TRANSITIONS, Era, kind_of
from .jsonrpc import (
    CONNECTION_CLOSED,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    ErrorResponse,
    Notification,
    ProtocolError,
    Request,
    Response,
)
from .methods import BEFORE_INITIALIZE, CLIENT_REQUESTS, HANDLED, INPUT_METHODS, LOG_LEVELS_IN_ORDER, OPTIONAL
from .releases import (
    EMPTY_EXPERIMENTAL_OMITTED,
    EMPTY_META_OMITTED,
    MCP_RELEASES,
    SUBSCRIPTIONS_OPTION,
)
from .versions import HANDSHAKE_VERSIONS, LATEST_HANDSHAKE, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL
from .wire import WIRES, Wire

# the eras a connection's era is compared with on each request
_UNDECIDED, _STATELESS = Era.UNDECIDED, Era.STATELESS

#: frames the server keeps from before the first request (the rest are dropped)
PRE_REQUEST_REPLAY_LIMIT = 8

Outgoing = list[dict[str, Any]]


class HandlerCrash(Exception):
    """A handler raised an ordinary exception; each era puts it on the wire its own way."""


def invalid_params() -> ProtocolError:
    # What a pydantic validation failure of the params becomes on the wire.
    return ProtocolError(INVALID_PARAMS, "Invalid request parameters", "", has_data=True)


@dataclass(slots=True)
class _SuspendedCall:
    """A handshake-era tool call waiting for the client's answer to a server request."""

    request_id: int | str
    tool: str
    run: Generator[Any, Any, Any]
    progress_token: int | str | None
    log_levels: frozenset[str] = frozenset()  #: the levels its log messages may be sent at
    question: Any = None  # the question asked (AskUser / AskModel), whose answer is awaited


@dataclass(slots=True)
class ServerConnection:
    """One stdio connection to an ``MCPServer`` serving ``definition``.

    State: the connection's era (`eras.ERA_TRANSITIONS`), the negotiated handshake
    revision and whether ``initialize`` succeeded, the tool calls waiting for the client's answer
    to a server request, and the open ``subscriptions/listen`` streams. `receive` takes a
    line, `close` is the client closing its side; both return what the server writes.
    """

    definition: ServerDefinition
    era: Era = Era.UNDECIDED
    version: str = LATEST_HANDSHAKE
    initialized: bool = False
    _frames_before_first_request: int = 0
    _asked: int = 0  # the requests the server sent the client (a plain count: most sessions send none)
    _suspended: dict[int | str, _SuspendedCall] = field(default_factory=dict)
    #: the open listen streams, oldest first: each its request's id and the filter it was granted
    _listening: list[tuple[int | str, dict[str, Any]]] = field(default_factory=list)
    _waiting: list[_SuspendedCall] = field(default_factory=list)  # calls waiting forever (a ``wait`` step)
    # the wire changes of the SDK release spoken (`releases`): the pinned release's by default
    rules: frozenset[str] = field(default_factory=MCP_RELEASES.rules)
    #: what the server's process keeps (`Process`): its own unless given one to share (the
    #: connections of one process over HTTP share it)
    process: Process | None = None
    #: the optional methods it serves (`ServerDefinition.optional_methods`, as the release reads them)
    _served: frozenset[str] = field(init=False, default=frozenset())
    #: ``subscriptions=False`` taken for a bus (before 2.3.0): listen is served and fails, as does
    #: a notify step
    _false_bus: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        if self.process is None:
            self.process = Process(self.definition.fresh_store())
        self._served = self.definition.optional_methods
        if not self.definition.subscriptions and SUBSCRIPTIONS_OPTION not in self.rules:
            self._false_bus = True
            self._served |= {"subscriptions/listen"}

    @property
    def store(self) -> dict[str, Any] | None:
        return self.process.store  # type: ignore[union-attr]

    @property
    def never_answering(self) -> int:
        """How many calls wait forever (a tool's ``wait`` step), until a cancellation ends them."""
        return len(self._waiting)

    def state(self) -> dict[str, Any]:
        """The connection's state as JSON, for a person stepping through a session."""
        out: dict[str, Any] = {"era": self.era.value}
        if self.era is Era.HANDSHAKE:
            out.update(revision=self.version, initialized=self.initialized)
        if self._suspended:
            out["tool calls waiting for the client"] = len(self._suspended)
        if self._listening:
            out["subscriptions/listen streams open"] = len(self._listening)
        if self._waiting:
            out["tool calls never answered"] = len(self._waiting)
        return out

    # --- the transport ----------------------------------------------------------------------
    def receive(self, line: str) -> Outgoing:
        """One line from the client in, the messages the server writes out."""
        return self.receive_decoded(jsonrpc.parse_line(line))

    def receive_decoded(self, message: jsonrpc.Incoming | None) -> Outgoing:
        """The same, for a line already decoded and classified (`jsonrpc.classify`)."""
        kind = type(message)  # (exact types: `classify` makes each shape itself)
        if kind is Request:
            # A request: the era table decides first (`eras.transition`, looked up in `_ROUTES`:
            # the same table, each row with how its era serves a request).
            self.era, verdict, serve, wire = _ROUTES[(self.era, kind_of(message.method, message.params))]
            if verdict.code is not None:  # refused (`Verdict.refusal`; asked only then: most requests are served)
                # Answered, not raised: a raised exception kept in a local is a cycle (exception ->
                # traceback -> this frame -> the exception) that holds every caller's frame alive.
                return [jsonrpc.error(message.id, verdict.refusal(message.params))]
            try:
                return serve(self, message, wire)
            except ProtocolError as exc:
                return [jsonrpc.error(message.id, exc)]
        if self.era is _UNDECIDED:
            # Frames ahead of the first request are replayed once the era is known; past the
            # limit they are dropped, and a line that is no message is dropped anyway.
            self._frames_before_first_request += 1
            if self._frames_before_first_request > PRE_REQUEST_REPLAY_LIMIT:
                return []
        if message is None:
            return []  # the stdio transport logs and drops it: no -32700
        if kind is Notification:
            return self._on_notification(message)  # type: ignore[arg-type]
        return self._on_answer(message)  # type: ignore[arg-type]

    # --- requests ---------------------------------------------------------------------------
    def _serve_handshake(self, request: Request, wire: Wire) -> Outgoing:
        method, params = request.method, request.params
        _check_request(method, self.version, params, wire, self._served)
        if method == "initialize":
            requested = (params or {}).get("protocolVersion")
            version = requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE
            body = wire_2025_11_25.initialize_result(self.definition, version)
            if EMPTY_EXPERIMENTAL_OMITTED not in self.rules:
                body["capabilities"] = dict(sorted({"experimental": {}, **body["capabilities"]}.items()))
            self.version, self.initialized = version, True
            return [jsonrpc.result(request.id, body)]
        if not self.initialized and method not in BEFORE_INITIALIZE:
            raise invalid_params()
        return self._dispatch(request, wire)

    def _serve_stateless(self, request: Request, wire: Wire) -> Outgoing:
        version = wire_2026_07_28.envelope_version(request.params)
        _check_request(request.method, version, request.params, wire, self._served)
        return self._dispatch(request, wire)

    # --- handlers ---------------------------------------------------------------------------
    def _dispatch(self, request: Request, wire: Wire) -> Outgoing:
        method, params = request.method, request.params or {}
        if method in INPUT_METHODS and isinstance(params.get("requestState"), str):
            # The server keeps no request state: whatever a client sends back cannot be verified
            # and is refused, in either era (the handshake era's types do not even define it).
            raise ProtocolError(INVALID_PARAMS, "Invalid or expired requestState", {"reason": "invalid_request_state"})
        d = self.definition
        try:
            if method == "tools/call":
                return self._call_tool(request, wire)
            if method == "tools/list":
                body: dict[str, Any] = {"tools": _tools_listed(wire, d)}
            elif method == "ping":
                body = {}
            elif method == "server/discover":
                body = wire_2026_07_28.discover_result(d, listens=d.subscriptions or self._false_bus)
            elif method == "resources/list":
                body = {"resources": [r.listing() for r in d.resources]
                        + [r.listing() for r in self.process.added.values()]}  # type: ignore[union-attr]
            elif method == "resources/templates/list":
                body = {"resourceTemplates": [t.listing() for t in d.templates]}
            elif method == "resources/read":
                body = {"contents": [_read(d, params["uri"], self.process)]}
            elif method == "prompts/list":
                body = {"prompts": [_prompt_listing(p) for p in d.prompts]}
            elif method == "prompts/get":
                body = self._get_prompt(params)
            elif method == "subscriptions/listen":
                if self._false_bus:
                    raise HandlerCrash("'bool' object has no attribute 'subscribe'")
                return [self._listen(request)]
            elif method == "completion/complete" and d.completions is not None:
                body = {"completion": d.complete(params["ref"], params["argument"])}
            else:  # a handled method without a model here is a gap in the engine, not a protocol answer
                raise NotImplementedError(method)
        except HandlerCrash as crash:  # (each era puts a handler's crash on the wire its own way)
            raise wire.crash_error(str(crash)) from None
        return [{"jsonrpc": "2.0", "id": request.id, "result": wire.finish(method, body, d)}]  # (`jsonrpc.result`)

    def _get_prompt(self, params: dict[str, Any]) -> dict[str, Any]:
        prompt = self.definition.prompt(params["name"])
        arguments = params.get("arguments") or {}
        if prompt is None:
            raise HandlerCrash(f"Unknown prompt: {params['name']}")
        missing = {a.name for a in prompt.arguments if a.required} - set(arguments)
        if missing:
            raise HandlerCrash(f"Missing required arguments: {missing!r}")
        if set(arguments) - {a.name for a in prompt.arguments}:
            # The prompt function is called with every argument given; an unknown one makes it raise.
            raise HandlerCrash(f"Error rendering prompt {prompt.name}")
        try:
            messages = prompt.render(**with_store(arguments, self.store))
        except Exception:  # noqa: BLE001  (the prompt function's own exception)
            raise HandlerCrash(f"Error rendering prompt {prompt.name}") from None
        return {"description": prompt.description,
                "messages": [{"content": {"text": text, "type": "text"}, "role": role} for role, text in messages]}

    def _listen(self, request: Request) -> dict[str, Any]:
        """A listen stream: acknowledged at once, then open (nothing here ever changes) until the
        connection closes. The ack echoes the requested kinds that are set, the request's id as
        the subscription id."""
        wanted = (request.params or {})["notifications"]
        # In the SDK's field order: the three list-changed flags, then the resource URIs.
        honored: dict[str, Any] = {key: True for key in ("toolsListChanged", "promptsListChanged",
                                                         "resourcesListChanged") if lax_bool(wanted.get(key))}
        if wanted.get("resourceSubscriptions"):
            honored["resourceSubscriptions"] = list(wanted["resourceSubscriptions"])
        self._listening.append((request.id, honored))
        return jsonrpc.notification("notifications/subscriptions/acknowledged", {
            "_meta": {"io.modelcontextprotocol/subscriptionId": request.id}, "notifications": honored})

    def _published(self, event: Notify) -> Outgoing:
        """An event published to the server's listen streams: each open stream whose filter
        asks for it says it, stamped with its subscription id, oldest stream first."""
        method, flag = EVENTS[event.event]
        out = []
        for rid, honored in self._listening:
            if honored.get(flag) if flag else event.uri in honored.get("resourceSubscriptions", ()):
                params: dict[str, Any] = {"_meta": {"io.modelcontextprotocol/subscriptionId": rid}}
                if flag is None:
                    params["uri"] = event.uri
                out.append(jsonrpc.notification(method, params))
        return out

    def close(self) -> Outgoing:
        """The client closed its end: open listen streams end with a "Connection closed" error;
        calls still waiting for the client's answer end silently."""
        # (In an order of the SDK's own tasks when several are open: seen both ways, in one release.)
        out = [jsonrpc.error(rid, ProtocolError(CONNECTION_CLOSED, "Connection closed"))
               for rid, _ in reversed(self._listening)]
        self._listening.clear()
        self._suspended.clear()
        self._waiting.clear()
        return out

    # --- tools ------------------------------------------------------------------------------
    def _call_tool(self, request: Request, wire: Wire) -> Outgoing:
        params = request.params or {}
        name = params["name"]
        token = _progress_token(params)
        tool = self.definition.tool(name)
        if tool is None:
            return [self._tool_result(request.id, wire, _error_result(f"Unknown tool: {name}"))]
        try:
            arguments = tool.validate(params.get("arguments") or {})
        except ArgumentsRejected as exc:
            return [self._tool_result(request.id, wire, _error_result(f"Error executing tool {name}: {exc}"))]
        except ToolCrash:
            return [self._tool_result(request.id, wire, _error_result(f"Error executing tool {name}"))]
        # (what the store keeps of the arguments is the call's own copy)
        run = tool.behaviour(**with_store(arguments if self.store is None else copy_json(arguments), self.store))
        call = _SuspendedCall(request.id, name, run, token,
                              _log_levels(wire.ERA, params.get("_meta")))
        return self._RUN_TOOL[wire.ERA](self, call, params.get("inputResponses"))

    def _tool_result(self, request_id: int | str, wire: Wire, body: dict[str, Any]) -> dict[str, Any]:
        # (`jsonrpc.result` written out)
        return {"jsonrpc": "2.0", "id": request_id, "result": wire.finish("tools/call", body, self.definition)}

    def _step(self, call: _SuspendedCall, answer: Any, wire: Wire, out: Outgoing) -> Any:
        """Run the behaviour to its next question; return the question, or None when it finished."""
        send: Any = answer
        throw: Exception | None = None
        while True:
            try:
                effect = call.run.throw(throw) if throw else call.run.send(send)
            except StopIteration as done:
                # (a value that is the store's, or part of it, is sent as it is now)
                value = done.value if self.store is None else copy_json(done.value)
                try:
                    body = self.definition.tool(call.tool).result(value)  # type: ignore[union-attr]
                except ToolCrash:
                    body = _error_result(f"Error executing tool {call.tool}")
                out.append(self._tool_result(call.request_id, wire, body))
                return None
            except ToolFailed as exc:
                throw = None
                out.append(self._tool_result(call.request_id, wire,
                                             _error_result(f"Error executing tool {call.tool}: {exc}")))
                return None
            except ToolCrash:
                out.append(self._tool_result(call.request_id, wire, _error_result(f"Error executing tool {call.tool}")))
                return None
            except (ResourceMissing, ResourceFailed) as exc:
                throw = None  # it is this exception, whose traceback holds this frame: no cycle
                out.append(self._tool_result(call.request_id, wire,
                                             _error_result(f"Error executing tool {call.tool}: {exc}")))
                return None
            send, throw = None, None
            if isinstance(effect, Progress):
                if call.progress_token is not None:
                    progress = {"progressToken": call.progress_token, "progress": effect.progress}
                    if effect.total is not None:
                        progress["total"] = effect.total
                    if effect.message is not None:
                        progress["message"] = effect.message
                    out.append(jsonrpc.notification("notifications/progress", progress))
            elif isinstance(effect, Log):
                if effect.level in call.log_levels:
                    data = effect.data if self.store is None else copy_json(effect.data)
                    out.append(jsonrpc.notification("notifications/message", {"level": effect.level, "data": data}))
            elif isinstance(effect, Notify):
                if self._false_bus:  # (the tool's await of False.publish raises, as 2.2.0's source reads)
                    throw = ToolCrash("AttributeError")
                    continue
                out += self._published(effect)
            elif isinstance(effect, Send):
                out += wire.sent(SENT[effect.notification], effect.uri)
            elif isinstance(effect, AddResource):
                self.process.add(self.definition, effect.resource)  # type: ignore[union-attr]
            elif isinstance(effect, ReadResource):
                try:
                    send = _read_text(self.definition, effect.uri, self.process)
                except (ResourceMissing, ResourceFailed) as unread:
                    throw = unread
            else:
                return effect

    def _start_drive(self, call: _SuspendedCall, _responses: Any) -> Outgoing:
        return self._drive(call, None)  # the handshake era knows no inputResponses

    def _drive(self, call: _SuspendedCall, answer: Any) -> Outgoing:
        """The handshake era: a question is a request to the client; the call waits for its answer."""
        out: Outgoing = []
        question = self._step(call, answer, wire_2025_11_25, out)
        if isinstance(question, Wait):
            self._waiting.append(call)  # never answered: only a cancellation ends it
            return out
        if question is not None:
            self._asked += 1
            request_id = self._asked
            method, params = wire_2025_11_25.server_request(question)
            if EMPTY_META_OMITTED not in self.rules:
                params = {**params, "_meta": {}}
            call.question = question
            self._suspended[request_id] = call
            out.append(jsonrpc.request(request_id, method, params))
        return out

    def _drive_stateless(self, call: _SuspendedCall, responses: Any) -> Outgoing:
        """2026-07-28: a question ends the call with ``input_required``, unless the retried request
        already carries its answer in ``inputResponses``."""
        out: Outgoing = []
        answer: Any = None
        while True:
            question = self._step(call, answer, wire_2026_07_28, out)
            if question is None:
                return out
            if isinstance(question, Wait):
                self._waiting.append(call)
                return out
            if isinstance(question, AskUser) and question.model is not None:  # ``ctx.elicit``: a request it cannot send
                call.run.close()
                out.append(jsonrpc.error(call.request_id, wire_2026_07_28.no_back_channel("elicitation/create")))
                return out
            if not responses:
                body = wire_2026_07_28.input_required({question.key: wire_2026_07_28.input_request(question)})
                out.append(self._tool_result(call.request_id, wire_2026_07_28, body))
                call.run.close()
                return out
            if question.key not in responses:
                call.run.close()
                out.append(self._tool_result(call.request_id, wire_2026_07_28,
                                             _error_result(f"Error executing tool {call.tool}")))
                return out
            answer = responses[question.key]

    # --- answers from the client, and notifications ---------------------------------------
    def _on_answer(self, message: Response | ErrorResponse) -> Outgoing:
        call = self._suspended.pop(message.id, None) if message.id is not None else None
        if call is None:
            return []  # an answer to nothing the server asked: ignored
        if isinstance(message, ErrorResponse):
            # The SDK raises the client's error inside the tool; it leaves as a JSON-RPC error.
            error = message.error
            return [jsonrpc.error(call.request_id, ProtocolError(error["code"], error["message"],
                                                                 copy_json(error.get("data")), has_data="data" in error))]
        if not wire_2025_11_25.answer_fits(call.question, message.result):
            call.run.close()  # the SDK's validation fails inside the tool: its text is hidden
            return [self._tool_result(call.request_id, wire_2025_11_25,
                                      _error_result(f"Error executing tool {call.tool}"))]
        return self._drive(call, message.result)

    def _on_notification(self, message: Notification) -> Outgoing:
        if message.method == "notifications/initialized" and self.era is not _STATELESS:
            self.initialized = True
        if message.method == "notifications/cancelled":
            return self._cancel(message.params or {})
        return []

    def _cancel(self, params: dict[str, Any]) -> Outgoing:
        """The client cancelled a request, which is then never answered: an open listen stream
        ends silently; a call waiting for the client's answer is interrupted, and the question it
        asked is withdrawn in turn; a call waiting forever ends without a word. Any other id is ignored."""
        cancelled = params.get("requestId")
        for listening in self._listening:
            open_id = listening[0]
            if open_id == cancelled and type(open_id) is type(cancelled):
                self._listening.remove(listening)
                return []
        for waiting in self._waiting:
            if waiting.request_id == cancelled and type(waiting.request_id) is type(cancelled):
                self._waiting.remove(waiting)
                waiting.run.close()
                return []
        for asked, call in list(self._suspended.items()):
            if call.request_id == cancelled and type(call.request_id) is type(cancelled):
                del self._suspended[asked]
                call.run.close()
                return [jsonrpc.notification("notifications/cancelled",
                                             {"requestId": asked, "reason": "caller cancelled"})]
        return []

    # What differs between the eras in serving a request, and in running a tool that asks a
    # question, looked up by era (h11's style) rather than branched on.
    _SERVE = {Era.HANDSHAKE: _serve_handshake, Era.STATELESS: _serve_stateless}
    _RUN_TOOL = {Era.HANDSHAKE: _start_drive, Era.STATELESS: _drive_stateless}


# --- helpers ------------------------------------------------------------------------------------

@dataclass(slots=True)
class Process:
    """What a server's process keeps across its connections and calls: its store
    (`ServerDefinition.store`), and the resources its tools added (``mcp.add_resource``), by URI."""

    store: dict[str, Any] | None
    added: dict[str, Resource] = field(default_factory=dict)

    def resource(self, d: ServerDefinition, uri: str) -> Resource | None:
        return d.resource(uri) or self.added.get(uri)

    def add(self, d: ServerDefinition, resource: Resource) -> None:
        """The SDK keeps the first resource of a URI: a later one is dropped."""
        if self.resource(d, resource.uri) is None:
            self.added[resource.uri] = resource


def _prompt_listing(p: Prompt) -> dict[str, Any]:
    listed = {"arguments": [_argument_listing(a) for a in p.arguments],
              "description": p.description, "name": p.name}
    if p.title is not None:
        listed["title"] = p.title  # (last: its keys in sorted order)
    if p.extras:
        listed = listed_with(listed, None, p.extras)
    return listed


def _argument_listing(a: PromptArgument) -> dict[str, Any]:
    if a.description is None:
        return {"name": a.name, "required": a.required}
    return {"description": a.description, "name": a.name, "required": a.required}  # (in sorted order)


def _read(d: ServerDefinition, uri: str, process: Process) -> dict[str, Any]:
    """``resources/read``'s content: a resource of that URI, else the first template it matches."""
    resource, store = process.resource(d, uri), process.store
    if resource is not None:
        try:
            return resource.contents(store)
        except ResourceFailed as failed:
            raise ProtocolError(INTERNAL_ERROR, str(failed), {"uri": uri}) from None
    for template in d.templates:
        variables = template.match(uri)
        if variables is None:
            continue
        if any(unsafe_path(value) for value in variables.values()):
            break  # refused, and no later template is tried: the SDK says it has no such resource
        try:
            text = _render(template, uri, variables, store)
        except ResourceFailed as failed:
            raise ProtocolError(INVALID_PARAMS if failed.not_found else INTERNAL_ERROR, str(failed),
                                {"uri": uri}) from None
        return with_meta({"mimeType": template.mime_type, "text": text, "uri": uri}, template.extras)
    raise ProtocolError(INVALID_PARAMS, f"Unknown resource: {uri}", {"uri": uri})


def _read_text(d: ServerDefinition, uri: str, process: Process) -> str:
    """What ``ctx.read_resource`` hands a tool, as text (`ResourceMissing` if nothing serves ``uri``)."""
    resource, store = process.resource(d, uri), process.store
    if resource is not None:
        return resource.read(store)
    for template in d.templates:
        variables = template.match(uri)
        if variables is not None:
            if any(unsafe_path(value) for value in variables.values()):
                break  # (as `_read`)
            return _render(template, uri, variables, store)
    raise ResourceMissing(uri)


def _render(template: ResourceTemplate, uri: str, variables: dict[str, str], store: dict[str, Any] | None) -> str:
    try:
        return template.render(**with_store(variables, store))
    except TemplateFailed:
        raise ResourceFailed(uri) from None
    except TemplateRefused as refused:
        raise ResourceFailed(uri, str(refused), refused.not_found) from None


def _tools_listed(wire: Wire, definition: ServerDefinition) -> list[dict[str, Any]]:
    """The fixture's tools as ``tools/list`` shows them in ``wire``'s era, a fresh copy for each
    answer: the listing is derived once per definition and era, and `jsonio.copier` makes the copies."""
    make = definition.derived(("tools/list", wire.ERA),
                              lambda: copier([wire.tool_listing(t) for t in definition.tools]))
    return make()


def _error_result(text: str) -> dict[str, Any]:
    return {"content": [{"text": text, "type": "text"}], "isError": True}


_EVERY_LEVEL = frozenset(LOG_LEVELS_IN_ORDER)


def _log_levels(era: Era, meta: Any) -> frozenset[str]:
    """The levels a call's log messages may be sent at: every one in the handshake era (filtering
    is ``logging/setLevel``'s business there); in 2026-07-28 the request's own opt-in
    (``_meta`` ``io.modelcontextprotocol/logLevel``) and the levels above it, else none."""
    if era is not _STATELESS:
        return _EVERY_LEVEL
    requested = meta.get(META_LOG_LEVEL) if isinstance(meta, dict) else None
    if requested not in LOG_LEVELS_IN_ORDER:
        return frozenset()
    return frozenset(LOG_LEVELS_IN_ORDER[LOG_LEVELS_IN_ORDER.index(requested):])


def _progress_token(params: dict[str, Any]) -> int | str | None:
    meta = params.get("_meta")
    token = meta.get("progressToken") if isinstance(meta, dict) else None
    return token if (type(token) is int or isinstance(token, str)) else None


def _valid_progress_token(token: Any) -> bool:
    # ProgressToken is ``str | int`` in pydantic's lax mode: a bool or an integral float passes too.
    if isinstance(token, (str, int)):
        return True
    return isinstance(token, float) and token.is_integer()


_TRUE_TEXT = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE_TEXT = frozenset({"0", "off", "f", "false", "n", "no"})


def lax_bool(value: Any) -> bool | None:
    """pydantic's lax ``bool``: true/false, 0/1, and a few words; ``None`` for anything else."""
    if isinstance(value, bool):
        return value
    if type(value) in (int, float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in _TRUE_TEXT | _FALSE_TEXT:
        return value.lower() in _TRUE_TEXT
    return None


_NO_FIELDS: dict[str, tuple[Any, bool]] = {}


def _check_request(method: str, version: str, params: dict[str, Any] | None, wire: Wire,
                   served: frozenset[str] = frozenset()) -> None:
    """A request as the revision ``version`` types it: a method it defines (or the server has no
    handler: -32601; ``served``: the methods it may or may not handle that it does,
    `ServerDefinition.optional_methods`), then its params (-32602,
    `invalid_params`).

    (One function for the method, ``_meta`` and the fields, reading one table derived from the
    revisions' types, `_REQUEST_TYPING`.)"""
    typing = _REQUEST_TYPING[wire.ERA].get(method)
    if typing is None:
        if method not in HANDLED and method not in OPTIONAL and method != "initialize":
            raise ProtocolError(METHOD_NOT_FOUND, "Method not found", method)
        return
    versions, fields, more, handled = typing
    if version not in versions:
        raise ProtocolError(METHOD_NOT_FOUND, "Method not found", method)
    p = params or {}
    if "_meta" in p:  # ``params._meta`` as the per-revision request models type it
        meta = p["_meta"]
        if not isinstance(meta, dict):
            raise invalid_params()
        if "progressToken" in meta and not _valid_progress_token(meta["progressToken"]):
            raise invalid_params()
        if META_CLIENT_CAPABILITIES in meta and not isinstance(meta[META_CLIENT_CAPABILITIES], dict):
            raise invalid_params()
        info = meta.get(META_CLIENT_INFO)
        if info is not None and not (isinstance(info, dict) and isinstance(info.get("name"), str)
                                     and isinstance(info.get("version"), str)):
            raise invalid_params()
    # A member the revision's model does not name is ignored (the handshake era's inputResponses).
    for key, kind, values, required in fields:
        value = p.get(key)
        if value is None:
            if required:
                raise invalid_params()
        elif not (value in kind if values else isinstance(value, kind)):
            raise invalid_params()
    if more is not None:
        more(p)
    if not (handled or method in served):
        raise ProtocolError(METHOD_NOT_FOUND, "Method not found", method)


def _check_prompt_arguments(p: dict[str, Any]) -> None:
    if not all(isinstance(v, str) for v in (p.get("arguments") or {}).values()):
        raise invalid_params()  # prompt arguments are strings


def _check_completion(p: dict[str, Any]) -> None:
    ref, argument = p["ref"], p["argument"]
    if ref.get("type") not in ("ref/prompt", "ref/resource") or not isinstance(
            ref.get("name" if ref.get("type") == "ref/prompt" else "uri"), str):
        raise invalid_params()
    if not (isinstance(argument.get("name"), str) and isinstance(argument.get("value"), str)):
        raise invalid_params()


def _check_listen(p: dict[str, Any]) -> None:
    wanted = p["notifications"]
    flags = ("toolsListChanged", "promptsListChanged", "resourcesListChanged")
    if any(wanted.get(f) is not None and lax_bool(wanted.get(f)) is None for f in flags):
        raise invalid_params()
    uris = wanted.get("resourceSubscriptions")
    if uris is not None and not (isinstance(uris, list) and all(isinstance(u, str) for u in uris)):
        raise invalid_params()


#: method -> what its params model checks beyond the fields' types (`PARAMS_FIELDS`)
_MORE_CHECKS = {"prompts/get": _check_prompt_arguments, "completion/complete": _check_completion,
                "subscriptions/listen": _check_listen}


def _request_typing(wire: Wire) -> dict[str, tuple[Any, ...]]:
    """Each request ``wire``'s revisions define -> (those revisions, its params fields as (name,
    accepted type or values, whether a tuple of values, required), what else its model checks,
    whether the server handles it): `CLIENT_REQUESTS`, ``wire.PARAMS_FIELDS``, `_MORE_CHECKS`
    and `HANDLED` read together, once."""
    return {method: (versions,
                     tuple((key, kind, type(kind) is tuple, required)
                           for key, (kind, required) in wire.PARAMS_FIELDS.get(method, _NO_FIELDS).items()),
                     _MORE_CHECKS.get(method), method in HANDLED or method == "initialize")
            for method, versions in CLIENT_REQUESTS.items()}


#: `eras.ERA_TRANSITIONS`, each row with what serves a request in the era afterwards, and its wire:
#: (era, kind of request) -> (era afterwards, verdict, `ServerConnection._SERVE` of it, `WIRES` of it)
_ROUTES = {key: (after, verdict, ServerConnection._SERVE[after], WIRES[after])
           for key, (after, verdict) in ERA_TRANSITIONS.items()}

#: era -> `_request_typing` of its wire
_REQUEST_TYPING = {era: _request_typing(wire) for era, wire in WIRES.items()}
