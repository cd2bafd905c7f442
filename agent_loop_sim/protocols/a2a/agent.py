"""The A2A agent as the SDK serves it over HTTP: the card, and the JSON-RPC binding's envelope.

`Agent` takes an `HttpRequest` and returns an `HttpResponse`. A JSON-RPC request goes through
the SDK's steps, in order:

1. the envelope's gates (`envelope`): JSON, json-rpc's request checks, ``jsonrpc``, the method
   looked up (unknown: ``-32601 Method not found``);
2. ``params`` is read into the method's protocol type (unknown fields ignored);
3. the ``A2A-Version`` header is checked (`version`);
4. the REQUIRED fields are checked (``-32602 Validation failed`` with ``google.rpc`` details);
5. the method runs in the request handler (`request_handler`). A streaming answer's error
   before the first event is a plain JSON-RPC error, one after it an SSE event.
"""
from __future__ import annotations

from typing import Any

from . import envelope
from .active_task import NotModelled
from .card import WELL_KNOWN_PATH, AgentCard, serve_card
from .errors import A2AError, JsonRpcError, error_response, result_response
from .http import HttpRequest, HttpResponse, header
from .ids import Clock, IdSource
from .releases import BOOLEAN_ID_REFUSED
from .request_handler import RequestHandler, StreamHangs, Subscription
from .script import Script
from .types import written
from .version import is_supported, refusal_message, requested_version

__all__ = ["METHODS", "STREAMING_METHODS", "Agent", "NotModelled", "StreamHangs"]

#: The JSON-RPC methods of the binding and the protocol type their ``params`` are read into.
METHODS: dict[str, str] = {
    "SendMessage": "SendMessageRequest",
    "SendStreamingMessage": "SendMessageRequest",
    "GetTask": "GetTaskRequest",
    "ListTasks": "ListTasksRequest",
    "CancelTask": "CancelTaskRequest",
    "CreateTaskPushNotificationConfig": "TaskPushNotificationConfig",
    "GetTaskPushNotificationConfig": "GetTaskPushNotificationConfigRequest",
    "ListTaskPushNotificationConfigs": "ListTaskPushNotificationConfigsRequest",
    "DeleteTaskPushNotificationConfig": "DeleteTaskPushNotificationConfigRequest",
    "SubscribeToTask": "SubscribeToTaskRequest",
    "GetExtendedAgentCard": "GetExtendedAgentCardRequest",
}
STREAMING_METHODS = ("SendStreamingMessage", "SubscribeToTask")
#: The protocol type of each method's result (its fields are written in that type's order);
#: a stream's events are each a ``StreamResponse``.
RESULTS: dict[str, str] = {"SendMessage": "SendMessageResponse", "GetTask": "Task", "CancelTask": "Task",
                           "ListTasks": "ListTasksResponse"}
class Agent:
    """An A2A agent served by the SDK: its card, its script, and the tasks it has stored.

    ``handle`` answers one HTTP request; the agent keeps its task store between requests.
    """

    def __init__(self, card: AgentCard, script: Script, ids: IdSource | None = None, clock: Clock | None = None,
                 rules: frozenset[str] = frozenset()) -> None:
        self.card = card
        self.rules = rules  # the wire changes of the SDK release spoken (`releases`)
        self._refuse_boolean_ids = BOOLEAN_ID_REFUSED in rules  # (asked of every request: looked up once)
        self.handler = RequestHandler(card, script, ids or IdSource("agent"), clock or Clock(), rules)

    @property
    def tasks(self) -> dict[str, dict[str, Any]]:
        """The task store (task id -> stored task, in creation order)."""
        return self.handler.tasks

    def state(self) -> dict[str, Any]:
        """The task store as JSON (each task's id and state, in creation order), for a person
        stepping through a session."""
        return {"tasks": [{"id": task_id, "state": task["status"]["state"]} for task_id, task in self.tasks.items()]}

    def handle(self, request: HttpRequest) -> HttpResponse:
        """Answer one HTTP request: a GET of the card at the well-known path, or a JSON-RPC POST at
        the card's URL. These are the requests the SDK's own code answers (its card route and its
        JSON-RPC route). Any other path or method is Starlette's router's answer, not the SDK's,
        and is answered before the agent is asked: ``serve a2a`` answers 404, 405 with ``allow``,
        and 307 at its edge, as Starlette does, and nothing a scenario can say sends another (the
        orchestrator's steps and raw posts go to those two URLs). So another request here is the
        caller's mistake, not a request the model leaves out."""
        base = self.card.base_url
        path = request.url[len(base):] if request.url.startswith(base) else request.url
        if request.method == "GET" and path == WELL_KNOWN_PATH:
            status, headers, body = serve_card(self.card, header(request.headers, "If-None-Match"))
            return HttpResponse(status, headers, body)
        if request.method == "POST" and path == self.card.rpc_path:
            return self._jsonrpc(request)
        raise ValueError(f"{request.method} {path}: the agent is asked only for its card and {self.card.rpc_path} "
                         "(route the others first, as serve a2a does)")

    def _jsonrpc(self, request: HttpRequest) -> HttpResponse:
        try:
            request_id, method, params = envelope.read(request, METHODS, self._refuse_boolean_ids)
        except envelope.Refused as refused:
            return _json(error_response(refused.request_id, refused.error))
        except envelope.NotModelled as exc:
            raise NotModelled(str(exc)) from None
        try:
            version = requested_version(request.headers)
            if not is_supported(version):
                raise A2AError("VersionNotSupportedError", refusal_message(version))
            if method in STREAMING_METHODS:
                return self._stream(request_id, method, params)
            result = self.handler.call(method, METHODS[method], params)
            return _json(result_response(request_id, written(RESULTS[method], result)))
        except (A2AError, JsonRpcError) as error:
            return _json(error_response(request_id, error))

    def _stream(self, request_id: Any, method: str, params: dict[str, Any]) -> HttpResponse:
        events, stays_open, subscription = self.handler.stream(method, params)
        out: list[dict[str, Any]] = []
        try:
            for event in events:  # the first event is fetched before the answer starts
                out.append(result_response(request_id, written("StreamResponse", {event.kind: event.body})))
        except A2AError as error:
            if not out:
                raise
            out.append(error_response(request_id, error))
            stays_open, subscription = False, None
        later = None if subscription is None else LaterEvents(self.handler, subscription, request_id)
        return HttpResponse(200, [("Content-Type", "text/event-stream; charset=utf-8")], events=out, open=stays_open,
                            later=later)


class LaterEvents:
    """The events a subscription gets after its answer started, written as the stream's events."""

    def __init__(self, handler: RequestHandler, subscription: Subscription, request_id: Any) -> None:
        self.handler, self.subscription, self.request_id = handler, subscription, request_id

    def take(self) -> list[dict[str, Any]]:
        return [result_response(self.request_id, written("StreamResponse", {e.kind: e.body}))
                for e in self.subscription.take()]

    @property
    def closed(self) -> bool:
        return self.subscription.closed

    def drop(self) -> None:
        """The client went away before the agent ended the stream."""
        self.handler.unsubscribe(self.subscription.task_id, self.subscription)


def _json(body: dict[str, Any]) -> HttpResponse:
    return HttpResponse(200, [("Content-Type", "application/json")], body)
