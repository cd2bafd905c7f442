"""The SDK's request handler (``DefaultRequestHandlerV2``) over its in-memory task store.

`RequestHandler.call` runs one JSON-RPC method on params already read into their protocol
type; `RequestHandler.stream` the two streaming ones. It keeps the task store between requests;
with `harness.EXECUTOR_OUTLIVES_REQUEST` in effect (the SDK served on one event loop), also the
run of every task that waits, which takes the next request about it (see `harness`). ``SendMessage``
answers with the first task snapshot that is interrupted or terminal (or the agent's message);
``SendStreamingMessage`` streams every event.
"""
from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime, timezone
from typing import Any, Iterator

from . import states, types
from .active_task import ActiveTask, NotModelled, refusal
from .card import AgentCard
from .errors import A2AError
from .harness import EXECUTOR_OUTLIVES_REQUEST
from .ids import Clock, IdSource
from .script import Event, Script

PUSH_METHODS = ("CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
                "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig")
DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE = 50, 100


class StreamHangs(Exception):
    """The agent would keep the request waiting for ever (a real client would time out)."""


def apply_history_length(task: dict[str, Any], config: dict[str, Any] | None) -> dict[str, Any]:
    """The task with its history cut to the last ``historyLength`` messages (0: none), if asked:
    a new task object when cut, sharing the rest (an answer is written from fresh objects,
    `types.written`, and nothing the task holds is changed in place)."""
    if not config or "historyLength" not in config:
        return task
    length = config["historyLength"]
    history = task.get("history", [])
    if length == 0 and history:
        task = dict(task)
        del task["history"]
    elif length > 0 and len(history) > length:
        task = dict(task)
        task["history"] = history[-length:]
    return task


def _check_history_length(config: dict[str, Any] | None) -> None:
    if config is not None and config.get("historyLength", 0) < 0:
        raise A2AError("InvalidParamsError", "history length must be non-negative")


class Subscription:
    """A ``SubscribeToTask`` stream on a task whose run is alive (`EXECUTOR_OUTLIVES_REQUEST`):
    the events that run publishes later, for other requests, until the task is finished."""

    def __init__(self, task_id: str) -> None:
        self.task_id = task_id
        self.pending: list[Event] = []
        self.closed = False

    def take(self) -> list[Event]:
        """The events since the last take."""
        out, self.pending = self.pending, []
        return out


class RequestHandler:
    """The methods of the binding, on the agent's card, script and stored tasks."""

    def __init__(self, card: AgentCard, script: Script, ids: IdSource, clock: Clock,
                 rules: frozenset[str] = frozenset()) -> None:
        self.card, self.script, self.ids, self.clock, self.rules = card, script, ids, clock, rules
        self.tasks: dict[str, dict[str, Any]] = {}  # task id -> stored task, in creation order
        self.subscriptions: dict[str, list[Subscription]] = {}  # task id -> its open live subscriptions

    def unsubscribe(self, task_id: str, subscription: Subscription) -> None:
        """The client of a live subscription went away: it gets nothing more."""
        subscriptions = self.subscriptions.get(task_id, [])
        if subscription in subscriptions:
            subscriptions.remove(subscription)
            if not subscriptions:
                del self.subscriptions[task_id]

    def publish(self, task_id: str, event: Event) -> None:
        """A task's run published ``event``: its live subscriptions get it; a finished task's end."""
        subscriptions = self.subscriptions.get(task_id)
        if not subscriptions:
            return
        done = event.kind == "statusUpdate" and event.body["status"]["state"] in states.TERMINAL
        for subscription in subscriptions:
            subscription.pending.append(event)
            subscription.closed = done
        if done:
            del self.subscriptions[task_id]

    def stream(self, method: str, params: dict[str, Any]) -> tuple[Iterator[Event], bool, Subscription | None]:
        """The events of a streaming method, whether the stream stays open after them, and (a live
        subscription) what it gets later."""
        if method == "SendStreamingMessage":
            return (*self._send_streaming(params), None)
        return self._subscribe(params)

    def call(self, method: str, type_name: str, params: dict[str, Any]) -> Any:
        """The result of a non-streaming method."""
        _require(type_name, params)
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
        raise LookupError(f"{method}: every method the agent serves has a branch above")

    def _get_task(self, params: dict[str, Any]) -> dict[str, Any]:
        _check_history_length(params)
        task = self.tasks.get(params["id"])
        if task is None:
            raise A2AError("TaskNotFoundError")
        return apply_history_length(task, params)  # (read only: the answer is written anew, `types.written`)

    def _cancel_task(self, params: dict[str, Any]) -> dict[str, Any]:
        stored = self.tasks.get(params["id"])
        if stored is None:
            raise A2AError("TaskNotFoundError")
        task = {**stored, "status": dict(stored["status"])}  # (the stored task is replaced, not changed)
        try:
            task["status"]["state"] = states.transition(task["status"]["state"], states.CANCEL)
        except states.IllegalTransition:
            raise refusal(states.CANCEL, task) from None
        if EXECUTOR_OUTLIVES_REQUEST in self.rules:
            # The task's run is alive: the agent's cancel publishes a bare CANCELED status,
            # which replaces the stored one (its message joins the history).
            run = ActiveTask(self, task["id"], stored.get("contextId", ""), None)
            update = {"taskId": task["id"], "contextId": stored.get("contextId", ""),
                      "status": {"state": task["status"]["state"], "timestamp": self.clock.now()}}
            event = Event("statusUpdate", update)
            canceled = run.manager.save_task_event(event)
            self.publish(task["id"], event)
            return canceled
        # Nothing of the agent runs for a parked task: the handler writes the new state over
        # the stored status, keeping its message and timestamp; the agent's cancel is not called.
        self.tasks[task["id"]] = task  # (the answer is written anew from it, `types.written`)
        return task

    def _begin(self, params: dict[str, Any]) -> tuple[ActiveTask, dict[str, Any], str]:
        """Resolve the task and context of a message and start its run (``_setup_active_task``)."""
        config = params.get("configuration") or {}
        _check_history_length(config)
        message = params["message"]  # (params were read into fresh objects: `types.parse`)
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
        # A waiting task's run, where it outlived its request, keeps the task's context; a new
        # run takes the request's (and a follow-up without one then fails on the first update).
        run_context = context_id
        if EXECUTOR_OUTLIVES_REQUEST in self.rules and task_id in self.tasks:
            run_context = self.tasks[task_id].get("contextId", "")
        run = ActiveTask(self, task_id, run_context, message)
        run.start(create_if_missing=True)
        return run, message, context_id

    def _send(self, params: dict[str, Any]) -> dict[str, Any]:
        run, message, context_id = self._begin(params)
        result: Event | None = None
        # returnImmediately: the answer is the first task the agent publishes; the agent still runs
        # to its end before the next request (an event loop per request runs until nothing is
        # left; served as deployed, the recorder waits until the agent is idle).
        immediately = bool((params.get("configuration") or {}).get("returnImmediately"))
        for event in run.subscription(run.run(message, context_id), replace_status_with_task=True):
            if immediately:
                if result is None and event.kind in ("task", "message"):
                    result = event
                continue
            if event.kind == "task" and event.body["status"]["state"] in states.STOPPED:
                result = event
                if event.body["status"]["state"] != states.FAILED:
                    break
            if event.kind == "message":
                result = event
        if result is None:
            task = run.manager.get_task()
            if task is None:
                raise StreamHangs("the agent published neither a task nor a message; SendMessage would wait for ever")
            result = Event("task", task)  # (read only: the answer is written anew, `types.written`)
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

    def _subscribe(self, params: dict[str, Any]) -> tuple[Iterator[Event], bool, Subscription | None]:
        _require("SubscribeToTaskRequest", params)
        if not self.card.streaming:
            raise A2AError("UnsupportedOperationError", "Streaming is not supported by the agent")
        stored = self.tasks.get(params["id"])
        if stored is None:
            raise A2AError("TaskNotFoundError")
        try:
            states.transition(stored["status"]["state"], states.SUBSCRIBE)
        except states.IllegalTransition:
            raise refusal(states.SUBSCRIBE, stored) from None
        run = ActiveTask(self, params["id"], "", None)
        run.start(create_if_missing=False)
        first = iter([Event("task", run.manager.get_task())])  # the current task first (read only, as above)
        if EXECUTOR_OUTLIVES_REQUEST not in self.rules:
            return first, True, None  # then the agent waits for a request that never comes here
        # The task's run is alive: the stream gets what it publishes for later requests, to the end.
        subscription = Subscription(params["id"])
        self.subscriptions.setdefault(params["id"], []).append(subscription)
        return first, True, subscription

    def _list_tasks(self, params: dict[str, Any]) -> dict[str, Any]:
        _check_history_length(params)
        if "pageSize" in params:
            if params["pageSize"] < 1:
                raise A2AError("InvalidParamsError", "minimum page size is 1")
            if params["pageSize"] > MAX_PAGE_SIZE:
                raise A2AError("InvalidParamsError", f"maximum page size is {MAX_PAGE_SIZE}")
        tasks = [dict(t) for t in self.tasks.values()]  # (only their own members are dropped below)
        if "statusTimestampAfter" in params:  # (read into nanoseconds: `types`)
            after = params["statusTimestampAfter"]
            tasks = [t for t in tasks if "timestamp" in t["status"] and _nanoseconds(t["status"]["timestamp"]) >= after]
        if params.get("contextId"):
            tasks = [t for t in tasks if t.get("contextId", "") == params["contextId"]]
        if params.get("status"):
            tasks = [t for t in tasks if t["status"]["state"] == params["status"]]
        if sum(1 for t in tasks if "timestamp" not in t["status"]) > 1:
            raise NotModelled("ListTasks orders tasks without a timestamp by their random IDs "
                              "(finding a2a-list-untimestamped-order)")
        tasks.sort(key=_sort_key, reverse=True)  # newest first; the ID breaks ties, as the store's key does
        total = len(tasks)
        start = _page_start(params["pageToken"], tasks) if params.get("pageToken") else 0
        page_size = params.get("pageSize") or DEFAULT_PAGE_SIZE
        end = start + page_size
        next_token = _cursor_token(tasks[end - 1]) if end < total else ""
        tasks = tasks[start:end]
        listed = []
        for task in tasks:
            if not params.get("includeArtifacts"):
                task.pop("artifacts", None)
            listed.append(types.with_every_field("Task", apply_history_length(task, params)))
            if not params.get("includeArtifacts"):
                listed[-1].pop("artifacts", None)
        return {"tasks": listed, "nextPageToken": next_token, "pageSize": page_size, "totalSize": total}


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


def _nanoseconds(timestamp: str) -> int:
    """A timestamp as protobuf writes it (UTC, ``Z``, up to nine fractional digits) in nanoseconds."""
    seconds, _, fraction = timestamp.rstrip("Z").partition(".")
    moment = datetime.strptime(seconds, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc)
    return int(moment.timestamp()) * 1_000_000_000 + int((fraction + "000000000")[:9])


def _sort_key(task: dict[str, Any]) -> tuple[bool, int, str]:
    """The in-memory store's order: (has a timestamp, the timestamp, the ID), listed descending."""
    stamp = task["status"].get("timestamp")
    return (stamp is not None, _nanoseconds(stamp) if stamp is not None else 0, task["id"])


def _cursor_token(task: dict[str, Any]) -> str:
    """The next page's token: the last listed task's place, as URL-safe base64 of ``{"ts", "id"}``
    without padding (random in the SDK's answer, so normalised as a task ID is: `normalise`)."""
    has_stamp, stamp, task_id = _sort_key(task)
    cursor = json.dumps({"ts": stamp if has_stamp else None, "id": task_id}, separators=(",", ":"))
    return base64.urlsafe_b64encode(cursor.encode()).decode().rstrip("=")


def _page_start(token: str, tasks: list[dict[str, Any]]) -> int:
    """Where the page a token names starts, or the store's refusal of the token.

    A token is first read as a cursor (URL-safe base64 of ``{"ts", "id"}``: the page starts after
    that place), else as a legacy token (standard base64 of the page's first task ID)."""
    try:
        cursor = json.loads(base64.urlsafe_b64decode((token + "=" * (-len(token) % 4)).encode()))
    except (binascii.Error, ValueError):
        cursor = None
    if isinstance(cursor, dict) and cursor.keys() == {"ts", "id"}:
        stamp, task_id = cursor["ts"], cursor["id"]
        if (stamp is None or (isinstance(stamp, int) and not isinstance(stamp, bool))) and isinstance(task_id, str) \
                and task_id:
            after = (stamp is not None, stamp or 0, task_id)
            return next((i for i, task in enumerate(tasks) if _sort_key(task) < after), len(tasks))
    padded = token + "=" * (-len(token) % 4)
    try:
        first = base64.b64decode(padded.encode()).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise A2AError("InvalidParamsError", "Token is not a valid base64-encoded cursor.") from None
    for i, task in enumerate(tasks):
        if task["id"] == first:
            return i
    raise A2AError("InvalidParamsError", f"Invalid page token: {token}")
