"""The orchestrating agent: plays a scenario's steps as HTTP requests to one A2A agent.

Sans-IO: `Orchestrator.next_request` hands out the next `HttpRequest`,
built from the step and from what the agent said before (the current task and its context,
the card's ETag); the caller carries it and gives the answer back with `receive`, or,
for a stream, each event with `receive_event` and then `end_of_stream` if the agent
closed it first. The engine plays it against the agent model, the live recorder against the
SDK.

The orchestrator reads a stream until it has what it waits for, and then closes it: an error,
a message, or a task whose state is terminal or interrupted (input or sign-in required).
A subscription to a parked task therefore ends after its first event, where the SDK would keep
the stream open until something else happens to the task.
"""
from __future__ import annotations

from typing import Any

from ...errors import InputError
from ...jsonio import copy_json, json_path
from . import states
from .card import WELL_KNOWN_PATH
from .http import HttpRequest, HttpResponse, header
from .ids import IdSource
from .version import SERVED

#: The headers of a raw step that names none (as a raw session's posts, `raw`).
DEFAULT_HEADERS = (("Content-Type", "application/json"), ("A2A-Version", SERVED))

STEP_METHODS = {"get": "GetTask", "cancel": "CancelTask", "subscribe": "SubscribeToTask",
                "extended_card": "GetExtendedAgentCard", "list": "ListTasks"}
PUSH_METHODS = {"create": "CreateTaskPushNotificationConfig", "get": "GetTaskPushNotificationConfig",
                "list": "ListTaskPushNotificationConfigs", "delete": "DeleteTaskPushNotificationConfig"}


def _task_in(result: Any) -> dict[str, Any] | None:
    """The task (``id``, ``contextId``, ``status``) an answer or event speaks of, if any."""
    if not isinstance(result, dict):
        return None
    if isinstance(result.get("task"), dict):
        return result["task"]
    for key in ("statusUpdate", "artifactUpdate"):
        update = result.get(key)
        if isinstance(update, dict):
            return {"id": update.get("taskId"), "contextId": update.get("contextId"), "status": update.get("status")}
    if "id" in result and "status" in result:
        return result  # GetTask, CancelTask
    return None


def is_final_event(event: Any) -> bool:
    """Whether the orchestrator stops reading a stream after ``event``."""
    return _ends_stream(event, _task_in(event.get("result") if isinstance(event, dict) else None))


def _ends_stream(event: Any, task: dict[str, Any] | None) -> bool:
    """`is_final_event`, told the task the event speaks of (`_task_in`: the orchestrator has it already)."""
    if not isinstance(event, dict) or "error" in event:
        return True
    result = event.get("result")
    if not isinstance(result, dict) or "message" in result:
        return True
    state = (task or {}).get("status") or {}
    return state.get("state") in states.STOPPED


class Orchestrator:
    """Plays ``steps`` (validated by `scenario`) against the agent at ``agent_url``.

    ``where`` is the JSON path of the session in its scenario file, for error messages.
    """

    def __init__(self, steps: list[dict[str, Any]], agent_url: str, rpc_path: str = "/a2a",
                 ids: IdSource | None = None, where: list[str | int] | None = None) -> None:
        self.steps = steps
        self.agent_url = agent_url.rstrip("/")
        self.rpc_url = self.agent_url + rpc_path
        self.ids = ids or IdSource("orchestrator")
        self.where = where or []
        self.index = 0
        self.next_rpc_id = 1
        self.current_task: tuple[str, str | None] | None = None
        self.last_context: str | None = None
        self.etag: str | None = None
        self.task_labels: dict[str, tuple[str, str | None]] = {}
        self.message_ids: dict[str, str] = {}
        self.page_token: str | None = None  # the last ListTasks answer's nextPageToken
        self._step: dict[str, Any] | None = None
        self._spoke_of_task = False

    # -- requests ---------------------------------------------------------------------------

    def next_request(self) -> HttpRequest | None:
        """The request of the next step, or ``None`` when the session is over."""
        if self._step is not None:
            raise RuntimeError("the answer to the previous request has not been given back")
        if self.index >= len(self.steps):
            return None
        step = self._step = self.steps[self.index]
        self._spoke_of_task = False
        if step["op"] == "card":
            return self._card_request(step)
        if step["op"] == "raw":  # exactly as written (`raw.RawPoster`'s default headers)
            headers = [tuple(h) for h in step["headers"]] if "headers" in step else list(DEFAULT_HEADERS)
            return HttpRequest("POST", self.rpc_url, headers, raw=step["body"])  # type: ignore[arg-type]
        method = step.get("method") or _method(step)
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": step.get("jsonrpc_id", self.next_rpc_id), "method": method}
        self.next_rpc_id += 1
        params = self._params(step)
        if params is not None:
            body["params"] = params
        headers = [("Content-Type", "application/json")]
        version = step.get("version", SERVED)
        if version is not None:
            headers.append(("A2A-Version", version))
        return HttpRequest("POST", self.rpc_url, headers, body)

    def _card_request(self, step: dict[str, Any]) -> HttpRequest:
        headers = []
        if step.get("revalidate"):
            if self.etag is None:
                raise self._error("the last card answer had no ETag to revalidate", "revalidate")
            headers.append(("If-None-Match", self.etag))
        elif "if_none_match" in step:
            headers.append(("If-None-Match", step["if_none_match"]))
        return HttpRequest("GET", self.agent_url + WELL_KNOWN_PATH, headers)

    def _params(self, step: dict[str, Any]) -> dict[str, Any] | None:
        op = step["op"]
        if op == "send":
            return self._send_params(step)
        if op in ("get", "cancel", "subscribe"):
            params: dict[str, Any] = {"id": self._task_id(step)}
            if "history_length" in step:
                params["historyLength"] = step["history_length"]
            return params
        if op == "list":
            params = {}
            if "context" in step and step["context"] != "none":
                params["contextId"] = self._context(step["context"])
            for key, name in (("status", "status"), ("history_length", "historyLength"),
                              ("include_artifacts", "includeArtifacts"), ("page_size", "pageSize"),
                              ("page_token", "pageToken"), ("status_timestamp_after", "statusTimestampAfter")):
                if key in step:
                    params[name] = step[key]
            if step.get("next_page"):
                if self.page_token is None:
                    raise self._error("no page token: no ListTasks answer gave one yet", "next_page")
                params["pageToken"] = self.page_token
            return params
        if op == "push_config":
            params = {"taskId": self._task_id(step)}
            for key, name in (("id", "id"), ("url", "url"), ("token", "token"), ("page_size", "pageSize"),
                              ("page_token", "pageToken")):
                if key in step:
                    params[name] = step[key]
            return params
        return None  # extended_card: no params at all

    def _task_id(self, step: dict[str, Any]) -> str:
        return step["task_id"] if "task_id" in step else self._task(step.get("task", "current"))[0]

    def _send_params(self, step: dict[str, Any]) -> dict[str, Any]:
        label = step.get("message")
        if "message_id" in step:
            message_id = step["message_id"]  # chosen by the application (None: the message has none)
        elif label is not None and label in self.message_ids:
            message_id = self.message_ids[label]
        else:
            message_id = self.ids.new()
            if label is not None:
                self.message_ids[label] = message_id
        parts = [{"text": step["text"]}] if "text" in step else copy_json(step["parts"])
        message: dict[str, Any] = {"messageId": message_id, "role": step.get("role", "ROLE_USER"), "parts": parts}
        if message_id is None:
            del message["messageId"]
        for key, name in (("metadata", "metadata"), ("extensions", "extensions")):
            if key in step:
                message[name] = copy_json(step[key])
        if "reference_tasks" in step:
            message["referenceTaskIds"] = [self._task(ref)[0] for ref in step["reference_tasks"]]
        task_ref = step.get("task", "new")
        task_id, task_context = (None, None) if task_ref == "new" else self._task(task_ref)
        if "task_id" in step:
            task_id = step["task_id"]
        if "context_id" in step:
            context = step["context_id"]
        elif "context" in step:
            context = None if step["context"] == "none" else self._context(step["context"])
        else:
            context = task_context
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
        if "history_length" in step:
            configuration["historyLength"] = step["history_length"]
        if "return_immediately" in step:
            configuration["returnImmediately"] = step["return_immediately"]
        if "blocking" in step:
            configuration["blocking"] = step["blocking"]
        if configuration:
            params["configuration"] = configuration
        if "request_metadata" in step:
            params["metadata"] = copy_json(step["request_metadata"])
        return params

    def _task(self, ref: str) -> tuple[str, str | None]:
        if ref == "unknown":
            return self.ids.new(), None
        if ref == "current":
            if self.current_task is None:
                raise self._error("no current task: the agent has not spoken of a task yet", "task")
            return self.current_task
        if ref not in self.task_labels:
            raise self._error(f"the label {ref!r} is not bound to a task (its send made none)", "task")
        return self.task_labels[ref]

    def _context(self, ref: str) -> str:
        if ref == "unknown":
            return self.ids.new()
        if self.last_context is None:
            raise self._error("no context yet: the agent has not sent a context ID", "context")
        return self.last_context

    def _error(self, problem: str, key: str) -> InputError:
        return InputError(problem, path=json_path(self.where + ["steps", self.index, key]))

    # -- answers ----------------------------------------------------------------------------

    def receive(self, response: HttpResponse) -> None:
        """The whole answer to the last request (not a stream)."""
        if self._step is not None and self._step["op"] == "card":
            self.etag = header(response.headers, "ETag")
        else:
            result = response.body.get("result") if isinstance(response.body, dict) else None
            self._note(result)
            if self._step is not None and self._step["op"] == "list" and isinstance(result, dict) \
                    and isinstance(result.get("nextPageToken"), str):
                self.page_token = result["nextPageToken"]
        self._finish()

    def receive_event(self, event: Any) -> bool:
        """One event of a streamed answer; ``True`` when the orchestrator has read enough and closes it."""
        task = self._note(event.get("result") if isinstance(event, dict) else None)
        if _ends_stream(event, task):
            self._finish()
            return True
        return False

    def end_of_stream(self) -> None:
        """The agent closed the stream."""
        if self._step is not None:
            self._finish()

    def _note(self, result: Any) -> dict[str, Any] | None:
        """Note the task and context ``result`` speaks of; the task (`_task_in`)."""
        task = _task_in(result)
        if task is not None and isinstance(task.get("id"), str):
            context = task.get("contextId") if isinstance(task.get("contextId"), str) else None
            self.current_task = (task["id"], context)
            self._spoke_of_task = True
        if isinstance(result, dict):
            context = (task or result.get("message") or {}).get("contextId")
            if isinstance(context, str) and context:
                self.last_context = context
        return task

    def _finish(self) -> None:
        step, self._step = self._step, None
        if step is not None and "as" in step and self._spoke_of_task and self.current_task is not None:
            self.task_labels[step["as"]] = self.current_task
        self.index += 1


def _method(step: dict[str, Any]) -> str:
    op = step["op"]
    if op == "send":
        return "SendStreamingMessage" if step.get("stream") else "SendMessage"
    if op == "push_config":
        return PUSH_METHODS[step["action"]]
    return STEP_METHODS[op]
