"""The SDK's ``TaskManager``: one request's view of a task in the in-memory store.

It keeps one cached task object that is changed in place as the agent's events arrive, and
writes a copy of it to the store on every save, as the SDK's copying in-memory store does.
"""
from __future__ import annotations

from typing import Any

from ...jsonio import copy_json
from . import states
from .errors import A2AError
from .script import Event


class TaskManager:
    """The SDK's ``TaskManager`` over the copying in-memory store: one cached task object that
    is changed in place and saved to the store on every save, the store keeping what the SDK's
    copy keeps.

    The copy is made when the cached task is next changed, not at the save: until then the store
    and the cache hold the same object, which nobody changes (`_own`). What the store holds is
    what the SDK's copy holds, and a task saved last in a request, as most are, is never copied.
    Nor is all of it copied: only what the manager changes in place (`_spine`); the rest is shared
    between the stored versions of a task, none of which is changed, and every answer is written
    from fresh objects (`types.written`)."""

    def __init__(self, store: dict[str, dict], task_id: str, context_id: str, initial_message: dict | None) -> None:
        self.store, self.task_id, self.context_id = store, task_id, context_id
        self.initial_message = initial_message
        self.current: dict[str, Any] | None = None
        # The stored object the cached task equals, while nothing has changed it since it was saved
        # or read (stored tasks are replaced, never changed): a snapshot of the task can be it.
        self._as_stored: dict[str, Any] | None = None
        # Whether the cached task is the stored object itself (saved or read, unchanged since).
        self._shared = False

    def get_task(self) -> dict[str, Any] | None:
        """The cached task, to read (`_own` gives it to change)."""
        if not self.task_id:
            return None
        if self.current is None:
            self.current = self._as_stored = self.store.get(self.task_id)
            self._shared = self.current is not None
        return self.current

    def snapshot(self) -> dict[str, Any]:
        """The cached task as it is now, as an object nobody changes: the stored copy when the cached
        task has not changed since (each handed out once), else a copy."""
        stored, self._as_stored = self._as_stored, None
        assert self.current is not None
        return stored if stored is not None else copy_json(self.current)

    def invalidate(self) -> None:
        self.current = self._as_stored = None
        self._shared = False

    def _own(self, task: dict[str, Any]) -> dict[str, Any]:
        """``task`` to change in place: the cached task is copied first while the store holds it too."""
        if self._shared and task is self.current:
            task = self.current = _spine(task)
            self._shared = False
        return task

    def _save(self, task: dict[str, Any]) -> None:
        # The store takes the task itself, and the cache keeps it: `_own` copies it before it changes.
        self.store[task["id"]] = self._as_stored = self.current = task
        self._shared = True
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
        task = self._own(self.ensure_task(event_task_id, event_context))
        if event.kind == "statusUpdate":
            # (the status message and the event's status are taken as they are: nothing changes them,
            # see `_spine`, and the event is written anew when it is sent, `types.written`)
            if "message" in task["status"]:
                task.setdefault("history", []).append(task["status"]["message"])
            if event.body.get("metadata"):
                task.setdefault("metadata", {}).update(copy_json(event.body["metadata"]))
            task["status"] = event.body["status"]
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
        task = self._own(task)
        self._as_stored = None
        self._shared = False  # (the task is the cache's own now, whether it was before or not)
        if "message" in task["status"]:
            task.setdefault("history", []).append(task["status"].pop("message"))
        task.setdefault("history", []).append(copy_json(message))
        self.current = task
        return task


def _spine(task: dict[str, Any]) -> dict[str, Any]:
    """``task`` copied as far as the manager changes a task in place: the task itself, its status,
    history, metadata and artifacts, and each artifact with its parts and metadata (see
    `TaskManager.save_task_event`, `update_with_message`, `_append_artifact`). The rest (the
    history's messages, the status message, the parts, the metadata's values) is shared with
    ``task``: the manager replaces or moves it whole, never changes it."""
    out = dict(task)
    for key in ("status", "metadata"):
        if type(out.get(key)) is dict:
            out[key] = dict(out[key])
    if type(out.get("history")) is list:
        out["history"] = list(out["history"])
    if type(out.get("artifacts")) is list:
        out["artifacts"] = [_artifact_spine(a) if type(a) is dict else a for a in out["artifacts"]]
    return out


def _artifact_spine(artifact: dict[str, Any]) -> dict[str, Any]:
    out = dict(artifact)
    if type(out.get("parts")) is list:
        out["parts"] = list(out["parts"])
    if type(out.get("metadata")) is dict:
        out["metadata"] = dict(out["metadata"])
    return out


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
