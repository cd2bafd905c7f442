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
  ``inputResponses``.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Generator

from ...errors import InputError
from . import jsonrpc
from .versions import HANDSHAKE_VERSIONS, LATEST_HANDSHAKE, LATEST_STATELESS, STATELESS_VERSIONS
from .wire import wire_for

CLIENT_INFO = {"name": "fixture-client", "version": "1.0.0"}
#: the SDK client gives up an input_required loop after this many rounds
INPUT_REQUIRED_MAX_ROUNDS = 10

Program = Generator[dict[str, Any], Any, None]


class ScriptExhausted(InputError):
    """The server asked a question the scenario has no scripted answer left for."""


@dataclass
class Answers:
    """The application's scripted answers, handed out in order, as its callbacks would."""

    elicitation: list[dict[str, Any]] | None = None
    sampling: list[dict[str, Any]] | None = None

    def capabilities(self) -> dict[str, Any]:
        caps: dict[str, Any] = {}
        if self.sampling is not None:
            caps["sampling"] = {}
        if self.elicitation is not None:
            caps["elicitation"] = {"form": {}, "url": {}}
        return caps

    def answer(self, method: str) -> dict[str, Any]:
        """The scripted answer, or `NotSupported` when the client has no such callback."""
        kind = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling"}[method]
        left = getattr(self, kind)
        if left is None:
            raise NotSupported({"code": jsonrpc.INVALID_REQUEST, "message": f"{kind.capitalize()} not supported"})
        if not left:
            raise ScriptExhausted(f"the server asked for {kind} but the scenario has no answer left",
                                  path="$.answers." + kind)
        return _as_sent(kind, left.pop(0))


def _as_sent(kind: str, answer: dict[str, Any]) -> dict[str, Any]:
    """The answer in the key order the SDK serialises its result models."""
    if kind == "elicitation":
        return {k: answer[k] for k in ("action", "content") if k in answer}
    out: dict[str, Any] = {"role": answer["role"], "content": _content(answer["content"])}
    out.update({k: answer[k] for k in ("model", "stopReason") if k in answer})
    return out


def _content(content: dict[str, Any]) -> dict[str, Any]:
    order = ("type", "text")
    out = {k: content[k] for k in order if k in content}
    out.update({k: v for k, v in content.items() if k not in order})
    return out


class NotSupported(Exception):
    """The client has no callback for a server's question: the SDK refuses it with this error."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error["message"])
        self.error = error


class RequestFailed(Exception):
    """The server answered a request with a JSON-RPC error (the SDK raises ``MCPError``)."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message"))
        self.error = error


@dataclass
class ClientModel:
    mode: str
    actions: list[dict[str, Any]]
    answers: Answers
    version: str | None = None  # the negotiated revision
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    _known_output_schemas: set[str] = field(default_factory=set)
    _program: Program | None = None
    _waiting_for: int | None = None

    # --- driving ------------------------------------------------------------------------------
    def start(self) -> list[dict[str, Any]]:
        self._program = self._run()
        return self._advance(None)

    def receive(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """Take one message from the server; return what the client sends next."""
        if "method" in message and "id" in message:  # the server asks something
            try:
                return [jsonrpc.result(message["id"], self.answers.answer(message["method"]))]
            except NotSupported as refused:
                return [{"jsonrpc": "2.0", "id": message["id"], "error": refused.error}]
        if "method" in message:  # a notification (progress): the callback has nothing to say
            return []
        if message.get("id") != self._waiting_for:
            return []
        if "error" in message:
            return self._advance(RequestFailed(message["error"]))
        return self._advance(message["result"])

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
                return out
            out.append(message)
            if "id" in message:
                self._waiting_for = message["id"]
                return out
            value = None  # a notification needs no answer

    # --- the program --------------------------------------------------------------------------
    def _run(self) -> Program:
        yield from self._connect()
        for action in self.actions:
            try:
                yield from self._perform(action)
            except RequestFailed:
                pass  # the application sees an MCPError and goes on

    def _request(self, method: str, params: dict[str, Any] | None = None, progress: bool = False) -> Program:
        """Send one request and return its result (or raise `RequestFailed`)."""
        request_id = next(self._ids)
        if self.version is not None:
            params = wire_for(self.version).envelope(params, self.version, CLIENT_INFO, self.answers.capabilities())
        if progress:
            params = dict(params or {})
            params["_meta"] = {**(params.get("_meta") or {}), "progressToken": request_id}
        result = yield jsonrpc.request(request_id, method, params)
        return result

    def _connect(self) -> Program:
        if self.mode == "legacy":
            yield from self._initialize()
        elif self.mode == "auto":
            yield from self._negotiate_auto()
        else:
            self.version = self.mode  # a revision pin: adopted without a probe

    def _initialize(self) -> Program:
        params = {"protocolVersion": LATEST_HANDSHAKE, "capabilities": self.answers.capabilities(),
                  "clientInfo": CLIENT_INFO}
        result = yield from self._request("initialize", params)
        self.version = result["protocolVersion"]
        yield jsonrpc.notification("notifications/initialized")

    def _negotiate_auto(self) -> Program:
        # server/discover is sent at the newest revision, enveloped; any error but a -32022
        # naming only 2026-era revisions falls back to the handshake.
        self.version = LATEST_STATELESS
        try:
            result = yield from self._request("server/discover")
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
        op = action["op"]
        if op == "ping":
            yield from self._request("ping")
        elif op == "list":
            method = {"tools": "tools/list", "resources": "resources/list", "templates": "resources/templates/list",
                      "prompts": "prompts/list"}[action["what"]]
            result = yield from self._request(method)
            if method == "tools/list":
                self._learn_tools(result)
        elif op == "call":
            yield from self._call_tool(action)
        elif op == "read":
            yield from self._with_input_required("resources/read", {"uri": action["uri"]})
        elif op == "get":
            params: dict[str, Any] = {"name": action["prompt"]}
            if "arguments" in action:
                params["arguments"] = action["arguments"]
            yield from self._with_input_required("prompts/get", params)

    def _learn_tools(self, result: dict[str, Any]) -> None:
        for tool in result.get("tools", []):
            self._known_output_schemas.add(tool["name"])

    def _call_tool(self, action: dict[str, Any]) -> Program:
        params: dict[str, Any] = {"name": action["tool"]}
        if "arguments" in action:
            params["arguments"] = action["arguments"]
        result = yield from self._with_input_required("tools/call", params, progress=bool(action.get("progress")))
        if result.get("resultType", "complete") == "complete" and not result.get("isError"):
            if action["tool"] not in self._known_output_schemas:
                listing = yield from self._request("tools/list")
                self._learn_tools(listing)

    def _with_input_required(self, method: str, params: dict[str, Any], progress: bool = False) -> Program:
        result = yield from self._request(method, params, progress=progress)
        for _ in range(INPUT_REQUIRED_MAX_ROUNDS):
            if result.get("resultType") != "input_required":
                return result
            try:
                responses = {key: self.answers.answer(ask["method"]) for key, ask in result["inputRequests"].items()}
            except NotSupported as refused:  # the call fails in the application, nothing is sent
                raise RequestFailed(refused.error) from None
            result = yield from self._request(method, {"inputResponses": responses, **params}, progress=progress)
        return result
