"""One request's run of the agent, as the SDK's active task plays it: the producer (the
agent's script) and the consumer (which keeps the stored task up to date), in sequence.

The agent's events go through one consumer: the user's message joins the history on the first
update of a continued task, a status message moves to the history when the status is replaced,
artifact chunks are appended. The request subscribes to what the consumer passes on.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, NamedTuple

from ...jsonio import copy_json
from . import states
from .errors import A2AError, JsonRpcError
from .releases import FAILED_STATUS_STAMPED
from .script import AgentCrash, Event, Turn
from .task_manager import TaskManager

if TYPE_CHECKING:
    from .request_handler import RequestHandler

_TYPE_NAMES = {"task": "Task", "message": "Message", "statusUpdate": "TaskStatusUpdateEvent",
               "artifactUpdate": "TaskArtifactUpdateEvent"}


class NotModelled(Exception):
    """The request leads somewhere the engine does not model (named in the message)."""


def refusal(request: str, task: dict[str, Any]) -> A2AError:
    """The error for a request the task's state does not take (`states.REFUSALS`)."""
    kind, template = states.REFUSALS[request]
    message = template.format(task_id=task["id"], state=task["status"]["state"]) if template else None
    return A2AError(kind, message)


class Delivery(NamedTuple):
    """What the consumer passes on to subscribers: an event with the task snapshot after it,
    an error, or the end of the request. (A named tuple: one is made for every event, with its
    fields given by position: a class called with keywords gets them in a dict made for the call.)"""

    event: Event | None = None
    task: dict[str, Any] | None = None
    error: Exception | None = None
    request_done: bool = False


class ActiveTask:
    """One request's run: the producer (the script) and the consumer, played in sequence."""

    def __init__(self, handler: "RequestHandler", task_id: str, context_id: str, initial_message: dict | None) -> None:
        self.handler = handler
        self.task_id = task_id
        self.manager = TaskManager(handler.tasks, task_id, context_id, initial_message)
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
                raise refusal(states.FOLLOW_UP, task) from None
        elif not create_if_missing:
            raise A2AError("TaskNotFoundError")

    def run(self, message: dict[str, Any], context_id: str) -> list[Delivery]:
        """Play the agent on ``message`` and return what the consumer passes on, in order."""
        self.manager.invalidate()
        # (the script reads the task, not a copy: it only reads it, and makes all its events before
        # the first of them changes the task)
        # (fields by position, as for `Delivery`)
        turn = Turn(message, self.task_id, context_id, self.manager.get_task())
        try:
            events = self.handler.script.execute(turn, self.handler.ids, self.handler.clock)
        except AgentCrash as exc:
            self._store_failed(message, context_id)
            # The SDK re-raises what the executor raised: the dispatcher answers it as an internal
            # error carrying the exception's text, never as a stream.
            raise JsonRpcError(-32603, str(exc)) from None
        out: list[Delivery] = []
        self.message_to_save = message  # the "request started" marker
        for event in events + [None]:
            if event is None:
                out.append(Delivery(request_done=True))
                break
            try:
                out.append(self._consume(event))
                if event.kind != "message":
                    self.handler.publish(self.task_id, event)  # (to live subscriptions, `RequestHandler`)
            except A2AError as error:
                out.append(self._fail(error))
                break
        return out

    def _store_failed(self, message: dict[str, Any], context_id: str) -> None:
        """The task of a run whose agent raised, stored as failed: a new one made from the user's
        message, or the stored one of a follow-up. Up to 1.2 the SDK writes FAILED over the state
        alone (a follow-up's status keeps its message and timestamp, its history stays). From 1.3.0
        (`releases.FAILED_STATUS_STAMPED`) the failure goes through the event consumer, as any
        status update: the user's message is saved to the task first (after the status message it
        replaces), then the status is FAILED with a timestamp."""
        stored = self.manager.get_task()
        task = ({"id": self.task_id, "contextId": context_id, "status": {"state": states.SUBMITTED},
                 "history": [copy_json(message)]} if stored is None else dict(stored))
        if FAILED_STATUS_STAMPED in self.handler.rules:
            if stored is not None:
                task = self.manager.update_with_message(copy_json(message), task)
            task["status"] = {"state": states.FAILED, "timestamp": self.handler.clock.now()}
        else:
            task["status"] = {**task["status"], "state": states.FAILED}
        self.handler.tasks[self.task_id] = task

    def _consume(self, event: Event) -> Delivery:
        if event.kind == "message":
            if self.task_mode is True:
                raise A2AError("InvalidAgentResponseError", "Received Message object in task mode. "
                               "Use TaskStatusUpdateEvent or TaskArtifactUpdateEvent instead.")
            if self.task_mode is False:
                raise A2AError("InvalidAgentResponseError", "Multiple Message objects received.")
            self.task_mode = False
            return Delivery(event)
        # (the task after the event is a version nobody changes, `TaskManager`: it is the snapshot)
        snapshot = self._handle_task_event(event)
        shown = Event("task", snapshot) if event.body is snapshot else event
        return Delivery(shown, snapshot)

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

    def _fail(self, error: A2AError) -> Delivery:
        """The consumer's failure path: write ``TASK_STATE_FAILED``, pass the error on.

        The status is stamped from a2a-sdk 1.3.0 on (`releases.FAILED_STATUS_STAMPED`)."""
        task = self.manager.get_task()
        updated = None
        if task is not None and task["status"]["state"] not in states.TERMINAL:
            status: dict[str, Any] = {"state": states.FAILED}
            if FAILED_STATUS_STAMPED in self.handler.rules:
                status["timestamp"] = self.handler.clock.now()
            failed = Event("statusUpdate", {"taskId": task["id"], "contextId": task.get("contextId", ""),
                                            "status": status})
            try:
                updated = self._handle_task_event(failed)  # (a version nobody changes, `TaskManager`)
            except A2AError:
                pass  # the consumer dies of it; subscribers still hear the first error
        return Delivery(error=error, task=updated)

    def subscription(self, deliveries: list[Delivery], replace_status_with_task: bool) -> Iterator[Event]:
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
