"""The SDK's ``Client`` as a sans-IO state machine, driven by a scenario's actions.

The client's *program* is a generator: it yields each message it sends and is sent the
answer to each request. Around it, `ClientModel` answers the server's own requests
(elicitation, sampling) from the scenario's scripted answers, as the SDK calls the
application's callbacks. What the SDK adds by itself is modelled here, not scripted:

* the connection: ``initialize`` + ``notifications/initialized`` (legacy), nothing
  (2026-07-28), or ``server/discover`` first (auto), falling back to the handshake when the
  server does not speak 2026-07-28;
* the 2026-07-28 envelope on every request, the capabilities that follow from which
  callbacks exist, progress tokens (the request's own id);
* after a tool result that is not an error, a ``tools/list`` if that tool's output schema is
  not known yet (to validate ``structuredContent``);
* the ``input_required`` retry: each input request answered, the call sent again with
  ``inputResponses``;
* the request's params in the SDK's field order: the caller's ``_meta`` first, then
  ``inputResponses``, then the method's own fields; the 2026-07-28 envelope (and the
  ``log_level`` opt-in) merged into ``_meta``, or appended as ``_meta`` when there is none;
* a call abandoned at the server's first question: ``notifications/cancelled`` naming the call
  (the question is never answered); the application goes on once the server has withdrawn
  its question with its own ``notifications/cancelled``;
* a read timeout: a request's clock runs from its write to its answer, and in the handshake
  era the client's own late answers to the server's questions spend it (the server answers at
  once: its own time is not modelled). When they outlast it, the late answer is never sent: the
  client cancels the request ("timed out after Ns") and the application goes on, as above, once
  the question is withdrawn. In 2026-07-28 a question ends its round, so no clock runs while
  the user thinks. A request the server never answers (a tool that waits forever) times out
  when nothing more is coming (`time_out`): the cancel goes out and the application goes on;
* the client info as ``Implementation`` serialises it (its fields' order, unset ones left out),
  in ``initialize`` or in every request's envelope;
* ``input_required_max_rounds``: past it the call gives up without sending anything.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Generator

from ...errors import InputError
from ...jsonio import copy_json, json_path
from . import jsonrpc
from .releases import EMPTY_META_OMITTED, MCP_RELEASES
from .versions import HANDSHAKE_VERSIONS, LATEST_HANDSHAKE, LATEST_STATELESS, STATELESS_VERSIONS
from .wire import wire_for

CLIENT_INFO = {"name": "fixture-client", "version": "1.0.0"}
#: mcp_types.Implementation's and Icon's fields in their declared order (the order they are sent in)
IMPLEMENTATION_FIELDS = ("name", "title", "version", "description", "websiteUrl", "icons")
ICON_FIELDS = ("src", "mimeType", "sizes", "theme")
#: the SDK's code for a request its client gave up waiting on (mcp_types.REQUEST_TIMEOUT)
REQUEST_TIMEOUT = -32001
#: seconds: a late answer this close to a timeout races the server's own time to answer
#: (`scenario.MIN_TIMEOUT`, which the scenario's own values are held to)
TIMING_MARGIN = 0.1
#: the SDK client gives up an input_required loop after this many rounds
INPUT_REQUIRED_MAX_ROUNDS = 10

Program = Generator[dict[str, Any], Any, None]


class ScriptExhausted(InputError):
    """The server asked a question the scenario has no scripted answer left for."""


@dataclass(slots=True)
class Answers:
    """The application's scripted answers, handed out in order, as its callbacks would."""

    elicitation: list[dict[str, Any]] | None = None
    sampling: list[dict[str, Any]] | None = None
    roots: list[dict[str, Any]] | None = None  # what the list_roots callback returns, every time
    sampling_capabilities: dict[str, Any] | None = None  # declared with the sampling callback
    extensions: dict[str, dict[str, Any]] | None = None  # advertised extensions: identifier -> settings
    late: Any = None  # told each late answer (kind, seconds) before it is sent: the client's clock

    def capabilities(self) -> dict[str, Any]:
        # In ClientCapabilities' field order: sampling, elicitation, roots, extensions.
        caps: dict[str, Any] = {}
        if self.sampling is not None:
            sub = self.sampling_capabilities or {}
            caps["sampling"] = {k: copy_json(sub[k]) for k in ("context", "tools") if k in sub}
        if self.elicitation is not None:
            caps["elicitation"] = {"form": {}, "url": {}}
        if self.roots is not None:
            caps["roots"] = {"listChanged": True}
        if self.extensions:
            caps["extensions"] = copy_json(self.extensions)
        return caps

    def has_callback(self, method: str) -> bool:
        return getattr(self, _CALLBACKS[method]) is not None

    def answer(self, method: str) -> dict[str, Any]:
        """The scripted answer, or `NotSupported` when the client has no such callback."""
        kind = _CALLBACKS[method]
        left = getattr(self, kind)
        if left is None:
            raise NotSupported({"code": jsonrpc.INVALID_REQUEST, "message": _REFUSALS[kind]})
        if kind == "roots":
            return {"roots": [_root(r) for r in left]}
        if not left:
            raise ScriptExhausted(f"the server asked for {kind} but the scenario has no answer left",
                                  path="$.answers." + kind)
        answer = left.pop(0)
        if isinstance(answer.get("delay"), (int, float)) and self.late is not None:
            self.late(kind, answer["delay"])  # may raise `TimedOut`: the answer is never sent
        if "error" in answer:  # the callback returned ErrorData: the question is refused with it
            raise NotSupported(_error_data(answer["error"]))
        if not valid_answer(kind, answer):
            # The SDK validates the callback's result with its model; a pydantic ValidationError is
            # answered as INVALID_PARAMS with empty data (mcp.shared.jsonrpc_dispatcher).
            raise NotSupported({"code": jsonrpc.INVALID_PARAMS, "message": "Invalid request parameters", "data": ""})
        return _as_sent(kind, copy_json(answer))


#: the server's request -> the callback that answers it
_CALLBACKS = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}
_REFUSALS = {"elicitation": "Elicitation not supported", "sampling": "Sampling not supported",
             "roots": "List roots not supported"}


#: the content blocks a sampling result may hold (mcp 2.3.0's CreateMessageResult.content):
#: its ``type`` literal -> the fields it requires, each a string
_SAMPLING_CONTENT = {"text": ("text",), "image": ("data", "mimeType"), "audio": ("data", "mimeType")}
#: the values an accepted elicitation's content may hold (ElicitResult.content)
_ELICIT_VALUE = (str, int, float, bool, type(None))


def _block(content: dict[str, Any]) -> str | None:
    """The content block type a sampling answer's content is read as (pydantic tries them in order)."""
    return next((block for block, required in _SAMPLING_CONTENT.items()
                 if content.get("type", block) == block and all(isinstance(content.get(f), str) for f in required)),
                None)


def valid_answer(kind: str, answer: dict[str, Any]) -> bool:
    """Whether the SDK's result model accepts a scripted answer (what the scenario schema leaves open)."""
    if kind == "sampling":
        content = answer.get("content")
        return isinstance(content, dict) and _block(content) is not None
    values = (answer.get("content") or {}).values()
    return all(isinstance(v, _ELICIT_VALUE) or (isinstance(v, list) and all(isinstance(x, str) for x in v))
               for v in values)


def _error_data(error: dict[str, Any]) -> dict[str, Any]:
    """``ErrorData`` as the SDK writes it: code, message, and data unless it is null."""
    out = {"code": error["code"], "message": error["message"]}
    if error.get("data") is not None:
        out["data"] = copy_json(error["data"])
    return out


def _root(root: dict[str, Any]) -> dict[str, Any]:
    return {k: root[k] for k in ("uri", "name") if k in root}


def _as_sent(kind: str, answer: dict[str, Any]) -> dict[str, Any]:
    """The answer in the key order the SDK serialises its result models."""
    if kind == "elicitation":
        return {k: answer[k] for k in ("action", "content") if k in answer}
    out: dict[str, Any] = {"role": answer["role"], "content": _content(answer["content"])}
    out.update({k: answer[k] for k in ("model", "stopReason") if k in answer})
    return out


def _content(content: dict[str, Any]) -> dict[str, Any]:
    order = ("type", "text")
    # the block the SDK's model reads it as, whose ``type`` it then writes even if the answer had none
    content = {"type": _block(content), **content}
    out = {k: content[k] for k in order if k in content}
    out.update({k: v for k, v in content.items() if k not in order})
    return out


class NotSupported(Exception):
    """The client has no callback for a server's question, or its callback's answer is not a valid
    result: the SDK refuses it with this error."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error["message"])
        self.error = error


class Abandoned(Exception):
    """The application cancelled the call in flight (the ``cancel`` of a call action)."""


class TimedOut(Exception):
    """A late answer outlasted the read timeout of the request in flight."""


class RoundsExceeded(Exception):
    """The server kept asking past ``input_required_max_rounds`` (the SDK's
    ``InputRequiredRoundsExceededError``, raised in the application: nothing more is sent)."""


def implementation(info: dict[str, Any]) -> dict[str, Any]:
    """A client info as ``Implementation.model_dump(by_alias=True, exclude_none=True)`` writes it
    (a field given by its Python name too: the wire's name wins, as pydantic's alias does)."""
    out = {k: copy_json(v) for k in IMPLEMENTATION_FIELDS if (v := _field(info, k)) is not None}
    if "icons" in out:
        out["icons"] = [{k: v for k in ICON_FIELDS if (v := _field(icon, k)) is not None} for icon in out["icons"]]
    return out


def _field(model: dict[str, Any], alias: str) -> Any:
    if alias in model:
        return model[alias]
    return model.get(_PYTHON_NAMES.get(alias, alias))


#: the fields whose Python name is not their wire name
_PYTHON_NAMES = {"websiteUrl": "website_url", "mimeType": "mime_type"}


class RequestFailed(Exception):
    """The server answered a request with a JSON-RPC error (the SDK raises ``MCPError``)."""

    __slots__ = ("error",)

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message"))
        self.error = error


@dataclass(slots=True)
class ClientModel:
    mode: str
    actions: list[dict[str, Any]]
    answers: Answers
    client_info: dict[str, Any] = field(default_factory=lambda: dict(CLIENT_INFO))
    log_level: str | None = None  # the 2026-07-28 per-request log opt-in (Client(log_level=...))
    read_timeout_seconds: float | None = None  # every request's (Client(read_timeout_seconds=...))
    max_rounds: int = INPUT_REQUIRED_MAX_ROUNDS  # Client(input_required_max_rounds=...)
    version: str | None = None  # the negotiated revision
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _known_output_schemas: set[str] = field(default_factory=set)
    _program: Program | None = None
    _waiting_for: int | None = None
    _cancel_at_question: bool = False  # the call in flight is to be abandoned at its first question
    _listens: int = 0  # the listen streams opened (a plain count: one a session is rare, a counter each is not)
    _withdrawal: int | str | None = None  # the abandoned question, until the server withdraws it
    _timeout: float | None = None  # the read timeout of the request in flight
    _clock: float = 0.0  # seconds of it the client's late answers have spent
    _timed_out: bool = False  # the request in flight timed out; the server has not withdrawn its question yet
    _finished: bool = False  # the program has ended: nothing more is awaited
    # the wire changes of the SDK release spoken (`releases`): the pinned release's by default
    rules: frozenset[str] = field(default_factory=MCP_RELEASES.rules)

    # --- driving ------------------------------------------------------------------------------
    def start(self) -> list[dict[str, Any]]:
        self._program = self._run()
        return self._advance(None)

    def receive(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Take one message from the server; return what the client sends next."""
        if "method" not in message:  # an answer, the common case, looked at first
            if message.get("id") != self._waiting_for:
                return []
            if "error" in message:
                return self._advance(RequestFailed(message["error"]))
            return self._advance(message["result"])
        if "id" in message:  # the server asks something
            method = message["method"]
            if self._cancel_at_question and method in _CALLBACKS and self.answers.has_callback(method):
                self._cancel_at_question, self._withdrawal = False, message["id"]
                return [self._notification("notifications/cancelled",
                                           {"requestId": self._waiting_for, "reason": "caller cancelled"})]
            try:
                return [jsonrpc.result(message["id"], self.answers.answer(method))]
            except NotSupported as refused:
                return [{"jsonrpc": "2.0", "id": message["id"], "error": refused.error}]
            except TimedOut:
                # The clock ran out while the callback still waited: the SDK cancels the request
                # (its reason names the timeout as given) and the late answer is never sent.
                self._withdrawal, self._timed_out = message["id"], True
                return [jsonrpc.notification("notifications/cancelled",
                                             {"requestId": self._waiting_for,
                                              "reason": f"timed out after {self._timeout}s"})]
        if message["method"] == "notifications/subscriptions/acknowledged" and _subscription(message) is not None \
                and _subscription(message) == self._waiting_for:
            return self._advance(message["params"])  # listen() returns once its stream is acknowledged
        # a notification (progress): the callback has nothing to say
        if (message["method"] == "notifications/cancelled" and self._withdrawal is not None
                and (message.get("params") or {}).get("requestId") == self._withdrawal):
            self._withdrawal = None
            if self._timed_out:  # the application sees an MCPError, not its own cancellation
                self._timed_out = False
                return self._advance(RequestFailed({"code": REQUEST_TIMEOUT, "message": "Request timed out"}))
            return self._advance(Abandoned())
        return []

    @property
    def finished(self) -> bool:
        """The program has ended (the application has nothing more to do)."""
        return self._finished

    def pending_timeout(self) -> float | None:
        """The read timeout of the request the client waits on, if it waits on one that has one."""
        return None if self._finished or self._program is None or self._withdrawal is not None else self._timeout

    def time_out(self) -> list[dict[str, Any]]:
        """Nothing more is coming: the request in flight is never answered. Its read timeout runs
        out (the SDK cancels it, "timed out after Ns", and the application goes on at once: no
        question of the server's is open); without one, the application would wait forever, and
        the scenario cannot be played."""
        if self._finished or self._program is None:
            return []
        if self._withdrawal is not None:
            return []  # (waits on the server's own withdrawal, which the server model always sends)
        if self._timeout is None:
            raise InputError(f"request {self._waiting_for!r} is never answered and has no read timeout: "
                             "the application would wait forever", path="$.actions")
        # (the SDK's courtesy cancel carries no envelope, in either era)
        cancel = jsonrpc.notification("notifications/cancelled", {"requestId": self._waiting_for,
                                                                   "reason": f"timed out after {self._timeout}s"})
        return [cancel, *self._advance(RequestFailed({"code": REQUEST_TIMEOUT, "message": "Request timed out"}))]

    def _advance(self, value: Any) -> list[dict[str, Any]]:
        assert self._program is not None
        out: list[dict[str, Any]] = []
        while True:
            try:
                if isinstance(value, Exception):
                    message = self._program.throw(value)
                else:
                    message = self._program.send(value)
            except StopIteration:
                self._finished = True
                return out
            out.append(message)
            if "id" in message:
                self._waiting_for = message["id"]
                self._clock = 0.0  # each request's clock starts at its write
                return out
            value = None  # a notification needs no answer

    # --- the program --------------------------------------------------------------------------
    def _run(self) -> Program:
        self.answers.late = self._late
        yield from self._connect()
        for action in self.actions:
            self._timeout = self.read_timeout_seconds  # (a call's own wins)
            if action["op"] == "call":
                self._timeout = action.get("read_timeout_seconds", self._timeout)
            try:
                yield from self._perform(action)
            except (RequestFailed, Abandoned, RoundsExceeded):
                pass  # the application sees an MCPError (or its own cancellation, or the SDK giving up) and goes on

    def _late(self, kind: str, delay: float) -> None:
        """A late answer to the server's question spends the clock of the request it serves (in the
        handshake era only: a 2026-07-28 question is answered between rounds, with no clock running)."""
        if self.version in STATELESS_VERSIONS or self._timeout is None:
            return
        self._clock += delay
        if abs(self._clock - self._timeout) < TIMING_MARGIN:
            raise InputError(f"a late {kind} answer ends {self._clock:g} s into a request whose read timeout is "
                             f"{self._timeout:g} s: which comes first depends on timing, not on the SDK",
                             path=json_path(["answers", kind]))
        if self._clock > self._timeout:
            raise TimedOut()

    def _envelope(self, params: dict[str, Any], log_level: str | None) -> dict[str, Any]:
        # (the revision's wire from the table of enveloping revisions: a revision not in it, or
        # none yet, puts nothing around a request, as the handshake's wire)
        wire = _ENVELOPING_WIRES.get(self.version)  # type: ignore[arg-type]
        if wire is None:  # (the envelope's parts are not even made: a request of the handshake era has none)
            return params
        return wire.envelope(params, self.version, implementation(self.client_info), self.answers.capabilities(),
                             log_level) or {}

    def _request(self, method: str, fields: dict[str, Any] | None = None, progress: bool = False,
                 meta: dict[str, Any] | None = None) -> dict[str, Any]:
        """The next request, to be yielded by the program, which is sent its result (or `RequestFailed`
        is thrown into it). ``fields`` become the request's own (the caller hands them over);
        ``meta`` is the scenario's, copied."""
        request_id = next(self._ids)
        # The params models declare _meta first: the caller's _meta leads, when given.
        params: dict[str, Any] = {"_meta": copy_json(meta)} if meta is not None else {}
        if fields:
            params.update(fields)
        params = self._envelope(params, self.log_level)
        if progress:
            params["_meta"] = {**(params.get("_meta") or {}), "progressToken": request_id}
        if EMPTY_META_OMITTED in self.rules:
            if "_meta" in params and not params["_meta"]:
                del params["_meta"]  # the SDK's dispatcher drops an empty _meta (and then empty params)
            if not params:
                return {"jsonrpc": "2.0", "id": request_id, "method": method}
        else:
            params.setdefault("_meta", {})  # mcp 2.2.0's dispatcher always set one
        # (`jsonrpc.request` written out)
        return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}

    def _notification(self, method: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
        params = self._envelope(dict(fields or {}), self.log_level)
        return jsonrpc.notification(method, params or None)

    def _connect(self) -> Program:
        if self.mode == "legacy":
            yield from self._initialize()
        elif self.mode == "auto":
            yield from self._negotiate_auto()
        else:
            self.version = self.mode  # a revision pin: adopted without a probe

    def _initialize(self) -> Program:
        params = {"protocolVersion": LATEST_HANDSHAKE, "capabilities": self.answers.capabilities(),
                  "clientInfo": implementation(self.client_info)}
        result = yield self._request("initialize", params)
        self.version = result["protocolVersion"]
        yield jsonrpc.notification("notifications/initialized")

    def _discover(self) -> Program:
        """``server/discover`` carries the envelope alone (no log-level opt-in)."""
        request_id = next(self._ids)
        result = yield jsonrpc.request(request_id, "server/discover", self._envelope({}, None))
        return result

    def _negotiate_auto(self) -> Program:
        # server/discover is sent at the newest revision, enveloped; any error but a -32022
        # naming only 2026-era revisions falls back to the handshake.
        self.version = LATEST_STATELESS
        try:
            result = yield from self._discover()
        except RequestFailed as failed:
            supported = (failed.error.get("data") or {}).get("supported") if isinstance(
                failed.error.get("data"), dict) else None
            if failed.error.get("code") == jsonrpc.UNSUPPORTED_PROTOCOL_VERSION and supported is not None \
                    and not any(v in HANDSHAKE_VERSIONS for v in supported):
                raise
            self.version = None
            yield from self._initialize()
            return
        if not any(v in result.get("supportedVersions", []) for v in STATELESS_VERSIONS):
            self.version = None
            yield from self._initialize()

    def _perform(self, action: dict[str, Any]) -> Program:
        op, meta = action["op"], action.get("meta")
        if op == "ping":
            yield self._request("ping", meta=meta)
        elif op == "list":
            method = LIST_METHODS[action["what"]]
            fields = {"cursor": action["cursor"]} if "cursor" in action else {}
            result = yield self._request(method, fields, meta=meta)
            if method == "tools/list":
                self._learn_tools(result)
        elif op == "call":
            yield from self._call_tool(action)
        elif op == "read":
            yield from self._with_input_required("resources/read", {"uri": action["uri"]}, meta=meta,
                                                 seeds=_seeds(action))
        elif op == "get":
            params: dict[str, Any] = {"name": action["prompt"]}
            if "arguments" in action:
                params["arguments"] = copy_json(action["arguments"])
            yield from self._with_input_required("prompts/get", params, meta=meta, seeds=_seeds(action))
        elif op == "complete":
            fields = {"ref": _reference(action["ref"]), "argument": {k: action["argument"][k] for k in ("name", "value")}}
            if "context" in action:
                fields["context"] = {"arguments": dict(action["context"])}  # (its values are strings)
            yield self._request("completion/complete", fields)
        elif op == "set_level":
            yield self._request("logging/setLevel", {"level": action["level"]}, meta=meta)
        elif op in ("subscribe", "unsubscribe"):
            yield self._request(f"resources/{op}", {"uri": action["uri"]}, meta=meta)
        elif op == "roots_changed":
            yield self._notification("notifications/roots/list_changed")
        elif op == "listen":
            yield from self._listen(action)
        elif op == "progress":
            # ProgressNotificationParams types progress and total as floats.
            fields = {"progressToken": action["token"], "progress": float(action["progress"])}
            if "total" in action:
                fields["total"] = float(action["total"])
            if "message" in action:
                fields["message"] = action["message"]
            yield self._notification("notifications/progress", fields)

    def _listen(self, action: dict[str, Any]) -> Program:
        """``Client.listen()``, entered and left at once: the stream is opened, acknowledged, and
        cancelled by the client (its courtesy cancel carries no envelope). Its id is the SDK's
        own ``listen-N``, N counted per process: here per session (the recorder records each
        scenario file in a process of its own, and one session of a file listens). The handshake
        era has no listen: the SDK refuses it locally and sends nothing."""
        if self.version not in STATELESS_VERSIONS:
            return
        wanted = {"toolsListChanged": action.get("tools"), "promptsListChanged": action.get("prompts"),
                  "resourcesListChanged": action.get("resources")}
        notifications: dict[str, Any] = {k: True for k, v in wanted.items() if v}
        if action.get("uris"):
            notifications["resourceSubscriptions"] = list(action["uris"])
        self._listens += 1
        request_id = f"listen-{self._listens}"
        params = self._envelope({"notifications": notifications}, self.log_level)
        yield jsonrpc.request(request_id, "subscriptions/listen", params)
        yield jsonrpc.notification("notifications/cancelled", {"requestId": request_id, "reason": "caller cancelled"})

    def _learn_tools(self, result: dict[str, Any]) -> None:
        for tool in result.get("tools", []):
            self._known_output_schemas.add(tool["name"])

    def _call_tool(self, action: dict[str, Any]) -> Program:
        params: dict[str, Any] = {"name": action["tool"]}
        if "arguments" in action:
            params["arguments"] = copy_json(action["arguments"])
        self._cancel_at_question = bool(action.get("cancel"))
        try:
            result = yield from self._with_input_required("tools/call", params, progress=bool(action.get("progress")),
                                                          meta=action.get("meta"), seeds=_seeds(action))
        finally:
            self._cancel_at_question = False
        if result.get("resultType", "complete") == "complete" and not result.get("isError"):
            if action["tool"] not in self._known_output_schemas:
                self._timeout = self.read_timeout_seconds
                listing = yield self._request("tools/list")
                self._learn_tools(listing)

    def _with_input_required(self, method: str, params: dict[str, Any], progress: bool = False,
                             meta: dict[str, Any] | None = None, seeds: dict[str, Any] | None = None) -> Program:
        """The request, then its input_required rounds; ``seeds`` (inputResponses, requestState)
        go with the first request only, ahead of the method's own fields (the models' order)."""
        result = yield self._request(method, {**(seeds or {}), **params}, progress=progress, meta=meta)
        for _ in range(self.max_rounds):
            if result.get("resultType") != "input_required":
                return result
            responses = {}
            for key, ask in result["inputRequests"].items():
                if self._cancel_at_question and self.answers.has_callback(ask["method"]):
                    raise Abandoned()  # cancelled in the application: nothing is sent
                try:
                    responses[key] = self.answers.answer(ask["method"])
                except NotSupported as refused:  # the call fails in the application, nothing is sent
                    raise RequestFailed(refused.error) from None
            result = yield self._request(method, {"inputResponses": responses, **copy_json(params)},
                                         progress=progress, meta=meta)
        if result.get("resultType") == "input_required":
            raise RoundsExceeded()
        return result


#: each revision whose requests carry an envelope -> its wire (`wire.wire_for`, looked up once)
_ENVELOPING_WIRES = {v: wire_for(v) for v in HANDSHAKE_VERSIONS + STATELESS_VERSIONS if wire_for(v).ENVELOPED}

LIST_METHODS = {"tools": "tools/list", "resources": "resources/list", "templates": "resources/templates/list",
                "prompts": "prompts/list"}


def _reference(ref: dict[str, Any]) -> dict[str, Any]:
    key = "name" if ref["type"] == "ref/prompt" else "uri"
    return {"type": ref["type"], key: ref[key]}


def _subscription(message: dict[str, Any]) -> Any:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta.get("io.modelcontextprotocol/subscriptionId") if isinstance(meta, dict) else None


def _seeds(action: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "input_responses" in action:
        out["inputResponses"] = {key: _as_sent("elicitation" if "action" in value else "sampling", copy_json(value))
                                 for key, value in action["input_responses"].items()}
    if "request_state" in action:
        out["requestState"] = action["request_state"]
    return out
