"""An A2A world file as the agent a user of the official A2A SDK would write for it.

`card(world)` is the world's ``AgentCard``; `WorldAgent(world)` an ``AgentExecutor`` that
follows the world's rules with the SDK's own helpers (``new_text_message``,
``new_task_from_user_message``, ``TaskUpdater``): the first rule whose condition holds runs its
steps. It shares no code with ``agent_loop_sim`` (which reads the same file and models what this
agent does), so a mistake in either shows as a difference between a recording and the engine.
"""
from __future__ import annotations

import base64
import json
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from a2a.helpers.proto_helpers import (new_data_part, new_raw_part, new_task_from_user_message, new_text_message,
                                       new_text_part, new_url_part)
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentInterface, AgentProvider, AgentSkill, TaskState

#: a world's state names -> the TaskUpdater method that moves a task there
_MOVES = {"working": "start_work", "input_required": "requires_input", "auth_required": "requires_auth",
          "completed": "complete", "failed": "failed", "rejected": "reject", "canceled": "cancel"}
_WAITING = {"input_required": TaskState.TASK_STATE_INPUT_REQUIRED, "auth_required": TaskState.TASK_STATE_AUTH_REQUIRED}


def load(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def address(world: dict[str, Any]) -> tuple[str, str]:
    """(base URL, JSON-RPC path) of the card's url."""
    url = urlsplit(world["card"]["url"])
    return f"{url.scheme}://{url.netloc}", url.path or "/"


def card(world: dict[str, Any]) -> AgentCard:
    c = world["card"]
    optional = {key: c[key] for key in ("documentation_url", "icon_url") if key in c}
    if "provider" in c:
        optional["provider"] = AgentProvider(organization=c["provider"]["organization"], url=c["provider"]["url"])
    return AgentCard(
        name=c["name"], description=c["description"], version=c["version"],
        supported_interfaces=[AgentInterface(url=c["url"], protocol_binding="JSONRPC", protocol_version="1.0")],
        # (a capability is set only when the world gives it: protobuf writes a set false too)
        capabilities=AgentCapabilities(**{k: c[k] for k in ("streaming", "push_notifications") if k in c}),
        default_input_modes=c.get("default_input_modes", []), default_output_modes=c.get("default_output_modes", []),
        skills=[AgentSkill(id=s["id"], name=s["name"], description=s["description"], tags=s.get("tags", []),
                           examples=s.get("examples", []), input_modes=s.get("input_modes", []),
                           output_modes=s.get("output_modes", [])) for s in c.get("skills", [])],
        **optional,
    )


def _part(chunk: Any, fill: Any) -> Any:
    """A chunk as the SDK's helpers make its part: a text template, or text, data, a URL or raw bytes."""
    if isinstance(chunk, str):
        return new_text_part(fill(chunk))
    media, name = chunk.get("mediaType"), chunk.get("filename")
    if "data" in chunk:
        return new_data_part(chunk["data"], media)
    if "url" in chunk:
        return new_url_part(chunk["url"], media, name)
    if "raw" in chunk:
        return new_raw_part(base64.b64decode(chunk["raw"]), media, name)
    return new_text_part(chunk["text"], media)


class WorldAgent(AgentExecutor):
    """The world's rules, run with the SDK's helpers."""

    def __init__(self, world: dict[str, Any]) -> None:
        self.world = world

    def _holds(self, when: Any, text: str, context: RequestContext) -> bool:
        if when == "otherwise":
            return True
        (key, value), = when.items()
        if key == "starts_with":
            return text.startswith(value)
        if key == "is":
            return text == value
        return context.current_task is not None and context.current_task.status.state == _WAITING[value]

    async def execute(self, context: RequestContext, event_queue) -> None:  # noqa: ANN001
        text = context.get_user_input()
        prefix = self.world.get("subject_prefix", "")
        subject = text.removeprefix(prefix) if prefix else text

        def fill(template: str) -> str:
            return template.format(text=text, subject=subject)

        rules = self.world.get("follow_up", []) if context.current_task is not None else self.world["first_message"]
        rule = next((r for r in rules if self._holds(r["when"], text, context)), None)
        if rule is None:
            return
        task = context.current_task
        updater = TaskUpdater(event_queue, task.id, task.context_id) if task is not None else None
        for step in rule["do"]:
            if "reply" in step:
                await event_queue.enqueue_event(new_text_message(fill(step["reply"]), context_id=context.context_id))
            elif "create_task" in step:
                task = new_task_from_user_message(context.message)
                await event_queue.enqueue_event(task)
                updater = TaskUpdater(event_queue, task.id, task.context_id)
            elif "status" in step:
                message = updater.new_agent_message([new_text_part(fill(step["text"]))]) if "text" in step else None
                await getattr(updater, _MOVES[step["status"]])(message)
            else:
                artifact_id = str(uuid.uuid4())
                chunks = step["chunks"]
                for i, chunk in enumerate(chunks):
                    await updater.add_artifact([_part(chunk, fill)], artifact_id=artifact_id,
                                               name=step["artifact"], append=True if i > 0 else None,
                                               last_chunk=True if i == len(chunks) - 1 and len(chunks) > 1 else None)

    async def cancel(self, context: RequestContext, event_queue) -> None:  # noqa: ANN001
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()
