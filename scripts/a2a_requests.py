"""The orchestrating application of the A2A recordings, written from the scenario's steps alone.

The recorder needs requests to send, and they must not come from the engine (whose orchestrator
is what the recordings check). This module builds them from the steps as
``agent_loop_sim/protocols/a2a/scenario.py`` documents them, with the SDK's own constants, and
imports nothing of ``agent_loop_sim``. It does not use the SDK's client: the scenarios send
what that client never would (integer JSON-RPC ids, 0.3 method names, other or missing
``A2A-Version`` headers, negative history lengths, unknown task IDs), so the bodies are built
here, as plain JSON.

:class:`StepPlayer` is sans-IO: :meth:`~StepPlayer.next_request` hands out the next
:class:`Call`; the caller carries it and gives back the :class:`Answer`, or a stream's events
one by one (:meth:`~StepPlayer.event` says when the application has read enough and hangs up).
"""
from __future__ import annotations

import copy
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from a2a.types import TaskState
from a2a.utils.constants import AGENT_CARD_WELL_KNOWN_PATH, PROTOCOL_VERSION_CURRENT, VERSION_HEADER

#: The states after which the application stops reading a stream: finished, or waiting for it.
STOPS_AT = frozenset(TaskState.Name(s) for s in (
    TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED))
#: The JSON-RPC method of each step that is not a send.
METHOD_OF = {"get": "GetTask", "cancel": "CancelTask", "subscribe": "SubscribeToTask",
             "extended_card": "GetExtendedAgentCard", "list": "ListTasks"}
#: The JSON-RPC method of each push-notification-config action.
PUSH_METHOD_OF = {"create": "CreateTaskPushNotificationConfig", "get": "GetTaskPushNotificationConfig",
                  "list": "ListTaskPushNotificationConfigs", "delete": "DeleteTaskPushNotificationConfig"}
#: The headers a raw post goes with unless it names its own.
RAW_HEADERS = (("Content-Type", "application/json"), (VERSION_HEADER, PROTOCOL_VERSION_CURRENT))


class StepError(Exception):
    """A step refers to something the agent never gave (a task, a context, an ETag)."""


def header(headers: list[tuple[str, str]], name: str) -> str | None:
    return next((v for k, v in headers if k.lower() == name.lower()), None)


@dataclass
class Call:
    """One HTTP request: ``GET`` of the card or ``POST`` of a JSON-RPC object."""

    method: str
    url: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: Any = None
    raw: str | None = None  # a raw post: the body exactly as written

    def content(self) -> bytes | None:
        """The bytes that go on the wire."""
        if self.raw is not None:
            return self.raw.encode()
        return json.dumps(self.body).encode() if self.body is not None else None


@dataclass
class Answer:
    """One HTTP answer; ``events`` is set when it is a stream (``text/event-stream``)."""

    status: int = 0
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: Any = None
    text: str | None = None  # the body, when it is not JSON
    sent: str | None = None  # the body's text as it came (JSON or not), for the wire lines kept beside a recording
    events: list[Any] | None = None


def _task_of(result: Any) -> tuple[Any, Any, Any] | None:
    """(task id, context id, status) of the task an answer or an event speaks of."""
    if not isinstance(result, dict):
        return None
    for key, id_key in (("task", "id"), ("statusUpdate", "taskId"), ("artifactUpdate", "taskId")):
        if isinstance(result.get(key), dict):
            inner = result[key]
            return inner.get(id_key), inner.get("contextId"), inner.get("status")
    if "id" in result and "status" in result:  # GetTask and CancelTask answer with the bare task
        return result["id"], result.get("contextId"), result["status"]
    return None


class StepPlayer:
    """Plays a session's ``steps`` against the agent at ``base_url`` (JSON-RPC at ``rpc_path``)."""

    def __init__(self, steps: list[dict[str, Any]], base_url: str, rpc_path: str) -> None:
        self.steps, self.base_url, self.rpc_url = steps, base_url.rstrip("/"), base_url.rstrip("/") + rpc_path
        self.done = 0
        self.rpc_ids = iter(range(1, 1 << 31))
        self.task: tuple[str, str | None] | None = None  # the last task the agent spoke of
        self.context: str | None = None  # the last context ID the agent sent
        self.etag: str | None = None
        self.labels: dict[str, tuple[str, str | None]] = {}
        self.message_ids: dict[str, str] = {}
        self.heard_of_task = False
        self.page_token: str | None = None  # the last ListTasks answer's nextPageToken

    @property
    def step(self) -> dict[str, Any]:
        return self.steps[self.done]

    def next_request(self) -> Call | None:
        if self.done >= len(self.steps):
            return None
        step, self.heard_of_task = self.step, False
        if step["op"] == "card":
            return self._card(step)
        if step["op"] == "raw":  # posted exactly as written, among the other steps
            headers = [(k, v) for k, v in step["headers"]] if "headers" in step else list(RAW_HEADERS)
            return Call("POST", self.rpc_url, headers, raw=step["body"])
        method = step.get("method") or _method(step)
        rpc_id = next(self.rpc_ids)
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": step.get("jsonrpc_id", rpc_id), "method": method}
        params = self._params(step)
        if params is not None:
            body["params"] = params
        headers = [("Content-Type", "application/json")]
        version = step.get("version", PROTOCOL_VERSION_CURRENT)
        if version is not None:
            headers.append((VERSION_HEADER, version))
        return Call("POST", self.rpc_url, headers, body)

    def _card(self, step: dict[str, Any]) -> Call:
        headers = []
        if step.get("revalidate"):
            if self.etag is None:
                raise StepError("the last card answer had no ETag to revalidate")
            headers.append(("If-None-Match", self.etag))
        elif "if_none_match" in step:
            headers.append(("If-None-Match", step["if_none_match"]))
        return Call("GET", self.base_url + AGENT_CARD_WELL_KNOWN_PATH, headers)

    def _params(self, step: dict[str, Any]) -> dict[str, Any] | None:
        op = step["op"]
        if op == "send":
            return self._send(step)
        if op == "extended_card":
            return None
        params: dict[str, Any] = {}
        if op == "list":
            if step.get("context", "none") != "none":
                params["contextId"] = self._context_id(step["context"])
            renamed = {"status": "status", "history_length": "historyLength", "include_artifacts": "includeArtifacts",
                       "page_size": "pageSize", "page_token": "pageToken",
                       "status_timestamp_after": "statusTimestampAfter"}
        elif op == "push_config":
            params["taskId"] = step["task_id"] if "task_id" in step else self._task_ref(step.get("task", "current"))[0]
            renamed = {"id": "id", "url": "url", "token": "token", "page_size": "pageSize", "page_token": "pageToken"}
        else:
            params["id"] = step["task_id"] if "task_id" in step else self._task_ref(step.get("task", "current"))[0]
            renamed = {"status": "status", "history_length": "historyLength", "include_artifacts": "includeArtifacts"}
        params.update({renamed[k]: step[k] for k in renamed if k in step})
        if step.get("next_page"):
            if self.page_token is None:
                raise StepError("no page token: no ListTasks answer gave one yet")
            params["pageToken"] = self.page_token
        return params

    def _send(self, step: dict[str, Any]) -> dict[str, Any]:
        label = step.get("message")
        if "message_id" in step:
            message_id = step["message_id"]  # the application's own (None: no messageId at all)
        elif label is None:
            message_id = str(uuid.uuid4())
        else:
            message_id = self.message_ids.setdefault(label, str(uuid.uuid4()))
        message: dict[str, Any] = {"messageId": message_id, "role": step.get("role", "ROLE_USER"),
                                   "parts": [{"text": step["text"]}] if "text" in step else copy.deepcopy(step["parts"])}
        if message_id is None:
            del message["messageId"]
        for key in ("metadata", "extensions"):
            if key in step:
                message[key] = copy.deepcopy(step[key])
        if "reference_tasks" in step:
            message["referenceTaskIds"] = [self._task_ref(ref)[0] for ref in step["reference_tasks"]]
        ref = step.get("task", "new")
        task_id, context = (None, None) if ref == "new" else self._task_ref(ref)
        task_id = step.get("task_id", task_id)
        if "context_id" in step:
            context = step["context_id"]
        elif "context" in step:
            context = None if step["context"] == "none" else self._context_id(step["context"])
        if task_id is not None:
            message["taskId"] = task_id
        if context is not None:
            message["contextId"] = context
        params: dict[str, Any] = {"message": message}
        configuration: dict[str, Any] = {}
        if "accepted_output_modes" in step:
            configuration["acceptedOutputModes"] = list(step["accepted_output_modes"])
        if "push_url" in step:
            configuration["taskPushNotificationConfig"] = {"url": step["push_url"]}
            if "push_token" in step:
                configuration["taskPushNotificationConfig"]["token"] = step["push_token"]
        for key, name in (("history_length", "historyLength"), ("return_immediately", "returnImmediately"),
                          ("blocking", "blocking")):
            if key in step:
                configuration[name] = step[key]
        if configuration:
            params["configuration"] = configuration
        if "request_metadata" in step:
            params["metadata"] = copy.deepcopy(step["request_metadata"])
        return params

    def _task_ref(self, ref: str) -> tuple[str, str | None]:
        if ref == "unknown":
            return str(uuid.uuid4()), None
        if ref == "current":
            if self.task is None:
                raise StepError("no current task: the agent has not spoken of a task yet")
            return self.task
        if ref not in self.labels:
            raise StepError(f"the label {ref!r} is not bound to a task")
        return self.labels[ref]

    def _context_id(self, ref: str) -> str:
        if ref == "unknown":
            return str(uuid.uuid4())
        if self.context is None:
            raise StepError("no context yet: the agent has not sent a context ID")
        return self.context

    # -- answers --------------------------------------------------------------------------------

    def answer(self, answer: Answer) -> None:
        """The whole answer to the last request (not a stream)."""
        if self.step["op"] == "card":
            self.etag = header(answer.headers, "ETag")
        else:
            result = answer.body.get("result") if isinstance(answer.body, dict) else None
            self._hear(result)
            if self.step["op"] == "list" and isinstance(result, dict) and isinstance(result.get("nextPageToken"), str):
                self.page_token = result["nextPageToken"]
        self._next()

    def event(self, event: Any) -> bool:
        """One event of a stream; ``True`` when the application has what it waits for and hangs up."""
        self._hear(event.get("result") if isinstance(event, dict) else None)
        final = is_final(event)
        if final:
            self._next()
        return final

    def stream_closed(self) -> None:
        """The agent closed a stream before the application hung up."""
        self._next()

    def _hear(self, result: Any) -> None:
        task = _task_of(result)
        if task is not None and isinstance(task[0], str):
            self.task = (task[0], task[1] if isinstance(task[1], str) else None)
            self.heard_of_task = True
        if isinstance(result, dict):
            context = task[1] if task is not None else (result.get("message") or {}).get("contextId")
            if isinstance(context, str) and context:
                self.context = context

    def _next(self) -> None:
        step = self.step
        if "as" in step and self.heard_of_task and self.task is not None:
            self.labels[step["as"]] = self.task
        self.done += 1


def _method(step: dict[str, Any]) -> str:
    if step["op"] == "send":
        return "SendStreamingMessage" if step.get("stream") else "SendMessage"
    if step["op"] == "push_config":
        return PUSH_METHOD_OF[step["action"]]
    return METHOD_OF[step["op"]]


def is_final(event: Any) -> bool:
    """Whether the application stops reading a stream after ``event``: an error, a message, or a
    task that is done or waiting."""
    result = event.get("result") if isinstance(event, dict) else None
    task = _task_of(result)
    state = (task[2] or {}).get("state") if task and isinstance(task[2], dict) else None
    return not isinstance(result, dict) or "error" in event or "message" in result or state in STOPS_AT


class RawPlayer:
    """Plays a raw session's ``posts``: exact bodies (and headers) posted to ``rpc_url``."""

    def __init__(self, posts: list[dict[str, Any]], rpc_url: str) -> None:
        self.posts, self.rpc_url, self.done = posts, rpc_url, 0

    def next_request(self) -> Call | None:
        if self.done >= len(self.posts):
            return None
        post = self.posts[self.done]
        headers = [(k, v) for k, v in post["headers"]] if "headers" in post else list(RAW_HEADERS)
        return Call("POST", self.rpc_url, headers, raw=post["body"])

    def answer(self, answer: Answer) -> None:
        self.done += 1

    def event(self, event: Any) -> bool:
        final = is_final(event)
        if final:
            self.done += 1
        return final

    def stream_closed(self) -> None:
        self.done += 1


def player_for(spec: dict[str, Any], base_url: str, rpc_path: str) -> StepPlayer | RawPlayer:
    """The application of a session: its steps, or (``"mode": "raw"``) its exact posts."""
    if spec.get("mode") == "raw":
        return RawPlayer(spec["posts"], base_url.rstrip("/") + rpc_path)
    return StepPlayer(spec["steps"], base_url, rpc_path)
