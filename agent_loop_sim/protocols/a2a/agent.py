"""The A2A agent as the SDK serves it (``DefaultRequestHandlerV2``, in-memory task store, JSON-RPC).

:class:`Agent` takes an :class:`~.http.HttpRequest` and returns an :class:`~.http.HttpResponse`;
it keeps the task store between requests and nothing else, because every request runs to
completion on an event loop of its own (the agent code of a parked task does not survive
the request that parked it). A JSON-RPC request goes through the SDK's steps, in order:

1. the method is looked up (unknown: ``-32601 Method not found``, before anything else);
2. ``params`` is read into the method's protocol type (unknown fields ignored);
3. the ``A2A-Version`` header is checked (:mod:`.version`);
4. the REQUIRED fields are checked (``-32602 Validation failed`` with ``google.rpc`` details);
5. the method runs. A message is processed the way the SDK's active task does it: the agent's
   events go through one consumer that keeps the stored task up to date (the user's message
   joins the history on the first update of a continued task, a status message moves to the
   history when the status is replaced, artifact chunks are appended), and the request
   subscribes to what the consumer passes on. ``SendMessage`` answers with the first task
   snapshot that is interrupted or terminal (or the agent's message); ``SendStreamingMessage``
   streams every event; an error before the first event is a plain JSON-RPC error, one after
   it an SSE event.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from ...jsonio import copy_json
from . import states, types
from .card import WELL_KNOWN_PATH, AgentCard, serve_card
from .errors import A2AError, JsonRpcError, error_response, result_response
from .http import HttpRequest, HttpResponse, header
from .ids import Clock, IdSource
from .script import AgentCrash, Event, Script, Turn
from .version import is_supported, refusal_message, requested_version

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
PUSH_METHODS = ("CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
                "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig")
DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE = 50, 100

_TYPE_NAMES = {"task": "Task", "message": "Message", "statusUpdate": "TaskStatusUpdateEvent",
               "artifactUpdate": "TaskArtifactUpdateEvent"}


class NotModelled(Exception):
    """The request leads somewhere the engine does not model (named in the message)."""


class StreamHangs(Exception):
    """The agent would keep the request waiting for ever (a real client would time out)."""


def _refusal(request: str, task: dict[str, Any]) -> A2AError:
    kind, template = states.REFUSALS[request]
    message = template.format(task_id=task["id"], state=task["status"]["state"]) if template else None
    return A2AError(kind, message)


def apply_history_length(task: dict[str, Any], config: dict[str, Any] | None) -> dict[str, Any]:
    """The task with its history cut to the last ``historyLength`` messages (0: none), if asked."""
    if not config or "historyLength" not in config:
        return task
    length = config["historyLength"]
    history = task.get("history", [])
    if length == 0 and history:
        task = copy_json(task)
        del task["history"]
    elif length > 0 and len(history) > length:
        task = copy_json(task)
        task["history"] = history[-length:]
    return task


def _check_history_length(config: dict[str, Any] | None) -> None:
    if config is not None and config.get("historyLength", 0) < 0:
        raise A2AError("InvalidParamsError", "history length must be non-negative")


# --- one request's run of the agent -----------------------------------------------------------

class _TaskManager:
    """The SDK's ``TaskManager`` over the copying in-memory store: one cached task object that
    is changed in place and written to the store (as a copy) on every save."""

    def __init__(self, store: dict[str, dict], task_id: str, context_id: str, initial_message: dict | None) -> None:
        self.store, self.task_id, self.context_id = store, task_id, context_id
        self.initial_message = initial_message
        self.current: dict[str, Any] | None = None

    def get_task(self) -> dict[str, Any] | None:
        if not self.task_id:
            return None
        if self.current is None:
            stored = self.store.get(self.task_id)
            self.current = copy_json(stored) if stored is not None else None
        return self.current

    def invalidate(self) -> None:
        self.current = None

    def _save(self, task: dict[str, Any]) -> None:
        self.store[task["id"]] = copy_json(task)
        self.current = task
        if not self.task_id:
            self.task_id, self.context_id = task["id"], task.get("contextId", "")

    def save_task_event(self, event: Event) -> dict[str, Any]:
        event_task_id = event.body["id"] if event.kind == "task" else event.body["taskId"]
        if self.task_id and self.task_id != event_task_id:
            raise A2AError("InvalidParamsError",
                           f"Task in event doesn't match TaskManager {self.task_id} : {event_task_id}")
        self.task_id = self.task_id or event_task_id
        event_context = event.body.get("contextId", "")
        if self.context_id and self.context_id != event_context:
            raise A2AError("InvalidParamsError",
                           f"Context in event doesn't match TaskManager {self.context_id} : {event_context}")
        self.context_id = self.context_id or event_context
        if event.kind == "task":
            self._save(event.body)
            return event.body
        task = self.ensure_task(event_task_id, event_context)
        if event.kind == "statusUpdate":
            if "message" in task["status"]:
                task.setdefault("history", []).append(copy_json(task["status"]["message"]))
            if event.body.get("metadata"):
                task.setdefault("metadata", {}).update(copy_json(event.body["metadata"]))
            task["status"] = copy_json(event.body["status"])
        else:
            _append_artifact(task, event.body)
        self._save(task)
        return task

    def ensure_task(self, task_id: str, context_id: str) -> dict[str, Any]:
        task = self.current
        if task is None and self.task_id:
            stored = self.store.get(self.task_id)
            task = copy_json(stored) if stored is not None else None
        if task is None:
            task = {"id": task_id, "status": {"state": states.SUBMITTED}}
            if context_id:
                task["contextId"] = context_id
            if self.initial_message is not None:
                task["history"] = [copy_json(self.initial_message)]
            self._save(task)
        return task

    def update_with_message(self, message: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
        if "message" in task["status"]:
            task.setdefault("history", []).append(task["status"].pop("message"))
        task.setdefault("history", []).append(copy_json(message))
        self.current = task
        return task


def _append_artifact(task: dict[str, Any], update: dict[str, Any]) -> None:
    artifact = update["artifact"]
    artifacts = task.setdefault("artifacts", [])
    index = next((i for i, a in enumerate(artifacts) if a["artifactId"] == artifact["artifactId"]), None)
    if not update.get("append"):
        if index is None:
            artifacts.append(copy_json(artifact))
        else:
            artifacts[index] = copy_json(artifact)
    elif index is not None:
        artifacts[index].setdefault("parts", []).extend(copy_json(artifact.get("parts", [])))
        if artifact.get("metadata"):
            artifacts[index].setdefault("metadata", {}).update(copy_json(artifact["metadata"]))
    else:
        if not artifacts:
            del task["artifacts"]
        raise A2AError("InvalidAgentResponseError",
                       f"append=True for nonexistent artifact_id={artifact['artifactId']!r} in task {task['id']!r}. "
                       "The artifact must be created (append=False) before appending parts to it.")


@dataclass
class _Delivery:
    """What the consumer passes on to subscribers: an event with the task snapshot after it,
    an error, or the end of the request."""

    event: Event | None = None
    task: dict[str, Any] | None = None
    error: Exception | None = None
    request_done: bool = False


class _ActiveTask:
    """One request's run: the producer (the script) and the consumer, played in sequence."""

    def __init__(self, agent: "Agent", task_id: str, context_id: str, initial_message: dict | None) -> None:
        self.agent = agent
        self.task_id = task_id
        self.manager = _TaskManager(agent.tasks, task_id, context_id, initial_message)
        self.task_created = False
        self.task_mode: bool | None = None
        self.message_to_save: dict[str, Any] | None = None

    def start(self, create_if_missing: bool) -> None:
        task = self.manager.get_task()
        if task is not None:
            self.task_created = True
            try:
                states.transition(task["status"]["state"], states.FOLLOW_UP)
            except states.IllegalTransition:
                raise _refusal(states.FOLLOW_UP, task) from None
        elif not create_if_missing:
            raise A2AError("TaskNotFoundError")

    def run(self, message: dict[str, Any], context_id: str) -> list[_Delivery]:
        """Play the agent on ``message`` and return what the consumer passes on, in order."""
        self.manager.invalidate()
        turn = Turn(message=message, task_id=self.task_id, context_id=context_id,
                    current_task=copy_json(self.manager.get_task()))
        try:
            events = self.agent.script.execute(turn, self.agent.ids, self.agent.clock)
        except AgentCrash as exc:
            raise NotModelled(f"the agent raises ({exc}); the engine does not model an agent crash") from None
        out: list[_Delivery] = []
        self.message_to_save = message  # the "request started" marker
        for event in events + [None]:
            if event is None:
                out.append(_Delivery(request_done=True))
                break
            try:
                out.append(self._consume(event))
            except A2AError as error:
                out.append(self._fail(error))
                break
        return out

    def _consume(self, event: Event) -> _Delivery:
        if event.kind == "message":
            if self.task_mode is True:
                raise A2AError("InvalidAgentResponseError", "Received Message object in task mode. "
                               "Use TaskStatusUpdateEvent or TaskArtifactUpdateEvent instead.")
            if self.task_mode is False:
                raise A2AError("InvalidAgentResponseError", "Multiple Message objects received.")
            self.task_mode = False
            return _Delivery(event=event)
        updated = self._handle_task_event(event)
        snapshot = copy_json(updated)
        shown = Event("task", snapshot) if event.body is updated else event
        return _Delivery(event=shown, task=snapshot)

    def _handle_task_event(self, event: Event) -> dict[str, Any]:
        if self.task_mode is False:
            raise A2AError("InvalidAgentResponseError", f"Received {_TYPE_NAMES[event.kind]} in message mode. "
                           "Use Task with TaskStatusUpdateEvent and TaskArtifactUpdateEvent instead.")
        manager = self.manager
        if event.kind == "task":
            if manager.get_task() is None:
                manager.save_task_event(event)
            self.message_to_save = None
        else:
            if event.kind == "statusUpdate" and not self.task_created and manager.get_task() is None:
                raise A2AError("InvalidAgentResponseError",
                               f"Agent should enqueue Task before {_TYPE_NAMES[event.kind]} event")
            task = manager.ensure_task(self.task_id, event.body.get("contextId", ""))
            if self.message_to_save is not None:
                saved = any(m.get("messageId") == self.message_to_save.get("messageId")
                            for m in task.get("history", []))
                if not saved:
                    task = manager.update_with_message(self.message_to_save, task)
                    manager.save_task_event(Event("task", task))
                self.message_to_save = None
            manager.context_id = event.body.get("contextId", "")
            manager.save_task_event(event)
        self.task_mode = True
        self.task_created = True
        task = manager.get_task()
        assert task is not None
        return task

    def _fail(self, error: A2AError) -> _Delivery:
        """The consumer's failure path: write ``TASK_STATE_FAILED`` (no timestamp), pass the error on."""
        task = self.manager.get_task()
        updated = None
        if task is not None and task["status"]["state"] not in states.TERMINAL:
            failed = Event("statusUpdate", {"taskId": task["id"], "contextId": task.get("contextId", ""),
                                            "status": {"state": states.FAILED}})
            try:
                updated = copy_json(self._handle_task_event(failed))
            except A2AError:
                pass  # the consumer dies of it; subscribers still hear the first error
        return _Delivery(error=error, task=updated)

    def subscription(self, deliveries: list[_Delivery], replace_status_with_task: bool) -> Iterator[Event]:
        """What the request's own subscriber sees; raises the error the consumer passed on."""
        for delivery in deliveries:
            if delivery.error is not None:
                raise delivery.error
            if delivery.request_done:
                return
            event = delivery.event
            assert event is not None
            if replace_status_with_task and event.kind == "statusUpdate":
                event = Event("task", delivery.task or {})
            yield event


# --- the agent --------------------------------------------------------------------------------

class Agent:
    """An A2A agent served by the SDK: its card, its script, and the tasks it has stored.

    ``handle`` answers one HTTP request; the agent keeps its task store between requests.
    """

    def __init__(self, card: AgentCard, script: Script, ids: IdSource | None = None, clock: Clock | None = None) -> None:
        self.card = card
        self.script = script
        self.ids = ids or IdSource("agent")
        self.clock = clock or Clock()
        self.tasks: dict[str, dict[str, Any]] = {}  # task id -> stored task, in creation order

    def state(self) -> dict[str, Any]:
        """The task store as JSON (each task's id and state, in creation order), for a person
        stepping through a session."""
        return {"tasks": [{"id": task_id, "state": task["status"]["state"]} for task_id, task in self.tasks.items()]}

    def handle(self, request: HttpRequest) -> HttpResponse:
        """Answer one HTTP request (the card at the well-known path, JSON-RPC at the card's URL)."""
        base = self.card.base_url
        path = request.url[len(base):] if request.url.startswith(base) else request.url
        if request.method == "GET" and path == WELL_KNOWN_PATH:
            status, headers, body = serve_card(self.card, header(request.headers, "If-None-Match"))
            return HttpResponse(status, headers, body)
        if request.method == "POST" and path == self.card.rpc_path:
            return self._jsonrpc(request)
        raise NotModelled(f"{request.method} {path}: the agent serves only its card and {self.card.rpc_path}")

    # The dispatcher ----------------------------------------------------------------------------

    def _jsonrpc(self, request: HttpRequest) -> HttpResponse:
        body = request.body
        request_id = body.get("id") if isinstance(body, dict) else None
        if not isinstance(request_id, (str, int)):
            request_id = None
        try:
            if not isinstance(body, dict) or body.get("jsonrpc") != "2.0" or not isinstance(body.get("method"), str):
                raise NotModelled("a request that is not a JSON-RPC 2.0 request object")
            method = body["method"]
            if method not in METHODS:
                raise JsonRpcError(-32601, "Method not found")
            try:
                params = types.parse(METHODS[method], body.get("params", {}))
            except types.ParseFailure as exc:
                raise NotModelled(f"params protobuf would refuse ({exc})") from None
            version = requested_version(request.headers)
            if not is_supported(version):
                raise A2AError("VersionNotSupportedError", refusal_message(version))
            if method in STREAMING_METHODS:
                return self._stream(request_id, method, params)
            return _json(result_response(request_id, self._call(method, params)))
        except (A2AError, JsonRpcError) as error:
            return _json(error_response(request_id, error))

    def _stream(self, request_id: Any, method: str, params: dict[str, Any]) -> HttpResponse:
        events, stays_open = (self._send_streaming(params) if method == "SendStreamingMessage"
                              else self._subscribe(params))
        out: list[dict[str, Any]] = []
        try:
            for event in events:  # the first event is fetched before the answer starts
                out.append(result_response(request_id, {event.kind: event.body}))
        except A2AError as error:
            if not out:
                raise
            out.append(error_response(request_id, error))
            stays_open = False
        return HttpResponse(200, [("Content-Type", "text/event-stream; charset=utf-8")], events=out, open=stays_open)

    def _call(self, method: str, params: dict[str, Any]) -> Any:
        _require(METHODS[method], params)
        if method == "SendMessage":
            return self._send(params)
        if method == "GetTask":
            return self._get_task(params)
        if method == "CancelTask":
            return self._cancel_task(params)
        if method == "ListTasks":
            return self._list_tasks(params)
        if method == "GetExtendedAgentCard":
            if not self.card.extended_agent_card:
                raise A2AError("UnsupportedOperationError", "The agent does not support authenticated extended cards")
            raise A2AError("ExtendedAgentCardNotConfiguredError")
        if method in PUSH_METHODS:
            raise A2AError("PushNotificationNotSupportedError", "Push notifications are not supported by the agent")
        raise NotModelled(method)

    # The request handler -----------------------------------------------------------------------

    def _get_task(self, params: dict[str, Any]) -> dict[str, Any]:
        _check_history_length(params)
        task = self.tasks.get(params["id"])
        if task is None:
            raise A2AError("TaskNotFoundError")
        return apply_history_length(copy_json(task), params)

    def _cancel_task(self, params: dict[str, Any]) -> dict[str, Any]:
        stored = self.tasks.get(params["id"])
        if stored is None:
            raise A2AError("TaskNotFoundError")
        task = copy_json(stored)
        try:
            task["status"]["state"] = states.transition(task["status"]["state"], states.CANCEL)
        except states.IllegalTransition:
            raise _refusal(states.CANCEL, task) from None
        # Nothing of the agent runs for a parked task: the handler writes the new state over
        # the stored status, keeping its message and timestamp; the agent's cancel is not called.
        self.tasks[task["id"]] = copy_json(task)
        return task

    def _begin(self, params: dict[str, Any]) -> tuple[_ActiveTask, dict[str, Any], str]:
        """Resolve the task and context of a message and start its run (``_setup_active_task``)."""
        config = params.get("configuration") or {}
        _check_history_length(config)
        if config.get("returnImmediately"):
            raise NotModelled("returnImmediately (the agent would go on after the answer)")
        message = copy_json(params["message"])
        task_id = message.get("taskId") or None
        context_id = message.get("contextId") or None
        if task_id:
            task = self.tasks.get(task_id)
            if task is None:
                raise A2AError("TaskNotFoundError", f"Task {task_id} not found")
            if context_id and task.get("contextId", "") != context_id:
                raise A2AError("InvalidParamsError", f"Context {context_id} does not match context "
                               f"{task.get('contextId', '')} of task {task_id}")
        if not task_id:
            task_id = message["taskId"] = self.ids.new()
        if not context_id:
            context_id = message["contextId"] = self.ids.new()
        run = _ActiveTask(self, task_id, context_id, message)
        run.start(create_if_missing=True)
        return run, message, context_id

    def _send(self, params: dict[str, Any]) -> dict[str, Any]:
        run, message, context_id = self._begin(params)
        result: Event | None = None
        for event in run.subscription(run.run(message, context_id), replace_status_with_task=True):
            if event.kind == "task" and event.body["status"]["state"] in states.TERMINAL | states.INTERRUPTED:
                result = event
                if event.body["status"]["state"] != states.FAILED:
                    break
            if event.kind == "message":
                result = event
        if result is None:
            task = run.manager.get_task()
            if task is None:
                raise StreamHangs("the agent published neither a task nor a message; SendMessage would wait for ever")
            result = Event("task", copy_json(task))
        if result.kind == "task":
            return {"task": apply_history_length(result.body, params.get("configuration"))}
        return {"message": result.body}

    def _send_streaming(self, params: dict[str, Any]) -> tuple[Iterator[Event], bool]:
        _require("SendMessageRequest", params)
        if not self.card.streaming:
            raise A2AError("UnsupportedOperationError", "Streaming is not supported by the agent")
        run, message, context_id = self._begin(params)
        config = params.get("configuration")

        def events() -> Iterator[Event]:
            for event in run.subscription(run.run(message, context_id), replace_status_with_task=False):
                yield Event("task", apply_history_length(event.body, config)) if event.kind == "task" else event

        return _eager(events()), False

    def _subscribe(self, params: dict[str, Any]) -> tuple[Iterator[Event], bool]:
        _require("SubscribeToTaskRequest", params)
        if not self.card.streaming:
            raise A2AError("UnsupportedOperationError", "Streaming is not supported by the agent")
        stored = self.tasks.get(params["id"])
        if stored is None:
            raise A2AError("TaskNotFoundError")
        try:
            states.transition(stored["status"]["state"], states.SUBSCRIBE)
        except states.IllegalTransition:
            raise _refusal(states.SUBSCRIBE, stored) from None
        run = _ActiveTask(self, params["id"], "", None)
        run.start(create_if_missing=False)
        # The current task first; then the agent waits for a request that never comes here.
        return iter([Event("task", copy_json(run.manager.get_task()))]), True

    def _list_tasks(self, params: dict[str, Any]) -> dict[str, Any]:
        _check_history_length(params)
        if "pageSize" in params:
            if params["pageSize"] < 1:
                raise A2AError("InvalidParamsError", "minimum page size is 1")
            if params["pageSize"] > MAX_PAGE_SIZE:
                raise A2AError("InvalidParamsError", f"maximum page size is {MAX_PAGE_SIZE}")
        if params.get("pageToken") or "statusTimestampAfter" in params:
            raise NotModelled("ListTasks page tokens and timestamp filters")
        tasks = [copy_json(t) for t in self.tasks.values()]
        if params.get("contextId"):
            tasks = [t for t in tasks if t.get("contextId", "") == params["contextId"]]
        if params.get("status"):
            tasks = [t for t in tasks if t["status"]["state"] == params["status"]]
        if sum(1 for t in tasks if "timestamp" not in t["status"]) > 1:
            raise NotModelled("ListTasks orders tasks without a timestamp by their random IDs")
        tasks.sort(key=lambda t: ("timestamp" in t["status"], t["status"].get("timestamp", "")), reverse=True)
        page_size = params.get("pageSize") or DEFAULT_PAGE_SIZE
        if len(tasks) > page_size:
            raise NotModelled("ListTasks pages (the next page token holds a timestamp and a random ID)")
        listed = []
        for task in tasks:
            if not params.get("includeArtifacts"):
                task.pop("artifacts", None)
            listed.append(types.with_every_field("Task", apply_history_length(task, params)))
            if not params.get("includeArtifacts"):
                listed[-1].pop("artifacts", None)
        return {"tasks": listed, "nextPageToken": "", "pageSize": page_size, "totalSize": len(tasks)}


def _require(type_name: str, params: dict[str, Any]) -> None:
    errors = types.required_violations(type_name, params)
    if errors:
        raise A2AError("InvalidParamsError", "Validation failed", {"errors": errors})


def _eager(events: Iterator[Event]) -> Iterator[Event]:
    """Fetch the first event at once, so that errors before it surface before the stream starts."""
    first = next(events, None)

    def rest() -> Iterator[Event]:
        if first is not None:
            yield first
            yield from events

    return rest()


def _json(body: dict[str, Any]) -> HttpResponse:
    return HttpResponse(200, [("Content-Type", "application/json")], body)
