"""The SDK's ``TaskManager``: one request's view of a task in the in-memory store.

It keeps the task as the agent's events change it, and saves it to the store on every event,
as the SDK's copying in-memory store does.
"""
from __future__ import annotations

from typing import Any

from ...jsonio import copy_json
from . import states
from .errors import A2AError
from .script import Event


class TaskManager:
    """The SDK's ``TaskManager`` over the copying in-memory store: the cached task is the last
    version of the task, saved to the store on every event, the store keeping what the SDK's
    copy keeps.

    No version of a task is changed once made: an event makes the next version, a new object
    that shares with the one before whatever the event does not change (the status, history,
    artifacts and metadata are replaced, never changed in place). So the store and the cache
    hold the same object, a snapshot of the task is that object, and nothing is copied to keep
    a saved version as it was (the SDK's store copies on every save); every answer is written
    from fresh objects (`types.written`)."""

    def __init__(self, store: dict[str, dict], task_id: str, context_id: str, initial_message: dict | None) -> None:
        self.store, self.task_id, self.context_id = store, task_id, context_id
        self.initial_message = initial_message
        self.current: dict[str, Any] | None = None

    def get_task(self) -> dict[str, Any] | None:
        """The cached task (a version nobody changes)."""
        if not self.task_id:
            return None
        if self.current is None:
            self.current = self.store.get(self.task_id)
        return self.current

    def invalidate(self) -> None:
        self.current = None

    def _save(self, task: dict[str, Any]) -> None:
        self.store[task["id"]] = self.current = task
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
        task = dict(self.ensure_task(event_task_id, event_context))  # the next version
        if event.kind == "statusUpdate":
            # (the status message and the event's status are taken as they are: no version changes them)
            status = task["status"]
            if "message" in status:
                task["history"] = [*task.get("history", ()), status["message"]]
            if event.body.get("metadata"):
                task["metadata"] = {**task.get("metadata", {}), **copy_json(event.body["metadata"])}
            task["status"] = event.body["status"]
        else:
            task["artifacts"] = _with_artifact(task, event.body)
        self._save(task)
        return task

    def ensure_task(self, task_id: str, context_id: str) -> dict[str, Any]:
        task = self.current
        if task is None and self.task_id:
            task = self.store.get(self.task_id)  # (a saved version: nobody changes it)
        if task is None:
            task = {"id": task_id, "status": {"state": states.SUBMITTED}}
            if context_id:
                task["contextId"] = context_id
            if self.initial_message is not None:
                task["history"] = [self.initial_message]  # (the request's own, and no version changes it)
            self._save(task)
        return task

    def update_with_message(self, message: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
        """The next version of ``task``: the status message and then ``message`` moved to its history
        (cached, not saved)."""
        task = dict(task)
        history = list(task.get("history", ()))
        if "message" in task["status"]:
            status = task["status"] = dict(task["status"])
            history.append(status.pop("message"))
        history.append(message)
        task["history"] = history
        self.current = task
        return task


def _with_artifact(task: dict[str, Any], update: dict[str, Any]) -> list[dict[str, Any]]:
    """The task's artifacts after an artifact update: a new list, with a new artifact where one
    changes (the update's artifact itself where it is new or replaces one: no version changes it)."""
    artifact = update["artifact"]
    artifacts = list(task.get("artifacts", ()))
    index = next((i for i, a in enumerate(artifacts) if a["artifactId"] == artifact["artifactId"]), None)
    if not update.get("append"):
        if index is None:
            artifacts.append(artifact)
        else:
            artifacts[index] = artifact
    elif index is not None:
        grown = artifacts[index] = dict(artifacts[index])
        grown["parts"] = [*grown.get("parts", ()), *artifact.get("parts", ())]
        if artifact.get("metadata"):
            grown["metadata"] = {**grown.get("metadata", {}), **copy_json(artifact["metadata"])}
    else:
        raise A2AError("InvalidAgentResponseError",
                       f"append=True for nonexistent artifact_id={artifact['artifactId']!r} in task {task['id']!r}. "
                       "The artifact must be created (append=False) before appending parts to it.")
    return artifacts
